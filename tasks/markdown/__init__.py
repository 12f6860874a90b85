"""Markdown structure, read one way everywhere (issue 12: no other module scans markdown itself).

- parser: the markdown-it-py parsers (block, inline, front matter), built once each.
- blocks: the block model: a text's top-level blocks, a body's headings, fences and paragraphs,
  its sections (`Section`) and their anchors, read once from markdown-it's block tokens; the
  gate, the page writers, search, distill and the shard planner all read it.
- frontmatter: where a leading YAML front matter block is (offsets, lines taken).
- fences: which lines are fenced code, by CommonMark's rules (the line readers' base), and the
  fences nested in a container block (where a shard cut closes and reopens one).
- outline: ATX headings (the measured fast path), the first prose sentence, inline cleaning.
- sections: a body's `##` sections (the block model's); split, join, merge keeping superseded
  text.
- links: inline links and images, local link paths, `<a rel href>` typed links.
- code_spans: inline code spans of a line (CommonMark's backtick runs and escapes), masked or
  replaced keeping the rest of the line.

Each line-level fast path is property-tested against markdown-it-py tokens (tests/tasks/markdown).
"""
