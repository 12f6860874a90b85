"""Front matter: the mapping, the body after it, and the line each key was written on."""

from __future__ import annotations

from tasks.extract.front_matter import key_lines, meta_line, split_frontmatter


def test_yaml_front_matter_knows_the_line_of_each_key() -> None:
    meta, body, first = split_frontmatter("---\ntitle: 1.10\n\nstatus: done\n---\n# T\n")
    assert meta == {"title": "1.10", "status": "done"}  # a title kept as written
    assert (body, first) == (["# T", ""], 6)
    assert dict(key_lines(meta)) == {"title": 2, "status": 4}
    assert meta_line(meta, "status") == 4 and meta_line(meta, "missing") == 1


def test_an_unquoted_colon_keeps_its_line_and_loose_front_matter_has_none() -> None:
    meta, _, _ = split_frontmatter("---\nid: x\ntitle: a: b\n---\nx\n")  # strict YAML refuses it
    assert meta == {"id": "x", "title": "a: b"} and meta_line(meta, "title") == 3
    meta, _, _ = split_frontmatter("---\ntitle: a: b\ntags:\n  - [x\n---\nx\n")  # too complex
    assert meta == {"title": "a: b"}
    assert dict(key_lines(meta)) == {} and meta_line(meta, "title") == 1
    assert split_frontmatter("# T\n") == ({}, ["# T", ""], 1)
    assert split_frontmatter("---\nunclosed: yes\n") == ({}, ["---", "unclosed: yes", ""], 1)
