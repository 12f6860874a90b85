"""Design documents, proposals, architecture pages and runbooks as their public templates write
them (issue 23 items 1-3, doc43): a KEP README, a Rust RFC, a PEP 12-style header block, an Oxide
RFD, a Google design doc, an arc42 page, a runbooks.prometheus-operator.dev runbook and a GitLab
alert playbook. The documents are tests/fixtures/distill/doc43 (written before the code)."""

from __future__ import annotations

from pathlib import Path

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.genre_text import clean_lines

DOC43 = Path(__file__).resolve().parents[2] / "fixtures" / "distill" / "doc43"


def _extract(name: str) -> Extraction:
    return extract_facts((DOC43 / name).read_text(encoding="utf-8"),
                         SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _observed(result: Extraction) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations}


def _starting(observed: dict[str, tuple[int, int]], prefix: str) -> tuple[int, int] | None:
    return next((lines for text, lines in observed.items() if text.startswith(prefix)), None)


def test_a_bracketed_template_instruction_is_boilerplate() -> None:
    lines = [(1, "[Describe why particular design decisions were made.]"), (2, "[TOC]"), (3, "[1]"),
             (4, "- [Design doc]"), (5, "[Design doc](../design.md)"), (6, "Keep [this] line.")]
    assert [line for _, line in clean_lines(lines)] == [
        "", "[TOC]", "[1]", "- [Design doc]", "[Design doc](../design.md)", "Keep [this] line."]


def test_an_instruction_takes_its_paragraph_and_a_remembered_line_reads_the_same_again() -> None:
    """An instruction to the author blanks the rest of its paragraph up to a list item or a blank
    line; boilerplate blanks its own line only; a line read again (the kind of a line is
    remembered) is cleaned as it was the first time, wherever it stands."""
    lines = [(1, "Describe the problem in a few sentences."), (2, "what it costs the team"),
             (3, "- [ ] Reviewed by the security team"), (4, ""), (5, "what it costs the team"),
             (6, "Describe the problem in a few sentences."), (7, "- a listed point"), (8, "  "),
             (9, "TBD"), (10, "Plain text <!-- a note --> stays.")]
    cleaned = ["", "", "", "", "what it costs the team", "", "- a listed point", "  ", "",
               "Plain text  stays."]
    assert [line for _, line in clean_lines(lines)] == cleaned
    assert [line for _, line in clean_lines(lines)] == cleaned
    assert [line for _, line in clean_lines(lines[4:])] == cleaned[4:]


def test_a_pep_style_proposal_left_with_its_template_instructions() -> None:
    observed = _observed(_extract("leps/lep-0009.md"))
    assert not any("[Describe" in text or "[How could" in text for text in observed)
    assert _starting(observed, "Why rejected: This LEP was rejected on 12 May 2025") == (12, 13)
    # its rejection is why it was retired, not an alternative it rejected; its design was never adopted
    assert not any(text.startswith("Rejected: This LEP") for text in observed)
    assert _starting(observed, "Rejected design: From 1 September 2025") == (30, 31)
    assert not any(text.startswith("Design: ") for text in observed)


def test_a_kep_risks_section_gives_each_risk() -> None:
    observed = _observed(_extract("keps/0031-fare-capping/README.md"))
    assert _starting(observed, "Risk: The running total could drift if a tap arrives twice") == (99, 100)
    assert not any("(R)" in text or "I/we understand" in text for text in observed)


def test_a_risk_item_and_its_mitigation_are_kept_apart() -> None:
    text = ("# Feed ingest\n\n## Summary\n\nWe ingest the partner feed.\n\n## Motivation\n\nIt is late.\n\n"
            "## Proposal\n\nPoll the feed every minute.\n\n## Risks and Mitigations\n\n"
            "- Risk: a partner floods the endpoint. Mitigation: accept at most one change per minute.\n")
    observed = _observed(extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "feed.md")))
    assert observed["Risk: a partner floods the endpoint."] == (17, 17)
    assert observed["Mitigation: accept at most one change per minute."] == (17, 17)


def test_a_rust_rfc_rule_inside_its_design_and_its_rejected_option() -> None:
    observed = _observed(_extract("rfcs/0042-offline-tap-validation.md"))
    assert _starting(observed, "Constraint: The queue must never hold more than 5,000 taps") == (28, 28)
    assert observed["Rejected: We rejected a satellite modem on every bus because it costs more per year than "
                    "the fares it would save."] == (40, 41)
    # the template's question left in "Rationale and alternatives" and its unedited sections
    assert not any("best in the space" in text or "natural extension" in text for text in observed)


def test_an_oxide_rfd_determinations_are_its_decisions() -> None:
    observed = _observed(_extract("rfd/0017/README.md"))
    assert observed["Status: committed"] == (3, 3)
    assert _starting(observed, "Decision: We will keep the cap totals in PostgreSQL") == (28, 29)


def test_a_google_design_doc_context_and_scope_is_its_summary() -> None:
    result = _extract("design/tap-dedupe-design-doc.md")
    observed = _observed(result)
    assert _starting(observed, "Summary: Tapline validators resend a tap") == (12, 13)
    summary = next(o for o in result.observations if o.text.startswith("Summary: "))
    assert summary.kind == "detail"  # the landscape's systems are not the document's subjects
    assert not any("Security review" in text for text in observed)


def test_an_arc42_page_strategy_building_blocks_and_risks() -> None:
    observed = _observed(_extract("architecture/fare-engine-arc42.md"))
    assert _starting(observed, "Design: One FareEngine service owns pricing and capping") == (37, 37)
    assert observed["Responsibility: Cap calculator: Keeps the daily and weekly cap totals per card token."] == (46, 46)
    assert observed["Risk: The deny list is a day old on offline validators"] == (64, 64)
    assert observed["Mitigation: Shorten the push to every six hours"] == (64, 64)


def test_a_gitlab_alert_playbook_possible_resolutions_and_escalation() -> None:
    observed = _observed(_extract("runbooks/tapline-validators-offline.md"))
    assert _starting(observed, "Mitigation: Reboot the depot router from the network console") == (39, 39)
    assert _starting(observed, "Escalation: If validators of more than one depot are offline") == (43, 43)
    assert not any("Briefly explain" in text or "Link to the definition" in text for text in observed)


def test_sections_are_found_by_a_headings_name_its_aside_or_what_it_is_about() -> None:
    """find_sections reads each heading's keys once (remembered by heading): the name, the name
    before an aside ("(5 whys)", " - what you see") and before what it is about ("on customers");
    a keys container of any kind is asked with `in`."""
    from tasks.extract.genre_text import find_sections
    from tasks.extract.structure import scan

    structure = scan("# Outage\n\n## Impact on customers\n\nx\n\n## Why did it happen? (5 whys)\n\ny\n\n"
                     "## Alert - what you see\n\nz\n\n## Other\n\nw\n".splitlines(), 1)
    keys = frozenset({"impact", "why did it happen", "alert"})
    titles = [[structure.title(s) for s in find_sections(structure, found)] for found in (keys, keys, tuple(keys))]
    assert titles == [["Impact on customers", "Why did it happen? (5 whys)", "Alert - what you see"]] * 3
    assert find_sections(structure, frozenset({"other", "outage"})) == [structure.sections[-1]]


def test_a_y_statement_templates_instruction_to_replace_its_parts_is_boilerplate() -> None:
    lines = [(1, "_Replace the bold parts of the Y-statement with your own text. Delete this line._"),
             (2, ""), (3, "We replace the old parts of the pipeline with Spark.")]
    assert [line for _, line in clean_lines(lines)] == [
        "", "", "We replace the old parts of the pipeline with Spark."]


def test_a_pages_feedback_widget_and_an_admonitions_closing_fence_are_boilerplate() -> None:
    lines = list(enumerate([
        ":::danger Stop the cranes",
        "Never tell a driver to carry on.",
        ":::",
        "Was this article helpful? Yes No",
        "0 out of 0 found this helpful",
        "Have more questions? Submit a request",
        "Call the Control Tower straight away.",
    ], start=1))
    kept = [text for _, text in clean_lines(lines)]
    assert kept == [":::danger Stop the cranes", "Never tell a driver to carry on.", "", "", "", "",
                    "Call the Control Tower straight away."]
