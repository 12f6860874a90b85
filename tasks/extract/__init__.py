"""Deterministic, offline fact extraction from one source text (no language model, no I/O).

What a source states explicitly becomes a fact; weaker guesses become candidates:

- frontmatter: `entity`/`entity_name` (the subject), `entity_type`/`type`, `aliases`, `tags`,
  `entities` (names, `{name, type}` items, or a `name: type` mapping);
- wiki links `[[Name]]` (a `mentions` relation from the subject) and relation lines
  `- depends_on [[Other Entity]]` whose verb is in the relation vocabulary, snake_case, or under
  a Relations heading (passive forms like `superseded_by` are turned around);
- observation lines `- [decision] Use WAL mode for SQLite #database` (`[Memory Writer]` keeps
  its case: only known categories are lower-cased);
- decision records (Nygard, MADR 2-4, log4brains, Y-statements; setext or ATX headings, found
  with markdown-it block tokens): the record is an entity of type decision, its status, date
  and decision are observations; the record links it states (tasks/extract/record_links.py) are
  resolved against the log's records in distill; technologies its decision names as subject
  (tasks/extract/decision_subjects.py) are entities it uses / replaces / rejects; the people and teams
  that decided, wrote or own it (tasks/extract/decision_people.py) are entities it is decided_by /
  authored_by / owned_by;
- candidates (not facts): capitalized phrases that recur and terms in code spans.

Mentions of already-registered names are found later by `find_mentions`, once every name
registered in the same run is known, so the result does not depend on how sources are batched.
Line numbers are 1-based lines of the text given (the raw file).

Modules, in the order `extract_facts` (facts.py) uses them: front_matter (split, key lines),
structure (markdown-it block sections, code, paragraphs), record_fields (title, status, date),
records (is it a decision record; its facts), subject (the subject, front-matter entities),
lines (observation, relation, wiki-link and prose lines), candidates, genre_subjects (a
document's subjects from subject_terms, named by canonical); then mentions
(`find_mentions`, run by distill). model holds the fact types; text, links, naming,
paragraphs the shared helpers.
"""

from tasks.extract.facts import extract_facts
from tasks.extract.mentions import MentionMatcher, find_mentions, mention_lines
from tasks.extract.model import (
    CUT_MARK,
    DECISION_TYPE,
    DEFAULT_LINKED_TYPE,
    MAX_DECISION_CHARS,
    MAX_NAME_CHARS,
    MAX_OBSERVATION_CHARS,
    SUBJECT_DOCUMENT_TYPE,
    CandidateFact,
    EntityFact,
    Extraction,
    NameRef,
    ObservationFact,
    RelationFact,
    SourceRef,
    SupersededFact,
)
from tasks.extract.text import is_meaningful_name, plain_text

__all__ = [
    "CUT_MARK",
    "DECISION_TYPE",
    "DEFAULT_LINKED_TYPE",
    "MAX_DECISION_CHARS",
    "MAX_NAME_CHARS",
    "MAX_OBSERVATION_CHARS",
    "SUBJECT_DOCUMENT_TYPE",
    "CandidateFact",
    "EntityFact",
    "Extraction",
    "MentionMatcher",
    "NameRef",
    "ObservationFact",
    "RelationFact",
    "SourceRef",
    "SupersededFact",
    "extract_facts",
    "find_mentions",
    "mention_lines",
    "is_meaningful_name",
    "plain_text",
]
