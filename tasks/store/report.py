"""The report a stage builds: problems, artifacts and typed figures noted through one object, and
the status rule applied once, by `finish()`.

A stage notes what it found and wrote on its `StageReport` (`note_problem`, `note_artifact`,
`note_figures`, `note_failure`); it never sets a status. `finish()` applies the one rule:

- failed: a hard failure was noted, or a child report failed;
- partial: a problem or a shortfall was noted, or a child report is partial;
- success: otherwise.

A composed operation (bootstrap inside ingest, the stages of `run`) is a child report: its own
mode and problems, the parent's project and clock, its status counted in the parent's. Figures
are a small pydantic model per stage (`StageFigures`): counts and timings stay numbers; a short
word or line the reader sees is a declared `str` field, never guessed from the value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Self

from pydantic import BaseModel, ConfigDict

from schemas.report import (
    ArtifactAction,
    ArtifactRecord,
    MemoryOperationReport,
    OperationMode,
    OperationStatus,
    Problem,
)

FigureValue = float | int | str


class StageFigures(BaseModel):
    """A stage's figures, typed; `dump()` gives what goes into the report's `figures` (fields
    left at None are not shown)."""

    model_config = ConfigDict(extra="forbid")

    def dump(self) -> dict[str, FigureValue]:
        return self.model_dump(exclude_none=True)

    @classmethod
    def read(cls, report: MemoryOperationReport) -> Self:
        """This stage's figures back from a finished report (one that crossed a task)."""
        return cls.model_validate({k: v for k, v in report.figures.items() if k in cls.model_fields})


class CountFigures(StageFigures):
    """Figures that are all counts (int fields): two runs' add up field by field."""

    def plus(self, other: Self) -> Self:
        mine, theirs = self.model_dump(), other.model_dump()
        return self.model_validate({
            name: theirs[name] if mine[name] is None else (
                mine[name] if theirs[name] is None else mine[name] + theirs[name])
            for name in type(self).model_fields})


class HealthFigures(StageFigures):
    """A checking stage's health: its status word, the one line a person reads (where the
    summary files are) and how many old history files were pruned."""

    health: str | None = None
    health_summary: str | None = None
    health_history_pruned: int | None = None


class RecoveryFigures(CountFigures):
    """What an earlier crash left, rolled back before this operation began."""

    recovered_rolled_back_files: int | None = None
    recovered_temp_files_removed: int | None = None


class StageReport:
    """One operation's report while it runs; `finish()` returns the Memory Operation report."""

    def __init__(self, report: MemoryOperationReport) -> None:
        self.report = report
        self.children: list[StageReport] = []
        self._hard_failure = False
        self._shortfall = False
        self._floor: OperationStatus = "success"  # a resumed report's status so far

    @classmethod
    def resume(cls, report: MemoryOperationReport) -> StageReport:
        """Go on noting on a finished report (one a task returned): its status is kept as the
        least this one can finish with."""
        stage = cls(report)
        stage._floor = report.status
        return stage

    @property
    def mode(self) -> OperationMode:
        return self.report.mode

    @property
    def problems(self) -> Sequence[Problem]:
        return tuple(self.report.problems)

    @property
    def failed(self) -> bool:
        return self._hard_failure or any(child.status() == "failed" for child in self.children)

    def note_problem(self, problem: Problem) -> None:
        self.report.problems.append(problem)

    def note_problems(self, problems: Iterable[Problem]) -> None:
        self.report.problems.extend(problems)

    def note_failure(self, *problems: Problem) -> None:
        """A hard failure: the operation did not do its job (the status is failed)."""
        self._hard_failure = True
        self.note_problems(problems)

    def note_artifact(self, path: str, why: str, action: ArtifactAction = "updated") -> None:
        self.report.artifacts.append(ArtifactRecord(path=path, why=why, action=action))

    def note_artifacts(self, records: Iterable[ArtifactRecord]) -> None:
        self.report.artifacts.extend(records)

    def note_warnings(self, lines: Iterable[str]) -> None:
        """Consistency warnings for the reader (memory health); they leave the status alone."""
        self.report.memory_health.consistency_warnings.extend(lines)

    def note_shortfall(self, warning: str | None = None) -> None:
        """The operation did its job only in part, with no input to blame (a packet built
        without its index): the status is partial; `warning` says why to the reader."""
        self._shortfall = True
        self.note_warnings([warning] if warning else [])

    def note_figures(self, figures: StageFigures) -> None:
        """Figures shown in the report, in the order noted (a later model's field wins)."""
        self.report.figures.update(figures.dump())

    def child(self, mode: OperationMode) -> StageReport:
        """A report for an operation composed into this one: same project and clock, its own
        mode, problems and artifacts; its status counts in this report's."""
        head = self.report
        child = StageReport(MemoryOperationReport(
            mode=mode, project=head.project,
            memory_write_timestamp_utc=head.memory_write_timestamp_utc,
            utc_datetime_prefix=head.utc_datetime_prefix))
        self.children.append(child)
        return child

    def adopt(self, report: MemoryOperationReport) -> None:
        """A finished child (a stage of `run`, perhaps run as its own flow): listed in
        `stages`, its status counted in this report's."""
        self.report.stages.append(report)
        self.children.append(StageReport.resume(report))

    def status(self) -> OperationStatus:
        """The one rule (see the module docstring)."""
        if self.failed or self._floor == "failed":
            return "failed"
        if (self.report.problems or self._shortfall or self._floor == "partial"
                or any(child.status() != "success" for child in self.children)):
            return "partial"
        return "success"

    def finish(self) -> MemoryOperationReport:
        """Apply the status rule (again, after later notes) and return the report."""
        self.report.status = self.status()
        return self.report

