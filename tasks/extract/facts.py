"""`extract_facts`: one source text -> its Extraction, composed from one step per kind of fact."""

from __future__ import annotations

from tasks.extract.cov_tasks import task_items
from tasks.extract.experiment_results import experiment_results
from tasks.extract.field_statements import field_statements
from tasks.extract.former_paths import add_former_paths
from tasks.extract.front_matter import split_frontmatter
from tasks.extract.genre_conclusions import section_action_items
from tasks.extract.genre_facts import (
    add_document_links,
    add_genre_facts,
    document_genre,
    drop_boilerplate_lines,
    genre_subject,
)
from tasks.extract.genre_links import log_entry_keys
from tasks.extract.genre_parts import record_risks
from tasks.extract.genre_subjects import DECISION_RECORD, add_genre_subjects, notes_named_by_day
from tasks.extract.genres import POSTMORTEM
from tasks.extract.issue_threads import thread_resolution
from tasks.extract.led_statements import led_statements
from tasks.extract.lines import add_line_facts
from tasks.extract.model import Extraction, SourceRef
from tasks.extract.part_statements import add_part_statements
from tasks.extract.plain_conclusions import add_plain_conclusions, licence_text
from tasks.extract.record_fields import document_title
from tasks.extract.record_statements import record_statements
from tasks.extract.records import add_record_facts, classify_record
from tasks.extract.sentence_parts import rejections_told
from tasks.extract.statement_labels import rejected_decisions
from tasks.extract.structure import scan
from tasks.extract.subject import add_front_matter_entities, add_subject
from tasks.extract.subject_ids import add_own_ids


def extract_facts(text: str, source: SourceRef) -> Extraction:
    """Everything `text` states explicitly, plus candidates. Pure and deterministic."""
    meta, body, first_line = split_frontmatter(text)
    structure = scan(body, first_line)
    result = Extraction(source=source)
    result.title, title_line = document_title(meta, structure, source)
    record = classify_record(result, meta, structure, source)
    if result.record_role:
        return result  # a template or a log's index page: it records no decision
    genre, fields = document_genre(result, meta, structure)
    subject = add_subject(result, meta, title_line)
    if subject is not None and genre is not None:
        subject = genre_subject(result, genre, structure, fields)
    if subject is None:
        return result
    add_own_ids(result, text, fields)  # "kcs-000137-withdraw-....md", "SR-DEC-07 — ...": its key
    add_former_paths(result, meta, structure)  # "moved here from `platform/gateway.md`": old links find it
    add_front_matter_entities(result, meta, subject)
    if result.is_decision_record:
        add_record_facts(result, record, structure, meta)
        result.observations += section_action_items(structure)  # a DACI page's "Action items"
        result.observations += record_risks(structure, result.observations)  # its "Risks" section
        result.observations += record_statements(structure, result.observations)  # the rest it states
        result.observations += experiment_results(structure, result.observations)  # a write-up's "Result"
    elif genre is not None:
        add_genre_facts(result, genre, structure, meta, fields)
        add_plain_conclusions(result, structure, whole=False)  # the sections no genre reader claimed
        add_part_statements(result, genre, structure)  # the rest a design or a meeting's topic states
    else:
        add_document_links(result, structure, fields)
        add_plain_conclusions(result, structure, whole=True)
    if not result.is_decision_record:  # what a form's answers and a page's fields state
        result.observations += led_statements(structure, result.observations)  # "CAB decision: ..."
        result.observations += thread_resolution(structure, result.observations)  # an issue's closing comment
        result.observations += field_statements(structure, result.observations, incident=genre == POSTMORTEM,
                                                headings=genre is None)
    result.observations += task_items(structure, result.observations)  # a task list's owned open items
    if not result.is_decision_record:
        result.entry_keys = log_entry_keys(structure)  # a log's numbering: how others cite its entries
    result.observations = rejections_told(result.observations)  # a reason that turns an option down
    result.observations = rejected_decisions(result.observations)  # a decision item that turns one down
    hits = add_line_facts(result, subject, structure)
    result.candidates.extend(hits.candidates(subject))
    drop_boilerplate_lines(result)  # a MADR record's "* [Optional] Add links ..." too
    explicit = result.subject is not None and result.subject.explicit_type
    stated = record.status is not None or record.y_statement is not None
    # (a licence's defined terms, "Licensor" or "Contribution", are no subjects of the memory)
    if not licence_text(result.title, structure):
        if genre is not None or not (result.is_decision_record or explicit) or notes_named_by_day(
                result, structure, stated):
            add_genre_subjects(result, genre, structure, hits)  # a page of no genre: its subjects too
        elif result.is_decision_record:  # beside what its decision names (records.py), more strictly
            add_genre_subjects(result, DECISION_RECORD, structure, hits)
    result.candidates.sort(key=lambda c: (c.kind, c.term.lower(), c.line))
    return result
