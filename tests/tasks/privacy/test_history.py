"""forget --history-check: git commits that still hold the text, or why none were checked."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tasks.privacy.history import history_check, topic_regex

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "GIT_AUTHOR_DATE": "2026-03-01T00:00:00Z",
           "GIT_COMMITTER_DATE": "2026-03-01T00:00:00Z", "PATH": "/usr/bin:/bin"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=env).stdout


def test_commits_that_hold_the_words_are_listed_paths_are_not_words(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    root = repo / ".memories"
    root.mkdir(parents=True)
    _git(repo, "init", "-q")
    (root / "a.md").write_text("- Open the store in WAL mode\n")
    (repo / "elsewhere.md").write_text("WAL outside the memory root\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "add the WAL note")
    (root / "a.md").write_text("- nothing here\n")
    (root / "b.md").write_text("- a walrus\n")
    _git(repo, "commit", "-qam", "remove it")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "unrelated")
    check = history_check(root, ("wal",))
    assert check.status == "found"
    assert [what for _c, what in check.commits] == ["2026-03-01 remove it", "2026-03-01 add the WAL note"]
    assert history_check(root, ("Redis",)).status == "no-reachable-copy-detected"


def test_outside_a_git_work_tree_the_check_is_unavailable_not_a_pass(tmp_path: Path) -> None:
    check = history_check(tmp_path, ("WAL",))
    assert check.status == "unavailable" and "not in a git work tree" in check.detail


def test_the_regex_escapes_the_topic_and_keeps_word_edges() -> None:
    assert topic_regex("C++ lock") == r"(^|[^[:alnum:]_])C\+\+[[:space:]]+lock([^[:alnum:]_]|$)"
