"""The merge review: classify on in-memory trees, then the same through git (a repository with
the custodian fixture at its base, `main` and `other` edited apart)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from schemas.stores import MergeStatus, StoreFinding
from tasks.memstores.merge_git import review_merge
from tasks.memstores.merge_review import classify, make_side
from tasks.store.errors import InputError
from tests.tasks.memstores.merge_fixtures import (
    CLI,
    EXIT_CODES_DEC,
    EXIT_EDIT,
    MERGE_AREA,
    NETWORK_CON,
    NETWORK_EDIT,
    RELEASE_DEC,
    RELEASE_EDIT,
    STORAGE_EDIT,
    SYNC,
    Edit,
    entry,
    record,
    tree_of,
    two_sided_repo,
)

NEW_A, NEW_B = "MC-DEC-20260310-a1000020", "MC-DEC-20260311-a1000021"
REC = "MC-REC-20260312-0a1b2c3d"
SUPERSEDE_EXIT: list[Edit] = [
    ("decisions.md", "Facet: interface\nEvidence:\n- user-confirmed\n",
     f"Facet: interface\nEvidence:\n- user-confirmed\nSuperseded-By: {NEW_A}\n"),
    ("decisions.md", "Status: active\nScope: project\nSubject: MC-SUBJ-20250610-4d5e6f70",
     "Status: superseded\nScope: project\nSubject: MC-SUBJ-20250610-4d5e6f70"),
    ("decisions.md", "", entry(NEW_A, "Exit codes 0-3", subject=CLI, facet="interface",
                               fields=f"Supersedes: {EXIT_CODES_DEC}\n")),
]


def _subject(ident: str, name: str) -> str:
    return (f"\n## {ident} — {name}\n\nStatus: active\nKind: service\n"
            "Canonical-Ref: service:tracing\nEvidence:\n- user-confirmed\n")


def _classify(head: list[Edit], other: list[Edit], *, head_paths: set[str] | None = None,
              other_paths: set[str] | None = None) -> tuple[MergeStatus, list[StoreFinding]]:
    base = tree_of([])
    return classify(base, make_side("HEAD", base, tree_of(head), head_paths),
                    make_side("other", base, tree_of(other), other_paths))


def _says(findings: list[StoreFinding]) -> str:
    return "\n".join(f"{f.code} {f.message}" for f in findings)


@pytest.mark.parametrize(("head", "other", "said"), [
    ([("decisions.md", "", entry(NEW_A, "Python is sandboxed"))],
     [("decisions.md", "", entry(NEW_B, "Python runs as root"))],
     "are both active owners of project + MC-SUBJ-20250610-1a2b3c4d + security"),
    ([EXIT_EDIT], [("decisions.md", "Scripts in CI branch on these codes.", "CI reads them.")],
     f"{EXIT_CODES_DEC} was changed on both HEAD (decisions.md line 37) and other"),
    (SUPERSEDE_EXIT, [EXIT_EDIT], f"HEAD supersedes {EXIT_CODES_DEC} (decisions.md line 37) "
                                  "while other changes it"),
    (SUPERSEDE_EXIT, [("areas/sync.md", "", entry(
        "MC-AREA-20260312-b6000011", "CLI exceptions", scope="area:sync", subject=CLI,
        facet="interface", fields=f"Promoted-From: {EXIT_CODES_DEC}\n"))],
     "while other links to it from MC-AREA-20260312-b6000011"),
    ([("subjects.md", "Status: active\nKind: interface",
       f"Status: merged\nMerged-Into: {SYNC}\nKind: interface")], [EXIT_EDIT],
     f"HEAD marks Subject {CLI} merged into {SYNC} while other changes active {EXIT_CODES_DEC}"),
    ([("subjects.md", "- storage\n", "- storage\n- tracing\n")],
     [("subjects.md", "- fieldnote CLI\n", "- fieldnote CLI\n- Tracing\n")],
     "share the alias 'tracing'"),
    ([("subjects.md", "", _subject("MC-SUBJ-20260310-7a8b9c0d", "Tracing"))],
     [("subjects.md", "", _subject("MC-SUBJ-20260311-8b9c0d1e", "Telemetry"))],
     "HEAD Subject MC-SUBJ-20260310-7a8b9c0d and other Subject MC-SUBJ-20260311-8b9c0d1e share "
     "the Canonical-Ref 'service:tracing'"),
    ([], [("reconciliations.md", "", record(REC, "distinct", RELEASE_DEC))],
     f"other: {REC}: Entries must list at least two Entry IDs"),
])
def test_conflicts_block(head: list[Edit], other: list[Edit], said: str) -> None:
    status, findings = _classify(head, other)
    assert status == "CONFLICT" and said in _says(findings), _says(findings)
    assert all(f.code == "mc_merge_conflict" for f in findings if said in f.message)


@pytest.mark.parametrize(("head", "other", "said"), [
    ([RELEASE_EDIT], [EXIT_EDIT], "changed concurrently: both in decisions.md"),
    ([NETWORK_EDIT], [("areas/sync.md", "Retry a failed sync at most five times",
                       "Retry a failed sync at most six times")],
     f"different Facets (security, behavior) of Subject {SYNC}; project constraint "
     f"{NETWORK_CON} beside area entry"),
])
def test_concurrent_changes_need_review(head: list[Edit], other: list[Edit], said: str) -> None:
    status, findings = _classify(head, other)
    assert status == "REVIEW" and said in _says(findings), _says(findings)
    assert {f.code for f in findings} == {"mc_merge_review"}


def test_a_valid_record_or_an_exception_link_clears_the_pair() -> None:
    distinct = ("reconciliations.md", "", record(REC, "distinct", RELEASE_DEC, EXIT_CODES_DEC))
    assert _classify([RELEASE_EDIT, distinct], [EXIT_EDIT]) == ("CLEAR", [])
    assert _classify([RELEASE_EDIT], [EXIT_EDIT, distinct]) == ("CLEAR", [])
    exception = ("areas/sync.md", "", entry(
        "MC-AREA-20260312-b6000012", "Mirror allowed", scope="area:sync", subject=SYNC,
        fields=f"Exception-To: {NETWORK_CON}\n"))
    assert _classify([exception], [NETWORK_EDIT]) == ("CLEAR", [])


def test_evidence_the_other_side_changed_needs_review() -> None:
    edit = ("areas/sync.md", "Resolve concurrent edits per field",
            "Resolve concurrent edits per field and per list item")
    status, findings = _classify([edit], [], other_paths={"src/sync/merge.ts"})
    assert status == "REVIEW"
    assert f"HEAD {MERGE_AREA} (areas/sync.md line 5) rests on Evidence src/sync/merge.ts, " \
           "which other changed" in _says(findings)


def test_unrelated_changes_and_the_same_change_are_clear() -> None:
    assert _classify([RELEASE_EDIT], [STORAGE_EDIT]) == ("CLEAR", [])
    assert _classify([RELEASE_EDIT], [RELEASE_EDIT]) == ("CLEAR", [])


# ---------------------------------------------------------------- through git


def test_git_conflict_review_cleared_and_clear(tmp_path: Path) -> None:
    cases = {
        "CONFLICT": ([EXIT_EDIT], SUPERSEDE_EXIT, {}),
        "REVIEW": ([RELEASE_EDIT], [EXIT_EDIT], {}),
        "cleared": ([RELEASE_EDIT, ("reconciliations.md", "", record(
            REC, "distinct", RELEASE_DEC, EXIT_CODES_DEC))], [EXIT_EDIT], {}),
        "CLEAR": ([RELEASE_EDIT], [STORAGE_EDIT], {}),
        "evidence": ([("areas/sync.md", "per field, newest", "per field, latest")], [],
                     {"src/sync/merge.ts": "export {}\n"}),
    }
    seen = {}
    for name, (head, other, other_files) in cases.items():
        repo = two_sided_repo(tmp_path / name, head, other, other_files=other_files)
        review, findings = review_merge(repo / "docs" / "memory", "other", "docs/memory")
        assert review.base and review.head and review.target and review.base != review.head
        seen[name] = (review.status, sorted({f.code for f in findings}))
    assert seen == {"CONFLICT": ("CONFLICT", ["mc_merge_conflict"]),
                    "REVIEW": ("REVIEW", ["mc_merge_review"]), "cleared": ("CLEAR", []),
                    "CLEAR": ("CLEAR", []), "evidence": ("REVIEW", ["mc_merge_review"])}


def test_git_unavailable_is_never_clear(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = two_sided_repo(tmp_path, [RELEASE_EDIT], [STORAGE_EDIT])
    memory = repo / "docs" / "memory"
    missing, [finding] = review_merge(memory, "no-such-branch", "m")
    assert missing.status == "unavailable" and finding.code == "mc_merge_unavailable"
    assert "'no-such-branch' does not resolve" in finding.message
    assert "conflict-free status was not established" in finding.message
    plain = tmp_path / "plain"
    shutil.copytree(memory, plain / "docs" / "memory")
    outside, [finding] = review_merge(plain / "docs" / "memory", "other", "m")
    assert outside.status == "unavailable" and "not established" in finding.message
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    nogit, [finding] = review_merge(memory, "other", "m")
    assert nogit.status == "unavailable" and "git is not installed" in finding.message
    with pytest.raises(InputError, match="is not a git revision"):
        review_merge(memory, "--output=/tmp/x", "m")
