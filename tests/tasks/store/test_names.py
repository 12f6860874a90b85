import re
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.store.errors import AmbiguousNameError, InputError, RootError
from tasks.store.names import (
    in_shards,
    is_ambiguous,
    is_hub_page,
    is_structural,
    memory_file_name,
    parse_memory_file_name,
    resolve_inside,
    slug_from_title,
    utc_prefix,
)


@pytest.mark.parametrize(
    ("moment", "prefix"),
    [
        ("2026-03-24T22:40:05", "2026-03-24T22-40-05Z"),
        ("2026-03-24T22:40:05Z", "2026-03-24T22-40-05Z"),
        ("2026-03-24T23:40:05+01:00", "2026-03-24T22-40-05Z"),
        ("2026-03-24T22-40-05Z", "2026-03-24T22-40-05Z"),
    ],
)
def test_prefix_normalization(moment: str, prefix: str) -> None:
    assert utc_prefix(moment) == prefix


def test_prefix_rejects_garbage() -> None:
    with pytest.raises(InputError, match="not a UTC time"):
        utc_prefix("last tuesday")


def test_slug_from_title_is_intention_revealing() -> None:
    assert slug_from_title("Use WAL mode for SQLite!") == "use-wal-mode-for-sqlite"
    assert slug_from_title("  Décision: Été  ") == "decision-ete"


@pytest.mark.parametrize("title", ["", "   ", "data", "Info", "TEMP", "item", "unknown", "empty", "!!!"])
def test_ambiguous_names_are_rejected_with_clear_message(title: str) -> None:
    with pytest.raises(AmbiguousNameError, match="ambiguous"):
        slug_from_title(title, context="notes/x.md")


def test_memory_file_name_and_parse_round_trip() -> None:
    name = memory_file_name("2026-03-24T22-40-05Z", "dependency-relation")
    assert name == "2026-03-24T22-40-05Z__dependency-relation.md"
    parsed = parse_memory_file_name(name)
    assert (parsed.prefix, parsed.slug, parsed.ext) == ("2026-03-24T22-40-05Z", "dependency-relation", ".md")


@pytest.mark.parametrize(
    "name",
    ["notes.md", "2026-03-24__x.md", "2026-03-24T22-40-05Z_x.md", "2026-03-24T22-40-05Z__Bad Name.md"],
)
def test_misnamed_files_are_rejected(name: str) -> None:
    with pytest.raises(InputError, match="does not follow"):
        parse_memory_file_name(name)


def test_ambiguous_slug_in_file_name_is_rejected() -> None:
    with pytest.raises(AmbiguousNameError):
        parse_memory_file_name("2026-03-24T22-40-05Z__data.md")
    with pytest.raises(AmbiguousNameError):
        memory_file_name("2026-03-24T22-40-05Z", "temp")


@pytest.mark.parametrize(
    ("path", "structural"),
    [
        ("index.md", True),
        ("log.md", True),
        ("wiki/sources/index.md", True),
        ("context/knowledge-graph.index.jsonc", True),
        ("wiki/sources/shards/2026-03-24T22-40-05Z__big/shard-000.md", True),
        ("wiki/sources/shard-000.md", False),
        ("wiki/entities/2026-03-24T22-40-05Z__orchestrator.md", False),
    ],
)
def test_structural_files(path: str, structural: bool) -> None:
    assert is_structural(path) is structural


def test_resolve_inside_rejects_escape(tmp_path: Path) -> None:
    assert resolve_inside(tmp_path, "wiki/x.md") == tmp_path.resolve() / "wiki/x.md"
    with pytest.raises(RootError, match="escapes"):
        resolve_inside(tmp_path, "../outside.md")
    (tmp_path / "link").symlink_to("/etc")
    with pytest.raises(RootError):
        resolve_inside(tmp_path, "link/passwd")


def _structural_reference(relative_path: str) -> bool:
    """The PurePosixPath definition is_structural's string fast path must agree with."""
    path = PurePosixPath(relative_path)
    if path.parts and path.parts[0] in {"context", ".membank", "proposals"}:
        return True
    if path.name in {"index.md", "log.md"}:
        return True
    return bool(re.match(r"^shard-\d{3,}\.md$", path.name)) and "shards" in path.parts


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["context", ".membank", "proposals", "wiki", "shards", "index.md",
                                 "log.md", "shard-001.md", "shard-1.md", ".", "..", "", "x.md"]),
                max_size=5),
       st.booleans())
def test_is_structural_string_fast_path_agrees_with_the_path_reference(parts, absolute) -> None:
    text = ("/" if absolute else "") + "/".join(parts)
    assert is_structural(text) is _structural_reference(text)
    assert is_structural(PurePosixPath(text)) is _structural_reference(text)


def test_one_ambiguous_name_set_and_the_schema_message_names_all_of_it() -> None:
    from pydantic import TypeAdapter, ValidationError

    from schemas.common import NON_MEANINGFUL_NAMES, MeaningfulName

    assert all(is_ambiguous(n) for n in NON_MEANINGFUL_NAMES)
    with pytest.raises(ValidationError) as raised:
        TypeAdapter(MeaningfulName).validate_python("tmp")
    assert all(word in str(raised.value) for word in NON_MEANINGFUL_NAMES if word)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["wiki", "sources", "shards", "index.md", "xindex.md", "shard-001.md",
                                 "2026-03-24T22-40-05Z__big", "x.md"]), min_size=1, max_size=5))
def test_hub_and_shard_predicates_agree_with_the_path_reference(parts) -> None:
    """The string tests scan and reconcile use per page mean what the path parts say (on the
    clean root-relative paths they are given)."""
    text = "/".join(parts)
    path = PurePosixPath(text)
    assert is_hub_page(text) is (path.name == "index.md")
    assert in_shards(text) is ("shards" in path.parts[1:-1])  # a folder below the top
