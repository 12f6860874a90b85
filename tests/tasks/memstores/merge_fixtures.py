"""Two-sided edits of the custodian fixture, in memory and as git repositories (the merge review
tests: tests/tasks/memstores/test_merge_review.py, the CLI and the MC14 row)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tasks.memstores.custodian import CustodianTree, memory_files, parse_tree
from tests.tasks.memstores.store_fixtures import CUSTODIAN_GOOD, FIXTURES

# (file, old, new): replace `old` once; an empty `old` appends `new` (creating the file).
Edit = tuple[str, str, str]

PYTHON = "MC-SUBJ-20250610-1a2b3c4d"
SYNC = "MC-SUBJ-20250610-2b3c4d5e"
CLI = "MC-SUBJ-20250610-4d5e6f70"
RELEASE_DEC = "MC-DEC-20260205-a1000006"  # decisions.md, Release workflow + workflow
EXIT_CODES_DEC = "MC-DEC-20260110-a1000003"  # decisions.md, Public CLI + interface
NETWORK_CON = "MC-CON-20250901-c2000001"  # constraints.md, project, Sync engine + security
MERGE_AREA = "MC-AREA-20260105-b6000003"  # areas/sync.md, Evidence repo:src/sync/merge.ts

RELEASE_EDIT: Edit = ("decisions.md", "Branch builds shipped twice by accident.",
                      "Branch builds shipped twice by accident in 2025.")
EXIT_EDIT: Edit = ("decisions.md", "Scripts in CI branch on these codes.",
                   "Scripts in CI and the release job branch on these codes.")
STORAGE_EDIT: Edit = ("constraints.md", "No single note file or database page export exceeds 2 MB.",
                      "No note file or page export exceeds 2 MB.")
NETWORK_EDIT: Edit = ("constraints.md", "and only to the configured server.",
                      "and only to the configured server over TLS.")


def entry(ident: str, title: str, *, scope: str = "project", subject: str = PYTHON,
          facet: str = "security", fields: str = "", body: str = "Decision:\nA new rule.") -> str:
    """An active entry's text, to append to a memory file."""
    return (f"\n## {ident} — {title}\n\nStatus: active\nScope: {scope}\nSubject: {subject}\n"
            f"Facet: {facet}\n{fields}Evidence:\n- user-confirmed\n\n{body}\n")


def record(ident: str, resolution: str, *entries: str, status: str = "active",
           evidence: str = "user-confirmed") -> str:
    """A reconciliation record's text, to append to reconciliations.md."""
    listed = "".join(f"- {e}\n" for e in entries)
    return (f"\n## {ident} — Reviewed after a merge\n\nStatus: {status}\n"
            f"Resolution: {resolution}\nEntries:\n{listed}Evidence:\n- {evidence}\n")


def fixture_files() -> dict[str, str]:
    return {rel: (CUSTODIAN_GOOD / rel).read_text(encoding="utf-8")
            for rel in memory_files(CUSTODIAN_GOOD)}


def edited(files: dict[str, str], edits: list[Edit]) -> dict[str, str]:
    out = dict(files)
    for rel, old, new in edits:
        if not old:
            out[rel] = out.get(rel, "# Reconciliations\n" if rel == "reconciliations.md" else "") + new
            continue
        assert out[rel].count(old) == 1, (rel, old)
        out[rel] = out[rel].replace(old, new)
    return out


def tree_of(edits: list[Edit]) -> CustodianTree:
    return parse_tree(Path("memory"), edited(fixture_files(), edits))


def _git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "GIT_AUTHOR_DATE": "2026-03-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-03-01T00:00:00Z"}
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          env=env, check=True, timeout=30)
    return done.stdout


def _apply(repo: Path, edits: list[Edit], extra: dict[str, str]) -> None:
    memory = repo / "docs" / "memory"
    files = edited({rel: (memory / rel).read_text(encoding="utf-8")
                    for rel in memory_files(memory)}, edits)
    for rel, text in files.items():
        (memory / rel).write_text(text, encoding="utf-8")
    for rel, text in extra.items():  # project files (Evidence), relative to the repo
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "edit")


def two_sided_repo(tmp_path: Path, head: list[Edit], other: list[Edit], *,
                   head_files: dict[str, str] | None = None,
                   other_files: dict[str, str] | None = None) -> Path:
    """A git repository holding the custodian fixture at its base commit, branch `other` with
    `other` edits, and `main` (checked out, HEAD) with `head` edits. Returns the repository."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "custodian", repo)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "other")
    _apply(repo, other, other_files or {})
    _git(repo, "checkout", "-q", "main")
    _apply(repo, head, head_files or {})
    return repo
