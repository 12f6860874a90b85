"""tasks.store.safe_yaml: aliases rejected, key lines, duplicate keys, scalars as written."""

from __future__ import annotations

import datetime as dt

import pytest
import yaml

from tasks.store.safe_yaml import YamlAliasError, as_written, load_yaml, load_yaml_with_layout


def test_layout_of_a_mapping() -> None:
    data, layout = load_yaml_with_layout(
        "title: 1.10\ndescription: yes\ndate: 2026-03-01\nquoted: '1.10'\n"
        "tags: [a, b]\ntitle: again\n")
    assert data["title"] == "again" and data["description"] is True
    assert layout.lines == {"title": 0, "description": 1, "date": 2, "quoted": 3, "tags": 4}
    assert [(d.key, d.line, d.first_line) for d in layout.duplicates] == [("title", 5, 0)]
    assert as_written(True, layout, "description") == "yes"
    assert as_written(dt.date(2026, 3, 1), layout, "date") == "2026-03-01"
    assert as_written("1.10", layout, "quoted") == "1.10"
    assert as_written(["a", "b"], layout, "tags") == ["a", "b"]


def test_empty_and_non_mapping_documents() -> None:
    assert load_yaml_with_layout("")[0] is None
    data, layout = load_yaml_with_layout("- a\n- b\n")
    assert data == ["a", "b"] and layout.lines == {}


def test_aliases_and_unsafe_tags_are_refused() -> None:
    with pytest.raises(YamlAliasError, match="line 1"):
        load_yaml("a: &x [1, 2]\nb: *x\n")
    with pytest.raises(yaml.YAMLError):
        load_yaml("a: !!python/object/apply:os.system ['true']\n")
    assert load_yaml("a: '*not an alias*'\nb: &anchor-only 1\n") == {"a": "*not an alias*", "b": 1}
