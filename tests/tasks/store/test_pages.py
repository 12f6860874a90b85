from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_a_clock_behind_created_at_never_writes_an_updated_at_before_it(tmp_path: Path) -> None:
    # A page made by a machine whose clock ran ahead, updated by one whose clock reads earlier
    # (or a fixed clock set before the memory was made): updated_at stays at created_at, so the
    # page the writer makes is one the page contract accepts.
    path = tmp_path / "p.md"
    write_page(path, META, "Body one.", now_iso=T1)
    write_page(path, META, "Body two.", now_iso=T0)
    page = read_page(path)
    assert (page.meta["created_at"], page.meta["updated_at"]) == (T1, T1)
    assert page.body.strip() == "Body two."
    parse_page_meta(page.meta, file=path)
    created_later = new_page_meta(T0, **META) | {"created_at": T1}
    fresh = split_page(plan_page_text(None, created_later, "Body.", now_iso=T0))
    assert fresh.meta["updated_at"] == T1


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


def _plan_page_text_before(existing: str | None, meta: dict, body: str, *, now_iso: str) -> str | None:
    """plan_page_text as it was before ingest32 (whole renders and strips): the reference."""
    from tasks.store.pages import _VOLATILE_KEYS, ordered_frontmatter, utc_prefix

    wanted = dict(meta)
    wanted.setdefault("created_at", now_iso)
    wanted.setdefault("utc_datetime_prefix", utc_prefix(wanted["created_at"]))
    if existing is None:
        wanted["updated_at"] = wanted.get("updated_at") or now_iso
        return render_page(wanted, body)
    old = split_page(existing)
    for key in ("created_at", "utc_datetime_prefix"):
        if key in old.meta:
            wanted[key] = old.meta[key]
    wanted["updated_at"] = old.meta.get("updated_at", now_iso)
    candidate = render_page(wanted, body)
    if candidate == existing:
        return None
    old_content = {k: v for k, v in ordered_frontmatter(old.meta).items() if k not in _VOLATILE_KEYS}
    new_content = {k: v for k, v in ordered_frontmatter(wanted).items() if k not in _VOLATILE_KEYS}
    if old_content == new_content and old.body.strip("\n") == body.strip("\n"):
        return candidate
    wanted["updated_at"] = now_iso
    return render_page(wanted, body)


_BODIES = st.lists(st.sampled_from(["", "\n", "# T", "row a", "row b", "\n\n", "x\ny"]),
                   max_size=5).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(old_body=_BODIES, new_body=_BODIES, title=st.sampled_from(["A", "B"]),
       old_title=st.sampled_from(["A", "B"]), mangle=st.sampled_from(["", "\n", "\n\n", "x"]))
def test_plan_page_text_equals_whole_renders(old_body: str, new_body: str, title: str,
                                             old_title: str, mangle: str) -> None:
    # (ingest32) the text compared and joined in parts is the text of whole renders: same
    # result for unchanged pages, formatting-only changes, real changes and hand-mangled files
    from tasks.store.pages import plan_page_text

    earlier, now = "2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z"
    meta = {"type": "hub", "title": title}
    old_meta = {"created_at": earlier, "updated_at": earlier, "utc_datetime_prefix": "2026-03-01T10-00-00Z",
                "type": "hub", "title": old_title}
    existing = render_page(old_meta, old_body)
    for text in (existing, existing + mangle, existing.replace("---\n\n", "---\n", 1), None):
        assert plan_page_text(text, meta, new_body, now_iso=now) == _plan_page_text_before(
            text, meta, new_body, now_iso=now)


def test_changed_page_head_is_the_head_plan_page_text_writes_for_a_changed_body() -> None:
    from tasks.store.pages import changed_page_head, plan_page_text, split_page

    metas = [{"type": "index", "title": "Memory index", "description": "All."},
             {"type": "hub", "title": "T", "created_at": "2026-01-01T00:00:00Z"}]
    olds = ["---\ncreated_at: '2026-02-01T00:00:00Z'\nupdated_at: '2026-02-02T00:00:00Z'\n"
            "utc_datetime_prefix: '2026-02-01T00-00-00Z'\ntype: index\n---\n\n# Old\n",
            "---\nupdated_at: '2026-02-02T00:00:00Z'\ntype: hub\n---\n\nold body\n",
            "---\ncreated_at: '2027-01-01T00:00:00Z'\ntype: index\ntitle: Memory index\n---\n\nx\n"]
    for existing in olds:
        for meta in metas:
            for now in ("2026-03-01T00:00:00Z", "2026-01-15T00:00:00Z"):
                old = split_page(existing)
                text = plan_page_text(existing, meta, "\n# New body\n\nrows\n", now_iso=now)
                head = changed_page_head(old.meta, meta, now_iso=now)
                assert text == f"{head}\n# New body\n\nrows\n", (existing, meta, now)
