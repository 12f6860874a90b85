"""`membank forget --history-check`: git commits that still hold what is being forgotten.

spec/memory-custodian.md, Forgetting 8: bounded local evidence. When the memory root is in a
git work tree, every commit reachable from any local ref whose changes under the root add or
remove a line naming the topic (so that commit, or its parent, still holds it) is listed, at
most MAX_COMMITS. "unavailable" (no git, not a work tree) is not a pass, and
"no-reachable-copy-detected" is no proof that no clone, fork, backup or pushed copy holds it.
Reads only; runs `git` with a timeout.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

MAX_COMMITS = 50
_TIMEOUT_S = 60.0
_ERE_SPECIAL = re.compile(r"([.^$*+?()\[\]{}|\\])")
HistoryStatus = Literal["unavailable", "found", "no-reachable-copy-detected"]
BOUNDARY = ("bounded local evidence: local refs of this clone only; unavailable is not a pass, "
            "and no-reachable-copy-detected is no proof that no clone, fork, backup or pushed "
            "copy holds it")


@dataclass(frozen=True)
class HistoryCheck:
    status: HistoryStatus
    detail: str
    commits: list[tuple[str, str]] = field(default_factory=list)  # (short hash, "date subject")
    truncated: bool = False


def topic_regex(topic: str) -> str:
    """A POSIX extended regex of the topic's words on word boundaries (what `git log -G` takes;
    matched case-insensitively with -i)."""
    words = [_ERE_SPECIAL.sub(r"\\\1", word) for word in topic.split()]
    return "(^|[^[:alnum:]_])" + "[[:space:]]+".join(words) + "([^[:alnum:]_]|$)"


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                          timeout=_TIMEOUT_S, check=False)


def history_check(root: Path, topics: tuple[str, ...], raw_paths: tuple[str, ...] = ()) -> HistoryCheck:
    """Commits that hold one of `topics` under `root`, or that touch one of `raw_paths`
    (root-relative; a forgotten source named by its file)."""
    try:
        inside = _git(root, "rev-parse", "--is-inside-work-tree")
    except (OSError, subprocess.SubprocessError) as error:
        return HistoryCheck("unavailable", f"git could not run ({error.__class__.__name__})")
    if inside.returncode != 0 or inside.stdout.strip() != "true":
        return HistoryCheck("unavailable", f"{root} is not in a git work tree: no history checked")
    log = ["log", "--all", f"--max-count={MAX_COMMITS + 1}", "--format=%h%x09%cs %s"]
    found: dict[str, str] = {}
    runs: list[list[str]] = [[*log, "-i", "-E", "-G", topic_regex(t), "--", "."] for t in topics]
    runs += [[*log, "--", rel] for rel in raw_paths]
    for args in runs:
        try:
            done = _git(root, *args)
        except subprocess.SubprocessError as error:
            return HistoryCheck("unavailable", f"git log did not finish ({error.__class__.__name__})")
        if done.returncode != 0:
            return HistoryCheck("unavailable", f"git log failed: {done.stderr.strip()[:200]}")
        for line in done.stdout.splitlines():
            commit, _tab, what = line.partition("\t")
            found.setdefault(commit, what)
    commits = list(found.items())
    if not commits:
        return HistoryCheck("no-reachable-copy-detected",
                            "no commit reachable from a local ref holds it under this root")
    truncated = len(commits) > MAX_COMMITS
    commits = commits[:MAX_COMMITS]
    more = f" (the first {MAX_COMMITS}; there are more)" if truncated else ""
    return HistoryCheck("found", f"{len(commits)} commit(s) under this root still hold it{more}",
                        commits, truncated)
