"""Rows of pipe tables as the extractors read them (pure)."""

from __future__ import annotations


def table_cells(line: str) -> list[str]:
    """The cells of one row of a pipe table, each stripped: `| a | b |` -> ["a", "b"] (the outer
    pipes optional, as GitHub's tables allow)."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]
