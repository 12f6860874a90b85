"""The former paths of a moved page (tasks/extract/former_paths.py): front matter's Hugo
aliases and redirect_from, a "moved here from" note near the top; names that are no paths and
notes further down are none."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.former_paths import former_paths, path_tail
from tasks.extract.front_matter import split_frontmatter
from tasks.extract.structure import scan


def test_the_tail_of_a_path_is_its_last_folder_and_its_page() -> None:
    assert path_tail("/ops/pumpwatch-overview/") == ("ops", "pumpwatch-overview")
    assert path_tail("platform/scada-gateway.md") == ("platform", "scada-gateway")
    assert path_tail("../wiki/Gateway/index.html") == ("wiki", "gateway")
    assert path_tail("/v1.2/gateway") == ("v1.2", "gateway")
    assert path_tail("RB-07") is None and path_tail("Boiler gateway") is None
    assert path_tail("2023/24") is None


def found(text: str) -> list[str]:
    meta, body, first_line = split_frontmatter(text)
    return former_paths(meta, scan(body, first_line))


def test_front_matter_aliases_that_are_paths_and_redirects_are_former_paths() -> None:
    text = ("---\ntitle: Boiler gateway\naliases:\n  - /ops/gateway-overview/\n  - BGW\n"
            "redirect_from: [/wiki/old-gateway.html]\n---\n\n# Boiler gateway\n\nIt polls the boilers.\n")
    assert found(text) == ["/wiki/old-gateway.html", "/ops/gateway-overview/"]


def test_a_moved_note_near_the_top_names_the_former_path() -> None:
    text = ("# Boiler gateway\n\n> **Note:** this page moved here from `platform/boiler-gateway.md` in March.\n\n"
            "Migrated from [the old wiki](../wiki/gateway.md).\n\nFormerly at https://wiki.example.org/gw.\n")
    assert found(text) == ["platform/boiler-gateway.md", "../wiki/gateway.md"]
    far = "# Boiler gateway\n\n" + "Text.\n\n" * 20 + "The pumps moved from `a/b.md` to the new site.\n"
    assert found(far) == []


def test_a_moved_pages_former_path_is_an_alias_of_its_entity() -> None:
    text = "# Boiler gateway\n\nThis page moved here from `platform/boiler-gateway.md`.\n\n## Overview\n\nIt polls.\n"
    result = extract_facts(text, SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "kb/boiler-gateway.md"))
    assert result.subject is not None and "platform/boiler-gateway.md" in result.subject.aliases
