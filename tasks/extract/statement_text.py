"""Is a sentence or list item a statement a reader keeps, by its own words (pure).

The statement readers (part_statements.py, review_statements.py, record_statements.py) keep
every statement of a part that no other reader kept; what a statement is, they share: at least
MIN_WORDS words, no lead-in (a line ending in ":" opens what follows) and no question, some
lower-case words (not a heading shouted in capitals), and a claim of its own: not a pointer
elsewhere ("See the runbook", "For more information, ...", "Refer to ..."), a template's
placeholder in brackets, an instruction to the author, or what a section says it does.
"""

from __future__ import annotations

import re

MIN_WORDS = 4
_LEAD_IN_RE = re.compile(r"[:?]\s*$")
_NO_CLAIM_RE = re.compile(r"^(?:for\s+(?:more|further)\s+(?:information|details)|for\s+details?,?\s+see\b"
                          r"|please\s+(?:see|check|refer|read)|see\s|refer\s+to\b)|^\W*\[[^\]]*\]\W*$"
                          r"|\bplease\s+(?:refer\s+to|check\s+out|see)\b"
                          # an instruction to the author left in ("... of your proposal would be")
                          r"|\byour\s+(?:proposal|rfc|kep|design|change|feature|document)\b"
                          # what a section says it does ("This section quickly summarizes the design")
                          r"|^(?:this|the\s+(?:following|next|previous))\s+(?:sub-?)?(?:section|chapter|part)s?\b",
                          re.I)


def is_statement(text: str) -> bool:
    """Does `text` (one sentence or list item, stripped of its marks) state something?"""
    return (len(text.split()) >= MIN_WORDS and not _LEAD_IN_RE.search(text)
            and any(c.islower() for c in text) and not _NO_CLAIM_RE.search(text))
