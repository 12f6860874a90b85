"""The keys a document is known by, and the earlier incidents a postmortem cites by key (pure).

A record's key ("INC-2025-0731", "DISC-2291", "PD-20251104-02") names it wherever the team
writes it; so that a reference by key resolves to the document (tasks/distill/record_keys.py
has the design), each key the document states for itself is an alias of its entity:

- the key its title opens with ("INC-14: Catalog unavailable") or closes with in brackets
  ("Postmortem: Tessera assigned the same kit number twice (INC-2026-031)");
- the keys its header gives in a field that names the record itself ("| Incident | INC-2025-0731 |",
  "**Incident:** PD #Q3RK7 / INC-431 · ...", "Reference: INC-14").

A tracker key an action item ends with ("... — Declan Ruddock — PAY-311") is the item's ticket: kept
in the item's observation beside its owner, never its owner, never an entity.

A postmortem's "Related incidents" (or "Previous incidents") item that opens with an incident
key cites an earlier incident: the key is an incident entity, related `references_incident`;
when a document of the memory states that key, the registry resolves the name to it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tasks.extract.genres import HeaderField
from tasks.extract.model import NameRef, RelationFact
from tasks.extract.structure import Structure, section_key

INCIDENT_TYPE = "incident"
REFERENCES_INCIDENT = "references_incident"

# A record's key: an upper-case series and a number, perhaps of more parts ("INC-2025-0731").
# Not a severity or a priority ("SEV-2", "P1": a series of one letter, or SEV), not a version of
# a standard or a hash ("SHA-256", "TLS-1", "LTO-9", "ISO-8601"): their series are listed.
_KEY_RE = re.compile(r"(?<![\w/.#@-])(?P<series>[A-Z]{2,8})-(?P<number>\d{1,8}(?:-\d{1,6})?)(?![\w-]|\.\d)")
NOT_RECORD_SERIES = frozenset({"SEV", "SHA", "MD", "TLS", "SSL", "LTO", "ISO", "UTF", "HTTP", "IPV",
                               "CVE", "CWE", "GPT", "AES", "RSA", "DNS", "EC", "US", "EU", "UK"})
# Header fields that give the record's own key: an incident write-up's Incident field, any keyed
# record's ID or Reference (a meeting's or a runbook's "Incident: INC-14" names another record).
_INCIDENT_KEY_FIELDS = frozenset({"incident", "incident id", "incident key", "incident number",
                                  "incident ref", "incident reference",
                                  # an investigation report's own number (NTSB's "Report Number")
                                  "report number", "report no", "report id", "report reference"})
_RECORD_KEY_FIELDS = frozenset({"reference", "ref", "id", "key", "record id"})
_TITLE_BRACKET_KEY_RE = re.compile(r"\((?P<key>[A-Z]{2,8}-\d{1,8}(?:-\d{1,6})?)\)\s*$")
# Sections of a postmortem that list the earlier incidents it follows.
_RELATED_INCIDENT_SECTIONS = frozenset({"related incidents", "previous incidents", "prior incidents",
                                        "similar incidents", "earlier incidents", "related incident"})
_ITEM_KEY_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[|\*\*)?(?P<key>[A-Z]{2,8}-\d{1,8}(?:-\d{1,6})?)\b")


def record_keys(text: str) -> list[str]:
    """The record keys written in `text`, in order, once each."""
    found = [match.group() for match in _KEY_RE.finditer(text) if match["series"] not in NOT_RECORD_SERIES]
    return list(dict.fromkeys(found))


# A tracker key after an item's last dash ("Send an idempotency key — Declan Ruddock — PAY-311").
_TRAILING_KEY_RE = re.compile(r"\s[-–—]\s+(?P<key>[A-Z]{2,8}-\d{1,8})\s*$")


def trailing_ticket(item: str) -> tuple[str, str | None]:
    """An action item without the tracker key its last dash gives, and that key: the item's
    follow-up ticket, kept in its observation, never read as its owner nor made an entity."""
    match = _TRAILING_KEY_RE.search(item)
    if match is None or not record_keys(match["key"]):
        return item, None
    return item[: match.start()].rstrip(), match["key"]


def own_keys(title: str, fields: Iterable[HeaderField], *, incident: bool) -> list[str]:
    """The keys a document states for itself: in brackets at its title's end, and in the header
    fields that name the record ("Reference", "ID"; an `incident` write-up's "Incident")."""
    found: list[str] = []
    bracket = _TITLE_BRACKET_KEY_RE.search(title)
    if bracket and record_keys(bracket["key"]):
        found.append(bracket["key"])
    keys = _RECORD_KEY_FIELDS | _INCIDENT_KEY_FIELDS if incident else _RECORD_KEY_FIELDS
    for header in fields:
        if header.key in keys:
            found += record_keys(header.value)
    return list(dict.fromkeys(found))


def cited_incidents(structure: Structure, subject: NameRef, own: Iterable[str]) -> list[RelationFact]:
    """The earlier incidents a postmortem's Related incidents section lists by key: one
    `references_incident` relation to each (never to the postmortem's own keys)."""
    skip = set(own)
    relations: list[RelationFact] = []
    for section in structure.sections[1:]:
        if section_key(structure.title(section)) not in _RELATED_INCIDENT_SECTIONS:
            continue
        for number, line in structure.lines(section):
            match = _ITEM_KEY_RE.match(line)
            if match is None or match["key"] in skip or not record_keys(match["key"]):
                continue
            skip.add(match["key"])
            cited = NameRef((match["key"],), INCIDENT_TYPE, number)
            relations.append(RelationFact(subject, REFERENCES_INCIDENT, cited))
    return relations
