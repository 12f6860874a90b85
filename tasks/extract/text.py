"""Inline text helpers: markdown to plain words, shortening with a visible mark, name cleanup."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from schemas.common import NON_MEANINGFUL_NAMES
from tasks.extract.links import links_as_text
from tasks.extract.model import CUT_MARK, MAX_NAME_CHARS, MAX_OBSERVATION_CHARS
from tasks.markdown.code_spans import code_spans

_EMPHASIS_RE = re.compile(r"(\*\*|__)(.+?)\1")
# `*word*` emphasis: an asterisk that opens before a word and closes after one, with no word
# character or asterisk outside ("*Keep my reading history* on"; not "rpt_loans_*" or "2 * 3 * 4").
_SINGLE_EMPHASIS_RE = re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*\n]*?[^\s*\\])\*(?![\w*])")
_HTML_COMMENT_RE = re.compile(r"<!--.*?(?:-->|$)")
_HTML_TAG_RE = re.compile(r"</?[A-Za-z][^<>]*>")
_LIST_MARKER_RE = re.compile(r"^(?:[-*+>#=]+|\d+[.)])\s*(?=\S)")

# Words that start sentences or are too common to be an entity on their own.
STOPWORDS = frozenset(
    """a an and are as at be but by can do for from has have he her his how i if in into is it its
    may more most must no not of on or our out she should so some such that the their them then
    there these they this those to up us was we were what when where which while who why will with
    would you your all any also after before each every here however now one only other over same
    see since still than through under until use used using via yes if else note example examples
    currently finally additionally instead otherwise because although""".split()
)


def word_spans(text: str, word: str, *, not_before: str = "-", not_after: str = "-") -> list[tuple[int, int]]:
    r"""Where `word` (not empty) is written in `text` with no word character or hyphen beside it,
    leftmost first and not overlapping: the spans of `(?<![\w-])word(?![\w-])`, found by
    `str.find` (a pattern made for each name is compiled for each document that names it).
    `not_before` and `not_after`: the characters besides word characters that may not stand
    right before or after it (a path's "/.-": `(?<![\w/.-])word(?![\w/-])`)."""
    if not word:
        raise ValueError("word_spans: an empty word is written everywhere; hint: ask for a word")
    before, after = f"_{not_before}", f"_{not_after}"
    spans: list[tuple[int, int]] = []
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if not (at and (text[at - 1].isalnum() or text[at - 1] in before)) and not (
                end < len(text) and (text[end].isalnum() or text[end] in after)):
            spans.append((at, end))
            at = text.find(word, end)
        else:
            at = text.find(word, at + 1)
    return spans


def word_places(text: str, word: str, after: re.Pattern[str]) -> Iterator[re.Match[str] | None]:
    r"""For each place `text` writes `word` (not empty) with no word character or hyphen beside
    it, leftmost first, the match of `after` right behind it, or None; the next place is looked
    for behind that match. The same places and matches as `(?<![\w-])word(?![\w-])(after)?`
    (with `after` as written), found by `str.find` and `after` compiled once, not a pattern
    compiled for each word."""
    if not word:
        raise ValueError("word_places: an empty word is written everywhere; hint: ask for a word")
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if not (at and (text[at - 1].isalnum() or text[at - 1] in "_-")) and not (
                end < len(text) and (text[end].isalnum() or text[end] in "_-")):
            match = after.match(text, end)
            yield match
            at = text.find(word, max(end, match.end()) if match else end)
        else:
            at = text.find(word, at + 1)


# A line that is one bold phrase, perhaps after a mark ("✅ **Safe migration under load**", "1.
# **Deeper monitoring**"), ending in no punctuation: the lead-in of the text under it.
_LEAD_IN_RE = re.compile(r"[^\w*_]{0,4}(\*\*|__)[^*_]{2,120}?[^*_.:!?;,]\1\s*")


def joined_lines(lines: Iterable[str]) -> str:
    """Lines of a paragraph or an item joined by spaces, a bold lead-in line by ": " ("Safe
    migration under load: We migrated ..."), which a space would run into the text."""
    out, previous = "", ""
    for line in lines:
        if out:
            out += line_joint(previous, line)
        out += line
        previous = line
    return out


def line_joint(line: str, following: str) -> str:
    """What joins `line` to the `following` line of its paragraph: ": " after a bold lead-in
    whose text goes on, capitalized, below it; else a space."""
    return ": " if following[:1].isupper() and _LEAD_IN_RE.fullmatch(line) else " "


@lru_cache(maxsize=16_384)  # pure; the line readers, genre readers and subject rules of one
# document ask for the same lines' plain text (83k calls, 27k distinct texts on 300 sources)
def plain_text(text: str) -> str:
    """Inline markdown to plain words: links keep their text, emphasis and tags are dropped."""
    text = links_as_text(text)
    if "**" in text or "__" in text:  # the regexes' own first characters: most lines skip them
        text = _EMPHASIS_RE.sub(lambda m: m.group(2), text)
    if "*" in text:
        text = _without_single_emphasis(text)
    if "<" in text:
        text = _without_tags(text) if "`" in text else strip_tags(text)
    return " ".join(text.split())


def _without_single_emphasis(text: str) -> str:
    """`text` without `*emphasis*` marks outside code spans (`ls *.md *.txt` keeps its globs)."""
    if "`" not in text:
        return _SINGLE_EMPHASIS_RE.sub(r"\1", text)
    kept: list[str] = []
    position = 0
    for span in code_spans(text):
        kept += [_SINGLE_EMPHASIS_RE.sub(r"\1", text[position:span.start]), text[span.start:span.end]]
        position = span.end
    kept.append(_SINGLE_EMPHASIS_RE.sub(r"\1", text[position:]))
    return "".join(kept)


def _without_tags(text: str) -> str:
    """`text` without its HTML tags and comments outside code spans: a placeholder in code
    (`SELECT alter_job(<job_id>, ...)`, `cupsenable <printer>`) is part of the command."""
    kept: list[str] = []
    position = 0
    for span in code_spans(text):
        kept += [strip_tags(text[position:span.start]), text[span.start:span.end]]
        position = span.end
    kept.append(strip_tags(text[position:]))
    return "".join(kept)


def strip_tags(text: str) -> str:
    """`text` without HTML tags, then without HTML comments."""
    return _HTML_COMMENT_RE.sub("", _HTML_TAG_RE.sub("", text))


def shorten(text: str, limit: int = MAX_OBSERVATION_CHARS) -> str:
    """`text`, or its start cut at a sentence (else a word) boundary with a visible mark."""
    if len(text) <= limit:
        return text
    cut = text[: limit - len(CUT_MARK)]
    sentence_end = max(cut.rfind(". "), cut.rfind("; "), cut.rfind("! "), cut.rfind("? "))
    if sentence_end > limit // 2:
        return cut[: sentence_end + 1].rstrip(";") + CUT_MARK
    return cut[: cut.rfind(" ")].rstrip(",;:") + CUT_MARK


def excerpt(line: str) -> str:
    """A line as a short plain-text excerpt (a candidate's context)."""
    return shorten(plain_text(line), 160)


def is_meaningful_name(name: str) -> bool:
    """Not empty, not one of the spec's non-meaningful names, has a letter, not too long."""
    key = name.strip().lower()
    return (
        bool(key)
        and key not in NON_MEANINGFUL_NAMES
        and len(key) <= MAX_NAME_CHARS
        and any(char.isalpha() for char in key)
    )


# Literals a document writes in capitals that name no thing ("NULL", "TBD").
_LITERALS = frozenset({"null", "nil", "none", "true", "false", "nan", "n/a", "tbd", "todo", "tba"})
# Words that join clauses, not the words of one name ("brokers out disk", "cache because it").
_CLAUSE_WORDS = frozenset({"out", "off", "into", "onto", "than", "because", "when", "while", "if", "unless"})


def well_formed_subject(name: str) -> bool:
    """Is a phrase shaped like the name of one thing: not a list ("a, b, c"), not a label cut
    from its field ("Discussions -"), not a literal ("NULL"), no clause word inside it?"""
    name = name.strip()
    if not name or "," in name or ";" in name or name.lower() in _LITERALS:
        return False
    if not (name[0].isalnum() or name[0] in "@.") or not (name[-1].isalnum() or name[-1] in ")+#"):
        return False
    if name.count("(") != name.count(")") or name.count('"') % 2:
        return False  # cut at a bracket or a quote: "DocSight)" of "stuck in OCR (DocSight)"
    return not any(word in _CLAUSE_WORDS for word in name.split()[1:-1])


def clean_name(name: str) -> str:
    """A name without a leading list marker or heading punctuation ("- User Access Scopes")."""
    previous = None
    while previous != name:
        previous, name = name, _LIST_MARKER_RE.sub("", name.strip())
    return name


def as_names(value: object) -> list[str]:
    """A front-matter value as a list of names ("a, b" or a list of strings and numbers)."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list | tuple):
        return [
            str(item).strip() for item in value if isinstance(item, str | int) and str(item).strip()
        ]
    return []


def snake(words: str) -> str:
    """Words as a snake_case identifier ("Depends On" -> "depends_on")."""
    return re.sub(r"[^a-z0-9]+", "_", words.strip().lower()).strip("_")
