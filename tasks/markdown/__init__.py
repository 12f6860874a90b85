"""Markdown structure, read one way everywhere (issue 12: no other module scans markdown itself).

- parser: the markdown-it-py parsers (block, inline, front matter), built once each.
- frontmatter: where a leading YAML front matter block is (offsets, lines taken).
- fences: which lines are fenced code, by CommonMark's rules (the line readers' base).
- outline: ATX headings (the measured fast path), the first prose sentence, inline cleaning.
- sections: `## ` sections with anchors; split, join, merge keeping superseded text.
- links: inline links and images, local link paths, `<a rel href>` typed links.
- code_spans: inline code spans of a line (CommonMark's backtick runs and escapes), masked or
  replaced keeping the rest of the line.

Each line-level fast path is property-tested against markdown-it-py tokens (tests/tasks/markdown).
"""
