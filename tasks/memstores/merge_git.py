"""`check custodian --conflicts --merge-base REF`: read a memory directory's tree at the merge
base, at HEAD and at REF from git, and classify the merge (tasks/memstores/merge_review.py).

Reads only: `git rev-parse`, `merge-base`, `ls-tree`, `cat-file --batch` and `diff --name-only`,
each an argument list (never a shell) with a timeout. When git is missing, the folder is not in
a work tree, or REF does not resolve, the status is `unavailable` with a finding saying that
conflict-free status was not established: never CLEAR.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from schemas.stores import MERGE_CLEAR_NOTE, MERGE_UNAVAILABLE_NOTE, McMergeReview, StoreFinding
from tasks.memstores.custodian import CustodianTree, parse_tree, project_root
from tasks.memstores.findings import store_finding
from tasks.memstores.merge_review import classify, make_side
from tasks.store.errors import InputError, MembankError

GIT_TIMEOUT_S = 20.0
_MAX_REF = 256


class GitUnavailableError(MembankError):
    """git cannot answer here (not installed, not a work tree, a revision that does not
    resolve); turned into the `unavailable` status, never raised to the caller."""


def validate_ref(ref: str) -> str:
    """A revision as the user typed it: not an option, no whitespace or control characters."""
    if not ref or ref.startswith("-") or len(ref) > _MAX_REF or any(
            c.isspace() or ord(c) < 32 or ord(c) == 127 for c in ref):
        raise InputError(f"--merge-base {ref!r} is not a git revision",
                         hint="give a branch, tag or commit (it may not start with '-')")
    return ref


def _git(cwd: Path, *args: str, stdin: bytes | None = None, failed: str = "") -> bytes:
    """git's stdout; GitUnavailableError when it cannot run or fails (`failed` says why)."""
    try:
        done = subprocess.run(["git", "-C", str(cwd), *args], input=stdin, capture_output=True,
                              timeout=GIT_TIMEOUT_S, check=False)
    except FileNotFoundError as exc:
        raise GitUnavailableError("git is not installed (not found on PATH)") from exc
    except OSError as exc:
        raise GitUnavailableError(f"git could not run: {exc.strerror}") from exc
    except subprocess.TimeoutExpired as exc:
        raise GitUnavailableError(f"git {args[0]} did not finish in {GIT_TIMEOUT_S:g} s") from exc
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
        raise GitUnavailableError(failed or f"git {args[0]} failed: "
                                  f"{said[0] if said else done.returncode}")
    return done.stdout


def _commit(top: Path, rev: str, what: str) -> str:
    return _git(top, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}",
                failed=f"{what} {rev!r} does not resolve to a commit").decode().strip()


def tree_at(top: Path, commit: str, prefix: str, root: Path) -> CustodianTree:
    """The memory directory (`prefix`, relative to the work tree's top) as of `commit`: every
    markdown file, hidden names skipped, read in one `cat-file --batch`."""
    listed = _git(top, "ls-tree", "-r", "-z", "--name-only", commit, "--", prefix or ".")
    names = []
    for raw in listed.split(b"\0"):
        name = raw.decode("utf-8", errors="replace")
        rel = name[len(prefix):] if prefix else name
        if (name.endswith(".md") and "\n" not in name
                and not any(part.startswith(".") for part in rel.split("/"))):
            names.append(name)
    if not names:
        return parse_tree(root, {})
    out = _git(top, "cat-file", "--batch",
               stdin="".join(f"{commit}:{name}\n" for name in names).encode())
    files: dict[str, str] = {}
    at = 0
    for name in names:
        end = out.index(b"\n", at)
        header = out[at:end].split()  # `<oid> blob <size>`, or `<name> missing`
        at = end + 1
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            files[name[len(prefix):]] = out[at:at + size].decode("utf-8", errors="replace")
            at += size + 1
    return parse_tree(root, dict(sorted(files.items())))


def changed_paths(top: Path, base: str, commit: str, project: str) -> set[str]:
    """Files changed between two commits, relative to the project (the folder holding docs/)."""
    out = _git(top, "diff", "--name-only", "-z", "--no-renames", base, commit)
    names = [raw.decode("utf-8", errors="replace") for raw in out.split(b"\0") if raw]
    if not project:
        return set(names)
    return {name[len(project) + 1:] for name in names if name.startswith(f"{project}/")}


def _locate(root: Path) -> tuple[Path, str, str]:
    """(work tree top, the memory directory's prefix, the project's path) relative to the top."""
    outside = f"{root} is not in a git work tree"
    if _git(root, "rev-parse", "--is-inside-work-tree", failed=outside).strip() != b"true":
        raise GitUnavailableError(outside)
    top = Path(_git(root, "rev-parse", "--show-toplevel").decode().strip())
    prefix = _git(root, "rev-parse", "--show-prefix").decode().strip()
    project, shown = project_root(root), ""
    if project is not None:
        try:
            shown = project.resolve().relative_to(top.resolve()).as_posix()
        except ValueError:  # the project folder is above the work tree: paths from its top
            shown = ""
    return top, prefix, "" if shown == "." else shown


def review_merge(root: Path, ref: str, store: str) -> tuple[McMergeReview, list[StoreFinding]]:
    """Merge REF into HEAD, as far as the memory directory at `root` is concerned."""
    validate_ref(ref)
    review = McMergeReview(store=store, ref=ref, status="unavailable")
    try:
        top, prefix, project = _locate(root)
        review.head = _commit(top, "HEAD", "HEAD")
        review.target = _commit(top, ref, "REF")
        review.base = _git(top, "merge-base", review.head, review.target,
                           failed=f"HEAD and {ref} have no merge base").decode().strip()
        base = tree_at(top, review.base, prefix, root)
        left = make_side("HEAD", base, tree_at(top, review.head, prefix, root),
                         changed_paths(top, review.base, review.head, project))
        right = make_side(ref, base, tree_at(top, review.target, prefix, root),
                          changed_paths(top, review.base, review.target, project))
    except GitUnavailableError as exc:
        review.detail = f"merge review unavailable: {exc.cause}; {MERGE_UNAVAILABLE_NOTE}"
        return review, [store_finding("mc_merge_unavailable", ".", None, review.detail)]
    review.status, findings = classify(base, left, right)
    review.detail = {"CLEAR": MERGE_CLEAR_NOTE,
                     "REVIEW": "concurrent memory changes need an explicit reconciliation",
                     "CONFLICT": "exact structural conflicts block the merge"}[review.status]
    return review, findings
