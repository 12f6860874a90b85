"""A section's first prose paragraph (and the list it introduces) as one line, with its range."""

from __future__ import annotations

import re
from collections.abc import Mapping

from tasks.extract.model import MAX_OBSERVATION_CHARS, LineSpan
from tasks.extract.text import line_joint, plain_text, shorten

_ITEM_RE = re.compile(r"^(?:[-*+]|\d+[.)]|[a-z]\))\s+(.*)$")
# A paragraph ending like this introduces what follows a blank line ("We chose:", "because").
_LEAD_IN_RE = re.compile(r"(:|\bbecause|,)$")


def first_paragraph(
    lines: list[tuple[int, str]], code: Mapping[int, str] | None = None, *, limit: int = 0
) -> LineSpan | None:
    """The first prose paragraph (plus the list it introduces), as one line, with its range;
    `code` is the fenced code by line number, fence lines excluded."""
    chosen = _paragraph_lines(lines)
    if not chosen:
        return None
    sentence, items_seen = _joined(chosen)
    end_line = chosen[-1][0]
    if code and sentence and sentence[-1] not in ".!?:;)" and not items_seen:
        # "The catalog file should be named" + a code block: the block completes the sentence.
        sentence, end_line = _completed_by_code(sentence, end_line, code)
    if sentence.endswith(":") and not items_seen and ". " in sentence:
        sentence = sentence[: sentence.rfind(". ") + 1]  # drop a dangling "Example:" lead-in
    if not sentence:
        return None
    return shorten(sentence, limit or MAX_OBSERVATION_CHARS), chosen[0][0], end_line


def _paragraph_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The stripped lines of the first paragraph, and of the list its lead-in introduces."""
    chosen: list[tuple[int, str]] = []
    in_list_tail = False
    for number, line in lines:
        stripped = line.strip()
        if not chosen:
            if not stripped or stripped.startswith((":::", "![", "<!--", "|")) or stripped == "---":
                continue
            chosen.append((number, stripped))
            in_list_tail = bool(_ITEM_RE.match(stripped))
            continue
        if not stripped:
            if in_list_tail or not _LEAD_IN_RE.search(" ".join(text for _, text in chosen)):
                break
            in_list_tail = True
            continue
        is_item = bool(_ITEM_RE.match(stripped))
        if in_list_tail and not is_item and not line.startswith((" ", "\t")):
            break
        chosen.append((number, stripped))
    return chosen


def _joined(chosen: list[tuple[int, str]]) -> tuple[str, int]:
    """The lines as one plain sentence (list items joined with "; "), and how many were items."""
    parts: list[str] = []
    items_seen = 0
    previous = ""
    for _, text in chosen:
        item = _ITEM_RE.match(text)
        if item and parts:
            joiner = "; " if items_seen else " "
            parts.append(joiner + item.group(1))
            items_seen += 1
        elif item:
            parts.append(item.group(1))
            items_seen += 1
        else:
            parts.append((line_joint(previous, text) if parts else "") + text)
        previous = text
    return plain_text("".join(parts)), items_seen


def _completed_by_code(sentence: str, end_line: int, code: Mapping[int, str]) -> tuple[str, int]:
    """The sentence with the first code line of a block right after it, and its line."""
    for number in range(end_line + 1, end_line + 5):
        snippet = code.get(number, "").strip()
        if snippet:
            return f"{sentence} `{snippet}`", number
    return sentence, end_line
