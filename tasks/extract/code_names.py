"""The team's own systems as a page writes them in code spans (issue 23 item 4): a service
(`holdings-sync`), a database table or a topic (`item_holding`, `holdings.changed.v1`), a
cluster or a node group (`eks-apps-prod`, `memory-2x`), an alert (`HoldingsSyncStale`).

A code span is such a name by its shape and where the page writes it, never by a list of
names: a lower-case name joined by '-', '_' or '.', written in code on two lines or more (the
title counts), one of them a line that says what kind of thing it is ("the `item_holding`
table", "on the `holdings.changed.v1` topic", "node group `memory-2x`"); a hyphenated one also
where a table row, a header field (`**Service:** `holdings-sync``) or the title writes it,
since a value in a query (`"slow-resource"`) or a setting (`max_connections`,
`spring.datasource.url`) is shaped the same; a CamelCase name of three words or more, twice,
where a line says it fires or alerts. Not a command or a path (a span with a blank, '/' or
'='), a version or an address (a part of digits only: `python3.11`, `10.0.0.1`), a host
(`koha.example.org`), a file (`values.yaml`, `assign-reviewers.js`), a flag or setting in
capitals (`SYNC_PAUSED`). Pure."""

from __future__ import annotations

import re

from tasks.extract.subject_terms import Seen, is_file_name, term_key

_JOINED_RE = re.compile(r"^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+$")
_ALERT_NAME_RE = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+){2,}$")
_ALERTING_RE = re.compile(r"\b(?:alerts?|alerting|fires|fired|firing|paged|pages)\b", re.I)
# A header field line ("**Service:** `x`", "Owner: ... · Service: `x`") or a table row.
_FIELD_RE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?[A-Z][\w -]{0,30}:(?:\*\*|__)?\s")
# The kind of thing a line says a code span is ("the `item_holding` table", "node group `memory-2x`").
_KINDS = (r"(?:tables?|topics?|queues?|streams?|metrics?|counters?|gauges?|buckets?|indexes|index|views?|jobs?"
          r"|cronjobs?|services?|clusters?|node\s+groups?|databases?|workers?|daemons?|modules?|alerts?)")
# A host's or a file's last part (`koha.example.org`, `assign-reviewers.js`, `values.yaml`).
_HOST_AND_FILE_ENDS = frozenset("""com org net io dev example internal local localhost co uk eu de gov edu app
    js ts mjs py go rb rs java sh yaml yml json toml md txt sql conf cfg ini xml html css lock log tf env""".split())


def code_names(code_terms: dict[str, list[tuple[int, str]]], lines: dict[int, str],
               title: tuple[int, str]) -> Seen:
    """The code spans that name one of the team's systems, each with the lines it is written on
    (the title's line too when the title names it: "Playbook: HoldingsSyncStale")."""
    seen: Seen = {}
    for term, hits in code_terms.items():
        named = re.search(rf"(?<![\w.-]){re.escape(term)}(?![\w-])", title[1]) is not None
        numbers = sorted({number for number, _ in hits} | ({title[0]} if named else set()))
        if len(numbers) < 2 or not _names_a_system(term, numbers, lines, title):
            continue
        seen.setdefault(term_key(term), []).extend((number, term) for number in numbers)
    return seen


def _names_a_system(term: str, numbers: list[int], lines: dict[int, str], title: tuple[int, str]) -> bool:
    written = [title[1] if number == title[0] else lines.get(number, "") for number in numbers]
    if _ALERT_NAME_RE.match(term):
        return any(_ALERTING_RE.search(line) for line in written)
    if not _JOINED_RE.match(term) or is_file_name(term):
        return False
    parts = re.split(r"[-_.]", term)
    if any(part.isdigit() for part in parts) or "." in term and parts[-1] in _HOST_AND_FILE_ENDS:
        return False
    kind = re.compile(rf"\b{_KINDS}\s+`{re.escape(term)}`|`{re.escape(term)}`\s+{_KINDS}\b", re.I)
    if any(kind.search(line) for line in written):
        return True
    if "-" not in term:  # `max_connections`, `spring.datasource.url`: a setting, unless said otherwise
        return False
    return title[0] in numbers or any(line.lstrip().startswith("|") or _FIELD_RE.match(line) for line in written)
