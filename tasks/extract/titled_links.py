"""Pages a document cites by their title in prose, without a link (pure).

Teams name another page by the words of its title and the kind of page it is: "the stand-in
balance proposal", "the Redress v2 doc", "see the Switchyard latency runbook", "the six-pager
*Switchyard Stand-in Balance*". Each such phrase is a reference by title words (`BY_WORDS`):
distill resolves it to the one document of the memory whose title holds every one of its words
and whose kind the noun allows (record_graph.RecordIndex); a phrase no document or several
documents match is no link.
"""

from __future__ import annotations

import re

from tasks.extract.record_links import BY_WORDS, RELATES_TO, RecordLink
from tasks.extract.structure import Structure
from tasks.markdown.code_spans import mask_code_spans
from tasks.markdown.links import INLINE_LINK_RE

# The nouns a page is called by, as written in prose (singular; case as a sentence writes them).
_KINDS = (r"proposal|design\s+doc(?:ument)?|design|doc|rfc|spec|six-pager|one-pager|runbook|playbook"
          r"|post-?mortem|incident\s+review|incident\s+report|write-up|adr|decision\s+record")
# Literal text one of those nouns holds, to find the lines worth reading.
_KIND_NEEDLES = ("roposal", "esign", " doc", "RFC", "pec", "pager", "unbook", "laybook", "ostmortem",
                 "ost-mortem", "ncident review", "ncident report", "rite-up", "ADR", "ecision record")
# A noun after the kind's that makes the phrase name something else ("the Student Systems design
# review" is a meeting, "the runbook template" a template, "the proposal process" a process).
_COMPOUND = (r"(?:reviews?|meetings?|forums?|boards?|teams?|groups?|sessions?|committees?|councils?|calls?"
             r"|syncs?|process|processes|templates?|phases?|principles?|patterns?|guidelines?|owners?"
             r"|authors?|writers?|system|systems|tools?|space|folder|repos?|repository|sections?)\b")
# "the <title words> <kind>": one to five words of a title before the noun, after an article or
# a possessive that makes the phrase name one page.
_WORDS_KIND_RE = re.compile(
    r"(?<![\w-])(?:the|our|their|its|this|that)\s++(?P<words>(?:\w[\w'-]*(?:\.\w+)*\s++){1,5}?)"
    rf"(?P<kind>{_KINDS})(?![\w-])(?!\s++{_COMPOUND})", re.I)
# "the <kind> *Title*" / 'the <kind> "Title"': the title in emphasis or quotes after the noun.
_KIND_TITLE_RE = re.compile(
    rf"(?<![\w-])(?P<kind>{_KINDS})\s++(?:\*{{1,2}}|_{{1,2}}|[\"“])(?P<words>[^*_\"”\n]{{3,80}}?)(?:\*{{1,2}}|_{{1,2}}|[\"”])",
    re.I)
# Words that say which page in time or in the team's life, not which title ("the new design",
# "the current runbook", "this proposal"): a phrase of those alone names no title.
_NOT_TITLE_WORDS = frozenset({
    "new", "old", "current", "latest", "original", "first", "second", "final", "draft", "same", "other",
    "previous", "next", "earlier", "later", "above", "below", "following", "whole", "full", "main",
    "relevant", "existing", "proposed", "accepted", "rejected", "approved", "team", "team's", "our",
    "a", "an", "the", "of", "for", "and", "to", "in", "on", "this", "that", "these", "those", "its",
    "incident", "design", "review", "system", "service", "overall", "detailed", "technical",
    "architecture", "decision", "last", "shared", "public", "internal", "written", "one",
})
_MIN_TITLE_WORD_CHARS = 3
# A verb among the words: they are a clause ("this page is outdated. The current design"), no title.
_VERB_RE = re.compile(
    r"\b(?:is|are|was|were|has|have|had|will|would|can|could|should|must|does|did|be|been)\b", re.I)
# The entity types (tasks/extract/genre_facts.GENRE_TYPES) a noun calls a page of; a noun not
# here ("doc", "write-up") calls a page of any kind.
_KIND_TYPES = {
    **dict.fromkeys(("proposal", "design", "design doc", "design document", "rfc", "spec", "six-pager",
                     "one-pager"), frozenset({"proposal", "document"})),
    **dict.fromkeys(("runbook", "playbook"), frozenset({"runbook"})),
    **dict.fromkeys(("postmortem", "post-mortem", "incident review", "incident report"),
                    frozenset({"incident"})),
    **dict.fromkeys(("adr", "decision record"), frozenset({"decision"})),
}


def kind_allows(kind: str, entity_type: str) -> bool:
    """Does the noun a phrase calls a page by (`kind`) fit a document of `entity_type`?"""
    allowed = _KIND_TYPES.get(kind)
    return allowed is None or entity_type in allowed


def phrase_parts(text: str) -> tuple[tuple[str, ...], str]:
    """A reference's title words and its noun, as titled_links writes them ("a b | runbook")."""
    words, _, kind = text.partition(" | ")
    return tuple(words.split()), kind


def title_words(text: str) -> tuple[str, ...]:
    """The words of a title or a phrase that may tell one page from another, lower-cased
    ("Switchyard Stand-in Balance" -> switchyard, stand-in, balance)."""
    words = re.findall(r"[\w][\w'-]*", text.lower())
    return tuple(word for word in words if word not in _NOT_TITLE_WORDS
                 and (len(word) >= _MIN_TITLE_WORD_CHARS or word[-1:].isdigit()))


# A link's text that calls a page by its title's words and its kind ("rate limiter design doc").
_LABEL_KIND_RE = re.compile(rf"^(?P<words>(?:\w[\w'-]*(?:\.\w+)*\s++){{1,5}}?)(?P<kind>{_KINDS})$", re.I)


def label_phrase(label: str) -> str | None:
    """The reference by title words a link's text makes when it ends with the noun of a kind of
    page ("[rate limiter design doc](https://docs.google.com/...)": "rate limiter | design doc")."""
    match = _LABEL_KIND_RE.match(" ".join(label.split()))
    if match is None or _VERB_RE.search(match["words"]):
        return None
    words = title_words(match["words"])
    return f"{' '.join(words)} | {' '.join(match['kind'].lower().split())}" if words else None


def titled_links(structure: Structure) -> list[RecordLink]:
    """The references by title words of the document's prose lines (not its headings or tables)."""
    links: list[RecordLink] = []
    visible = structure.visible
    for index in sorted(structure.holding(*_KIND_NEEDLES)):
        number, line = visible[index]
        if number in structure.heading_lines or line.lstrip().startswith("|"):
            continue
        # a link says what it means itself, and a code span names no page
        text = INLINE_LINK_RE.sub(lambda m: " " * len(m.group(0)), line) if "[" in line else line
        text = mask_code_spans(text) if "`" in text else text
        found = sorted([*_WORDS_KIND_RE.finditer(text), *_KIND_TITLE_RE.finditer(text)],
                       key=lambda m: m.start())
        for match in found:
            words = title_words(match["words"])
            if not words or _VERB_RE.search(match["words"]):
                continue
            kind = " ".join(match["kind"].lower().split())
            phrase = f"{' '.join(words)} | {kind}"
            excerpt = " ".join(line.split())[:300]
            links.append(RecordLink(RELATES_TO, False, phrase, None, None, number, excerpt, BY_WORDS))
    return links
