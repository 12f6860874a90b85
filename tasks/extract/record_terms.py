"""Readers of how a decision record writes a name that is not what the record is about: a name
it gives only as an example ("e.g. in Protobuf, GraphQL or similar"), a technology with the
kind of thing it is ("MySQL database" beside MySQL), a plural of a name it writes
("Puppetmasters" beside "Puppetmaster") and an organisation whose convention it follows
("Airbnb code style"). Used by
genre_subjects._record_subject."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from tasks.extract.technologies import usual_spelling
from tasks.extract.text import word_spans

# How far before a name its example marker may stand: one list in one sentence.
_EXAMPLE_REACH = 160
# "e.g." and "i.e." end in a full stop that ends no sentence.
_ABBREVIATION_RE = re.compile(r"\b(?:e\.g|i\.e|etc)\.", re.I)  # kept apart from a sentence's end
_SENTENCE_END_RE = re.compile(r"[.!?;:](?:\s|$)|\n[ \t]*\n")
_EXAMPLE_MARKER_RE = re.compile(r"\b(?:e\u00b7g\u00b7|for example|for instance|such as|like)[ \t\n,:]", re.I)
_LIST_AFTER_RE = re.compile(r"[^.;:!?)\n]{0,80}?(?:,|\bor\b|\band\b|\betc\b)", re.I)
# What an organisation issues for others to follow ("Airbnb code style", "GDS policy").
_CONVENTION_AFTER_RE = re.compile(
    r"[ \t]+(?:for the[ \t]+)?(?:code style|style guide|policy|policies|guidelines|standards)\b", re.I)
# A model a document follows: "modelled on the X process", "based on the X template".
_MODEL_BEFORE_RE = re.compile(
    r"\b(?:modell?ed\s+(?:on|after)|based\s+on|adapted\s+from|follows|following)\s+(?:the\s+|an?\s+)?"
    r"(?:[A-Z][\w.-]*\s+)?$")
_MODEL_AFTER_RE = re.compile(r"(?: [A-Z][\w-]*)? (?:process|template|format|style|model)\b")
# Kinds of thing a record writes after a technology's name ("MySQL database", "S3 bucket").
_KIND_WORDS = frozenset({"database", "databases", "platform", "cluster", "clusters", "bucket", "buckets"})


def written_as_no_subject(name: str, written: list[str], text: str) -> bool:
    """Does the record write `name` (spelled as in `written`) only as an example, as the
    organisation behind a convention, as a technology with its kind or as a plural of a name
    it writes?"""
    spellings = [name, *written]
    return (named_as_example(spellings, text) or issues_a_convention(spellings, text)
            or kind_beside_technology(name) or plural_of_written(name, text))


def named_as_example(written: Iterable[str], text: str) -> bool:
    """Is every place `text` writes one of `written` inside a list of examples ("(e.g. in
    Protobuf, GraphQL or similar)", "infrastructure ... like Bigtable databases, Pub/Sub topics,
    S3 buckets or CDNs"): an example the record gives, not what it decides about?"""
    spans = _places(written, text)
    return bool(spans) and all(_in_example_list(text, start, end) for start, end in spans)


def _in_example_list(text: str, start: int, end: int) -> bool:
    """Does an example marker open the sentence's list that holds text[start:end]?"""
    window = text[max(0, start - _EXAMPLE_REACH):start]
    window = _ABBREVIATION_RE.sub(lambda m: m.group().replace(".", "\u00b7"), window)
    sentence_starts = [m.end() for m in _SENTENCE_END_RE.finditer(window)]
    sentence = window[sentence_starts[-1]:] if sentence_starts else window
    markers = list(_EXAMPLE_MARKER_RE.finditer(sentence))
    if not markers:
        return False
    return "," in sentence[markers[-1].end():] or bool(_LIST_AFTER_RE.match(text, end))


def issues_a_convention(written: Iterable[str], text: str) -> bool:
    """Is every place `text` writes one of `written` right before a convention it issues
    ("ESLint with Airbnb code style", "GDS policy for hosting"): the organisation whose style or
    policy the record follows, not a technology it uses?"""
    spans = _places(written, text)
    return bool(spans) and all(_CONVENTION_AFTER_RE.match(text, end) for _, end in spans)


@lru_cache(maxsize=4)  # asked once per candidate name of the same page: flatten the page once
def _one_line(text: str) -> str:
    return _WHITESPACE_RUN_RE.sub(" ", text)


_WHITESPACE_RUN_RE = re.compile(r"\s+")


def follows_a_model(written: Iterable[str], text: str) -> bool:
    """Is every place `text` writes one of `written` the name of a process or template the
    document is modelled on ("modelled on the Debian DEP process", "based on the Google SRE
    postmortem template", "follows the MADR format"): how the team writes, not what it runs?"""
    flat = _one_line(text)  # a name wrapped across lines ("the Debian\nDEP process")
    spans = _places(written, flat)
    return bool(spans) and all(_MODEL_BEFORE_RE.search(flat[max(0, start - 40):start])
                               and _MODEL_AFTER_RE.match(flat, end) for start, end in spans)


def kind_beside_technology(name: str) -> bool:
    """Is `name` a known technology followed by the kind of thing it is ("MySQL database",
    "Node.js platform", "S3 bucket"): the technology again, or a kind of thing, not a
    system of its own ("S3 govuk-integration-artefact bucket" names one)?"""
    head, _, last = name.rpartition(" ")
    return bool(head) and last.lower() in _KIND_WORDS and usual_spelling(head) is not None


def plural_of_written(name: str, text: str) -> bool:
    """Is one-word `name` the plural of a name `text` writes on its own ("Puppetmasters" beside
    "Puppetmaster"): the same thing, counted twice?"""
    return (" " not in name and len(name) > 3 and name.endswith("s") and not name.endswith("ss")
            and bool(word_spans(text, name[:-1])))


def _places(written: Iterable[str], text: str) -> list[tuple[int, int]]:
    """Where `text` writes any of `written`, as whole words."""
    return [span for name in set(written) if name for span in word_spans(text, name)]
