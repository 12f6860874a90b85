"""Organisations and places a document names, which are not the systems it is about (issue 23
item 6, subject precision): the team's own organisation, whose name its internal hosts, the hosts it writes
bare and its people's e-mail addresses carry ("api.orchardline.com", "mei@orchardline.example"
-> "Orchardline"), and the names an institution's or a place's word follows ("Westfield General
Hospital", "Westfield Council", "NHS trusts", "Kent County", "Ashvale Health Group"). Read from structure, no
gazetteer. Pure."""

from __future__ import annotations

import re

# A host of the organisation's own network, or an e-mail address: its name is the label
# before the top-level one ("runbooks.orchardline.internal", "meilin.tan@orchardline.example").
_OWN_HOST_RE = re.compile(
    r"(?:(?<![\w.+-])[\w.+-]+@|(?<![\w.-])(?:[a-z0-9-]+\.)+)([a-z][a-z0-9-]{2,})"
    r"\.(?:internal|example|local|corp|lan|intra|intranet)\b"
    r"|(?<![\w.+-])[\w.+-]+@(?:[a-z0-9-]+\.)*?([a-z][a-z0-9-]{2,})"
    r"(?:\.(?:co|org|ac|gov|com|net))?\.[a-z]{2,}(?![\w-]|\.\w)",
    re.I)  # a country's second level too ("lists.fenmoor-libraries.org.uk")
# A host written bare, without a scheme ("`api.orchardline.com`", "41 minutes without
# api.orchardline.com"): one the team runs, named by its organisation; a link's target is not
# read (a vendor's documentation: "https://docs.adyen.com/...").
_BARE_HOST_RE = re.compile(
    r"(?<![\w./:-])(?:[a-z0-9-]+\.)+([a-z][a-z0-9-]{2,})\.(?:com|net|org|io|co|app|dev|cloud)(?![\w.-]|\.\w)")
# Words that say that the name before them is an institution or a place.
_INSTITUTIONS = (r"(?:General\s+)?Hospitals?|Infirmary|Council|County|Borough|City|Town|Village|District"
                 r"|Region|Province|University|College|School|Clinic|Surgery|Trusts?|Ministry|Police"
                 r"|Government|Authority|Agency|Commission|Parliament"
                 r"|Health(?:care)?\s+(?:Group|Board|System|Network|Trust)|Healthcare|Holdings")
# (The capital opens the pattern and the boundary before it is checked behind it, so the
# engine skips to the capitals instead of trying the pattern at every character.)
_INSTITUTION_RE = re.compile(
    r"([A-Z](?<![\w-][A-Z])[A-Za-z]+)\s+(?:" + _INSTITUTIONS
    + r"|(?<=[A-Z]{2}\s)(?:" + _INSTITUTIONS.lower() + r"))\b")  # "NHS trusts": after an acronym
# What every line each host pattern matches holds: an "@" after an address's character (not a
# handle's "@" after a blank) or a dot before an internal top-level label; a dot before a public
# one (the bare host's pattern minds case). A page's few
# such lines are searched, not the whole text (neither pattern spans lines, and a line keeps its
# neighbours' "\n" either way), which was most of this module's time; each pattern its own
# lines, as a page's links hold many public hosts and few addresses.
_OWN_HINT_RE = re.compile(r"@(?<=[\w.+-]@)|\.(?:internal|example|local|corp|lan|intra|intranet)", re.I)
_BARE_HINT_RE = re.compile(r"\.(?:com|net|org|io|co|app|dev|cloud)")


def _lines_matching(pattern: re.Pattern[str], text: str) -> list[str]:
    """The lines of `text` where `pattern` (one that never matches a line break) matches, in
    order: one search of the whole text instead of one a line (most lines hold no match)."""
    found: list[str] = []
    end = -1  # where the last line kept ends
    for match in pattern.finditer(text):
        if match.start() > end:  # a line not kept yet
            start = text.rfind("\n", 0, match.start()) + 1
            end = text.find("\n", match.start())
            end = len(text) if end < 0 else end
            found.append(text[start:end])
    return found


# Mail services: an address there says nothing about whom the writer works for.
_MAIL_HOSTS = frozenset({"gmail", "googlemail", "outlook", "hotmail", "yahoo", "icloud", "proton",
                         "protonmail", "users", "noreply", "example"})


def _label_names(label: str) -> tuple[str, ...]:
    """The names an e-mail domain's label gives its organisation: the label, and a hyphenated one's
    words ("harrowfell-energy" -> "harrowfell energy") and first word ("fenmoor-libraries" ->
    "fenmoor", as the organisation calls itself for short); a host's label names a host
    ("kafka-broker.internal"), not who runs it."""
    label = label.lower()
    words = [word for word in label.split("-") if word]
    if len(words) < 2:
        return (label,)
    return label, " ".join(words), words[0]


def organisation_names(text: str) -> frozenset[str]:
    """The names (lower case) `text` gives to organisations and places: its own
    organisation's (its internal hosts and e-mail domains) and those an institution's word
    follows ("Westfield General Hospital" -> "westfield", "NHS trusts" -> "nhs")."""
    names: set[str] = set()
    if "@" in text or "." in text:
        for match in _OWN_HOST_RE.finditer("\n".join(_lines_matching(_OWN_HINT_RE, text))):
            label = (match.group(1) or match.group(2) or "").lower()
            if label and label not in _MAIL_HOSTS:
                names.update(_label_names(label) if "@" in match.group(0) else (label,))
        bare = "\n".join(_lines_matching(_BARE_HINT_RE, text))
        names.update(match.group(1).lower() for match in _BARE_HOST_RE.finditer(bare))
    names.update(match.group(1).lower() for match in _INSTITUTION_RE.finditer(text))
    if "opyright" in text or "©" in text:
        names.update(_COMPANY_SUFFIX_RE.sub("", match.group(1)).lower()
                     for match in _COPYRIGHT_RE.finditer(text))
    return frozenset(names)


# Who holds a page's copyright ("Copyright (c) 2026 Harrowfell Energy. All rights reserved.",
# "© 2024 Orchardline Ltd"): the organisation that writes it, as an RFC-style memo's notice says.
_COPYRIGHT_RE = re.compile(
    r"(?:\bCopyright\b|©)(?:[ \t]*(?:\([cC]\)|©))?[ \t]+"
    r"(?:\d{4}(?:[ \t]*[-–][ \t]*\d{4})?,?[ \t]+)?(?:by[ \t]+)?"
    r"([A-Z][\w&-]*(?:[ \t]+[A-Z][\w&-]*){0,3})")
_COMPANY_SUFFIX_RE = re.compile(r"[ \t]+(?:Ltd|Limited|Inc|LLC|LLP|plc|PLC|GmbH|AG|SA|BV|Corp|Corporation)$")
