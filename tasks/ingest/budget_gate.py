"""The MemoryCustodian budget gate of ingest (spec/memory-custodian.md, budgets): a tree whose
check reports OVER BUDGET, or a decision entry over 120 tokens, adds no more active memory;
`--allow-long` is the only escape ("only when splitting would lose essential decision
semantics"), and what it let in is reported. NEAR LIMIT is reported: a dry-run maintenance
review is due before adding more.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from schemas.report import Problem
from tasks.ingest.inputs import SourceInput
from tasks.memstores.discover import CUSTODIAN_PREFIX

if TYPE_CHECKING:
    from tasks.memstores.custodian_views import TokenCounter

GATED = ("mc_budget_over", "mc_decision_too_long")


def _trees(inputs: Sequence[SourceInput]) -> dict[Path, list[SourceInput]]:
    """The custodian trees among the inputs, each with its inputs."""
    trees: dict[Path, list[SourceInput]] = {}
    for item in inputs:
        role = item.store_role or ""
        if role.startswith(CUSTODIAN_PREFIX):
            rel = role.removeprefix(CUSTODIAN_PREFIX)
            folder = Path(item.path.replace("\\", "/").removesuffix(rel))
            trees.setdefault(folder, []).append(item)
    return trees


def budget_gate(inputs: Sequence[SourceInput], count_tokens: TokenCounter, *,
                allow_long: bool) -> tuple[list[SourceInput], list[Problem], list[str]]:
    """(the inputs to ingest, problems for the files refused, warnings for the report)."""
    # Lazy: every ingest imports this module for manifestless_warnings, and the custodian's
    # checker and schemas cost ~40 ms of start-up that only a custodian tree's files need.
    from tasks.memstores.check_custodian import check_budgets
    from tasks.memstores.custodian import read_custodian

    refused: set[str] = set()
    problems: list[Problem] = []
    warnings: list[str] = []
    for folder, items in sorted(_trees(inputs).items()):
        by_rel = {(i.store_role or "").removeprefix(CUSTODIAN_PREFIX): i for i in items}
        for finding in check_budgets(read_custodian(folder), count_tokens):
            item = by_rel.get(finding.file)
            if item is None:
                continue
            if finding.code not in GATED:
                warnings.append(f"{item.display}: {finding.message}: a dry-run maintenance "
                                "review is due before adding more active memory")
            elif allow_long:
                warnings.append(f"{item.display}: {finding.message}; ingested with --allow-long")
            else:
                refused.add(item.path)
                problems.append(Problem(
                    file=item.display, code="custodian_over_budget",
                    message=f"{finding.message}: not ingested (no more active memory over budget)",
                    hint="shorten, merge or split by area (dry-run maintenance review); "
                         "--allow-long only when splitting would lose essential decision semantics"))
    return [i for i in inputs if i.path not in refused], problems, warnings


def manifestless_warnings(inputs: Sequence[SourceInput]) -> list[str]:
    """A memory directory ingested without its manifest.md: read as plain prose, and said so
    (memory-custodian Hard Gate: an incomplete or corrupted setup; routes are not inferred)."""
    from tasks.memstores.discover import is_manifestless_dir

    folders = sorted({Path(i.path).parent for i in inputs if i.path.endswith(".md")})
    return [f"{folder}: MemoryCustodian memory files without manifest.md: an incomplete or "
            "corrupted setup; ingested as plain prose, routes are not inferred"
            for folder in folders if is_manifestless_dir(folder)]
