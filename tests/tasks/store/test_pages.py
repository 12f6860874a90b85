from pathlib import Path

import pytest
import yaml

from tasks.store.errors import ContractError
from tasks.store.page_writes import write_page
from tasks.store.pages import (
    new_page_meta,
    parse_page_meta,
    plan_page_text,
    read_page,
    render_page,
    split_page,
)

T0 = "2026-03-24T22:40:05Z"
T1 = "2026-03-25T08:00:00Z"
META = {"type": "note", "title": "WAL mode", "description": "Why the store uses WAL mode."}


def test_render_is_stable_and_ordered() -> None:
    meta = new_page_meta(T0, **{"zeta": 1, **META, "child_of": "wiki/synthesis/index.md"})
    text = render_page(meta, "# WAL mode\n\nBody.\n")
    assert text == render_page(dict(reversed(list(meta.items()))), "# WAL mode\n\nBody.")
    keys = [line.split(":")[0] for line in text.split("---")[1].strip().splitlines() if not line.startswith("-")]
    assert keys == ["created_at", "updated_at", "utc_datetime_prefix", "type", "title", "description",
                    "child_of", "zeta"]
    assert "created_at: '2026-03-24T22:40:05Z'" in text
    assert "utc_datetime_prefix: '2026-03-24T22-40-05Z'" in text


def test_round_trip_validates(tmp_path: Path) -> None:
    path = tmp_path / "p.md"
    write_page(path, META, "# WAL mode\n", now_iso=T0)
    page = read_page(path)
    model = parse_page_meta(page.meta, file=path)
    assert model.created_at == T0 and model.utc_datetime_prefix == "2026-03-24T22-40-05Z"
    assert page.body == "# WAL mode\n"


def test_update_keeps_created_at_and_refreshes_updated_at_only_on_change(tmp_path: Path) -> None:
    path = tmp_path / "p.md"
    first = write_page(path, META, "Body one.", now_iso=T0)
    assert first.created and first.changed
    same = write_page(path, META, "Body one.", now_iso=T1)
    assert not same.changed
    assert read_page(path).meta["updated_at"] == T0
    changed = write_page(path, META, "Body two.", now_iso=T1)
    assert changed.changed and not changed.created
    meta = read_page(path).meta
    assert (meta["created_at"], meta["updated_at"]) == (T0, T1)
    # A caller cannot move created_at either.
    write_page(path, {**META, "created_at": T1}, "Body three.", now_iso=T1)
    assert read_page(path).meta["created_at"] == T0


def test_formatting_only_difference_is_normalized_without_touching_updated_at() -> None:
    messy = f"---\ntitle: WAL mode\ntype: note\ndescription: Why the store uses WAL mode.\ncreated_at: '{T0}'\nupdated_at: '{T0}'\nutc_datetime_prefix: '2026-03-24T22-40-05Z'\n---\nBody.\n"
    text = plan_page_text(messy, META, "Body.", now_iso=T1)
    assert text is not None and f"updated_at: '{T0}'" in text


def test_yaml_is_loaded_safely() -> None:
    evil = "---\nx: !!python/object/apply:os.system ['echo owned']\n---\nbody\n"
    with pytest.raises(ContractError, match="malformed YAML frontmatter"):
        split_page(evil, file="evil.md")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("---\ntitle: [unclosed\n---\nbody\n", "malformed YAML"),
        ("---\n- a list\n---\nbody\n", "not a mapping"),
    ],
)
def test_broken_frontmatter_names_the_file(text: str, message: str) -> None:
    with pytest.raises(ContractError, match=message) as info:
        split_page(text, file="wiki/x.md")
    assert info.value.file == "wiki/x.md"


def test_missing_required_field_names_file_and_field() -> None:
    with pytest.raises(ContractError) as info:
        parse_page_meta({"created_at": T0, "updated_at": T0, "type": "note"}, file="wiki/x.md")
    message = str(info.value)
    assert "wiki/x.md" in message and "utc_datetime_prefix" in message and "description" in message


def test_unquoted_yaml_timestamps_are_accepted() -> None:
    meta = yaml.safe_load(f"created_at: {T0}\nupdated_at: {T0}\n")
    model = parse_page_meta({**meta, "utc_datetime_prefix": "2026-03-24T22-40-05Z", **META}, file="x")
    assert model.created_at == T0


def test_unreadable_page(tmp_path: Path) -> None:
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"---\ntitle: x\n---\n\xff\xfe")
    with pytest.raises(ContractError, match="invalid UTF-8 at byte offset"):
        read_page(bad)
