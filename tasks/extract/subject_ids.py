"""The identifier a document is filed under, as an alias of its entity (issue 23 item 4; pure).

Teams name a record by its key wherever they cite it ("per SR-DEC-07", "internal ref sc-4127");
the key the record states for itself makes such a citation resolve to it. Besides the keys
tasks/extract/document_keys.py reads (a genre document's title opening "INC-14: ..." and its
Reference or ID field), a record states its key:

- as the first words of its file name, when its text writes them too ("OR-2026-0117-ftl-
  exceedance.md" whose page says "OR-2026-0117"), spelled as the text writes it; or, a series of
  one short word, when its text writes the number ("kcs-000137-withdraw-ipt-dataset.md" whose
  page says "| Article Number | 000137 |"), spelled "KCS-000137";
- at its title's start or after its title's label, before a separator ("SR-DEC-07 — Product
  index engine", "sc-4127 · Decide how ...", "CAST analysis — SRCH-INC-0419: zero results"),
  in any case, a series of one or two words ("SR-DEC", "SRCH-INC"); or at the end of a title of
  a few words that name its kind ("ACTION CARD FW-3");
- in a header field named for the kind of record and "ID" ("| Decision ID | SR-DEC-07 |",
  "Change ID: CHG-24-031").

A key is a series of letters and a number, perhaps of more parts; not a version of a standard or
a hash ("SHA-256", "LTO-9": tasks/extract/document_keys.py lists their series), nor a date.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from tasks.extract.document_keys import NOT_RECORD_SERIES
from tasks.extract.genres import HeaderField
from tasks.extract.model import Extraction
from tasks.extract.record_fields import source_stem

_KEY = r"[A-Za-z]{2,8}(?:-[A-Za-z]{2,8})?-\d{1,8}(?:-\d{1,6})*"
_STEM_KEY_RE = re.compile(rf"({_KEY})(?=-[A-Za-z]|$)")
_SHORT_SERIES_RE = re.compile(r"[A-Za-z]{2,5}")  # one word: "kcs", not "forms-response"
# At the title's start, or after a label and a dash or colon; then a separator or the end.
_TITLE_KEY_RE = re.compile(
    rf"(?:^|^[A-Za-z][\w ]{{0,40}}?[ \t]+[—–:-][ \t]+)({_KEY})(?=[ \t]*(?:[—–:·|]|-[ \t]|$))")
# At the end of a title of a few words that end with the kind of page it is ("ACTION CARD FW-3",
# "Change request CHG-8812"); not after other words ("Upgrade the broker EMQX-5", "Follow-up to INC-42").
_TITLE_END_KEY_RE = re.compile(
    rf"^(?:[A-Za-z]{{2,20}}[ \t]+){{0,2}}(?P<kind>[A-Za-z]{{2,20}})[ \t]+({_KEY})$")
_PAGE_KINDS = frozenset("""card request change incident postmortem ticket issue story bug task record report
    review problem article plan runbook playbook procedure sop instruction checklist policy standard spec
    proposal memo note rfc adr decision""".split())
_VALUE_KEY_RE = re.compile(rf"^[`*_\[]*({_KEY})(?![\w-])")
_ID_FIELD_KINDS = frozenset("""decision record document doc change request rfc adr proposal design
    problem ticket story issue case occurrence report""".split())


def own_ids(title: str, stem: str, text: str, fields: Iterable[HeaderField]) -> list[str]:
    """The keys a record states for itself by its file name, its title and its ID field, in
    that order, once each."""
    found: list[str] = []
    stem_key = _STEM_KEY_RE.match(stem)
    if stem_key is not None:
        written = re.search(rf"(?<![\w/.-]){re.escape(stem_key.group(1))}(?![\w-])", text, re.I)
        series, number = stem_key.group(1).rsplit("-", 1)
        if written is not None:
            found.append(written.group())
        elif _SHORT_SERIES_RE.fullmatch(series) and re.search(rf"(?<![\w.-]){number}(?![\w-]|\.\d)", text):
            found.append(f"{series.upper()}-{number}")  # "| Article Number | 000137 |" of kcs-000137-...
    title_key = _TITLE_KEY_RE.match(title.strip())
    if title_key is not None:
        found.append(title_key.group(1))
    end_key = _TITLE_END_KEY_RE.match(title.strip())
    if end_key is not None and end_key["kind"].lower() in _PAGE_KINDS:
        found.append(end_key.group(2))
    for header in fields:
        words = header.key.split()
        if len(words) == 2 and words[1] == "id" and words[0] in _ID_FIELD_KINDS:
            value = _VALUE_KEY_RE.match(header.value.strip())
            if value is not None:
                found.append(value.group(1))
    kept: dict[str, str] = {}
    for key in found:
        if key.split("-", 1)[0].upper() not in NOT_RECORD_SERIES:
            kept.setdefault(key.lower(), key)
    return list(kept.values())


def add_own_ids(result: Extraction, text: str, fields: Iterable[HeaderField]) -> None:
    """Each key the document states for itself (own_ids) that its entity has no name for yet,
    as an alias of it."""
    subject = result.subject
    if subject is None:
        return
    have = {name.lower() for name in (*subject.ref.names, *subject.aliases)}
    ids = [key for key in own_ids(result.title, source_stem(result.source), text, fields)
           if key.lower() not in have]
    if ids:
        result.subject = replace(subject, aliases=(*subject.aliases, *ids))
