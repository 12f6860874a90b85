"""forget's apply guards on plain plans: the plan hash, needs_rewrite, broad matches."""

from __future__ import annotations

import pytest

from tasks.privacy.forget_guards import broad_reasons, check_apply, plan_hash, rewrite_rows
from tasks.privacy.forget_plan import ForgetPlan, PageChange, Target
from tasks.privacy.units import Unit, body_units, is_entry, matching_units
from tasks.store.errors import InputError


def _plan(topic: str = "Falcon", *, rewrite: bool = False, before: str = "a") -> ForgetPlan:
    plan = ForgetPlan("soft", Target((topic,), frozenset(), "the topic"))
    units = [Unit(3, 5, "paragraph")] if rewrite else []
    plan.pages = [PageChange("wiki/sources/x.md", False, "remove list item, lines 2-2", "new",
                             [Unit(1, 2, "list item"), *units], units, before)]
    return plan


ROWS = [("wiki/sources/x.md", "rewrite page: remove list item, lines 2-2")]


def test_the_hash_changes_with_the_plan_and_not_with_the_clock() -> None:
    digest = plan_hash(_plan(), ROWS)
    assert len(digest) == 12 and digest == plan_hash(_plan(), ROWS)
    same_but_new_text = _plan()
    same_but_new_text.pages[0].text = "another updated_at"
    assert plan_hash(same_but_new_text, ROWS) == digest  # the rewrite's timestamp is not in it
    assert plan_hash(_plan(before="b"), ROWS) != digest  # the page changed since it was shown
    assert plan_hash(_plan(), [*ROWS, ("log.md", "rewrite")]) != digest
    assert plan_hash(ForgetPlan("hard", _plan().target), ROWS) != plan_hash(ForgetPlan("soft", _plan().target), ROWS)


def test_apply_needs_the_hash_of_the_plan_shown() -> None:
    plan = _plan()
    digest = plan_hash(plan, ROWS)
    with pytest.raises(InputError, match="needs --confirm-plan HASH"):
        check_apply(plan, ROWS, confirm=None, allow_broad=True)
    with pytest.raises(InputError, match="is not the hash of this plan"):
        check_apply(plan, ROWS, confirm="0123456789ab", allow_broad=True)
    assert check_apply(plan, ROWS, confirm=digest.upper(), allow_broad=False) == digest


def test_needs_rewrite_and_short_topics_need_allow_broad_match() -> None:
    plan = _plan(rewrite=True)
    digest = plan_hash(plan, ROWS)
    assert rewrite_rows(plan)[0][1].startswith("needs_rewrite: paragraph, lines 4-5")
    with pytest.raises(InputError, match="1 unit.* need a manual rewrite"):
        check_apply(plan, ROWS, confirm=digest, allow_broad=False)
    assert check_apply(plan, ROWS, confirm=digest, allow_broad=True) == digest
    short = _plan("WAL")
    assert broad_reasons(short) == ["topic 'WAL' is shorter than 5 characters and matches broadly"]
    with pytest.raises(InputError, match="shorter than 5"):
        check_apply(short, ROWS, confirm=plan_hash(short, ROWS), allow_broad=False)


def test_entries_are_list_items_and_sections_prose_is_not() -> None:
    body = ("# Page\n\nFalcon is mentioned in prose.\n\n- Falcon bullet\n\n| a | b |\n|---|---|\n"
            "| Falcon | 1 |\n\n```\nfalcon()\n```\n\n## Falcon rollout\n\ntext\n")
    units = matching_units(body, lambda t: "falcon" in t.casefold())
    assert [(u.kind, is_entry(u)) for u in units] == [
        ("paragraph", False), ("list item", True), ("table", False), ("fence", False),
        ("section", True)]
    assert all(u.kind != "section" for u in body_units(body))


def test_a_field_naming_it_keeps_its_shape_and_the_description_becomes_the_title() -> None:
    from tasks.privacy.forget_plan import FORGOTTEN_VALUE, without_fields

    target = Target(("WAL",), frozenset(), "the topic")
    meta = {"title": "Storage notes", "description": "Runs in WAL mode.", "tags": ["wal", "sqlite"],
            "memory": {"memoryRole": "knowledge", "source": "dream leg about WAL"}}
    out = without_fields(meta, ["description", "tags", "memory"], target)
    assert out == {"title": "Storage notes", "description": "Storage notes", "tags": ["sqlite"],
                   "memory": {"memoryRole": "knowledge", "source": FORGOTTEN_VALUE}}
