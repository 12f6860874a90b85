"""Common words written with a capital (issue 23 item 6, subject precision): "Access",
"Observation", "Encounter", "Infrastructure" open a sentence, a heading or a table cell, and a
capital is all that makes them look like names. A single capitalised word that is a common
English word (tasks/extract/ordinary_words.py `common_word`) and no known technology is a name
only when the document gives more than its capital:
- a code span writes it alone (`Task`), or a link's text, or a version follows it ("Atlas 2");
- inside sentences (after a lower-case word or a number: "a Task has steps", "the Task."; not
  as the first word of a longer name, "the Payments API", nor as a modifier, "each Encounter
  lookup") it is written capitalised twice or more, and as often as in lower case ("the task").
Products named by a rarer word ("Kestrel", "Hydra", "Conveyor") are not affected. Pure."""

from __future__ import annotations

import re
from functools import lru_cache

from tasks.extract.ordinary_words import common_word
from tasks.extract.technologies import usual_spelling
from tasks.extract.text import STOPWORDS
from tasks.markdown.code_spans import replace_code_spans

# One capitalised word: a capital, then lower-case letters only ("Access"; not "API", "PgBouncer").
_TITLE_WORD_RE = re.compile(r"[A-Z][a-z]+")


def common_capitalised(name: str) -> bool:
    """Is `name` one capitalised common English word that is no known technology?"""
    return bool(_TITLE_WORD_RE.fullmatch(name)) and usual_spelling(name) is None and common_word(name)


def capital_only(name: str, text: str) -> bool:
    """Is `name` a common capitalised word (common_capitalised) that `text` (the document's
    visible text, code spans included) writes as a name nowhere: in no code span, link text or
    before a version, and inside sentences capitalised less than twice or less often than in
    lower case?"""
    if not common_capitalised(name):
        return False
    return not _written_as_name(name, text)


def _written_as_name(name: str, text: str) -> bool:
    stem = name[:-1] if name.endswith("s") and len(name) > 3 else name
    forms = rf"(?:{re.escape(stem)}(?:e?s)?)"
    if re.search(rf"`{forms}`|\[{forms}\]\(", text):
        return True  # `Task`, a link's text: "[Pipelines](pipelines.md)"
    # (The patterns below open with the word and check what comes before it behind the word:
    # the engine scans the page for the word instead of trying each pattern at every character,
    # four searches of the whole page for each name.)
    word, lower = re.escape(stem), re.escape(stem.lower())
    if re.search(rf"{word}(?<![\w-]{word})(?:e?s)? v?\d", text):
        return True  # "Atlas 2", "Reef 18.2"
    # inside sentences, as a noun of its own: not a longer name's first word ("the Payments API")
    # nor a modifier ("each Encounter lookup"); "a Task has steps", "the Task." count
    noun = re.compile(rf"{word}(?<=[a-z0-9] {word})(?:e?s)?(?![\w-])( [A-Za-z]+)?")
    inside = sum(1 for match in noun.finditer(text)
                 if match.group(1) is None or match.group(1)[1:] in STOPWORDS)
    lower_count = len(re.findall(rf"{lower}(?<![\w-]{lower})(?:e?s)?(?![\w-])", _without_code(text)))
    return inside >= 2 and inside >= lower_count


@lru_cache(maxsize=1)  # the same page for each name it holds
def _without_code(text: str) -> str:
    if "`" not in text:
        return text
    return "\n".join(replace_code_spans(line) for line in text.split("\n"))
