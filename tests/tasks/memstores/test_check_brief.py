"""brief.md and platform entry files (tasks/memstores/check_brief.py) on plain trees."""

from __future__ import annotations

from pathlib import Path

from tasks.memstores.check_brief import check_agent_files, check_brief
from tasks.memstores.custodian import CustodianTree, parse_tree, read_agent_files


def _codes(brief: str) -> list[str]:
    return [f.code for f in check_brief(parse_tree(Path("m"), {"brief.md": brief}))]


def test_project_prose_with_links_is_a_brief() -> None:
    assert _codes("# Brief\n\nAtlas is a [tile server](https://x.org) that renders vector maps "
                  "for the city's transit app.\n") == []


def test_placeholders_comments_and_empty_labels_are_a_scaffold() -> None:
    assert _codes("# Project Brief\n\n<!-- fill me -->\n\nPurpose:\n\n- [project purpose]\n"
                  "- TODO describe the system shape and its main services\n") == ["mc_brief_scaffold"]


def test_a_project_brief_naming_memory_custodian_is_off_topic_only() -> None:
    assert _codes("Atlas renders vector map tiles for the transit app and caches them per "
                  "zoom level.\n\nThe memory-custodian CLI loads this file first.\n") == [
        "mc_brief_off_topic"]


def test_entry_files_are_read_from_the_folder_holding_docs(tmp_path: Path) -> None:
    memory = tmp_path / "repo" / "docs" / "memory"
    memory.mkdir(parents=True)
    (tmp_path / "repo" / "AGENTS.md").write_text("word " * 30, encoding="utf-8")
    (tmp_path / "AGENTS.md").write_text("not this project's", encoding="utf-8")
    files = read_agent_files(memory)
    assert list(files) == ["../../AGENTS.md"]
    tree = CustodianTree(root=memory, agent_files=files)
    assert check_agent_files(tree, lambda texts: [len(t.split()) for t in texts]) == []
    assert [f.message for f in check_agent_files(tree, lambda texts: [501] * len(texts))] == [
        "AGENTS.md is 501 tokens (at most 500): keep platform entry files short"]
    assert read_agent_files(tmp_path / "loose") == {}
