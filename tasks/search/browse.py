"""`membank browse TOPIC`: what a proposing agent reads before it writes, and the matcher the
proposal gate uses for "a page on this topic already exists".

The nearest existing pages (with every section anchor, best match first, so an agent can
extend or rewrite a section) and the hubs that fit (ranked by the relevance of the pages under
them, plus the hub pages' own match). Deterministic: ties break on paths.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import PurePosixPath

from schemas.search import BrowseResult, HubFit, NearestPage, SearchHit
from tasks.search.index import (
    GENERATION_KEY,
    ensure_index,
    index_status,
    memory_generation,
    stale_pages,
    update_index,
)
from tasks.search.query import (
    STOPWORDS,
    QueryError,
    SearchOptions,
    fts_match,
    plan_terms,
    query_terms,
    run_query,
)
from tasks.search.sync import read_index
from tasks.store.errors import MembankError
from tasks.store.layout import MemoryLayout

NEAREST_LIMIT = 8
HUB_LIMIT = 5
_POOL = 60
# Two titles name the same topic when their content words mostly coincide (both ways), or when
# the words of one (two at least) are all in the other: "How often uploads are retried" is
# within "Upload retry budget"; "Download retry budget" is not.
SAME_TOPIC_MIN_OVERLAP = 0.75
SAME_TOPIC_MIN_SHARED = 2
# A question title's words that ask rather than name the topic (the rest are STOPWORDS already).
QUESTION_WORDS = frozenset({"often", "many", "much", "when", "why", "what", "which", "where",
                            "whether"})
_WORD_RE = re.compile(r"\w+")


def _anchors(conn: sqlite3.Connection, path: str) -> list[str]:
    # (the page and its shards; an OR of the two columns would scan every doc by path)
    rows = conn.execute("SELECT u.anchor FROM units u JOIN docs d ON d.id = u.doc_id "
                        "WHERE d.id IN (SELECT id FROM docs WHERE path = ? UNION ALL "
                        "SELECT id FROM docs WHERE parent = ?) ORDER BY d.path, u.id", (path, path))
    return list(dict.fromkeys(a for (a,) in rows if a))


def _hub_titles(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT path, title FROM docs WHERE is_hub = 1"))


def _nearest(conn: sqlite3.Connection, hit: SearchHit) -> NearestPage:
    anchors = _anchors(conn, hit.path)
    if hit.anchor in anchors:
        anchors.remove(hit.anchor)
        anchors.insert(0, hit.anchor)
    return NearestPage(path=hit.path, title=hit.title, page_type=hit.page_type, hub=hit.hub,
                       score=hit.score, anchors=anchors, best_anchor=hit.anchor,
                       snippet=" ".join(hit.snippet.split()), updated_at=hit.updated_at)


# BM25 of the hub pages' own units only: the few hubs are ranked alone (a search filtered to
# hubs would rank every match of a common word, growing its pool until it saw them all).
_HUB_MATCHES = """
SELECT d.path, min(f.rank) FROM fts f JOIN units u ON u.id = f.rowid JOIN docs d ON d.id = u.doc_id
WHERE fts MATCH ? AND f.rowid IN (
    SELECT h.id FROM units h JOIN docs hd ON hd.id = h.doc_id
    WHERE hd.is_hub = 1 AND hd.type = 'hub' AND h.superseded = 0 AND hd.superseded_by IS NULL)
GROUP BY d.path
"""


def _hub_matches(conn: sqlite3.Connection, layout: MemoryLayout, terms: list[str]
                 ) -> list[tuple[str, float]]:
    """The hubs on disk whose own text matches, best first (what run_query with types hub
    and HUB_LIMIT returns, scored the same)."""
    kept, rankable = plan_terms(conn, terms)
    rows = [(path, round(-rank, 4) if rankable else 0.0)
            for path, rank in conn.execute(_HUB_MATCHES, (fts_match(kept),))
            if os.path.isfile(os.path.join(layout.root, path))
            and not os.path.islink(os.path.join(layout.root, path))]
    return sorted(rows, key=lambda row: (-row[1], row[0]))[:HUB_LIMIT]


def _hub_fits(conn: sqlite3.Connection, layout: MemoryLayout, terms: list[str],
              pages: list[SearchHit]) -> list[HubFit]:
    titles = _hub_titles(conn)
    scores: dict[str, float] = {}
    counts: dict[str, int] = {}
    for hit in pages:
        if hit.hub and hit.hub in titles:
            scores[hit.hub] = scores.get(hit.hub, 0.0) + hit.score
            counts[hit.hub] = counts.get(hit.hub, 0) + 1
    for path, score in _hub_matches(conn, layout, terms):
        if path in titles:
            scores[path] = scores.get(path, 0.0) + score
            counts.setdefault(path, 0)
    ranked = sorted(scores, key=lambda h: (-round(scores[h], 4), h))[:HUB_LIMIT]
    return [HubFit(path=h, title=titles[h], score=round(scores[h], 4), matching_pages=counts[h])
            for h in ranked]


def _page_hits(conn: sqlite3.Connection, layout: MemoryLayout, terms: list[str],
               folder: str | None, *, semantic: bool) -> list[SearchHit]:
    """The page hits browse's nearest pages come from (only those directly in `folder`)."""
    hits = run_query(conn, layout, terms, SearchOptions(limit=_POOL, semantic=semantic))
    pages = [h for h in hits if h.kind == "page"]
    if folder is not None:
        pages = [h for h in pages if PurePosixPath(h.path).parent.as_posix() == folder]
    return pages


def browse(layout: MemoryLayout, topic: str, *, folder: str | None = None,  # noqa: PLR0913
           limit: int = NEAREST_LIMIT, semantic: bool = False, with_hubs: bool = True) -> BrowseResult:
    """Nearest pages (only under `folder` when given) and the hubs that fit `topic` (not
    looked for with `with_hubs=False`: the gate's same-topic match needs only the pages)."""
    terms = query_terms(topic)
    if not terms:
        raise QueryError("the topic is empty" if not topic.strip() else
                         "the topic has no words to browse for", hint="name the topic in words")
    def read(conn: sqlite3.Connection) -> tuple[list[NearestPage], list[HubFit]]:
        pages = _page_hits(conn, layout, terms, folder, semantic=semantic)
        fits = _hub_fits(conn, layout, terms, pages) if with_hubs else []
        return [_nearest(conn, hit) for hit in pages[:limit]], fits

    (nearest, hubs), warnings = read_index(layout, read, semantic=semantic)
    return BrowseResult(topic=topic, nearest=nearest, hubs=hubs, warnings=warnings)


def _stem(word: str) -> str:
    # "ied" before "ed": "retried" is "retry", as "retries" is (not "retri")
    for suffix, keep in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""),
                         ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + keep
    return word


def content_words(title: str) -> frozenset[str]:
    words = [w.lower() for w in _WORD_RE.findall(title)]
    return frozenset(_stem(w) for w in words
                     if w not in STOPWORDS and w not in QUESTION_WORDS and not w.isdigit())


def same_topic(title_a: str, title_b: str) -> bool:
    """Both titles' content words mostly coincide (each covers SAME_TOPIC_MIN_OVERLAP of the
    other): 'Upload retry budget' and 'Retry budget for uploads' are one topic; or one title's
    words, SAME_TOPIC_MIN_SHARED or more, are all in the other's: 'How often uploads are
    retried' is 'Upload retry budget''s topic, 'Download retry budget' is not."""
    a, b = content_words(title_a), content_words(title_b)
    if not a or not b:
        return False
    shared = len(a & b)
    if shared >= SAME_TOPIC_MIN_SHARED and (a <= b or b <= a):
        return True
    return shared / len(a) >= SAME_TOPIC_MIN_OVERLAP and shared / len(b) >= SAME_TOPIC_MIN_OVERLAP


def same_topic_page(layout: MemoryLayout, folder: str, title: str,
                    description: str = "", *, semantic: bool = False) -> str | None:
    """The existing page under `folder` on the topic `title` names, if one is (gate matcher):
    the best-ranked of browse's nearest pages there whose title is the same topic."""
    terms = query_terms(f"{title} {description}")
    if not terms:
        return None
    # browse's nearest pages there, without their anchors (the match needs only the titles)
    pages, _warnings = read_index(
        layout, lambda conn: _page_hits(conn, layout, terms, folder, semantic=semantic)[:NEAREST_LIMIT],
        semantic=semantic)
    return next((p.path for p in pages
                 if p.page_type not in {"hub", "source-shard"} and same_topic(p.title, title)), None)


class TopicMatcher:
    """The proposal gate's reader of the index. The index is derived data: when it cannot be
    used, the gate falls back to slug matching and plain hub lists rather than fail."""

    def __init__(self, layout: MemoryLayout, *, semantic: bool = False) -> None:
        self.layout = layout
        self.semantic = semantic
        self._usable: bool | None = None
        self._checked: set[str] = set()
        self._written: list[str] = []  # pages written since the matcher last read the index

    def _ready(self, folder: str | None = None) -> bool:
        """Once per batch: an index behind the memory's generation (or missing) is brought up
        to date whole; once per folder the gate writes in: the pages there that changed by hand
        since the index saw them are re-indexed (the same-topic match looks only there; a walk
        of every page per write would cost more than the write)."""
        try:
            if self._usable is None:
                state, meta = index_status(self.layout, semantic=self.semantic)
                if state != "ok" or meta.get(GENERATION_KEY) != memory_generation(self.layout):
                    ensure_index(self.layout, deep=False, semantic=self.semantic)
                self._usable = True
            if self._usable and folder is not None and folder not in self._checked:
                self._checked.add(folder)
                if stale := stale_pages(self.layout, folder):
                    update_index(self.layout, stale, graph=False)
        except (MembankError, sqlite3.Error, OSError):
            self._usable = False
        return self._usable

    def _catch_up_writes(self) -> None:
        """Index the pages the batch wrote before the matcher reads the index again (a
        batch's last pages are indexed once, by its sync at the end: tasks/search/sync.py)."""
        if self._written:
            from tasks.search.index import update_index

            written, self._written = self._written, []
            update_index(self.layout, written, graph=False)

    def same_topic_page(self, folder: str, title: str, description: str = "") -> str | None:
        if not self._ready(folder):
            return None
        self._catch_up_writes()
        return same_topic_page(self.layout, folder, title, description, semantic=self.semantic)

    def suggestions(self, topic: str) -> str:
        """'nearest pages: ...; hubs that fit: ...' for a gate message, or ''."""
        if not topic.strip() or not self._ready():
            return ""
        self._catch_up_writes()
        try:
            result = browse(self.layout, topic, limit=3, semantic=self.semantic)
        except QueryError:
            return ""
        parts = []
        if result.nearest:
            parts.append("nearest pages: " + ", ".join(
                f"{p.path}#{p.best_anchor}" if p.best_anchor else p.path for p in result.nearest))
        if result.hubs:
            parts.append("hubs that fit: " + ", ".join(h.path for h in result.hubs[:3]))
        return "; ".join(parts)

    def wrote(self, path: str) -> None:
        if self._usable:
            self._written.append(path)
