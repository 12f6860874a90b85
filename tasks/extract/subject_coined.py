"""Coined capitals: one word with a capital inside it after lower-case letters ("RotaWing",
"LaunchDarkly", "CloudNativePG", "SchedMD"). No English word is written so; a product's, a
system's or a type's coined name is, wherever it stands, even as the first word of a sentence
or a list item ("RotaWing published the change", "2. RotaWing's checker queues ..."), where an
ordinary capitalized word ("Update", "Error") tells nothing (issue 23 item 4)."""

from __future__ import annotations

import re

# Three lower-case letters at least before the inner capital: not "OfS", "PhD", "IoT".
_COINED_RE = re.compile(r"[A-Z][a-z]{2,}[a-z0-9]*(?:[A-Z][A-Za-z0-9]*)+")
# Surnames written with an inner capital ("McCallum", "MacLeod", "FitzGerald"), and a practice
# named after operations ("DevOps", "FinOps"): no coined product names.
_SURNAME_PREFIXES = ("Mc", "Mac", "Fitz")


def coined_capitals(name: str) -> bool:
    """Is `name` one word with a capital inside it after lower-case letters: a coined name,
    not a surname ("McCallum") nor a practice ("DevOps")?"""
    return (_COINED_RE.fullmatch(name) is not None and not name.startswith(_SURNAME_PREFIXES)
            and not name.endswith("Ops"))


def opens_as_name(word: str, prose: str, end: int, raw: str) -> bool:
    """Is `word`, which opens a sentence of `prose` and ends at `end`, a coined name the sentence
    is about: followed by its verb or a possessive ("RotaWing published ...", "RotaWing's
    checker ..."), not by a grammar's or a table's sign ("HandleStmt  = ...") nor opening a
    link's text (`raw`: the line as written; "[VerticalScaling](...md)" and "[PlayStation
    sign-in outage](...md)" name another page, and its title's words are no sentence)?"""
    return (coined_capitals(word) and _THEN_RE.match(prose, end) is not None
            and f"[{word}" not in raw)


# What follows a name a sentence opens with: a possessive, or a lower-case word (its verb).
_THEN_RE = re.compile(r"['’]s\b|[ \t]+[a-z]")


def ends_in_an_act(name: str) -> bool:
    """Does a coined name end with a verb's -ing form ("VerticalScaling", "GangScheduling"):
    what is done, as "Handling" is, not a thing? The word before "-ing" holds a vowel in a verb's
    form ("scal-", "schedul-"), not in a noun that ends so ("RotaWing", "ConfigString")."""
    last = _LAST_WORD_RE.search(name)
    word = last.group(0).lower() if last else ""
    return word.endswith("ing") and _VOWEL_RE.search(word[:-3]) is not None


_LAST_WORD_RE = re.compile(r"[A-Z][a-z0-9]*$")
_VOWEL_RE = re.compile(r"[aeiouy]")
