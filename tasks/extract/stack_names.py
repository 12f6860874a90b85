"""Names a single mention makes sure of, by where or how they are written (issue 23 item 4;
pure, precision first):

- the technology column of a table ("| Component | Responsibility | Tech |": "Kotlin,
  OptaPlanner", "NATS Server 2.10", "Apache Kafka 3.7 (Strimzi)") and a technology field
  ("**Language:** Go 1.23, single static binary", "| Runtime | Go 1.22 |"): each item a
  product the page's system is built on, its version and trailing kind words left out
  ("Go service" -> "Go", "Argo Workflows job" -> "Argo Workflows");
- a name written before a dotted version in prose ("upgrade to OpenTripPlanner 2.6", "runs
  Timefold Solver 1.9"), or a mixed-case name before a whole one ("InfluxDB 2"): only products
  carry release numbers. Not a word of the document's own parts ("Version 2.1", "Patch 4.2",
  "Section 3.1") nor ordinary English words alone ("Open Match 1.8" stays a candidate).

A known technology (tasks/extract/technologies.py) is left to its own rules in prose; in a
technology cell it is read like any other item.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tasks.extract.genres import field_of
from tasks.extract.non_subjects import sentence_cell
from tasks.extract.ordinary_words import common_word, ordinary_word, ordinary_words
from tasks.extract.structure import Structure
from tasks.extract.subject_terms import Seen, term_key
from tasks.extract.technologies import known_technologies, usual_spelling
from tasks.extract.text import plain_text
from tasks.markdown.tables import table_cells

# Column heads and field labels whose value names what a system is built with.
TECH_LABELS = frozenset(
    """tech technology technologies stack tech-stack runtime runtimes language languages framework
    frameworks software""".split()) | {"tech stack", "built with", "runs on", "written in"}
_DELIMITER_RE = re.compile(r"^\s*\|?\s*:?-{3,}")
# Where a cell's items part: commas, slashes, semicolons, "+", and words that join two products.
_ITEM_SPLIT_RE = re.compile(r"[,;/+]|\s(?:on|with|and|over|via|behind)\s")
_BRACKET_RE = re.compile(r"\(([^()]*)\)")
# A version ("3.7", "v1.22", "2.x", "R5") or a number of things ("1 replica") ends a name.
_VERSION_WORD_RE = re.compile(r"^(?:v?\d[\w.]*|\d+\.x)$")
_DIGIT_RE = re.compile(r"\d")
_MOST_WORDS = 4  # words of a product's name
_NAME_WORD_RE = re.compile(r"^[A-Za-z][\w.+#-]*$")
_KEY_RE = re.compile(r"-\d")
# What may stand before a sentence's first word (a list marker, a quote, a cell's bar, emphasis)
# and what ends the sentence before it.
_MARKERS = frozenset(" \t>*_+#|-")
_STOPS = frozenset(".!?:|")
# The cheap gate of a technology field: a line holds one of its labels' letters.
_FIELD_NEEDLES = ("ech", "tack", "untime", "anguage", "ramework", "oftware", "uilt", "uns on", "ritten in")
_MIXED_CASE_RE = re.compile(r"[a-z].*[A-Z]|[A-Z].*[a-z].*[A-Z]")  # "InfluxDB", "CentOS"; not "RHEL", "Ward"
# Words of a document's parts and of a release's process, never a product before its number.
# Licence families written with their version ("Apache 2.0", "GPL 3.0", "MPL 2.0"): no product.
_LICENCES = frozenset({"apache", "apache license", "gpl", "lgpl", "agpl", "mpl", "epl", "cc by", "cc-by"})
_PART_WORDS = frozenset(
    """version versions release releases patch patches section sections figure figures table tables
    step steps phase phases chapter appendix page pages item items rule rules sprint milestone
    build builds iteration stage stages level levels tier tiers priority option options part
    parts round rounds wave waves week day year quarter q gate gates ward room floor terminal
    pier platform line lines issue issues ticket tickets change changes rfc pep kep adr inc template
    draft form revision rev license licence qos eur usd gbp chf jpy aud cad nzd sek nok dkk pln inr
    cny""".split())  # and currencies ("EUR 11.40"), an MQTT level ("QoS 1")
# A vendor alone names no product ("Microsoft cloud").
_VENDORS = frozenset({"microsoft", "google", "amazon", "apache", "oracle", "ibm"})
# "OpenTripPlanner 2.6", "HAPI FHIR 5.7", "InfluxDB 2": up to three words before a version.
_VERSIONED_RE = re.compile(
    r"(?<![\w./-])(?P<name>[A-Z][\w+-]*(?:\.js)?(?:[ \t]+[A-Z][\w+-]*){0,2})[ \t]+v?"
    r"(?P<version>\d+\.\d+(?:\.\d+)?|\d{1,2})(?![\w%-]|\.\d|[ \t]?(?:%|[kKMG]?[Bb]\b|ms\b))")


def tech_cells(structure: Structure) -> Seen:
    """The products a technology column or field names, each where it is written."""
    seen: Seen = {}
    lines = structure.visible
    columns: list[int] = []
    last = -2
    for index in sorted(structure.holding("|", ":")):  # a row or a field: a line of neither ends a table
        number, line = lines[index]
        if index != last + 1:
            columns = []
        last = index
        if not line.lstrip().startswith("|"):
            columns = []
            # "**Language:** Go 1.23", "- Runtime: Python 3.12": a technology field outside a table.
            fielded = ":" in line and any(needle in line for needle in _FIELD_NEEDLES)
            field = field_of(line) if fielded else None
            if field and field[0] in TECH_LABELS:
                _add(seen, number, field[1])
            continue
        cells = table_cells(line)
        if index + 1 < len(lines) and _DELIMITER_RE.match(lines[index + 1][1]):
            columns = [i for i, cell in enumerate(cells) if _label(cell)]
        elif _DELIMITER_RE.match(line):
            continue
        elif columns:
            for column in columns:
                if column < len(cells):
                    _add(seen, number, cells[column])
        elif len(cells) == 2 and _label(cells[0]):  # a field as a two-column row: "| Runtime | Go |"
            _add(seen, number, cells[1])
    return seen


def versioned_names(prose: Iterable[tuple[int, str]]) -> Seen:
    """The names prose writes before a release number (see the module's docstring)."""
    seen: Seen = {}
    for number, line in prose:
        if _DIGIT_RE.search(line) is None:
            continue  # the cheap gate: no number, no version
        for match in _VERSIONED_RE.finditer(line):
            opens = _opens_sentence(line, match.start())
            written = match["name"].split()
            if any(usual_spelling(" ".join(written[at:])) for at in range(len(written))):
                continue  # "Amazon OpenSearch Service 2.13": a known technology keeps its own rules
            name = _product(written, dotted="." in match["version"], opens=opens)
            if name is not None:
                seen.setdefault(term_key(name), []).append((number, name))
    return seen


def _opens_sentence(line: str, at: int) -> bool:
    """Does the word at `at` open a sentence: nothing but markers before it on the line, or
    markers after a stop ("... done. Upgrade X 2.1", "| Upgrade X 2.1")?"""
    while at > 0 and line[at - 1] in _MARKERS:
        at -= 1
    return at == 0 or (line[at - 1] in _STOPS and at < len(line) and line[at] in " \t|")


def _label(cell: str) -> bool:
    return " ".join(plain_text(cell).strip(" *_:").lower().split()) in TECH_LABELS


def _add(seen: Seen, number: int, value: str) -> None:
    text = plain_text(value)
    if sentence_cell(text):
        return  # "| Framework | Loosely follows ISO/IEC/IEEE 42010: ... |": prose, no products
    for item in [*_ITEM_SPLIT_RE.split(_BRACKET_RE.sub(",", text)), *_BRACKET_RE.findall(text)]:
        name = _cell_name(item)
        if name is not None and all(line != number for line, _ in seen.get(term_key(name), [])):
            seen.setdefault(term_key(name), []).append((number, name))


def _cell_name(item: str) -> str | None:
    """An item of a technology cell as a product's name: its version and the lower-case words
    after the name left out ("Go 1.23 service" -> "Go"); a known technology in lower case too
    ("dbt"), or a known name of two words or more that opens a longer one ("Azure Database for
    PostgreSQL Flexible Server"; not "AWS" of "AWS Lambda"); None for words that name no product
    ("spot nodes", "single static binary")."""
    words = item.strip(" .`*_").split()
    kept: list[str] = []
    for at, word in enumerate(words):
        joins = word in {"for", "of"} and at + 1 < len(words) and words[at + 1][:1].isupper()
        if _VERSION_WORD_RE.match(word) and not _number_inside_name(kept, words[at:]):
            break
        if kept and word.islower() and not joins:
            break  # "Azure Database for PostgreSQL" is one name
        kept.append(word)
    text = " ".join(words)
    opening = [written for hits in known_technologies([(0, text)]).values() for _, written in hits
               if text.startswith(written) and (len(written.split()) >= len(kept) or len(kept) > _MOST_WORDS)]
    if opening:
        longest = max(opening, key=len)
        return usual_spelling(longest) or longest
    if not kept or len(kept) > _MOST_WORDS or not all(_NAME_WORD_RE.match(word) or word.isdigit() and at
                                                      for at, word in enumerate(kept)):
        return None
    name = " ".join(kept)
    if not name[:1].isupper() or kept[0].lower() in _PART_WORDS or name.lower() in _VENDORS:
        return None
    if kept[-1].lower().endswith("-free"):
        return None  # "Debezium-free polling publisher": built without the product
    if _described(kept, words[len(kept):]):
        return None
    return name


def _described(kept: list[str], rest: list[str]) -> bool:
    """Is an item a thing described in common words ("Display controllers, firmware 5.4",
    "Custom scripts"): a capitalized common word whose sentence goes on in lower case, no
    product's name (a product is named before its kind: "Go service" is known, read above)?"""
    return (bool(rest) and rest[0].isalpha() and rest[0].islower()
            and all(common_word(word) for word in kept))


def _number_inside_name(kept: list[str], rest: list[str]) -> bool:
    """Is the number that opens `rest` a word of a product's name, as vendors write a product
    line or edition between its words ("Pinnacle 21 Enterprise", "Dynamics 365 Business Central",
    "Windows Server 2022 Datacenter")? A whole number followed by a capitalized word, after a
    name no known technology's (not "Java 17 Spring Boot": Java's release); a number at the end
    or a dotted one is a release ("Camunda 8", "PostgreSQL 16", "Kafka 3.7")."""
    return (bool(kept) and rest[0].isdigit() and len(rest) > 1 and rest[1][:1].isupper()
            and rest[1].isalpha() and usual_spelling(" ".join(kept)) is None)


def _product(words: list[str], *, dotted: bool, opens: bool) -> str | None:
    """The product's name in the words before a version: an ordinary word that opens a
    sentence left out ("Upgrade OpenTripPlanner 2.6", "The EKS 1.29"), a ticket's key too; no
    word of a document's parts; not ordinary English words alone ("Cubic Validator 3.2");
    a whole version only after a mixed-case name ("InfluxDB 2", not "Ward 7")."""
    while words and _KEY_RE.search(words[0]):  # "CR-4471 InfluxDB 2.7": a ticket's key
        words = words[1:]
    if opens and len(words) > 1 and (ordinary_word(words[0]) or common_word(words[0])):
        words = words[1:]
    if words and " ".join(words).lower() in _LICENCES:
        return None  # "(LSTM models, Apache 2.0)": the licence a product is released under
    if (not words or any(word.lower() in _PART_WORDS for word in words)
            or ordinary_words(" ".join(words)) or not all(_NAME_WORD_RE.match(word) for word in words)):
        return None
    if not dotted and not any(_MIXED_CASE_RE.search(word) for word in words):
        return None
    return " ".join(words)
