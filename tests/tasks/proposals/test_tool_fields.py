"""A proposal written with the spec's memory_write fields (path, content, parentHubPath,
relation, op, section, visibility) passes the same gate as one with a `placement:` block."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.proposals.apply import process_in_chunks
from tasks.proposals.plan import Rejection
from tasks.proposals.tool_fields import is_tool_shaped, tool_proposal
from tasks.store.pages import read_page
from tasks.store.settings import load_settings
from tests.proposal_fixtures import EXISTING, proposal, proposal_markdown, seed_memory

NOW = "2026-03-25T09:00:00Z"
MEMORY = {"memoryRole": "knowledge", "source": "dream leg of the planner, session 12"}


def propose(root: Path, tmp_path: Path, data: dict[str, object], name: str = "p.md") -> object:
    file = tmp_path / name
    file.write_text(proposal_markdown(data), encoding="utf-8")
    return process_in_chunks(load_settings(root, fixed_clock=NOW), [file])


def test_a_spec_shaped_file_is_accepted_by_propose_as_a_new_leaf(tmp_path: Path) -> None:
    root = tmp_path / "m"
    seed_memory(root)
    data = {"path": "wiki/synthesis/upload-retry-findings.md", "parentHubPath": "wiki/synthesis",
            "relation": "child-of", "title": "Upload retry findings", "type": "feedback",
            "description": "What the planner learned about retrying uploads.", "memory": MEMORY,
            "body": "# Upload retry findings\n\nRetries beyond three never succeeded.\n"}
    report = propose(root, tmp_path, data)
    created = [a for a in report.artifacts if a.action == "created"]
    assert len(created) == 1 and created[0].path.startswith("wiki/synthesis/")
    page = read_page(root / created[0].path)
    assert page.meta["type"] == "feedback" and page.meta["child_of"] == ["wiki/synthesis/index.md"]


def test_a_spec_shaped_rewrite_section_keeps_the_old_text(tmp_path: Path) -> None:
    root = tmp_path / "m"
    seed_memory(root)
    before = read_page(root / EXISTING)
    anchor = next(line[3:].strip().lower() for line in before.body.splitlines()
                  if line.startswith("## "))
    data = {"path": EXISTING, "op": "rewrite-section", "section": anchor, "memory": MEMORY,
            "body": f"## {anchor}\n\nA brand new statement of the policy.\n"}
    report = propose(root, tmp_path, data)
    assert not report.problems, report.problems
    body = read_page(root / EXISTING).body
    assert "A brand new statement" in body and "## Superseded" in body


@pytest.mark.parametrize(("fields", "code", "field"), [
    ({"path": "wiki/synthesis/x.md"}, "placement_required", "parentHubPath"),
    ({"path": "wiki/synthesis/x.md", "parentHubPath": "wiki/synthesis", "relation": "sibling"},
     "placement_required", "relation"),
    ({"path": EXISTING}, "placement_required", "op"),
    ({"path": "wiki/synthesis/x.md", "op": "overwrite"}, "placement_required", "op"),
    ({"path": "wiki/synthesis/x.md", "visibility": "public"}, "invalid_frontmatter", "visibility"),
    ({"parentHubPath": "wiki/synthesis"}, "placement_required", "path"),
])
def test_fields_that_cannot_place_a_page_are_the_gates_rejections(
        fields: dict[str, str], code: str, field: str) -> None:
    data = {"content": "# X\n\nText.\n", **fields}
    assert is_tool_shaped(data)
    existing = {EXISTING: "---\ntitle: Retry policy\n---\n# Retry policy\n"}
    with pytest.raises(Rejection) as raised:
        tool_proposal(data, existing.get, lambda: "wiki/synthesis/index.md")
    assert (raised.value.code, raised.value.field) == (code, field)


def test_the_placement_block_still_wins(tmp_path: Path) -> None:
    assert not is_tool_shaped(proposal())
    assert not is_tool_shaped({**proposal(), "path": "wiki/x.md"})
    root = tmp_path / "m"
    seed_memory(root)
    report = propose(root, tmp_path, proposal())
    assert [a.action for a in report.artifacts][:1] == ["created"]


def test_content_front_matter_joins_the_proposal() -> None:
    data = {"path": "wiki/synthesis/x.md", "parentHubPath": "wiki/synthesis",
            "content": "---\ndescription: One sentence.\ntype: project\n---\n# X\n\nText.\n"}
    out = tool_proposal(data, lambda _p: None, lambda: "")
    assert out["description"] == "One sentence." and out["type"] == "project"
    assert out["body"] == "# X\n\nText.\n" and out["title"] == "x"
    assert out["placement"] == {"kind": "new_leaf", "hub": "wiki/synthesis"}


def test_a_pkf_header_in_content_joins_the_proposal() -> None:
    header = '{"type":"project","description":"One sentence.","pkfVersion":"1.1"}'
    data = {"path": "wiki/synthesis/x.md", "parentHubPath": "wiki/synthesis",
            "content": f'<script type="application/prismer+json">{header}</script>\n\n# X\n'}
    out = tool_proposal(data, lambda _p: None, lambda: "")
    assert (out["description"], out["type"], out["pkfVersion"]) == ("One sentence.", "project",
                                                                    "1.1")
    assert out["body"] == "# X\n" and out["placement"]["kind"] == "new_leaf"
    with pytest.raises(Rejection) as raised:
        tool_proposal({**data, "content": '<script type="application/prismer+json">[1]</script>'},
                      lambda _p: None, lambda: "")
    assert (raised.value.code, raised.value.field) == ("invalid_frontmatter", "content")
    assert "JSON list, not an object" in raised.value.message


def test_a_pkf_proposal_file_is_stored_as_markdown_with_yaml_front_matter(
        tmp_path: Path) -> None:
    import json

    root = tmp_path / "m"
    seed_memory(root)
    header = {"type": "note", "title": "Upload retry findings", "pkfVersion": "1.1",
              "description": "What the planner learned about retrying uploads.",
              "memory": MEMORY, "placement": {"kind": "new_leaf", "hub": "wiki/synthesis"}}
    file = tmp_path / "findings.pkf"
    file.write_text(f'<script type="application/prismer+json">{json.dumps(header)}</script>\n'
                    "# Upload retry findings\n\nRetries beyond three never succeeded.\n",
                    encoding="utf-8")
    report = process_in_chunks(load_settings(root, fixed_clock=NOW), [file])
    [created] = [a for a in report.artifacts if a.action == "created"]
    text = (root / created.path).read_text(encoding="utf-8")
    assert text.startswith("---\n") and "<script" not in text
    page = read_page(root / created.path)
    assert page.meta["pkfVersion"] == "1.1" and page.meta["memory"]["source"] == MEMORY["source"]
    assert page.body.startswith("# Upload retry findings")


def test_relation_related_places_the_page_under_the_hub_of_that_pages_folder() -> None:
    data = {"path": "wiki/synthesis/x.md", "parentHubPath": EXISTING, "relation": "related",
            "content": "---\ndescription: One sentence.\ntype: project\n---\n# X\n"}
    out = tool_proposal(data, lambda _p: None, lambda: "")
    assert out["placement"] == {"kind": "new_leaf", "hub": "wiki/concepts/index.md"}
    assert out["related"] == [EXISTING]
