"""Markdown structure, read one way everywhere: fenced code (tasks.markdown.fences), block
tokens from markdown-it-py where the whole structure is needed (tasks.shard)."""
