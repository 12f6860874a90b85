"""The order a page's numeric dates are written in, told by how it spells (pure).

The last evidence for a date that reads both ways (`03/11/2026`), asked only when neither the
page's own dates nor its folder's settle the order (tasks/distill/log_dates.py): a page written
in British spelling ("catalogue", "centre", "colour", "programme", "organised", a price in
pounds) comes from a team that writes the day first, as the UK, Ireland, Australia, New Zealand
and India do; one written in American spelling ("catalog", "center", "color", "organized" is
not enough: Oxford spelling writes -ize too) from a team that writes the month first. Only forms
that one side never writes count, and only a page whose evidence is all on one side, twice at
least, is settled; anything else settles nothing (the date stays as written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Spellings only British English writes (an American writer never does); "£" and "GBP" price
# things in pounds.
_BRITISH = (
    r"(?:colour|behaviour|favour|honour|labour|neighbour|flavour|rumour|centre|metre|litre|theatre|fibre"
    r"|catalogue|analogue|programme|cheque|tyre)(?:s|d|ed|ing|ite|ites|able|al)?\b"
    r"|(?:aluminium|licence|licences|defence|offence|whilst|amongst|modelling|labelled|travelled)\b"
    r"|(?:organis|recognis|prioritis|authoris|optimis|realis|minimis|maximis|summaris|standardis"
    r"|customis|normalis|serialis)(?:e|ed|es|er|ers|ing|ation|ations)\b|analys(?:e|ed|ing)\b"
)
# Spellings only American English writes (-ize is no evidence: Oxford spelling writes it too).
_AMERICAN = (
    r"(?:color|behavior|favor|honor|labor|neighbor|flavor|rumor|center|theater|fiber|catalog)"
    r"(?:s|ed|ing|ite|ites|able)?\b|(?:aluminum|modeling|labeled|traveled)\b"
)
_SPELLING_RE = re.compile(rf"\b(?:(?P<british>{_BRITISH})|(?P<american>{_AMERICAN}))|(?P<pound>£|\bGBP\b)",
                          re.I)
_ENOUGH = 2  # one word can be a name or a quotation; two on one side, none on the other, settle


def spelling_day_first(texts: Iterable[str]) -> bool | None:
    """True when the page spells British English (day-first dates), False when it spells
    American English (month-first), None when it says neither or both."""
    british = american = 0
    for text in texts:
        for match in _SPELLING_RE.finditer(text):
            if match["american"]:
                american += 1
            else:
                british += 1
    if british >= _ENOUGH and not american:
        return True
    if american >= _ENOUGH and not british:
        return False
    return None
