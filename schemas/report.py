"""The Memory Operation report of spec/memory-bank.md ("Output Contract"): every flow returns one."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from schemas.common import UtcPrefix, UtcTimestamp

OperationMode = Literal[
    "bootstrap", "retrieve", "update", "reconcile", "ingest", "distill", "propose", "audit", "run",
    "forget",
]
OperationStatus = Literal["success", "partial", "failed"]
ArtifactAction = Literal[
    "created", "updated", "unchanged", "dedupe_hit", "superseded", "rejected", "applied", "read",
    "deleted", "planned",
]


class ArtifactRecord(BaseModel):
    path: str
    why: str
    action: ArtifactAction = "updated"


class Problem(BaseModel):
    """One input or record that could not be handled: the file, a stable code, and a hint."""

    file: str | None = None
    code: str
    message: str
    hint: str | None = None

    def one_line(self) -> str:
        where = f"{self.file}: " if self.file else ""
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{where}{self.message}{hint}"


class GraphDelta(BaseModel):
    entities_added_count: int = 0
    relations_added_count: int = 0
    observations_added_count: int = 0
    superseded_records_count: int = 0

    def plus(self, other: GraphDelta) -> GraphDelta:
        return GraphDelta(
            **{name: getattr(self, name) + getattr(other, name) for name in type(self).model_fields}
        )


class MemoryHealth(BaseModel):
    index_synced: bool = True
    consistency_warnings: list[str] = Field(default_factory=list)


# The Output Contract's modes (memory-bank.md): bootstrap, retrieve, update, reconcile. The
# operations that write memory are its `update`; a read-only audit is a reconcile check.
CONTRACT_MODES = {"ingest": "update", "distill": "update", "propose": "update", "run": "update",
                  "forget": "update", "audit": "reconcile"}


class MemoryOperationReport(BaseModel):
    mode: OperationMode
    project: str = "default"
    status: OperationStatus = "success"
    memory_write_timestamp_utc: UtcTimestamp
    utc_datetime_prefix: UtcPrefix
    artifacts: list[ArtifactRecord] = Field(default_factory=list)
    graph_delta: GraphDelta = Field(default_factory=GraphDelta)
    memory_health: MemoryHealth = Field(default_factory=MemoryHealth)
    problems: list[Problem] = Field(default_factory=list)
    figures: dict[str, float | int | str] = Field(
        default_factory=dict, description="Counts and timings a person reads: files, MB/s, seconds."
    )
    stages: list[MemoryOperationReport] = Field(
        default_factory=list, description="For `run`: the report of each stage in order."
    )

    @property
    def changed(self) -> bool:
        return any(a.action not in {"unchanged", "dedupe_hit", "read"} for a in self.artifacts)

    def exit_code(self) -> int:
        worst = [self.status, *(stage.status for stage in self.stages)]
        if "failed" in worst or "partial" in worst or self.problems:
            return 1
        if any(stage.problems for stage in self.stages):
            return 1
        return 0

    def to_markdown(self) -> str:
        """The report in the Output Contract's own markdown shape."""
        mode = CONTRACT_MODES.get(self.mode, self.mode)
        lines = [
            "## Memory Operation",
            f"- mode: {mode}",
            *([f"- operation: {self.mode}"] if mode != self.mode else []),
            f"- project: {self.project}",
            f"- status: {self.status}",
            f"- memory_write_timestamp_utc: {self.memory_write_timestamp_utc}",
            f"- utc_datetime_prefix: {self.utc_datetime_prefix}",
            "",
            "## Retrieved or Updated Artifacts",
        ]
        lines += [f"- {a.path}: {a.why}" for a in self.artifacts] or ["- none"]
        lines += ["", "## Graph Delta"]
        lines += [f"- {name}: {value}" for name, value in self.graph_delta.model_dump().items()]
        warnings = self.memory_health.consistency_warnings
        lines += [
            "",
            "## Memory Health",
            f"- index_synced: {'yes' if self.memory_health.index_synced else 'no'}",
            f"- consistency_warnings: {'none' if not warnings else ''}",
        ]
        lines += [f"  - {w}" for w in warnings]
        return "\n".join(lines) + "\n"
