"""Reading a batch of proposals from the inbox (or the given files) and filing each one, as
submitted, under proposals/applied/ or proposals/rejected/."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from tasks.store.atomic import atomic_write_bytes, remove_file
from tasks.store.layout import (
    INBOX_DIR,
    MemoryLayout,
)

# --------------------------------------------------------------------------- reading the batch


@dataclass(frozen=True)
class Submitted:
    path: Path
    from_inbox: bool
    raw: bytes | None
    problem: str | None = None


def inbox_files(layout: MemoryLayout) -> list[Path]:
    inbox = layout.root / INBOX_DIR
    if not inbox.is_dir():
        return []
    return sorted(p for p in inbox.iterdir() if p.is_file() and not p.name.startswith("."))


def read_submitted(path: Path, *, inbox: Path, max_bytes: int) -> Submitted:
    # By name, not by real path: a symlink in the inbox to a file elsewhere is still "in the
    # inbox" (and so never read), and a symlink loop cannot raise here.
    from_inbox = Path(os.path.abspath(path)).parent == Path(os.path.abspath(inbox))
    try:
        if path.is_symlink() and from_inbox:
            return Submitted(path, from_inbox, None, "a symlink in the inbox is not read")
        size = path.stat().st_size
        if size > max_bytes:
            return Submitted(path, from_inbox, None, f"file is {size} bytes, over {max_bytes}")
        return Submitted(path, from_inbox, path.read_bytes())
    except FileNotFoundError:
        return Submitted(path, from_inbox, None, "file does not exist")
    except OSError as exc:
        return Submitted(path, from_inbox, None, f"cannot read file: {exc.strerror}")


# --------------------------------------------------------------------------- filing proposals


def _stored_name(folder: Path, name: str, raw: bytes) -> tuple[Path, bool]:
    """Where to keep a proposal in `folder`: its own name, or name-<hash8> if that is taken by
    other bytes. Returns (path, already there with the same bytes)."""
    target = folder / name
    if not target.exists():
        return target, False
    if target.read_bytes() == raw:
        return target, True
    stem, suffix = os.path.splitext(name)
    target = folder / f"{stem}-{hashlib.sha256(raw).hexdigest()[:8]}{suffix}"
    return target, target.exists() and target.read_bytes() == raw


def file_proposal(layout: MemoryLayout, submitted: Submitted, folder: str,
                  name: str | None = None) -> tuple[str, bool]:
    """Keep the proposal's bytes under `folder` (as `name`, by default its own), then take it
    out of the inbox."""
    raw = submitted.raw or b""
    target, present = _stored_name(layout.root / folder, name or submitted.path.name, raw)
    written = False
    if not present:
        written = atomic_write_bytes(target, raw, validate=False)
    if submitted.from_inbox and submitted.path.resolve() != target.resolve():
        remove_file(submitted.path)
    return layout.relative(target), written
