"""The seed audit's table re-run as tests, written to tests/spec/AUDIT.md (issue 25).

    .venv/bin/python -m tests.spec.audit_report [--review PATH] [--junit FILE]

Runs the four row modules (tests/spec/test_*.py) with a JUnit report, unless `--junit` names
one already made. A row counts as `works` only when tests named after it exist
(`test_MB7_...`, `test_MB13_MB41_...`) and every one passes; a row in NOTES is never counted
as works beyond what its note says. Rows without a test and without a note are `not re-tested`
and keep the audit's verdict beside them.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

SPEC = Path(__file__).resolve().parent
REPO = SPEC.parent.parent
REVIEW = REPO.parent / "shared" / "reviews" / "seed-audit-2026-12-01.md"
CONTRACTS = {"MB": "memory-bank.md", "MC": "memory-custodian.md", "W": "wiki-memory-pkf.md",
             "J": "mem-jsonl.md"}
_ROW_RE = re.compile(r"^\| (?P<id>(?:MB|MC|W|J)\d+) \| (?P<says>.*?) \| .* \| "
                     r"(?P<verdict>works|partly|missing|contradicts|n/a|untested) \|$")
_TEST_RE = re.compile(r"^test_(?P<ids>(?:(?:MB|MC|W|J)\d+_)+)")

OUT_OF_SCOPE = "missing (out of scope)"
CUSTODIAN_CLI = ("the memory-custodian CLI's own commands, which write a repository's "
                 "docs/memory/; membank reads, checks and routes those trees and never writes "
                 "them (MC24)")
# Rows that no passing test can call `works` (status, reason).
NOTES: dict[str, tuple[str, str]] = {
    "MC25": (OUT_OF_SCOPE, CUSTODIAN_CLI), "MC26": (OUT_OF_SCOPE, CUSTODIAN_CLI),
    "MC38": (OUT_OF_SCOPE, "the local overlay is " + CUSTODIAN_CLI),
    "W35": (OUT_OF_SCOPE, "the PKF carrier, cloud materialize, prismer:// loading and "
            "visibility are the agent platform's, not a local pipeline's"),
    "J23": (OUT_OF_SCOPE, "mem-jsonl.md has neither tombstones nor an inbox"),
}
# Rows whose in-scope part works (its tests decide) and whose remainder is out of scope: the
# reason is printed beside the tests.
PART_OUT_OF_SCOPE: dict[str, str] = {
    "MC37": "status, list --status, subject list and show MC-... are membank's read commands "
            "(`membank custodian status|list|subjects`, `membank show`); add, subject add, enable "
            "and migrate are out of scope: " + CUSTODIAN_CLI,
}
STATUSES = ("works", "in part", "missing", OUT_OF_SCOPE, "contradicts", "not re-tested")


@dataclass
class Row:
    ident: str
    says: str
    verdict: str
    status: str = "not re-tested"
    why: str = ""
    tests: tuple[str, ...] = ()


def read_rows(review: Path) -> list[Row]:
    rows = []
    for line in review.read_text(encoding="utf-8").splitlines():
        match = _ROW_RE.match(line.strip())
        if match:
            says = " ".join(match.group("says").split())
            rows.append(Row(match.group("id"), says[:90] + ("…" if len(says) > 90 else ""),
                            match.group("verdict")))
    return rows


def run_tests(junit: Path) -> None:
    modules = [str(p) for p in sorted(SPEC.glob("test_*.py"))]
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    f"--junitxml={junit}", *modules], cwd=REPO, check=False)


def outcomes(junit: Path) -> dict[str, list[tuple[str, bool]]]:
    """Row id -> [(test name, passed)] from a JUnit report."""
    found: dict[str, list[tuple[str, bool]]] = {}
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        name = case.get("name", "")
        match = _TEST_RE.match(name)
        if not match:
            continue
        passed = not any(child.tag in ("failure", "error", "skipped") for child in case)
        for ident in match.group("ids").strip("_").split("_"):
            found.setdefault(ident, []).append((name, passed))
    return found


def judge(rows: list[Row], results: dict[str, list[tuple[str, bool]]]) -> None:
    for row in rows:
        tests = results.get(row.ident, [])
        row.tests = tuple(dict.fromkeys(name.split("[")[0] for name, _ in tests))
        failed = [name for name, passed in tests if not passed]
        if row.ident in NOTES:
            row.status, row.why = NOTES[row.ident]
            if tests and not failed and row.status == "not re-tested":
                row.status, row.why = "works", ""
        elif tests and not failed:
            row.status = "works"
            if row.ident in PART_OUT_OF_SCOPE:
                row.why = (PART_OUT_OF_SCOPE[row.ident] + "; tests: "
                           + ", ".join(f"`{t}`" for t in row.tests))
        elif failed:
            row.status, row.why = "in part", "failing: " + ", ".join(failed)
        else:
            row.why = f"no test yet; the audit said {row.verdict}"


def markdown(rows: list[Row], review: Path) -> str:
    lines = ["# The four contracts, row by row (issue 25)", "",
             f"Generated by `python -m tests.spec.audit_report` from `{review.name}` and the row "
             "tests in tests/spec/ (one test or more per row, named after it). A row is "
             "**works** only when its tests exist and pass; **missing (out of scope)** names why "
             "a local pipeline does not do it; **not re-tested** rows have no test on this "
             "branch (the reason says whose they are).", "",
             "| contract | rows | " + " | ".join(STATUSES) + " |",
             "|---|---|" + "---|" * len(STATUSES)]
    total: Counter[str] = Counter()
    for prefix, name in CONTRACTS.items():
        mine = [r for r in rows if re.fullmatch(rf"{prefix}\d+", r.ident)]
        counts = Counter(r.status for r in mine)
        total.update(counts)
        lines.append(f"| {name} | {len(mine)} | " + " | ".join(str(counts[s]) for s in STATUSES)
                     + " |")
    lines.append(f"| **all** | {len(rows)} | " + " | ".join(str(total[s]) for s in STATUSES)
                 + " |")
    for prefix, name in CONTRACTS.items():
        lines += ["", f"## {name}", "", "| row | contract says | audit | now | why / tests |",
                  "|---|---|---|---|---|"]
        for row in (r for r in rows if re.fullmatch(rf"{prefix}\d+", r.ident)):
            detail = row.why or ", ".join(f"`{t}`" for t in row.tests)
            lines.append(f"| {row.ident} | {row.says.replace('|', '/')} | {row.verdict} | "
                         f"{row.status} | {detail.replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--review", type=Path, default=REVIEW)
    parser.add_argument("--junit", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=SPEC / "AUDIT.md")
    args = parser.parse_args(argv)
    rows = read_rows(args.review)
    with tempfile.TemporaryDirectory() as scratch:
        junit = args.junit or Path(scratch) / "spec.xml"
        if args.junit is None:
            run_tests(junit)
        judge(rows, outcomes(junit))
    args.out.write_text(markdown(rows, args.review), encoding="utf-8")
    counts = Counter(r.status for r in rows)
    print(", ".join(f"{s}: {counts[s]}" for s in STATUSES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
