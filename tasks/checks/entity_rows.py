"""What an entity page shows of the graph, as rows both sides can be compared by.

An entity page's Observations and Relations sections are rendered from the graph
(tasks/distill/entity_pages.py). Reconcile compares what a page shows with what the graph holds, so a
hand edit of those sections (or a graph edited by hand) is found (`entity_page_drift`):

- an observation row is the observation's text, its provenance suffix
  ` ([Source title](link), raw line N; ...)` left out;
- a relation row is `out|type|target` or `in|type|source`, names compared by entity key;
- any other line of those sections (a paragraph a person wrote there) is a row of its own,
  which the graph never has.

Pure functions: no I/O. The digests are short and stable, so the scan caches one per page and
one per graph entity.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from schemas.graph import KnowledgeGraph, entity_key
from tasks.markdown.blocks import read_blocks, sections
from tasks.markdown.escapes import unescape_link_text

OBSERVATIONS, RELATIONS = "Observations", "Relations"
_NONE = "_None yet._"
_PROVENANCE = re.compile(
    r" \((?:\[(?:[^\]\\]|\\.)*\]\([^)\s]*\), raw lines? \d+(?:-\d+)?(?:; )?)+\)$")
_LINK = re.compile(r"^\[((?:[^\]\\]|\\.)*)\]\([^)\s]*\)$")
_TYPE = re.compile(r"^[a-z][a-z0-9_]*$")


def _name_key(cell: str) -> str:
    match = _LINK.match(cell.strip())
    return entity_key(unescape_link_text(match.group(1) if match else cell))


def _relation_row(text: str) -> str:
    if text.endswith(" this"):
        source, _, relation_type = text[: -len(" this")].rpartition(" ")
        if source and _TYPE.match(relation_type):
            return f"in|{relation_type}|{_name_key(source)}"
    relation_type, _, target = text.partition(" ")
    if target and _TYPE.match(relation_type):
        return f"out|{relation_type}|{_name_key(target)}"
    return f"?|{text}"


def _rows(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip() and line.strip() != _NONE]


def page_rows(body: str) -> tuple[list[str], list[str]] | None:
    """(observation rows, relation rows) an entity page shows, sorted; None for a page with no
    Observations section (not one distill rendered)."""
    if OBSERVATIONS not in body:  # a heading's text is as written: no section without it
        return None
    found = {s.heading: s.text for s in sections(read_blocks(body), 2)[1:]
             if s.heading in (OBSERVATIONS, RELATIONS)}
    if OBSERVATIONS not in found:
        return None
    observations = [_PROVENANCE.sub("", line[2:]).strip() if line.startswith("- ") else f"?|{line}"
                    for line in _rows(found[OBSERVATIONS])]
    relations = [_relation_row(line[2:].strip()) if line.startswith("- ") else f"?|{line}"
                 for line in _rows(found.get(RELATIONS, ""))]
    return sorted(observations), sorted(relations)


def rows_digest(observations: Iterable[str], relations: Iterable[str]) -> str:
    text = "\n".join(sorted(o.strip() for o in observations)) + "\n--\n" + "\n".join(sorted(relations))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def page_digest(body: str) -> str | None:
    """The digest of what an entity page shows (None: not a rendered entity page)."""
    rows = page_rows(body)
    return None if rows is None else rows_digest(*rows)


def graph_rows(graph: KnowledgeGraph | Mapping[str, Any]
               ) -> dict[str, tuple[list[str], list[str]]]:
    """Entity key -> (observation rows, relation rows) its page should show, sorted (from the
    models, or from the graph's plain JSON shape the scan reads: tasks/checks/graph_facts.py)."""
    data = graph.model_dump(mode="json") if isinstance(graph, KnowledgeGraph) else graph
    relations: dict[str, list[str]] = {}
    for relation in data["relations"]:
        kind = relation["relationType"]
        source = entity_key(relation["sourceEntityName"])
        target = entity_key(relation["targetEntityName"])
        relations.setdefault(source, []).append(f"out|{kind}|{target}")
        relations.setdefault(target, []).append(f"in|{kind}|{source}")
    return {entity_key(e["entityName"]): (sorted(o.strip() for o in e.get("observations") or ()),
                                          sorted(relations.get(entity_key(e["entityName"]), [])))
            for e in data["entities"]}


def graph_digests(graph: KnowledgeGraph | Mapping[str, Any]) -> dict[str, str]:
    """Entity key -> the digest of the rows its page should show."""
    return {key: rows_digest(*rows) for key, rows in graph_rows(graph).items()}


def differences(shown: Sequence[str], held: Sequence[str]) -> tuple[list[str], list[str]]:
    """(rows only the page shows, rows only the graph holds)."""
    return sorted(set(shown) - set(held)), sorted(set(held) - set(shown))
