"""The people a document names as people, so that their names are never taken for the
technologies or systems it is about: its authors and owners (the person entities its fields
gave), a byline ("Written by Ilse Brandt for the payments team", "*Ilse Brandt, Payments · 6 min
read*"), an owner named beside a task ("(Owner: Ilse Brandt, PAY-311)", "Assignee: Tomás Ruiz"),
a role field or row ("| **Incident Commander** | Ilse Brandt |", "Approver: Tomás Ruiz (Head of
Platform)"), the owner column of a table of tasks, the first column of a table of members and
their roles ("| Name | Role |"), an action item opened by who will do it ("- Ilse Brandt will
draft ..."), a full name with a role in brackets ("Ilse Brandt (IC, SRE)") or doing what people
do ("Tomás Ruiz decided to roll back"), and the attendance of minutes
(tasks/extract/subject_marks.py `meeting_people`), a contact card ("Name: Ilse Brandt" over
"Email: ..."). Precision first: only names in those places, of two words or more, none of them
a known technology's."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from tasks.extract.ordinary_words import ordinary_word, ordinary_words
from tasks.extract.structure import Structure
from tasks.extract.technologies import usual_spelling
from tasks.extract.text import STOPWORDS

# One to four capitalised words: "Ilse Brandt", "Tomás Ruiz", "Frank van Dijk".
_PARTICLE = r"(?:(?:van|von|de|der|den|da|di|du|del|la|le|dos|bin|al)\s+)?"
_PERSON = r"([^\W\d_a-z][\w'’-]*(?:\s+" + _PARTICLE + r"[^\W\d_a-z][\w'’-]*){0,3})"
# (after no letter or digit: "_Written by ..._", a byline in italics, too)
_BYLINE_RE = re.compile(r"(?<![^\W_])(?:[Ww]ritten|[Aa]uthored|[Pp]repared|[Cc]ompiled|[Ee]dited|[Rr]eported)"
                        r"\s+by\s+" + _PERSON)
_OWNER_RE = re.compile(r"\b(?:[Oo]wners?|[Oo]wned by|[Aa]ssignee|[Aa]ssigned to|DRI)\s*[:=]?\s+" + _PERSON)
_NOT_AFTER_WORD = r"(?<![\w'’@.-])"
# A field or a table cell whose label is a person's role: its value lists people ("**Incident
# Commander:** Sipho Ndlovu", "| **Scribe** | Julia Nowak |", "Approver: Tomás Ruiz").
_ROLES = (r"(?:incident\s+)?commander|ic|incident\s+(?:lead|manager|owner)"
          r"|(?:postmortem|document|tech(?:nical)?|comms|communications|ops|operations)\s+(?:owner|lead)"
          r"|owners?|authors?|approvers?|approved\s+by|reviewers?|reviewed\s+by|scribe|note[- ]?takers?"
          r"|responders?|on-?call(?:\s+engineer)?|lead"
          r"|editors?|sponsors?|(?:point\s+of\s+)?contacts?|assignees?|dri|facilitator|chair"
          # who attended or decided: "Members present: Sofia Almeida (Matchmaking), ...", "Decided by:"
          r"|attendees|attendance|participants|(?:members\s+)?present|in\s+attendance|absent|apologies"
          r"|regrets|invited|decided\s+by|who"
          # a DACI or RACI table's roles ("| **Driver** | @Marisol Okafor |"), a record's scribe
          r"|drivers?|contributors?|informed|consulted|deciders|recorded\s+by|recorder")
_ROLE_FIELD_RE = re.compile(
    r"(?:^|\|)\s*(?:[-*+]\s+)?[*_]*(?:" + _ROLES + r")[*_]*\s*(?::|\|)[*_]*\s*(.+)$", re.I)
# The same, read as its two openings: a field at the line's start (matched there), a cell after
# a bar (searched from the bars). One pattern with "^" is tried at every character of the line.
_ROLE_FIELD_START_RE = re.compile(_ROLE_FIELD_RE.pattern.replace(r"(?:^|\|)", "", 1), re.I)
_ROLE_CELL_RE = re.compile(_ROLE_FIELD_RE.pattern.replace(r"(?:^|\|)", r"\|", 1), re.I)
# The name before its role in a list of responders ("- Sipho Ndlovu, Incident Commander"); an
# action item's owner after a dash ("... — Julia Nowak").
_NAME_ROLE_RE = re.compile(r"^\s*[-*+]\s+" + _PERSON + r",\s+(?:the\s+)?(?i:" + _ROLES + r")\b")
_DASH_RE = re.compile(r"\s[–—]\s+" + _PERSON + r"\s*$")
# "Ilse Brandt (IC, SRE)", "Tomás Ruiz (chair)": a name with a person's role in brackets.
_ROLE_WORDS = (r"ic|sre|chair|lead|head|manager|engineer|owner|scribe|on-?call|commander|approver|author"
               r"|reviewer|facilitator|director|vp|pm|em|cto|ceo|intern|architect|analyst|developer")
_BRACKETED_ROLE_RE = re.compile(
    _NOT_AFTER_WORD + _PERSON + r"\s+\((?:[^()]*\W)?(?i:" + _ROLE_WORDS + r")\b[^()]*\)")
# Its brackets alone, opened by the bracket (the blank before it checked behind): the engine
# skips to the brackets, and the whole pattern runs on the few lines whose brackets name a role.
_BRACKETED_GATE_RE = re.compile(r"\((?<=\s\()(?:[^()]*\W)?(?i:" + _ROLE_WORDS + r")\b[^()]*\)")
# "Tomás Ruiz decided to ...", "At 14:27 Ilse Brandt rolled back": what people do.
_DEEDS = (r"decided|declared|paged|asked|said|agreed|acknowledged|escalated|noticed|joined|volunteered"
          r"|approved|confirmed|rolled|owns|took\s+over")
_DEED_RE = re.compile(r"\b(?:" + _DEEDS + r")\b")
_DEED_NEEDLES = (*_DEEDS.replace(r"took\s+over", "took").split("|"),)  # the words, literal
_DID_RE = re.compile(_NOT_AFTER_WORD + _PERSON + r"\s+(?:" + _DEEDS + r")\b")
# A blog byline: a name, then a team or a date, at the top ("*Ilse Brandt, Payments · 6 min read*");
# "By" before it is no part of the name ("By Tim Okafor · July 4, 2025 · 5 min read").
_TOP_BYLINE_RE = re.compile(r"^\s*[*_]*(?:[Bb]y\s+)?" + _PERSON + r"\s*[,·|–—]")
# The patterns of a hinted line, each with a cheap test of what every match of it holds.
_BY_RE = re.compile(r"by(?<=\sby)\s")
_HINTED = ((_BYLINE_RE, _BY_RE.search),
           (_OWNER_RE, lambda line: "wne" in line or "ssign" in line or "DRI" in line),
           (_NAME_ROLE_RE, lambda line: True), (_DASH_RE, lambda line: "–" in line or "—" in line))
_TASK_OWNER_HEADS = frozenset({"owner", "owners", "assignee", "assigned to", "who", "dri", "responsible",
                               # a components table's column of who runs each ("| Owning team |")
                               "owning team", "owner team", "owned by", "team"})
# A line that may name a person in one of those places (one search a line, the patterns after).
# Every alternative opens with a literal character (a class or boundary first is written as its
# letters, or checked behind: "\bIC" as "IC(?<!\wIC)", "\s–\s" as "–(?<=\s–)\s"), so the engine
# skips to the positions those characters hold instead of trying all fifteen at each: the
# same lines, a third of the time.
_HINT_RE = re.compile(r"by |ssign|DRI|wner|ommander|Scribe|scribe|Lead\b|lead\b|On-?call|on-?call|esponder"
                      r"|eviewer|pprover|Taker|taker|acilitator|IC\b(?<!\wIC)|–(?<=\s–)\s|—(?<=\s—)\s")
# A literal piece of each alternative of _HINT_RE, found in the joined lines first
# (tasks/extract/line_search.py): only the lines holding one are searched.
_HINT_NEEDLES = ("by ", "ssign", "DRI", "wner", "ommander", "cribe", "Lead", "lead", "n-call", "ncall",
                 "esponder", "eviewer", "pprover", "aker", "acilitator", "IC", "–", "—")


@dataclass(frozen=True, slots=True)
class DocumentPeople:
    """Full names and given names, lower case."""

    full: frozenset[str] = field(default_factory=frozenset)
    given: frozenset[str] = field(default_factory=frozenset)
    family: frozenset[str] = field(default_factory=frozenset)

    def names(self, phrase: str) -> bool:
        """True when the phrase is one of the people ("Ilse Brandt") or a given name of one
        of them written alone or before their family name ("Ilse", "Ilse B."), or a family
        name alone ("Brandt": "Lucía Ferreira" read as "Ferreira" after a letter no pattern
        takes)."""
        words = phrase.lower().lstrip("@").split()
        if not words:
            return False
        return (" ".join(words) in self.full or (len(words) <= 2 and words[0] in self.given)
                or (len(words) == 1 and words[0] in self.family))


def document_people(structure: Structure, stated: Iterable[str] = ()) -> DocumentPeople:
    """The people of `stated` (the person entities the document's fields gave) and those its
    bylines and owner notes name."""
    full = {" ".join(name.lower().lstrip("@").split()) for name in stated}
    written: list[str] = []
    listing = False  # the line before was a field of people that may wrap onto this one
    hinted, deeds = structure.holding(*_HINT_NEEDLES), structure.holding(*_DEED_NEEDLES)
    for index, (_, line) in enumerate(structure.visible):
        hint = index in hinted and _HINT_RE.search(line)
        patterns = [pattern for pattern, may_match in _HINTED if may_match(line)] if hint else []
        if "(" in line and _BRACKETED_GATE_RE.search(line):
            patterns.append(_BRACKETED_ROLE_RE)
        if index in deeds and _DEED_RE.search(line):
            patterns.append(_DID_RE)
        for pattern in patterns:
            written.extend(match.group(1) for match in pattern.finditer(line))
        field = None
        if ":" in line or "|" in line:
            field = _ROLE_FIELD_START_RE.match(line) or _ROLE_CELL_RE.search(line)
        if field is not None:
            written.extend(_listed_names(field.group(1)))
        elif listing and _WRAPPED_RE.match(line):  # "..., Oleksandr Kovalenko" / "(Data Platform), Mei Lin"
            written.extend(_listed_names(line))
        listing = field is not None and not field.group(1).rstrip(" *_").endswith(".") or (
            listing and field is None and bool(_WRAPPED_RE.match(line)))
    if structure.visible and "·" in " ".join(line for _, line in structure.visible[:4]):
        written.extend(match.group(1) for _, line in structure.visible[:4]
                       if (match := _TOP_BYLINE_RE.match(line)) is not None)
        written.extend(_badge_people(structure.visible[:4]))
    written.extend(_task_owners(structure))
    written.extend(_members(structure))
    written.extend(_will_owners(structure))
    written.extend(_bracketed_owners(structure))
    written.extend(_mail_people(structure))
    written.extend(_contact_people(structure.visible))
    written.extend(_page_reviewers(structure))
    full.update(name for name in map(_folded, written) if _is_person(name))
    full.update(_one_word_people(structure))
    full.discard("")
    return DocumentPeople(frozenset(full), frozenset(name.split()[0] for name in full),
                          frozenset(name.split()[-1] for name in full if " " in name))


# "@Alan" (a handle outside code), "- Niko to reach out ...", "~~Felix to comment~~" (the owner
# of an action item of minutes): people named by one word.
_HANDLE_RE = re.compile(r"(?<![\w@`/.-])@([A-Z][a-z]{2,})(?![\w/.-])")
_ITEM_OWNER_RE = re.compile(r"^\s*[-*+]\s+(?:~~)?([A-Z][a-z]{2,})\s+to\s+[a-z]{3,}")
# "reach out to Aaron Hill", "talked to Ilse Brandt": a person one talks to.
_TALKED_TO_RE = re.compile(
    r"\b(?:reach(?:ed)?\s+out\s+to|talk(?:ed)?\s+to|spoke\s+to|ping(?:ed)?|ask(?:ed)?|thank(?:s|ed)?)\s+"
    + _PERSON)
_TALKED_TO_NEEDLES = ("reach", "talk", "spoke", "ping", "ask", "thank")  # one is in every match


def _badge_people(lines: list[tuple[int, str]]) -> list[str]:
    """The people of a role field inside a line of fields joined by middle dots at the top
    ("*Incident: INC-2026-0307 · Severity: SEV-1 · Facilitator: Marta Lindqvist · ...*"): each
    field after a dot read as a field at a line's start."""
    names: list[str] = []
    for _, line in lines:
        for part in line.split("·")[1:]:
            field = _ROLE_FIELD_START_RE.match(part.strip(" *_"))
            if field is not None:
                names.extend(_listed_names(field.group(1)))
    return names


def _one_word_people(structure: Structure) -> set[str]:
    """The people named by a handle ("@Alan") or as an action item's owner ("- Niko to
    reach out to Aaron Hill"), and those one talks to ("Aaron Hill"): no known technology, no
    English word but as a handle."""
    found: set[str] = set()
    talking = structure.holding(*_TALKED_TO_NEEDLES)
    for index, (_, line) in enumerate(structure.visible):
        if "@" in line:
            found.update(name.lower() for name in _HANDLE_RE.findall(line) if usual_spelling(name) is None)
        owner = _ITEM_OWNER_RE.match(line)
        if owner and usual_spelling(owner.group(1)) is None and not ordinary_words(owner.group(1)):
            found.add(owner.group(1).lower())
        if index in talking and (" to " in line or "ask" in line or "ping" in line or "thank" in line):
            found.update(name for name in map(_folded, (m.group(1) for m in _TALKED_TO_RE.finditer(line)))
                         if _is_person(name))
    return found


# A list item (an action of a write-up) that ends with who does it, alone in brackets:
# "2. Page when the aggregate has not refreshed (Lukas Hartig)."
_PERSON_RE = re.compile(_PERSON)
_ITEM_START_RE = re.compile(r"\s*(?:[-*+]|\d{1,3}[.)])\s")


def _bracketed_owners(structure: Structure) -> list[str]:
    """The names alone in the brackets that close a list item (a team's name is no person:
    _is_person tells them apart; a name with a word in capitals spells out an acronym)."""
    found: list[str] = []
    for index in sorted(structure.holding(")")):
        line = structure.visible[index][1]
        end = line.rstrip(" .")
        if not end.endswith(")") or not _ITEM_START_RE.match(line):  # a literal test first
            continue
        inside = end[end.rfind("(") + 1 : -1]
        # (not what an acronym stands for: "NTLM (NT LAN Manager)", "JWTAuth (JSON Web Tokens)")
        spelled_out = any(len(word) > 1 and word.isupper() for word in inside.split())
        if _PERSON_RE.fullmatch(inside) and not spelled_out:
            found.append(inside)
    return found


def _listed_names(value: str) -> list[str]:
    """The names a role field lists: "Ilse Brandt (Head of Platform), Tomás Ruiz and Frank", or
    @-mentions side by side as a wiki or a shared document writes them ("@Ilse Brandt @Tomás Ruiz")."""
    value = _WIKI_LINK_RE.sub(r"\1", value)  # an outliner's page links ("attendees:: [[Ilse Brandt]]")
    value = re.sub(r"\([^)]*\)?|<[^>]*>?|\*\*|__|`", " ", value.split("|")[0])
    # fields side by side on one line: "**Chair:** Saoirse Kavanagh · **Minutes:** Ines Castellano"
    parts = (_NEXT_LABEL_RE.sub("", part).strip(" .@")
             for part in re.split(r"[,;/·]|\band\b|\.\s|\s(?=@)", value))
    return [part.lstrip(": ") for part in parts if part.lstrip(": ")]


# A wiki or outliner page link around a name (Logseq, Obsidian, Roam: "[[Ilse Brandt]]").
_WIKI_LINK_RE = re.compile(r"\[\[([^\[\]|]{1,60})(?:\|[^\[\]]*)?\]\]")


_NEXT_LABEL_RE = re.compile(r"^\s*[A-Z][a-z]{1,15}:\s")


def _mail_people(structure: Structure) -> list[str]:
    """The sender and the people copied in the header of a document sent as an e-mail ("From:
    Tariq Mahmood <tariq.mahmood@...>", "Cc: Maren Holloway; Harriet Lowe"), among its first
    lines with a recipient or a subject: who wrote it and who is asked to act on it. (Not "To:",
    which names lists and groups: "claims-ops-leads@...", "Operations leadership".)"""
    fields: dict[str, str] = {}
    for _, line in structure.visible[:_MAIL_HEADER_LINES]:
        match = _MAIL_FIELD_RE.match(line)
        if match is not None:
            fields.setdefault(match["key"].lower(), match["value"])
    if "from" not in fields or not fields.keys() & {"to", "subject"}:
        return []
    return [name for key in ("from", "cc") for name in _listed_names(fields.get(key, ""))]


# An e-mail's header: its first lines ("From:", "To:", "Cc:", "Subject:"), after a title too.
_MAIL_HEADER_LINES = 12
_MAIL_FIELD_RE = re.compile(r"[*_]{0,2}(?P<key>From|To|Cc|Subject)[*_]{0,2}:[*_]{0,2}[ \t]+(?P<value>\S.*)",
                            re.I)


def _contact_people(lines: list[tuple[int, str]]) -> list[str]:
    """The people of contact cards: a "Name:" field with an "Email:" field on the next line
    ("* Name: Ilse Brandt" / "* Email: i.brandt@...", as Fedora's Change template lists its
    owners and contact blocks list anyone)."""
    return [match["value"] for (_, line), (_, after) in zip(lines, lines[1:], strict=False)
            if (match := _NAME_FIELD_RE.match(line)) is not None and _MAIL_LABEL_RE.match(after)]


_NAME_FIELD_RE = re.compile(
    r"\s*(?:[-*+]\s+)?[*_]{0,2}(?:Full\s+)?[Nn]ame[*_]{0,2}:[*_]{0,2}[ \t]+(?P<value>\S[^<(]*?)\s*$")
_MAIL_LABEL_RE = re.compile(r"\s*(?:[-*+]\s+)?[*_]{0,2}(?:E-?mail|Mail)[*_]{0,2}:", re.I)


def _page_reviewers(structure: Structure) -> list[str]:
    """Who last reviewed or updated the page, in its header ("| Last reviewed | 2026-04-21 by
    Tomasz Wierzbicki |", "Last updated: 19 May 2026 (Dale Brunsvold)", "> Last reviewed:
    17/03/2026 · Kwabena Asante · Owner: ..."): the date beside the name is no part of it."""
    found: list[str] = []
    for _, line in structure.visible[:_HEADER_LINES]:
        match = _LAST_REVIEWED_RE.search(line) if "ast" in line else None
        if match is not None:
            value = line[match.end():].split("·")[:2]  # the date, then the name ("· Owner: ..." after)
            found.extend(name.group(1) for name in _PERSON_RE.finditer(" ".join(value)))
    return found


# A page's header: its first lines, where a wiki or TechDocs page says who last reviewed it.
_HEADER_LINES = 15
_LAST_REVIEWED_RE = re.compile(r"\b[Ll]ast[ _-](?:reviewed|updated|edited|modified|verified)\b(?:[ _-]by\b)?")


def _task_owners(structure: Structure) -> list[str]:
    """The names in the owner column of a table ("| Task | Owner | Ticket |")."""
    return [name for _, cell in structure.remembered(task_owner_cells) for name in _listed_names(cell)]


def task_owner_cells(structure: Structure) -> list[tuple[int, str]]:
    """(line number, cell) of each row's owner column in a table of tasks ("| Task | Owner |")."""
    cells_found: list[tuple[int, str]] = []
    column: int | None = None
    lines = structure.visible
    last = -2
    for index in sorted(structure.holding("|")):  # a row holds a bar; a line without one ends the table
        number, line = lines[index]
        if index != last + 1 or not line.lstrip().startswith("|"):
            column = None
        last = index
        if not line.lstrip().startswith("|"):
            continue
        cells = [cell.strip(" *_") for cell in line.strip().strip("|").split("|")]
        delimiter = index + 1 < len(lines) and _DELIMITER_ROW_RE.match(lines[index + 1][1])
        if delimiter:
            heads = [cell.lower() for cell in cells]
            column = next((i for i, head in enumerate(heads) if head in _TASK_OWNER_HEADS), None)
        elif column is not None and column < len(cells) and not _DELIMITER_ROW_RE.match(line):
            cells_found.append((number, cells[column]))
    return cells_found


def _members(structure: Structure) -> list[str]:
    """The names in the first column of a table of people and their roles ("| Name | Role |":
    an 8D report's D1 team, a project's contacts, a RACI's members)."""
    names: list[str] = []
    listing = False
    lines = structure.visible
    last = -2
    for index in sorted(structure.holding("|")):
        number, line = lines[index]
        if index != last + 1 or not line.lstrip().startswith("|"):
            listing = False
        last = index
        if not line.lstrip().startswith("|"):
            continue
        cells = [cell.strip(" *_") for cell in line.strip().strip("|").split("|")]
        if index + 1 < len(lines) and _DELIMITER_ROW_RE.match(lines[index + 1][1]):
            heads = [cell.lower() for cell in cells]
            listing = heads[0] in _MEMBER_HEADS and any(head in _MEMBER_ROLE_HEADS for head in heads[1:])
        elif listing and not _DELIMITER_ROW_RE.match(line):
            names.extend(_listed_names(cells[0]))
    return names


def _will_owners(structure: Structure) -> list[str]:
    """The owners of action items opened by who will do them ("- Piotr Szalai will cut ..."):
    names of no known technology, not opened by a determiner ("* Our Terraform will remain")."""
    names = []
    for index in sorted(structure.holding(" will ")):
        match = _WILL_OWNER_RE.match(structure.visible[index][1])
        if match is None:
            continue
        words = match.group(1).split()
        if words[0].lower() not in STOPWORDS and not any(usual_spelling(word) for word in words):
            names.append(match.group(1))
    return names


# An action item opened by its owner's full name ("- Piotr Szalai will cut CustomsBridge over",
# a Zoom summary's Next steps).
_WILL_OWNER_RE = re.compile(r"^\s*[-*+]\s+(?:\[.\]\s+)?" + _PERSON + r"\s+will\s+(?:not\s+)?[a-z]{3,}")
_MEMBER_HEADS = frozenset({"name", "person", "member", "team member", "who"})
_MEMBER_ROLE_HEADS = frozenset({"role", "roles", "position", "responsibility", "job title", "title"})
_DELIMITER_ROW_RE = re.compile(r"^\s*\|?\s*:?-{3,}")
# A plain line, not a list item, table row or quote, nor a field of its own ("Last verified: ...").
_WRAPPED_RE = re.compile(r"^\s*[^\s#>|*+-](?![^:\n]{0,30}:\s)")


def _folded(name: str) -> str:
    return " ".join(name.lower().split())


# Words of a team's or a department's name, not of a person's: "Payments Infrastructure".
GROUP_WORDS = frozenset(
    """team teams squad guild tribe group department committee board infrastructure infra platform
    engineering operations ops reliability sre services support security data council office""".split())


# A company's legal suffix, never a person's word: "*Tillbrook Logistics Ltd · Customs
# Integrations · updated ...*" heads a page as a byline does, and names the company.
_COMPANY_SUFFIXES = frozenset("ltd limited inc llc llp plc gmbh corp corporation".split())


def _is_person(name: str) -> bool:
    """A full name of two to four words, not all of them ordinary English words, none a word of
    a group's name, not a known technology nor one followed by ordinary words: "Ilse Brandt",
    "Julia Nowak", not "Payments Infrastructure", "Monday Morning" or "Kafka Streams"."""
    words = name.split()
    return (2 <= len(words) <= 4 and not ordinary_words(name) and not GROUP_WORDS.intersection(words)
            and not _COMPANY_SUFFIXES.intersection(name.lower().split())
            and usual_spelling(name) is None
            and not (usual_spelling(words[0]) and ordinary_words(" ".join(words[1:])))
            and not any(_product_spelling(word) for word in words))


def _with_acronym(name: str) -> bool:
    """Does a name of capitalized words hold an acronym of three letters or more ("Apology SMS
    approved by ...", "Kafka ACL")? A thing's name, not a person's."""
    words = name.split()
    return not name.isupper() and any(len(word) >= 3 and word.isupper() and word.isalpha() for word in words)


def _product_spelling(word: str) -> bool:
    """Is `word` a known technology spelled with a capital inside it ("PostgreSQL JDBC" in a
    DACI table's Driver row, "MongoDB Atlas"): a product's word, never a person's name (not
    "Julia", a language's and a person's)."""
    usual = usual_spelling(word)
    return usual is not None and any(ch.isupper() for ch in usual[1:])


def written_people(people: DocumentPeople, lines: Iterable[tuple[int, str]]) -> list[tuple[int, str, str]]:
    """(line, name as written, the line) of each full name of `people` (two words or more), where
    the document first writes it, in the order written. The names are read in lower case; the
    line gives back their spelling ("Ilse Brandt")."""
    wanted = {name for name in people.full if " " in name}
    found: dict[str, tuple[int, str, str]] = {}
    for number, line in lines:
        if not wanted:
            break
        lower = line.lower()
        for name in sorted(wanted):
            at = _whole_name_at(lower, name)
            if at >= 0 and len(lower) == len(line):  # a case fold that keeps lengths keeps places
                found[name] = (number, " ".join(line[at:at + len(name)].split()), line)
                wanted.discard(name)
    return sorted(found.values())


def handle_people(structure: Structure) -> list[tuple[int, str]]:
    """(line, login) of the people a thread names by their login, in the order written: the
    author of each comment of a GitHub discussion or issue ("**adaeze-o** · Mar 4, 2025",
    "**adaeze-o** started this conversation") and an action item's owner written as a handle in
    italics after it ("... *@tferreira* · CARDS-2292"). A login is lower case, not an English
    word ("**note** · ..." is a label)."""
    found: dict[str, int] = {}
    for index in sorted(structure.holding("**", "*@", "_@")):
        number, line = structure.visible[index]
        logins = [match.group(1) for match in _OWNER_HANDLE_RE.finditer(line)] if "@" in line else []
        header = _COMMENT_HEADER_RE.match(line)
        if header is not None:
            logins.insert(0, header.group(1))
        for login in logins:
            if not ordinary_word(login) and not _bot_login(login):
                found.setdefault(login, number)
    return sorted(((number, login) for login, number in found.items()), key=lambda item: item[0])


def _bot_login(login: str) -> bool:
    """Is `login` an app's that comments on threads ("dependabot", "renovate-bot", "github-actions")?
    Its comments are no person's."""
    return login.endswith("bot") or login in _APP_LOGINS


_APP_LOGINS = frozenset({"github-actions", "renovate", "codecov", "netlify", "vercel", "sonarcloud"})
# A comment's header in a thread: the author's login in bold, then a dot and the date, or what
# they did ("**tferreira** · Mar 5, 2025", "**adaeze-o** started this conversation in ...").
_COMMENT_HEADER_RE = re.compile(
    r"^\s*\*\*([a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,38})\*\*\s+(?:·|started\b|commented\b|replied\b|opened\b)")
# An owner's handle in italics in an action item ("*@tferreira*", "_@ife-bankole_").
_OWNER_HANDLE_RE = re.compile(r"(?<![\w*_])[*_]@([a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,38})[*_](?![\w*_])")


def full_name(name: str) -> bool:
    """Is `name`, as written, a person's full name: capitalized words, two to four ("Ilse
    Brandt", "Frank van Dijk"), none of them ordinary English words alone nor a group's word
    ("Service Monitoring", "Commerce tech lead", "Version 3", "[Marco Pracucci]" are not)?"""
    words = _folded(name).split()
    return (_PERSON_RE.fullmatch(name) is not None and _is_person(" ".join(words)) and not _with_acronym(name)
            and not any(f"{word}s" in GROUP_WORDS for word in words))  # "Service Monitoring"


def _whole_name_at(lower: str, name: str) -> int:
    """Where `name` is written in `lower` with no letter or digit beside it, else -1."""
    at = lower.find(name)
    while at >= 0:
        end = at + len(name)
        if not (at and lower[at - 1].isalnum()) and not (end < len(lower) and lower[end].isalnum()):
            return at
        at = lower.find(name, at + 1)
    return -1


# The fields of a meeting's own people: who attended, chaired, took notes or sent apologies.
_MEETING_FIELD_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?[*_]*(?:(?:members\s+)?present|attendees|attendance|in\s+attendance|participants"
    r"|invited|chair(?:ed\s+by)?|scribe|notes|note[- ]?takers?|minutes(?:\s+by)?|secretary|facilitator"
    r"|apologies|absent|regrets)[*_]*\s*:", re.I)


def meeting_field_lines(lines: Iterable[tuple[int, str]]) -> set[int]:
    """The lines of the fields that list a meeting's own people ("Present: ...", "Chair: ...",
    "**Notes:** ...", "Apologies: ..."), with the plain lines a list wraps onto."""
    found: set[int] = set()
    listing = False
    for number, line in lines:
        field = ":" in line and _MEETING_FIELD_RE.match(line) is not None  # a field holds its colon
        listing = field or (listing and _WRAPPED_RE.match(line) is not None)
        if listing:
            found.add(number)
    return found
