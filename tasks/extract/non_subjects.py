"""Names a document writes that are not what it is about, read by how the prose uses them (pure):
- an on-call rotation: a code-like name written beside "rotation", "rota" or "on-call"
  ("page the `labels-primary` rotation", "Opsgenie rotation `claims-primary`"), an "@x-primary"
  handle, or a cell of a table column headed "On-call" / "Rotation" / "Pager";
- a place: a capitalized name written only after "at" ("Depot controllers at Northgate and
  Riverside", "at Ashvale General, St Brigid's and Marrow Lane") or as a site's name before a
  site word ("the Eastfield depot"); a numbered room, ward or bay ("Ward 7B", "Room 2");
- a label: an ordinary word written before a number wherever it is not a sentence's first word
  ("Season 4", "Season 5 launch", "Phase 2", "Sprint 14"): what comes in a series, not a system;
- a kind of document: ordinary words cut from the label that opens a title ("After Action" of
  "After Action Review: login queue stall", "history" of "Incident history: ...");
- a status: a word a log's legend ("Statuses: **Proposed**, **Agreed**, **Parked**") or a
  cell of a table column headed "Status" gives as a record's state;
- a piece of longer names: an ordinary capitalized word written only inside names of more words
  ("Platform" of "311 Platform" and "Platform Operations", two teams);
- a sentence in a technology cell ("| Framework | Loosely follows ISO/IEC/IEEE 42010: ... |"):
  prose about the page, not a list of products ("Loosely", "IEC");
- a message in a code span ("fails with `recipe resolve timeout`", "logs `tool state feed
  lagging`"): English words a program prints, not a command whose first word is a tool;
- a person's post in brackets ("Hana Morimoto (Head of Platform)", "(Boardwall product owner)"):
  what the person is, not a team;
- the way a thing is done one at a time ("The rollback went node by node"): a phrase whose head
  is written again after "by" is no system;
- a department, a team ("Revenue Engineering", "Platform Operations", "Platform SRE"): capitalized
  words ending in the work a group of people does, typed team, not a technology;
- a person's job ("revenue manager" where the page writes "Revenue managers currently correct
  Kestrel" or "the hotel's revenue manager"): a manager the page writes in the plural too, or
  after the possessive of a kind of place or body, is people, not a system ("channel manager",
  "the NOC's fault manager" are neither);
- a maker or owner: one word written once, and only as the possessive of a kind of thing
  ("OHIP, Oracle's integration platform"): the vendor, not a system the page is about;
- a well-known city ("the properties in Lisbon and Porto", "the morning in New York"): a place,
  whatever the sentence around it (a site of the team's own, "Lisbon Chiado", is left to the
  place rules above: it may be what an incident affected).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tasks.extract.ordinary_words import common_word, ordinary_word
from tasks.extract.technologies import usual_spelling
from tasks.extract.text import STOPWORDS, word_spans
from tasks.markdown.tables import table_cells


def rotation_names(lines: Iterable[tuple[int, str]]) -> frozenset[str]:
    """The lower-cased names the lines use as on-call rotations."""
    found: set[str] = set()
    column: int | None = None  # the on-call column of the table being read
    header = True
    for _, line in lines:
        lower = line.lower()
        if (("rota" in lower or "call" in lower or "@" in line) and ("-" in line or "_" in line)
                and _ROTATION_WORD_RE.search(line)):
            found.update((m["before"] or m["after"] or m["role"] or m["handle"]).lower()
                         for m in _ROTATION_RE.finditer(line))
        if not line.lstrip().startswith("|"):
            column, header = None, True
            continue
        cells = table_cells(line)
        if header:
            column = next((i for i, cell in enumerate(cells) if _ROTATION_HEADER_RE.search(cell)), None)
            header = False
        elif column is not None and column < len(cells) and not set(cells[column]) <= set(":- "):
            found.update(name.lower() for name in _CELL_NAME_RE.findall(cells[column]))
    return frozenset(found)


# A code-like name beside "rotation" or "rota", either side; one whose last word names a
# rotation's role beside "on-call" ("`labels-primary` on-call"; not "the claims-intake on-call",
# a service's); an "@x-primary" handle.
_NAME = r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+"
_ROLE = r"[a-z][a-z0-9-]*-(?:primary|secondary|backup|oncall|on-call)"
_ROTATION_RE = re.compile(
    rf"(?<![\w-])[`\"]?(?P<before>{_NAME})[`\"]?[ \t]{{1,3}}(?:rotation|rota)\b"
    rf"|\b(?:rotation|rota)[ \t]{{1,3}}[`\"]?(?P<after>{_NAME})(?![\w-])"
    rf"|(?<![\w-])[`\"]?(?P<role>{_ROLE})[`\"]?[ \t]{{1,3}}on-?call\b"
    rf"|@(?P<handle>{_ROLE})\b",
    re.I)
# A cheap test before _ROTATION_RE, itself after cheaper ones: its words in the lower-cased line
# (no letter of them has a case-blind twin outside ASCII, as "ſ" has for "s"), and the hyphen or
# underscore every rotation's name holds.
_ROTATION_WORD_RE = re.compile(r"rota|on-?call|@", re.I)
_ROTATION_HEADER_RE = re.compile(r"\b(?:on-?call|rotation|rota|pager|paging)\b", re.I)
_CELL_NAME_RE = re.compile(_NAME, re.I)


def written_as_place(name: str, text: str, after_at: set[int]) -> bool:
    """Is every mention of a capitalized `name` in `text` (its lines joined by blanks) a place:
    a name in the list after "at" (`after_at`, see places_after_at), a site's name before a site
    word ("the Eastfield depot"), or, an ordinary word, a numbered room ("Ward 7B", "Bay 4")?"""
    numbered: bool | None = None  # an ordinary word ("Ward"), read on the first mention that needs it
    mentions = 0
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if not (at and (text[at - 1].isalnum() or text[at - 1] in "-_")) and not (
                end < len(text) and (text[end].isalnum() or text[end] in "-_")):
            mentions += 1
            after = text[end:end + 24]
            if not (at in after_at or _SITE_AFTER_RE.match(after)):
                if numbered is None:
                    numbered = " " not in name and ordinary_word(name.lower())
                if not (numbered and _NUMBER_AFTER_RE.match(after)):
                    return False  # the first mention that is no place settles it
        at = text.find(name, end)
    return mentions > 0


def places_after_at(text: str) -> set[int]:
    """Where each capitalized name of a list after "at" starts ("at Ashvale General, St
    Brigid's and Marrow Lane"): not after a verb of looking or pointing ("look at Grafana")."""
    starts: set[int] = set()
    for match in _AT_RE.finditer(text):
        if text[max(0, match.start() - 9):match.start()].split()[-1:] in _LOOKING:
            continue
        at = match.end()
        while at < len(text) and text[at].isupper():
            starts.add(at)
            name = _CAPITALIZED_RUN_RE.match(text, at)
            at = name.end() if name else at + 1
            joint = _LIST_JOINT_RE.match(text, at)
            if joint is None:
                break
            at = joint.end()
    return starts


_AT_RE = re.compile(r"[Aa](?<!\w[Aa])t (?=[A-Z])")  # "\b[Aa]t": the letter first, the boundary behind it
_LOOKING = [[word] for word in ("look", "looks", "looked", "Look", "point", "points", "pointed", "Point")]
_CAPITALIZED_RUN_RE = re.compile(r"[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,3}")
_LIST_JOINT_RE = re.compile(r",? (?:and |or )?")
# A site word after a place's name: "the Eastfield depot", "Kingsway station".
_SITE_AFTER_RE = re.compile(
    r" (?:depots?|sites?|hospitals?|stations?|campus|offices?|branch(?:es)?|warehouses?|plants?|yards?"
    r"|garages?|wards?|clinics?|interchange|data\s?cent(?:re|er)s?)\b")  # "the Kellsbridge data centre"
# A room's or ward's number or letter code: "Ward 7B", "Room 2", "Bay 12".
_NUMBER_AFTER_RE = re.compile(r" \d{1,3}[A-Z]?\b")


def given_names(text: str) -> frozenset[str]:
    """The names the text writes as a person's: the owner of an action by given name
    ("(Tomasz, in progress)", "(Sade, by 21 Feb)"), or a responder named in apposition, by
    given name or in full ("The on-call engineer, Tomasz, saw ...", "the Integration lead,
    Aoife Brennan.", "Aleksander, on the Realtime on-call, got ...")."""
    # No match spans a line and each holds a comma before a blank, and a bracket or a word of
    # _GIVEN_NAME_WORDS: the lines without both are left out of the search, joined as written.
    comma_lines = "\n".join(line for line in text.split("\n") if (", " in line or ",\t" in line)
                            and ("(" in line or any(word in line for word in _GIVEN_NAME_WORDS)))
    return frozenset(match["owner"] or match["named"] or match["responder"]
                     for match in _GIVEN_NAME_RE.finditer(comma_lines))


_GIVEN_NAME_WORDS = ("call", "engineer", "commander", "lead", "manager", "responder")  # of the last two
_GIVEN_NAME_RE = re.compile(
    r"\((?P<owner>[A-Z][a-z]+),[ \t]+(?:done|by|due|in progress|ongoing|open|to do|owner)\b"
    r"|\b(?:engineer|commander|lead|manager|on-?call|responder),[ \t]+"
    r"(?P<named>[A-Z][a-z]+(?:[ \t][A-Z][a-z'-]+)?)[,.]"
    r"|(?<![\w-])(?P<responder>[A-Z][a-z]+),[ \t]+(?:on|the|our)[ \t][^,\n]{0,40}on-?call\b")


def written_as_label(name: str, text: str) -> bool:
    """Is a capitalized ordinary word (`name`) written before a number ("Season 4", "Phase 2")
    at least once, and everywhere else only where any word is capitalized: the first word of a
    line, an item or a sentence ("- Season launch readiness review")?"""
    if " " in name or not ordinary_word(name.lower()):
        return False
    numbered = False
    for start, end in word_spans(text, name):
        if _NUMBER_AFTER_RE.match(text, end) or _VERSION_AFTER_RE.match(text, end):
            numbered = True
        elif not _OPENING_BEFORE_RE.search(text, max(0, start - 12), start):
            return False
    return numbered


_VERSION_AFTER_RE = re.compile(r" \d{1,3}\.\d")  # "Patch 4.2"
# Where any word is capitalized: a line's start, after a list marker, a heading mark, a sentence's end.
_OPENING_BEFORE_RE = re.compile(r"(?:^|\n|[.!?:]\s|[-*+#>|]\s|\d[.)]\s)[ \t]*[*_]*$")


def cut_from_title_label(name: str, title: str) -> bool:
    """Is `name` common words that are part, not all, of the label before a title's colon
    ("After Action" of "After Action Review: ..."; not "Fulfilment platform" of "Fulfilment
    platform: system overview", nor "T-Lang" of "T-Lang Meeting: ...", whose "lang" is rare)?"""
    label = title.split(": ", 1)[0].strip(" *_#").lower() if ": " in title else ""
    words = name.lower().split()
    return (bool(label) and label != " ".join(words) and f" {' '.join(words)} " in f" {label} "
            and all(len(word) > 1 and common_word(word) for word in words))


def status_words(lines: Iterable[tuple[int, str]]) -> frozenset[str]:
    """The lower-cased one-word states the lines give records: the bold words of a status
    legend line ("Statuses: **Proposed**, **Agreed**, **Parked**"), the one-word cells of
    a table column headed "Status" ("| SDL-08 | ... | Parked | ...") and the state a status
    row gives ("| Document status | Baselined v2.1 |")."""
    found: set[str] = set()
    column: int | None = None  # the status column of the table being read
    header = True
    for _, line in lines:
        if not line.lstrip().startswith("|"):
            column, header = None, True
            if "tatus" in line and _STATUS_LEGEND_RE.match(line):
                found.update(word.lower() for word in _BOLD_WORD_RE.findall(line))
            continue
        if not header and "tatus" in line and (row := _STATUS_ROW_RE.match(line)):  # a status row
            found.add(row["state"].lower())
        if header:  # only a header that says "Status" is split into its cells
            header = False
            if "tatus" in line:
                column = next((i for i, cell in enumerate(table_cells(line))
                               if cell.strip("* ").lower() == "status"), None)
        elif column is not None:
            cells = table_cells(line)
            if column < len(cells) and _ONE_WORD_RE.fullmatch(cells[column]):
                found.add(cells[column].strip("* ").lower())
    return frozenset(found)


# A two-column row whose label is a status ("| Document status | Baselined v2.1 |"): its state.
_STATUS_ROW_RE = re.compile(
    r"\s*\|[ \t]*\**[\w -]{0,30}[Ss]tatus\**[ \t]*\|[ \t]*\**(?P<state>[A-Z][a-z]+)\b")
_STATUS_LEGEND_RE = re.compile(r"\s*(?:[-*+]\s+)?\**(?:[Ss]tatus(?:es)?|[Ss]tates)\**\s*:")
_BOLD_WORD_RE = re.compile(r"\*\*([A-Z][a-z]+)\*\*")
_ONE_WORD_RE = re.compile(r"\**[A-Z][a-z]+\**")


def only_inside_names(word: str, flat: str) -> bool:
    """Is an ordinary capitalized `word` written in `flat` (the page's text, a paragraph a
    line) only as a piece of a longer name: a number or a name right before it ("311
    Platform"; not an English word, which may open a sentence: "Run Platform ..."; but
    "Building and Safety"), or a capitalized word right after it ("Platform Operations")?"""
    if not ordinary_word(word.lower()):
        return False
    spans = word_spans(flat, word)
    return bool(spans) and all(
        _name_before(_NAME_WORD_BEFORE_RE.search(flat, max(0, start - 40), start))
        or _name_after(_NAME_WORD_AFTER_RE.match(flat, end)) for start, end in spans)


def _name_before(before: re.Match[str] | None) -> bool:
    """Is the word before a number, a name, or a capitalized word "and" joins to it ("Building
    and Safety": no sentence opens so)?"""
    return before is not None and (before["word"].isdigit() or not ordinary_word(before["word"].lower())
                                   or bool(before["joint"]) and before["word"].lower() not in STOPWORDS)


def _name_after(after: re.Match[str] | None) -> bool:
    """Is the word after a capitalized word that no sentence opens with ("The")?"""
    return after is not None and after["word"].lower() not in STOPWORDS


# The word right before or after, one blank between (no stop, comma or bracket between them).
_NAME_WORD_BEFORE_RE = re.compile(r"(?<![\w-])(?P<word>\d+|[A-Z][A-Za-z]*) (?P<joint>(?:and|&) )?$")
_NAME_WORD_AFTER_RE = re.compile(r" (?P<word>[A-Z][A-Za-z]*)(?![\w-])")


def sentence_cell(text: str) -> bool:
    """Is a technology cell's text a sentence, not a list of products: it opens with a
    capitalized English word that names no known technology, and a lower-case word follows
    ("Loosely follows ISO/IEC/IEEE 42010: stakeholders, ..."; not "Go service, Redis",
    "Kotlin, PostgreSQL 16", "Spring Boot app")?"""
    words = text.strip(" \t*_`").split(maxsplit=2)
    if len(words) < 2 or not words[0][:1].isupper() or not words[0][1:].islower():
        return False
    first, second = words[0].strip(".,:;"), words[1]
    return (first.isalpha() and second.isalpha() and second.islower() and ordinary_word(first.lower())
            and usual_spelling(first) is None and usual_spelling(f"{first} {second}") is None)


def written_as_message(span: str) -> bool:
    """Is a code span's content a message a program prints or logs, not a command: three or
    more lower-case English words and nothing else (`recipe resolve timeout`, `tool state feed
    lagging`; not `helm list`, `nats stream info LINTEL`, `kubectl get pods`)?"""
    words = span.split()
    return len(words) >= _MESSAGE_WORDS and all(
        word.isalpha() and word.islower() and ordinary_word(word) for word in words)


_MESSAGE_WORDS = 3


def names_a_post(bracket: str) -> bool:
    """Does a bracket after a person's name give their post, not their team: a post's word
    that opens it before "of" ("Head of Platform", "Director of Engineering") or ends it
    ("Boardwall product owner", "Fab 4 operations manager")?"""
    words = bracket.lower().split()
    return bool(words) and (words[-1] in _POSTS or len(words) > 2 and words[1] == "of" and words[0] in _POSTS
                            or words[0] in _TITLES)


# A person's post, written last ("product owner") or first before "of" ("Head of Platform").
_POSTS = frozenset("""owner owners manager lead head engineer director architect analyst developer
    designer chair commander scribe officer president""".split())
# A post's title that opens it with no "of" ("VP Engineering", "CTO").
_TITLES = frozenset({"vp", "svp", "evp", "cto", "ceo", "cio", "ciso", "cfo", "coo"})


def done_one_by_one(phrase: str, text: str) -> bool:
    """Is every mention of a system phrase followed by "by" and its head again ("The rollback
    went node by node", "table by table"): the way a thing was done, one at a time, no system?"""
    head = phrase.split()[-1]
    spans = word_spans(text, phrase)
    return bool(spans) and all(text[end:end + len(head) + 4].lower() == f" by {head.lower()}"
                               for _, end in spans)


def names_a_department(name: str) -> bool:
    """Is `name` a department's: two or more capitalized words ending in the work a group of
    people does ("Revenue Engineering", "Claims Operations", "Platform SRE"; not "Engineering"
    alone, nor "data engineering")?"""
    words = name.split()
    return (len(words) >= 2 and words[-1] in _DEPARTMENT_WORDS
            and all(word[:1].isupper() or word == "&" for word in words))


# What a department does, as its name ends: "Yield Engineering", "HPC Operations", "Platform SRE".
_DEPARTMENT_WORDS = frozenset({"Engineering", "Operations", "Ops", "SRE", "DevOps"})


def written_as_role(phrase: str, text: str) -> bool:
    """Is a lower-case "... manager" a person's job: the page writes it in the plural too
    ("Revenue managers currently correct Kestrel") or after the possessive of a kind of place or
    body ("the hotel's revenue manager"; not "the NOC's fault manager", a named body's system)?"""
    words = phrase.lower().split()
    if len(words) < 2 or words[-1] != "manager" or not phrase[1:].islower():
        return False
    if word_spans(text.lower(), f"{phrase.lower()}s"):
        return True
    return any(_KIND_POSSESSIVE_RE.search(text, max(0, start - 30), start)
               for start, _ in word_spans(text, phrase))


# A possessive of a kind of place or body, in lower case, right before: "the hotel's revenue
# manager", "each site's duty manager" (not "the NOC's fault manager": a named body's system).
_KIND_POSSESSIVE_RE = re.compile(r"(?<![\w-])[a-z]+['’]s[ \t]+$")


def only_possessive(name: str, text: str) -> bool:
    """Is a capitalized one-word `name` written once, as the possessive of lower-case words
    ("OHIP, Oracle's integration platform"): who makes or runs the thing, not a subject of the
    page? (Not a name of more words: "Aldermoor Broadcasting Trust's ..." is the team's own
    organisation, read by its own rules.)"""
    spans = word_spans(text, name) if " " not in name else []
    if len(spans) != 1:
        return False
    end = spans[0][1]
    return _POSSESSIVE_KIND_RE.match(text, end) is not None


# "'s" or "’s" and a lower-case word: "Oracle's integration platform" (not "Oracle's OHIP").
_POSSESSIVE_KIND_RE = re.compile(r"['’]s[ \t]+[a-z]")


def city_name(name: str) -> bool:
    """Is `name` one of the world's well-known cities (capitals and business centres), written
    alone ("Lisbon"; not "Lisbon Chiado", a site named after it)?"""
    return name in _CITIES


# Capitals and business centres teams write about as places (where users, offices, data centres
# and events are); not those that are product names too ("Phoenix", "Aurora") nor people's given
# names ("Sofia", "Milan", "Dallas", "Sydney").
_CITIES = frozenset("""
    Amsterdam Athens Atlanta Auckland Bangalore Bangkok Barcelona Beijing Belfast Belgrade Bengaluru
    Berlin Bogota Bologna Bordeaux Boston Brisbane Bristol Brussels Bucharest Budapest Cairo Calgary
    Cardiff Chennai Chicago Copenhagen Delhi Dubai Dusseldorf Düsseldorf Edinburgh Frankfurt
    Geneva Glasgow Gothenburg Hamburg Helsinki Houston Hyderabad Istanbul Jakarta Johannesburg Karachi
    Kolkata Krakow Kraków Kyiv Lagos Leeds Leipzig Lima Lisbon Liverpool Ljubljana London Lyon Madrid
    Manchester Manila Marseille Melbourne Montreal Montréal Moscow Mumbai Munich Nairobi Naples
    Oslo Ottawa Paris Perth Porto Prague Riga Rome Rotterdam Seattle Seoul Seville Shanghai
    Singapore Stockholm Stuttgart Taipei Tallinn Tokyo Toronto Toulouse Turin Utrecht Valencia
    Vancouver Vienna Vilnius Warsaw Zagreb Zurich Zürich
""".split()) | {"New York", "New Delhi", "Hong Kong", "Mexico City", "Buenos Aires", "Cape Town",
               "Kuala Lumpur", "Los Angeles", "San Francisco", "Sao Paulo", "São Paulo", "Tel Aviv",
               "Rio de Janeiro", "Ho Chi Minh City", "Abu Dhabi", "Washington, D.C."}
