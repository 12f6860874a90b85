"""Documents a section's heading cites by key (pure, no I/O).

Minutes, overviews and reviews title an item after the record it follows up ("### OpsDeck lag
alert (INC0048213 follow-up)", "## Zero-result alerting (SRCH-INC-0419 follow-ups)"): the key
after the heading's first words cites that record, as the same key in a sentence does
(genre_links._mention_links). A heading that opens with a key names its own item (a log's
"## DL-04: Use Kafka", an incident's "# INC-14: Catalog down"), and the page's title names the
page itself: neither is read. Which document a key means is decided in distill
(tasks/distill/record_graph.py), only when one document states it.
"""

from __future__ import annotations

from tasks.extract.document_keys import NOT_RECORD_SERIES
from tasks.extract.genres import log_item_ids
from tasks.extract.record_links import ID_MENTION_RE, PARTS_KEY_MENTION_RE, RELATES_TO, RecordLink
from tasks.extract.structure import Structure
from tasks.markdown.code_spans import mask_code_spans
from tasks.markdown.links import INLINE_LINK_RE

_MAX_HEADING_CHARS = 200


def heading_mentions(structure: Structure, folder: str) -> list[RecordLink]:
    """The keys the page's headings below its title cite after their first words, as related
    mentions (the link's line the heading's)."""
    links: list[RecordLink] = []
    entries: set[str] | None = None  # the ids a log's own entries open with: never a citation
    heads = structure.sections[1:]
    if heads and heads[0].level == 1:
        heads = heads[1:]  # the page's title
    for section in heads:
        title = section.heading  # as written: a link in it says what it means itself
        if len(title) > _MAX_HEADING_CHARS or not any(c.isdigit() for c in title):
            continue
        plain = INLINE_LINK_RE.sub(lambda m: " " * len(m.group(0)), mask_code_spans(title))
        keyed = [match for match in PARTS_KEY_MENTION_RE.finditer(plain)
                 if match["prefix"] not in NOT_RECORD_SERIES]
        for match in sorted([*ID_MENTION_RE.finditer(plain), *keyed], key=lambda found: found.start()):
            if not any(c.isalpha() for c in plain[: match.start()]):
                continue  # the heading opens with the key: its own item's
            entries = log_item_ids(structure) if entries is None else entries
            if match.group() in entries:
                continue
            links.append(RecordLink(RELATES_TO, False, match.group(), None, int(match["number"]),
                                    structure.number(section), " ".join(title.split())[:300], folder,
                                    mention=True))
    return links
