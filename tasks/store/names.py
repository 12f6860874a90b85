"""Names: UTC prefixes, intention-revealing slugs, and the naming standard of spec/memory-bank.md."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath

from slugify import slugify as _slugify

from schemas.common import NON_MEANINGFUL_WORDS, PREFIX_PATTERN, is_meaningless
from tasks.store.clock import parse_utc
from tasks.store.errors import AmbiguousNameError, InputError, RootError
from tasks.store.layout import (
    CONTEXT_DIR,
    HISTORIAN_TYPES,
    HUB_NAME,
    INDEX_FILE,
    LOG_FILE,
    PROJECT_CONTEXT_FILE,
    PROPOSALS_DIR,
    SHARDS_NAME,
    STATE_DIR,
)

_PREFIX_RE = re.compile(rf"^{PREFIX_PATTERN}$")
_FILE_NAME_RE = re.compile(
    rf"^(?P<prefix>{PREFIX_PATTERN})__(?P<slug>[a-z0-9][a-z0-9-]*)(?P<ext>\.[a-z0-9]+)?$")
_SHARD_RE = re.compile(r"^shard-\d{3,}\.md$")
SLUG_MAX_LENGTH = 80

# Files the naming rule does not apply to (DESIGN.md, Placement).
STRUCTURAL_FILE_NAMES = frozenset({INDEX_FILE, LOG_FILE})
_STRUCTURAL_TOPS = frozenset({CONTEXT_DIR, STATE_DIR, PROPOSALS_DIR})
_HUB_SUFFIX = f"/{HUB_NAME}"
_SHARDS_SEGMENT = f"/{SHARDS_NAME}/"


def utc_prefix(moment: datetime | str) -> str:
    """Normalize a time to the file-name prefix: 2026-03-24T22:40:05 -> 2026-03-24T22-40-05Z."""
    if isinstance(moment, str):
        text = moment.strip()
        if _PREFIX_RE.match(text):
            return text
        try:
            moment = parse_utc(text)
        except ValueError as exc:
            raise InputError(
                f"{text!r} is not a UTC time or prefix",
                hint="use YYYY-MM-DDTHH:MM:SS or YYYY-MM-DDTHH-MM-SSZ",
            ) from exc
    return moment.strftime("%Y-%m-%dT%H-%M-%SZ")


def is_ambiguous(name: str) -> bool:
    """A name the naming standard rejects (schemas.common.NON_MEANINGFUL_NAMES)."""
    return is_meaningless(name)


def slug_from_title(title: str, *, context: str | Path | None = None) -> str:
    """An intention-revealing slug; rejects titles that give only an ambiguous name."""
    slug = _slugify(title, max_length=SLUG_MAX_LENGTH, word_boundary=True, save_order=True)
    if is_ambiguous(slug):
        raise AmbiguousNameError(
            f"name {title!r} is ambiguous (slug {slug!r}); the naming standard rejects "
            f"{NON_MEANINGFUL_WORDS} and empty names",
            file=context,
            hint="choose an intention-revealing name, e.g. dependencyRelation rather than item",
        )
    return slug


def memory_file_name(prefix: str, slug: str, ext: str = ".md") -> str:
    """`<prefix>__<slug><ext>`, validating both halves."""
    if not _PREFIX_RE.match(prefix):
        raise InputError(f"{prefix!r} is not a UTC prefix", hint="expected YYYY-MM-DDTHH-MM-SSZ")
    if is_ambiguous(slug):
        raise AmbiguousNameError(f"slug {slug!r} is ambiguous", hint="use an intention-revealing name")
    return f"{prefix}__{slug}{ext}"


@dataclass(frozen=True)
class MemoryFileName:
    prefix: str
    slug: str
    ext: str


def parse_memory_file_name(name: str) -> MemoryFileName:
    """Split a memory file name, or raise InputError saying what is wrong with it."""
    match = _FILE_NAME_RE.match(name)
    if not match:
        raise InputError(
            f"file name {name!r} does not follow <YYYY-MM-DDTHH-MM-SSZ>__<slug>.<ext>",
            file=name,
            hint="rename it with its creation time as prefix and a lowercase hyphenated slug",
        )
    slug = match.group("slug")
    if is_ambiguous(slug):
        raise AmbiguousNameError(f"slug {slug!r} is ambiguous", file=name)
    return MemoryFileName(match.group("prefix"), slug, match.group("ext") or "")


def is_structural(relative_path: str | PurePosixPath) -> bool:
    """index.md, log.md, hub index.md pages, context/ files, the proposals/ intake folders and
    shard pages are exempt from the UTC-prefix naming rule (shards are named shard-NNN.md
    inside a prefixed folder). Fast on plain strings: reconcile asks once per page."""
    parts = path_parts(relative_path)
    if not parts:
        return False
    if parts[0] in _STRUCTURAL_TOPS or parts[-1] in STRUCTURAL_FILE_NAMES:
        return True
    return bool(_SHARD_RE.match(parts[-1])) and SHARDS_NAME in parts


def is_hub_page(relative_path: str) -> bool:
    """Named like a hub: index.md or <folder>/index.md (a hub by name; topic hubs are pages of
    type hub). A string test, as cheap as the literal it replaces."""
    return relative_path == HUB_NAME or relative_path.endswith(_HUB_SUFFIX)


def is_historian_record(relative_path: str) -> bool:
    """A session, plan, execution or error record, or context/project.md: valid with the
    contract's three time keys alone (no type or description required)."""
    return relative_path == PROJECT_CONTEXT_FILE or historian_type(relative_path) is not None


def historian_type(relative_path: str) -> str | None:
    """The page type a historian folder gives its records (sessions/ -> session, ...)."""
    head, sep, name = relative_path.partition("/")
    if not sep or "/" in name or is_hub_page(relative_path):
        return None
    return HISTORIAN_TYPES.get(f"{head}/")


PROPOSABLE_HISTORIAN = ("sessions", "plans", "executions")


def historian_hub(value: str) -> str | None:
    """The historian folder a proposal's hub names (`sessions`, `plans/`, `executions/index.md`),
    or None: these folders are hubs of their own (spec/memory-bank.md, update mode), listed by
    index.md, with no hub page of their own."""
    path = value.strip().replace("\\", "/").strip("/").removesuffix(_HUB_SUFFIX)
    return path if path in PROPOSABLE_HISTORIAN else None


def in_shards(relative_path: str) -> bool:
    """Inside a sharded source's shard folder (wiki/sources/shards/<stem>/...)."""
    return _SHARDS_SEGMENT in relative_path


def is_clean_relative(path: str) -> bool:
    """A relative posix path that PurePosixPath keeps as written: not empty, no leading,
    doubled or trailing slash, no "." part."""
    return (bool(path) and path[0] != "/" and "//" not in path and "./" not in path
            and not path.endswith(("/", "/.")) and path != ".")


def path_parts(path: str | PurePosixPath) -> Sequence[str]:
    """PurePosixPath(path).parts, without building a path for a clean relative string (a path
    per page costs reconcile and the search index tens of ms on 10,000 pages)."""
    if isinstance(path, str) and is_clean_relative(path):
        return path.split("/")
    return PurePosixPath(path).parts


def resolve_inside(root: Path, relative: str | Path) -> Path:
    """Resolve a path under root; raise RootError if it escapes (.., absolute, symlink)."""
    root_resolved = root.resolve()
    try:
        candidate = (root_resolved / relative).resolve()
    except RuntimeError as exc:  # Python 3.11: a symlink loop
        raise RootError(f"path {str(relative)!r} is a symlink loop", file=relative,
                        hint="remove or fix the symlink") from exc
    if candidate != root_resolved and root_resolved not in candidate.parents:
        raise RootError(
            f"path {str(relative)!r} escapes the memory root {root_resolved}",
            file=relative,
            hint="memory paths are relative to the root and may not leave it",
        )
    return candidate
