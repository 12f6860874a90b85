"""genre_links' verb test of a paragraph: the lower-cased search answers as the case-blind one."""

from __future__ import annotations

import re

from tasks.extract.genre_links import _ANY_VERB_RE, log_entry_keys, states_link_verb
from tasks.extract.structure import Structure, scan


def test_the_verbs_are_written_in_lower_case() -> None:
    # states_link_verb searches a lower-cased paragraph with the verbs compiled without re.I:
    # an upper-case letter in a verb's pattern would never match there
    assert re.search(r"(?<!\\)[A-Z]", _ANY_VERB_RE.pattern) is None


def test_a_paragraph_states_a_link_verb_as_the_case_blind_search_says() -> None:
    texts = ["This RFC is SUPERSEDED BY RFC 12.", "Replaced\tby [KEP-9](x)", "It depends on the ledger.",
             "Deprecated in favor of v2", "moved to /docs/new", "removed to", "unsuperseded byline",
             "builds on KEP-3", "Builds onward", "no verb here", "Ersetzt durch — superseded by é",
             "ſupersedes RFC 1", "Superseded by\u00a0RFC 2", "obsoletes: 4", "succeeded by the new page"]
    answers = [states_link_verb(text) for text in texts]
    assert answers == [_ANY_VERB_RE.search(text) is not None for text in texts]
    assert answers.count(True) >= 8


def test_every_verb_a_paragraph_states_holds_a_stem_the_quick_test_knows() -> None:
    # states_link_verb searches only the paragraphs holding one of _VERB_STEMS
    import random

    from tasks.extract.genre_links import _VERB_STEMS

    words = ["superseded", "replaced", "obsoleted", "succeeded", "by", "deprecated", "in", "favour", "favor", "of",
             "moved", "to", "supersedes", "replaces", "obsoletes", "depends", "builds", "on", "x", " ", "  ", "\t"]
    rng = random.Random(3)
    matched = 0
    for _ in range(20_000):
        text = "".join(rng.choice(words) + rng.choice(["", " ", " ", "\n", "-"]) for _ in range(rng.randint(1, 8)))
        if _ANY_VERB_RE.search(text.lower()):
            matched += 1
            assert any(stem in text.lower() for stem in _VERB_STEMS), text
    assert matched > 1000


def test_a_quoted_supersession_is_what_another_page_says_not_this_one() -> None:
    from tasks.extract import SourceRef, extract_facts

    text = ("# Sources\n\nAlert runbooks, copied as they are.\n\n"
            '- `old/KubeAPIDown.md` is a stub: "This alert has been moved to '
            '[new/KubeAPIDown.md](https://example.org/alerts/new/KubeAPIDown.md)".\n'
            "- The old page was superseded by [the new one](new/TargetDown.md).\n")
    result = extract_facts(text, SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "runbooks/SOURCES.md"))
    typed = {(link.stem, link.relation_type, link.incoming) for link in result.record_links}
    assert ("KubeAPIDown", "relates_to", False) in typed  # quoted: reported, no supersession
    assert ("TargetDown", "supersedes", True) in typed  # said by the page itself


def test_a_records_supersession_verb_types_only_the_links_of_its_clause() -> None:
    from tasks.extract.record_links import links_in_line

    line = "* Supersedes ADR-0003; see the building blocks in [the architecture page](../arch/blocks.md)"
    typed = {(link.text, link.relation_type) for link in links_in_line(
        line, 90, own_stem="0011-edge", own_number=11, partial_default=False)}
    assert typed == {("ADR-0003", "supersedes"), ("the architecture page", "relates_to")}
    # within one clause, every link after the verb is what it states
    both = "Superseded by [ADR-12](0012-a.md) and [ADR-13](0013-b.md)."
    assert {link.relation_type for link in links_in_line(
        both, 3, own_stem="0011-edge", own_number=11, partial_default=False)} == {"supersedes"}


def _mentions(text: str, folder: str = "runbooks") -> set[tuple[str, int | None, str]]:
    from tasks.extract import SourceRef, extract_facts

    result = extract_facts(text, SourceRef("b" * 64, "wiki/sources/x.md", "raw/x.md", f"{folder}/x.md"))
    return {(link.text, link.number, link.relation_type) for link in result.record_links if link.mention}


RUNBOOK_NAMING_RECORDS = (
    "# Scoring latency\n\nService: **Lantern** · Owner: Fraud Analytics\n\n## When this alert fires\n\n"
    "Fires when p95 scoring time is above 500 ms for 10 minutes.\n\n## What it means\n\n"
    "Since ADR-0015, Lantern scores claims from the event stream (as decided in ADR 12).\n"
    "The outage that led here follows INC-2291 and [INC-318](../postmortems/inc-318.md).\n\n"
    "## Mitigation\n\n1. Check `RFC-9` is off; upgrade to TLS 1.3 per CVE-2021-44228 and"
    " https://wiki.example.org/KEP-77 notes.\n2. Page the on-call.\n"
)


def test_a_document_named_by_series_and_number_in_prose_is_a_related_mention() -> None:
    """Issue 23 item 2: "see ADR-0015", "as decided in ADR 12", "follows INC-2291" name documents
    by their ids; never in a code span, a URL, a version or a longer id, nor the text of a link
    (the link says what it means), and never a supersession."""
    assert _mentions(RUNBOOK_NAMING_RECORDS) == {
        ("ADR-0015", 15, "relates_to"), ("ADR 12", 12, "relates_to"), ("INC-2291", 2291, "relates_to")}


def test_a_key_of_more_parts_is_a_mention_and_a_record_kind_field_links_its_page() -> None:
    """"(from COE-2024-02)" names the review of that key (a CVE's id names none); a runbook's
    `incident: ../postmortems/x.md` links the incident's page, an incident's `Incident: INC-14`
    is its own key, no link."""
    from tasks.extract import SourceRef, extract_facts

    assert _mentions("# View\n\n## Rules\n\nAlterations win (from COE-2024-02; CVE-2021-44228).\n") == {
        ("COE-2024-02", 2024, "relates_to")}
    text = ("---\ntitle: Republish\nincident: ../postmortems/rca-almanac.md\n---\n\n# Republish\n\n"
            "## Steps\n\n1. Run the playbook.\n")
    result = extract_facts(text, SourceRef("e" * 64, "wiki/sources/x.md", "raw/x.md", "runbooks/republish.md"))
    assert {(link.relation_type, link.stem, link.folder) for link in result.record_links} == {
        ("relates_to", "rca-almanac", "postmortems")}
    text = "# INC-14: Catalog down\n\nIncident: INC-14\n\n## Summary\n\nThe catalog was down.\n"
    result = extract_facts(text, SourceRef("f" * 64, "wiki/sources/x.md", "raw/x.md", "postmortems/inc-14.md"))
    assert not [link for link in result.record_links if not link.mention]


def test_a_records_line_names_pages_by_bare_path_and_other_series_by_id() -> None:
    from tasks.extract.record_links import links_in_line

    found = links_in_line("(../runbooks/lantern-scoring-latency.md) pages when INC-2291 recurs; see ADR-0007.",
                          67, own_stem="0015-score", own_number=15, partial_default=False)
    assert {(link.text, link.stem, link.number, link.mention) for link in found} == {
        ("../runbooks/lantern-scoring-latency.md", "lantern-scoring-latency", None, False),
        ("INC-2291", None, 2291, True),
        ("ADR-0007", None, 7, False),  # the record's own log reads ADR numbers (unchanged)
    }
    assert {link.relation_type for link in found} == {"relates_to"}
    assert links_in_line("Run `../tools/fix.md` or https://x.org/a/../b.md", 1, own_stem="0015-score",
                         own_number=15, partial_default=False) == []


def test_the_line_of_a_character_is_the_line_a_walk_of_the_paragraph_finds() -> None:
    import random

    from tasks.extract.genre_links import _LineEnds

    def walked(position: int, span: tuple[int, int], lines: dict[int, str]) -> int:  # the walk it replaced
        offset = 0
        for number in range(span[0], span[1] + 1):
            offset += len(lines.get(number, "").strip()) + 1
            if position < offset:
                return number
        return span[1]

    rng = random.Random(5)
    for _ in range(2_000):
        first = rng.randint(1, 40)
        last = first + rng.randint(0, 6)
        lines = {n: " " * rng.randint(0, 2) + "x" * rng.randint(0, 9) + " " * rng.randint(0, 2)
                 for n in range(first, last + 1) if rng.random() < 0.9}  # a gap: a line not visible
        where = _LineEnds((first, last), lines)
        for position in range(0, 90):
            assert where.line_of(position) == walked(position, (first, last), lines), (position, lines)


def test_an_item_replaced_in_a_log_is_the_items_not_the_logs_page() -> None:
    # heldout26's RFD: "replaces decision DL-10 in the [decision log](..)" made the RFD supersede
    # the whole log; the link names the page that holds the replaced row
    from tasks.extract import SourceRef, extract_facts

    text = ("# RFD 31: Review order\n\nstate: published\n\n"
            "Published December 9, 2025 · replaces decision DL-10 in the [decision log](../decisions/README.md)\n\n"
            "## Determinations\n\nThis RFD replaces [RFD 12](../design/rfd-0012-old-order.md).\n\n"
            "Reviewer order was superseded by DL-14 of [the log](../decisions/log.md).\n")
    result = extract_facts(text, SourceRef("b" * 64, "wiki/sources/y.md", "raw/y.md", "design/rfd-0031-order.md"))
    typed = {(link.stem, link.relation_type, link.incoming) for link in result.record_links}
    assert ("README", "relates_to", False) in typed
    assert ("log", "relates_to", False) in typed
    assert not any(stem in ("README", "log") and kind == "supersedes" for stem, kind, _ in typed)
    assert ("rfd-0012-old-order", "supersedes", False) in typed  # the page itself, linked: still read


def test_a_record_of_a_log_numbered_in_its_own_series_supersedes_by_its_key() -> None:
    """meta51: "* Supersedes: DR-001" and "* Status: superseded by DR-004" name records of a log
    numbered DR-NNN: the verb of the clause types them (found by their id only); a key named in
    passing, or of another series, stays related."""
    from tasks.extract.record_links import links_in_line

    def typed(line: str) -> set[tuple[str, str, bool, bool]]:
        return {(link.text, link.relation_type, link.incoming, link.mention) for link in links_in_line(
            line, 4, own_stem="DR-004-vault", own_number=None, partial_default=False)}

    assert typed("* Supersedes: DR-001") == {("DR-001", "supersedes", False, True)}
    assert typed("* Status: superseded by DR-007") == {("DR-007", "supersedes", True, True)}
    assert typed("* Follows the outage of INC-2291; see DR-002") == {
        ("INC-2291", "relates_to", False, True), ("DR-002", "relates_to", False, True)}
    # another series than the log's own: what the record replaces is no incident write-up
    assert typed("* This replaces the manual steps of INC-2291") == {("INC-2291", "relates_to", False, True)}


def test_links_to_a_file_name_with_blanks_escaped_and_to_a_site_path_without_suffix() -> None:
    from tasks.extract import SourceRef, extract_facts

    text = ("# Parcel tracking\n\nStatus: current\n\n## Overview\n\nScans land on Kafka.\n\n## Related\n\n"
            "- [Webhook failures](../incidents/Webhook%20delivery%20failures.md)\n"
            "- [Rotation](/ops/webhook-secret-rotation) and [the API](/api/v1/parcels?id=3)\n")
    result = extract_facts(text, SourceRef("c" * 64, "wiki/sources/x.md", "raw/x.md", "wiki/parcel-tracking.md"))
    found = {(link.stem, link.folder) for link in result.record_links}
    assert ("Webhook delivery failures", "incidents") in found
    assert ("webhook-secret-rotation", "*/ops") in found


def test_a_wiki_link_names_a_page_by_its_file_name_and_a_directory_url_is_a_page() -> None:
    from tasks.extract import SourceRef, extract_facts

    text = ("# Architecture forum\n\n## Notes\n\n"
            "- Billing moves to Temporal: [[0012-use-temporal-for-billing-workflows|ADR 12]] was accepted.\n"
            "- This page replaces [[forum-notes-2024]]; see [[_TOC_]] and [[Legacy Mainframe]].\n"
            "- The dispatch side: [overview](../architecture/dispatch-overview/).\n\n## Attendees\n\nRosa, Tim\n")
    result = extract_facts(text, SourceRef("d" * 64, "wiki/sources/x.md", "raw/x.md", "notes/forum.md"))
    found = {(link.relation_type, link.stem, link.text, link.folder) for link in result.record_links}
    assert ("relates_to", "0012-use-temporal-for-billing-workflows", "0012-use-temporal-for-billing-workflows",
            "*/") in found  # by its file name, in any folder
    # typed by the verb before it
    assert ("supersedes", "forum-notes-2024", "forum-notes-2024", "*/") in found
    # a link by a name is the mention of an entity (tasks/extract/lines.py), and a page's link
    # only by that title (in any folder: distill finds the one document of that title)
    from tasks.extract.record_links import BY_TITLE

    assert {(link.stem, link.folder, link.relation_type) for link in result.record_links
            if link.text == "Legacy Mainframe"} == {(None, BY_TITLE, "relates_to")}
    assert ("relates_to", "dispatch-overview", "overview", "architecture") in found
    assert not any(link.text.lower() == "_toc_" for link in result.record_links)  # a wiki's macro


def test_a_path_from_the_docs_root_written_bare_is_a_cited_page() -> None:
    """A repository's pages name each other by a path from the docs' root ("see
    design/kiosk-offline.md", "(decisions/radar-blip.md)") as often as by a relative one: the page
    is cited (related; its kind types it in distill), never superseded by a verb far before it;
    a URL's tail, a code path's tail or a file without a folder stays no link."""
    from tasks.extract import SourceRef, extract_facts
    from tasks.extract.record_links import links_in_line

    text = ("# Platform sync\n\n## Notes\n\n"
            "- Queue moved to Adopt. Priya: the blip is out, see [[Queue blip]] (decisions/queue-blip.md).\n"
            "- Offline mode per design/kiosk-offline.md, not https://x.org/docs/design/other-page.md.\n"
            "- The README.md and src/./main.md stay as they are.\n")
    result = extract_facts(text, SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "minutes/sync.md"))
    found = {(link.relation_type, link.incoming, link.stem, link.folder) for link in result.record_links}
    assert found >= {("relates_to", False, "queue-blip", "minutes/decisions"),
                     ("relates_to", False, "kiosk-offline", "minutes/design")}
    assert not {stem for _, _, stem, _ in found} & {"other-page", "README", "main"}
    line = links_in_line("| 16/09/24 | Offline mode for all | design/kiosk-offline.md | Kofi |", 19,
                         own_stem="log", own_number=None, partial_default=False)
    assert [(link.stem, link.relation_type) for link in line] == [("kiosk-offline", "relates_to")]


def _structure(text: str) -> Structure:
    return scan(text.splitlines(), 1)


def test_a_decision_logs_entry_keys_are_its_rows_first_cells_and_its_items_ids() -> None:
    """The keys of a log's entries: a dated table with a Decision column, keyed in its first cell,
    or a list whose items open with an id and a day; one keyed row, a table with no Decision
    column, or a standard's name is no numbering."""
    table = ("# Ops decision log\n\n| Key | Date | Decision |\n|---|---|---|\n"
             "| **OPS-1** | 2025-01-02 | Use one region |\n| OPS-2 | 03/02/2025 | Keep logs 30 days |\n"
             "| - | 2025-02-04 | Unkeyed row |\n")
    assert log_entry_keys(_structure(table)) == ["OPS-1", "OPS-2"]
    listed = "# Log\n\n- **BD-4** (2026-01-12) Seat holds move to the queue.\n- BD-5 — 3 June 2026: Drop Redis.\n"
    assert log_entry_keys(_structure(listed)) == ["BD-4", "BD-5"]
    one = "# Log\n\n| Key | Date | Decision |\n|---|---|---|\n| OPS-1 | 2025-01-02 | Use one region |\n"
    assert log_entry_keys(_structure(one)) == []
    tasks = "# Tasks\n\n| Key | Date | Owner |\n|---|---|---|\n| T-41 | 2025-01-02 | Ana |\n| T-42 | 2025-01-03 | Ben |\n"
    assert log_entry_keys(_structure(tasks)) == []
    standards = ("# Log\n\n| Ref | Date | Decision |\n|---|---|---|\n| TLS-1 | 2025-01-02 | a |\n"
                 "| TLS-2 | 2025-01-03 | b |\n")
    assert log_entry_keys(_structure(standards)) == []


def test_a_link_to_a_part_of_a_page_replaces_that_part_not_the_page() -> None:
    """`supersedes: ../decisions/ops-log.md#OPS-4` in front matter (or "replaces [OPS-4](..#ops-4)")
    names the page and the entry of it that is replaced: a link to the page, no supersession of it;
    a page superseded by a section of another is superseded by that page."""
    from tasks.extract import SourceRef, extract_facts

    text = ("---\ntitle: Cold storage\nsupersedes: ../decisions/ops-log.md#OPS-4\n---\n\n# Cold storage\n\n"
            "## Summary\n\nThis replaces [OPS-5](../decisions/ops-log.md#ops-5) as well.\n\n"
            "Superseded by [the archive design](../design/archive.md#retention).\n")
    result = extract_facts(text, SourceRef("e" * 64, "wiki/sources/x.md", "raw/x.md", "design/cold.md"))
    assert {(link.relation_type, link.incoming, link.stem) for link in result.record_links} == {
        ("relates_to", False, "ops-log"), ("supersedes", True, "archive")}


def test_a_plain_text_rfcs_header_obsoletes_and_updates_by_number() -> None:
    """An RFC written as plain text (IETF's layout) heads itself with two columns: "Obsoletes:
    0017" then, far right, its author's team; the number is the record it replaces, "Updates:"
    one it amends. "Updates:" that names no record (a channel, a rhythm) links nothing."""
    from tasks.extract import SourceRef, extract_facts

    text = ("Internal RFC: 0042                                        A. Lima\n"
            "Obsoletes: 0017                                           Payments\n"
            "Updates: 0031                                             March 2025\n"
            "Category: Standards Track\n\n                  Payment Retry Protocol\n\nAbstract\n\n"
            "   This document specifies how payment retries work.\n\nMotivation\n\n   Retries double charge.\n")
    result = extract_facts(text, SourceRef("e" * 64, "wiki/sources/x.md", "raw/x.md", "rfcs/0042-retry.md"))
    assert {(link.relation_type, link.incoming, link.number) for link in result.record_links} == {
        ("supersedes", False, 17), ("amends", False, 31)}
    text = "# Release train\n\nOwner: Ana\nUpdates: weekly in the ops channel\n\n## Summary\n\nWe ship weekly.\n"
    result = extract_facts(text, SourceRef("f" * 64, "wiki/sources/x.md", "raw/x.md", "notes/train.md"))
    assert not [link for link in result.record_links if link.relation_type == "amends"]


def test_a_numbered_page_linked_without_its_suffix_is_a_link_to_it() -> None:
    """Docs sites link a numbered record without `.md` ("../adr/0007-use-kafka"); a path whose
    last part is a number alone ("/pull/41", "/2024") names no page."""
    from tasks.extract import SourceRef, extract_facts

    text = ("# Event bus notes\n\nOwner: Ana\n\n## Summary\n\nThis page is replaced by "
            "[Use Kafka](../adr/0007-use-kafka); see [the PR](/pull/41) and [2024](/2024).\n")
    result = extract_facts(text, SourceRef("e" * 64, "wiki/sources/x.md", "raw/x.md", "notes/bus.md"))
    assert {(link.relation_type, link.incoming, link.stem, link.number, link.folder)
            for link in result.record_links} == {("supersedes", True, "0007-use-kafka", 7, "adr")}


def test_a_key_written_with_a_hash_a_word_or_a_tracker_s_zeros_is_a_mention() -> None:
    """"INC #42", "RFC no. 7", "LLIS entry 0007" and ServiceNow's "INC0048812" name a record by
    its key as "INC-42" does; a version ("TLS 1.3") or a key of more parts' tail does not."""
    text = ("# Checkout errors\n\nOwner: Payments\n\n## What it means\n\nSeen in INC #42 and INC0048812, "
            "decided in RFC no. 7 after LLIS entry 0007; TLS 1.3 only.\n")
    assert _mentions(text) == {("INC #42", 42, "relates_to"), ("INC0048812", 48812, "relates_to"),
                               ("RFC no. 7", 7, "relates_to"), ("LLIS entry 0007", 7, "relates_to")}


def test_a_key_with_a_teams_prefix_is_a_mention_and_a_title_s_id() -> None:
    """Trackers prefix a team's or project's key to the series ("SR-DEC-07", "SRCH-INC-0419"): the
    whole key names the record, as "DEC-07" would; a lower-case region ("us-east-1"), a key's
    tail ("us-EAST-1") or a CVE names none."""
    from tasks.extract.record_links import document_id

    text = ("# Ranking service\n\nOwner: Search\n\n## Design\n\nThe first phase runs per SR-DEC-07; "
            "see also OPS-INC 12. Deployed in us-east-1 and us-EAST-1 after CVE-2021-44228.\n")
    assert _mentions(text) == {("SR-DEC-07", 7, "relates_to"), ("OPS-INC 12", 12, "relates_to")}
    assert document_id("SR-DEC-07 — Product index engine") == ("sr-dec", 7)
    assert document_id("SRCH-INC-0419: zero results") == ("srch-inc", 419)
    assert document_id("Follow-up 2: cleanup") is None and document_id("sr-dec-07-engine") is None


def _typed_links(text: str, path: str) -> set[tuple[str, bool, str | None]]:
    from tasks.extract import SourceRef, extract_facts

    result = extract_facts(text, SourceRef("e" * 64, "wiki/sources/x.md", "raw/x.md", path))
    return {(link.relation_type, link.incoming, link.stem) for link in result.record_links if not link.mention}


def test_a_notice_that_the_page_is_out_of_use_points_to_its_replacement() -> None:
    """"**Deprecated:** ... Use [X] instead", "Status: Obsolete, see [X]" or "This page is outdated.
    The current design is in [X]" at a page's top: X supersedes the page. A link before the
    pointer, a notice lower down or about something else than the page, relates only."""
    runbook = ("# Broker disk runbook\n\n> **Deprecated:** this runbook is no longer maintained. "
               "Use [the new runbook](../runbooks/disk-v2.md) instead.\n\n## Symptoms\n\nDisk over 85 %.\n\n"
               "## Mitigation\n\nDelete old segments.\n")
    assert _typed_links(runbook, "runbooks/disk.md") == {("supersedes", True, "disk-v2")}
    design = ("# Payments API design\n\nStatus: Obsolete, see [Payments API v2](payments-v2.md)\n\n"
              "## Summary\n\nA REST API.\n\n## Motivation\n\nPartners need it.\n")
    assert _typed_links(design, "design/payments.md") == {("supersedes", True, "payments-v2")}
    page = ("# Event bus overview\n\n⚠️ This page is outdated. The current design is described in "
            "[Event bus v2](event-bus-v2.md).\n\n## Components\n\nProducers write events.\n")
    assert _typed_links(page, "architecture/event-bus.md") == {("supersedes", True, "event-bus-v2")}
    # the pointer after the link, a deprecated thing that is not the page: no supersession
    why = ("# Payments API design\n\nStatus: Deprecated ([why](why.md)); see the FAQ.\n\n"
           "## Summary\n\nThe v1 endpoint is deprecated; see [the migration guide](migrate.md).\n\n"
           "## Motivation\n\nPartners need it.\n")
    assert _typed_links(why, "design/payments.md") == {("relates_to", False, "why"),
                                                       ("relates_to", False, "migrate")}


def test_a_notice_is_the_pages_own_only_in_its_head_or_its_status_section() -> None:
    """A log's entry under its heading ("### D-12 ..." then "**Status:** Superseded ... See [X]")
    states the entry's status, not the page's; a Status section's "Obsolete, see [X]" is the page's."""
    log = ("# Platform decision register\n\nOne entry per decision.\n\n### D-12 - Pilot a tape archive\n\n"
           "**Status:** Superseded by D-16\n**Outcome:** A pilot. See [RCS-9](../proposals/rcs-0009-tape.md).\n\n"
           "### D-13 - Rocky Linux\n\n**Status:** Done\n")
    assert ("supersedes", True, "rcs-0009-tape") not in _typed_links(log, "minutes/register.md")
    design = ("# Payments API design\n\n## Status\n\nObsolete, see [Payments API v2](payments-v2.md).\n\n"
              "## Summary\n\nA REST API.\n\n## Motivation\n\nPartners need it.\n")
    assert _typed_links(design, "design/payments.md") == {("supersedes", True, "payments-v2")}


def test_a_sphinx_or_myst_doc_role_links_the_document_it_names() -> None:
    """A MyST or Sphinx page cites another by a {doc} role ("{doc}`0003-queues`", ":doc:`The
    queue record <../decisions/0003-queues>`"): its target's stem, typed by the verb before it;
    a role in a code span's text or a role to no page is no link."""
    from tasks.extract.record_links import links_in_line

    def found(line: str) -> set[tuple[str, str | None, str]]:
        return {(link.text, link.stem, link.relation_type) for link in links_in_line(
            line, 5, own_stem="0011-edge", own_number=11, partial_default=False)}

    assert found(":Supersedes: {doc}`0003-queues` (the old record)") == {("0003-queues", "0003-queues", "supersedes")}
    assert found("See :doc:`The queue record <../decisions/0003-queues>` for why.") == {
        ("The queue record", "0003-queues", "relates_to")}
    assert found("Write {doc}`https://x.org/a` for an outside page.") == set()


def test_an_edit_note_that_says_this_is_superseded_means_the_whole_record() -> None:
    """A thread's edit note ("**Edit (4 May 2025, @ana):** this is superseded by ADR 0012") says
    the page as a whole is superseded; a part it names ("These ranges are superseded by ...") is
    partial, as before."""
    from tasks.extract.record_links import links_in_line

    def typed(line: str) -> set[tuple[str, bool]]:
        return {(link.relation_type, link.incoming) for link in links_in_line(
            line, 5, own_stem="notes", own_number=None, partial_default=True)}

    assert typed("> **Edit (4 May 2025, @ana):** this is superseded by ADR 0012, *Queues*.") == {("supersedes", True)}
    assert typed("These ranges are superseded by ADR 0012.") == {("partially_supersedes", True)}


def test_a_related_articles_list_of_titles_cites_each_by_its_title() -> None:
    """A help centre's export keeps its "Related articles" as titles without links; each item
    that reads as a title is a link by title (a sentence, a link or a commented item is not), and
    the list ends where its items do."""
    from tasks.extract.genre_links import related_title_links

    text = ("# Reprocessing a file\n\n1. Run the job.\n\n**Related articles**\n\n- Disk full: what to check\n"
            "- [Queue lag](../runbooks/queue-lag.md)\n- The new process, if it ships, changes step 2.\n"
            "- Paging the on-call <!-- when the rota lands -->\n- How to raise a support ticket\n\n"
            "Comments: 2\n\n- Not a title of this list\n")
    found = [(link.text, link.line, link.folder, link.relation_type) for link in related_title_links(_structure(text))]
    assert found == [("Disk full: what to check", 7, "*title", "relates_to"),
                     ("How to raise a support ticket", 11, "*title", "relates_to")]
    assert related_title_links(_structure("# T\n\nWe related the articles.\n\n- Disk full\n")) == []


def test_a_see_also_heading_over_titles_cites_each_by_its_title() -> None:
    from tasks.extract.genre_links import related_title_links

    text = "# Reprocessing a file\n\n1. Run the job.\n\n## See also\n\n- Disk full: what to check\n"
    found = [(link.text, link.line) for link in related_title_links(_structure(text))]
    assert found == [("Disk full: what to check", 7)]
