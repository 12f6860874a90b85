"""The subjects a document is about (a genre document, or a page of no genre): technologies,
systems, services, components and teams, as typed entities related to the document (pure,
precision first).

A term becomes a subject only on structural evidence, by its kind (tasks/extract/subject_terms.py):
- a capitalized phrase that recurs (twice, a single word three times; once more on a page of
  no genre) in the title, the opening or a line a conclusion was read from, or six times;
- a system phrase ("session store", "Payments API", "fulfilment team") named in the title or
  where a conclusion is stated, or twice up front, or four times;
- a code identifier (`PipelineTask`, `orders-consumer`) three times up front or in a
  conclusion, or eight times (prose and code spans counted together); a link text to another
  page of the site; the components an architecture page lists; the title's subject
  ("Postmortem: Login service outage"; minutes' team, "T-lang meeting agenda"; another
  title's subject when written three times) and a code span in the title (`try`);
- a common technology (tasks/extract/technologies.py, in lower case too) named in the title,
  a heading or a conclusion, twice up front, or three times, or once in a sentence of a
  document that tells what a team runs (not a proposal's prior art, not a short note; not a
  dashboard, tracker or pager, nor an aside in parentheses, a link or a quoted error); a name
  written once inside a sentence where a conclusion is stated ("... queued in PgBouncer");
- a name the team coined, in a code span and then bare in prose (`runnerd`); a name an
  appositive defines ("Conveyor, our job runner,", "Our deploy tool, shipit,", "the `flagd`
  sidecar", "the tax provider (Avalara)"); a hyphenated name the page's commands act
  on and the page writes elsewhere (`--group billing-events`); a team named twice;
- a coined hyphenated name ("cart-svc", "kube-dns") or one that ends in a component's head
  ("listing-service") once where a conclusion is stated; a tool a runbook's or a write-up's
  command runs once (`psql -h ...`, a command in a code span of its steps);
- what a field of affected services lists (an incident `affected` them); a short acronym
  written twice before the noun it names a part of ("the RGW benchmarks"), or its plural
  ("SDKs"); in minutes, the capitalized names too, but the people the attendance, the roles
  and the speakers name ("Marco: ...", "Elif asked ...");
- in a proposal, a name that opens an option of its Alternatives (a rejected option);
- in a runbook, an alert a section is named after ("## MllpListenerDown");
- a team named where the page says who owns or does something: an owner field or cell, an
  action's owner, a person's team in brackets named again (tasks/extract/owner_teams.py);
- once is enough where the structure says it is a product (tasks/extract/stack_names.py): an
  item of a technology column or field ("| Tech | Kotlin, OptaPlanner |", "**Language:** Go
  1.23"), a name no other evidence chose, beside the others; a name before a release number
  in prose ("the OpenTripPlanner 2.6 upgrade").
Never a heading or template word, a month or weekday, a placeholder, the people the document
names, or the document's own name; at most a few of each kind. A term made only of ordinary
English words that names a kind of thing ("error", "force-merge", "Product services", "API node",
"production cluster") needs the structure to name it (a heading, a table row, a header field,
bold, code, the title): see _kind_of_thing. A term that is not sure enough
is kept as an unsure subject term: distill relates the document `about` it when the registry
already holds it (tasks/distill/merge.py); the rest stays a candidate. Names are canonical
(tasks/extract/canonical.py), the written forms their aliases.

Relations: an incident `affected` the systems its title names, is `caused_by` what its cause
names and `mitigated_by` what its resolution names, and is `about` the others; any other
document is `about` its subjects. Types from the name's head word: "... team" a team,
"... service" / "... API" a service, "... database" / "... cluster" / "... pipeline" a system,
a runbook's or architecture page's subject a component, else a technology.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from tasks.extract.candidates import CandidateHits
from tasks.extract.canonical import canonical_name, canonical_names, singular_acronym, spelled_out, versioned
from tasks.extract.code_names import alert_headings, alert_name, code_names, lower_case_names
from tasks.extract.common_capitals import capital_only
from tasks.extract.decision_people import PERSON_TYPE
from tasks.extract.document_people import (
    DocumentPeople,
    document_people,
    full_name,
    handle_people,
    meeting_field_lines,
    written_people,
)
from tasks.extract.genres import (
    ARCHITECTURE,
    MINUTES,
    POSTMORTEM,
    PROPOSAL,
    RUNBOOK,
    TEMPLATE_WORDS,
    decision_rows,
)
from tasks.extract.kind_descriptions import only_describes_a_name
from tasks.extract.model import EntityFact, Extraction, NameRef, ObservationFact, RelationFact
from tasks.extract.naming import named
from tasks.extract.non_subjects import (
    city_name,
    cut_from_title_label,
    done_one_by_one,
    given_names,
    names_a_department,
    only_inside_names,
    only_possessive,
    places_after_at,
    rotation_names,
    status_words,
    written_as_label,
    written_as_place,
    written_as_role,
)
from tasks.extract.ordinary_words import common_word, ordinary_word, ordinary_words
from tasks.extract.organisations import organisation_names
from tasks.extract.owner_teams import owner_teams
from tasks.extract.record_fields import DECISION_HEADINGS, source_stem
from tasks.extract.record_terms import follows_a_model, written_as_no_subject
from tasks.extract.stack_names import tech_cells, versioned_names
from tasks.extract.structure import Structure, find_section, section_key, with_subsections
from tasks.extract.subject_coined import coined_capitals, ends_in_an_act
from tasks.extract.subject_marks import (
    KIND_BEFORE_CODE_RE,
    affected_systems,
    appositive_names,
    code_like_lines,
    coined_names,
    command_arguments,
    command_tools,
    defined_terms,
    inline_commands,
    meeting_people,
    names_process,
    own_project,
    structural_text,
)
from tasks.extract.subject_terms import (
    NOT_AGENTS,
    SYSTEM_HEADS,
    agent_nouns,
    apart_from_title,
    capitalized_words,
    code_identifiers,
    generic_mention,
    hyphenated_names,
    is_file_name,
    is_placeholder,
    is_team,
    link_texts,
    listed_components,
    mid_sentence,
    minutes_subject,
    named_once,
    names_section,
    only_as_label,
    series_key,
    singular,
    slug_subject,
    starts_as_description,
    system_phrases,
    term_key,
    title_subject,
    toc_lines,
    unit_after_number,
    written_as_kind,
    written_often,
)
from tasks.extract.technologies import known_technologies, usual_spelling, vendor_alias, vendor_product
from tasks.extract.text import STOPWORDS, excerpt, plain_text, well_formed_subject, word_places, word_spans

# A term that may be a subject: (kind, entity type, where written, score bonus).
_Term = tuple[str, str, list[tuple[int, str]], int]

ABOUT = "about"
# Not a genre of tasks/extract/genres.py: a decision record's subjects beside what its decision
# names, read with the genre rules under stricter gates (_decision_record_gate).
DECISION_RECORD = "decision record"
AFFECTED = "affected"
CAUSED_BY = "caused_by"
MITIGATED_BY = "mitigated_by"
MAX_SUBJECTS = 14
_NOT_SUBJECTS = frozenset(
    """utc gmt pst pdt est edt cet cest bst ist jst aest am pm us eu uk tl;dr tldr todo tbd faq
    pr prs rfc rfcs tep teps kep keps
    pep adr note notes warning important example see also yes no ok n/a readme github http https
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday q1 q2 q3 q4 json yaml md
    jan feb mar apr jun jul aug sep sept oct nov dec tue tues wed thu thur thurs fri
    post-mortem postmortem incident outage proposal design summary impact goals non-goals
    motivation alternatives timeline mitigation diagnosis meaning escalation decision decisions
    api apis cpu cpus gpu gpus tpu tpus sdk cdn dns ui url urls id ids ip os ram io sql db ssl tls ci cd qa
    poc mvp eta fyi wip tba asap eod eow aob afaik imo imho fwiw lgtm ptal nb okr okrs kpi kpis
    sla slas slo slos sli slis rca pir pirs mir mirs coe sms email csv pdf xml html ttl fcp oom rps qps tps
    mttr mttd mtbf sev http tcp udp ssh learning cli clis dag dags vm vms ocr rest fifo qos tbc paas saas iaas
    cname
    ide ides vhost vhosts wan wans lan lans vpn vpns isp isps
    uuid uuids guid guids mfa 2fa otp tco roi pop pops posix rpc rpcs sp sps faqs etas yamls
    must shall should required recommended optional iana
    europe asia africa america americas oceania emea apac latam amer""".split()
)  # template and process words, common formats, regions, kinds of thing ("a CLI", "the DAG",
# "our VMs", "OCR workers", "a REST wrapper", "a FIFO queue", "QoS beacons",
# "a PaaS", "a CNAME record", "an IDE", "each vhost", "the WAN link", "over the VPN", "the ISP";
# "a stable UUID", "MFA moves to WebAuthn", "total cost of ownership (TCO)",
# "12 Fastly POPs", "no POSIX mount", "RPC times", "logins to SPs", "the FAQs", "ETAs in the app",
# "YAMLs": identifiers, practices, roles, measures, standards and kinds of text, never a system of
# the team's (plurals listed as the others are: a plural acronym is weighed as written; not "DBA",
# the database administrators, a team a page pages as often as a role);
# "TBC" a placeholder; "PIR", "MIR", "COE": an incident review's kind (post-incident review, major
# incident report, correction of errors); the key words of RFC 2119 ("MUST", "SHALL") and the
# "IANA Considerations" section of an RFC-style memo), months and weekdays cut short ("Due Monday 10 Nov"):
# never what a document is about

_DOCUMENT_KIND_RE = re.compile(r"\b(?:decisions?\s+(?:log|record|register)|design\s+doc|meeting\s+notes)$")
_ENVIRONMENTS = frozenset({"production", "staging", "prod"})  # where a system runs, alone no subject
_TECH_ACRONYMS = frozenset({"api", "apis", "cdn", "dns", "sql", "sdk", "ui", "ci", "cd", "ssl", "tls"})
_TEAM_HEADS = frozenset({"team", "teams", "squad", "guild", "sig", "group", "working group"})
_SERVICE_HEADS = frozenset({"service", "services", "api", "apis", "server", "gateway", "sdk"})
_SYSTEM_HEADS = frozenset({"database", "db", "cluster", "pipeline", "cache", "queue", "store",
                           "storage", "registry", "platform", "bucket", "index"})


def add_genre_subjects(
    result: Extraction, genre: str | None, structure: Structure, hits: CandidateHits
) -> None:
    """The document's subjects as entities it is about (or, an incident, affected), each with
    an observation on the line that gives the evidence; promoted phrases leave the candidates.
    A document of no genre (None) is read the same way."""
    assert result.subject is not None
    subject = result.subject.ref
    evidence = _Evidence(_key_lines(result, structure, genre), _opening_lines(structure), result.title,
                         term_key(subject.display),
                         {section_key(structure.title(s)) for s in structure.sections[1:]},
                         {f.ref.display.lower() for f in result.entities}, genre is None,
                         structure.heading_lines,
                         structure.text, structural_text(structure),
                         structure.by_number, _tells_what_happened(genre, structure),
                         genre == DECISION_RECORD, _escalation_lines(structure, genre),
                         _record_context_lines(structure, genre))
    named_people = document_people(structure, [f.ref.display for f in result.entities
                                               if f.ref.entity_type == PERSON_TYPE])
    terms = _terms(result, genre, structure, hits, named_people)
    prose = "\n".join(text for _, text in result.prose)
    parts: dict[str, list[str]] = {}  # a chosen term's key -> the names of its parts, kept as aliases
    chosen = _capped(_without_fragments([c for c in _choose(evidence, terms) if well_formed_subject(c.name)],
                                        prose, parts))
    roles = _role_lines(result)
    promoted: set[str] = set()
    for choice in chosen:
        written = singular_acronym(choice.name, prose) or choice.name  # "OTAs" beside "an OTA": "OTA"
        target = named(canonical_name(written), choice.entity_type, choice.line)
        if target is None:
            continue
        names = canonical_names(target.display, choice.name, *versioned(choice.name, prose),
                                *vendor_alias(choice.name), *parts.get(choice.key, ()), *choice.aliases,
                                *_team_without_head(target))
        target = NameRef(names, target.entity_type, target.line)
        relation = _relation(genre, choice.in_title or choice.kind == "affected", choice.line, roles)
        _relate(result, subject, relation, EntityFact(target, names, explicit_type=True),
                ObservationFact(f'Subject of "{subject.display}": {excerpt(choice.text)}',
                                choice.line, choice.line, "subject"))
        promoted.update(term_key(name) for name in names)
    promoted.update(_relate_people(result, subject, named_people, structure))
    result.candidates = [c for c in result.candidates if term_key(c.term) not in promoted]
    result.subject_terms = _unsure_terms(terms, promoted, evidence)


def _team_without_head(target: NameRef) -> list[str]:
    """A team's name without its head word, as the team is called too ("Identity & Access" of
    "Identity & Access team"), kept as an alias when two words or more are left (one word
    alone, "Platform", names other things as well)."""
    words = target.display.split()
    bare = words[:-1]
    if target.entity_type != "team" or len(bare) < 2 or words[-1].lower() not in _TEAM_HEADS:
        return []
    return [" ".join(bare)]


# People named in a role are many on a page of minutes or an incident (its attendance, the
# responders, each action's owner): a few more than the subjects of a kind (_PER_KIND).
MAX_PEOPLE = 10


def _relate_people(result: Extraction, subject: NameRef, people: DocumentPeople,
                   structure: Structure) -> set[str]:
    """The people the document names in a role (tasks/extract/document_people.py: an incident's
    commander and responders, an action's owner, the attendance of minutes, a person doing
    what people do) as person entities it is about, each with an observation on the line
    that names them first; those its fields already gave (an author, an owner) are left as
    they are. Returns the term keys of the names related."""
    # those a field or a role gave; not a name a wiki link only mentions ("[[Ilse Brandt]]")
    given = {fact.target.display.lower() for fact in result.relations if fact.relation_type != "mentions"}
    related: set[str] = set()
    listed = meeting_field_lines(structure.visible)
    for line, name, text in written_people(people, structure.visible):
        if len(related) >= MAX_PEOPLE:
            break
        name = _HONORIFIC_RE.sub("", name)  # "Dr Ruth Adeyemi": the person, as written elsewhere
        if _only_listed(name, structure.visible, listed):
            continue  # "Present: Chloe Martin (Customer Care)", "Apologies: ...", and no word more
        if _written_as_a_thing(name, structure.visible):
            continue  # "the CDM Portal reads and writes it", "a Sequencing Informatics analyst"
        known = name.lower() in given or f"@{name.lower()}" in given
        # a name a field gave (those hold a team's or a post's too: "Service Monitoring",
        # "Commerce tech lead"), or a label or link written with it: only a person's full name
        person = full_name(name)
        target = None if known or not person else named(name, PERSON_TYPE, line)
        if target is None or target.display.lower() == subject.display.lower():
            continue
        _relate(result, subject, ABOUT, EntityFact(target, (target.display,), explicit_type=True),
                ObservationFact(f'Person named by "{subject.display}": {excerpt(text)}', line, line,
                                "subject"))
        related.add(term_key(target.display))
    for line, login in handle_people(structure):  # a thread's commenters, an item's owner by handle
        if len(related) >= MAX_PEOPLE:
            break
        target = named(login, PERSON_TYPE, line)
        if target is None or login in given or f"@{login}" in given or term_key(login) in related:
            continue
        text = excerpt(structure.by_number.get(line, ""))
        _relate(result, subject, ABOUT, EntityFact(target, (target.display,), explicit_type=True),
                ObservationFact(f'Person named by "{subject.display}": {text}', line, line, "subject"))
        related.add(term_key(target.display))
    return related


def _only_listed(name: str, lines: list[tuple[int, str]], listed: set[int]) -> bool:
    """Is a person written (by full name or given name) only in the fields that list a
    meeting's people: there, not a part of what the document is about?"""
    if not listed:
        return False
    given = name.split()[0]
    return not any(number not in listed and given in text and word_spans(text, given)
                   for number, text in lines)


def _written_as_a_thing(name: str, lines: list[tuple[int, str]]) -> bool:
    """Does the page write `name` as no person is written: after an article ("the CDM Portal",
    "a Sequencing Informatics analyst") or before a job or a thing's word ("Sequencing Informatics
    analyst", "Boardwall Fleet (the device manager)")?"""
    pattern = re.compile(rf"\b(?:[Tt]he|[Aa]n?)\s+{re.escape(name)}(?![\w-])"
                         rf"|(?<![\w-]){re.escape(name)}\s+(?:\(the\s|{_THING_AFTER})")
    first = name.split()[0]
    return any(first in text and pattern.search(text) for _number, text in lines)


# Words after a name that make it a group's or a thing's: a job in it, its copy, its API.
_THING_AFTER = (r"(?:analysts?|engineers?|team|teams|squad|staff|users?|api|apis|copy|job|jobs|database"
                r"|service|instance|cluster|queue|portal|dashboard)\b")


_HONORIFIC_RE = re.compile(r"^(?:Dr|Prof|Mr|Mrs|Ms|Mx)\.?\s+(?=\S+\s)")


def notes_named_by_day(result: Extraction, structure: Structure, stated: bool) -> bool:
    """Notes read as a decision record only because their file is named by a day and they
    have a Summary ("2020-02-03-specialization-review.md"): no Decision section, no stated
    status (`stated`) -- the notes of a meeting, whose subjects are read as a page's."""
    return (result.is_decision_record and not stated
            and _STEM_DAY_RE.match(source_stem(result.source)) is not None
            and find_section(structure, *DECISION_HEADINGS) is None)


_STEM_DAY_RE = re.compile(r"^(?:19|20)\d{2}-\d{2}-\d{2}")


def _unsure_terms(terms: list[_Term], promoted: set[str],
                  evidence: _Evidence) -> list[tuple[str, ...]]:
    """The terms written twice or more (or where a conclusion is stated) that did not become
    subjects, each as its spellings, sorted."""
    unsure: set[tuple[str, ...]] = set()
    for kind, _, seen, _ in terms:
        if len(seen) < 2 and not any(n in evidence.key_lines for n, _ in seen):
            continue
        name = _usual_spelling(seen)
        if term_key(name) in promoted or not _may_be_subject(name, evidence, kind):
            continue
        unsure.add(canonical_names(name))
    return sorted(unsure)


@dataclass(frozen=True, slots=True)
class _Evidence:
    key_lines: set[int]  # lines of the document's conclusions (an architecture page's components)
    opening: set[int]  # the lines before its first section, and that section's
    title: str
    own: str  # the document's own name, as a term key ("shuffle-sharding" is "Shuffle Sharding")
    headings: set[str]
    people: set[str]  # names the document gives as its authors and owners
    unsure: bool  # a page of no genre: its capitalized phrases need more evidence
    heading_lines: set[int]  # a known technology named in a heading is named where it counts
    text: str  # the whole visible text ("OPS" of "OPS-7781": a tracker's key, see series_key)
    marked: tuple[str, str]  # what headings write; what table rows, header fields, bold and code write
    lines: dict[int, str]  # the visible text by line number
    narrative: bool  # a common technology named once in a sentence is a subject (_tells_what_happened)
    record: bool = False  # a decision record: its terms pass _record_subject too
    escalation: frozenset[int] = frozenset()  # a runbook's Escalation section: whom to call, and how
    context: frozenset[int] = frozenset()  # a decision record's Context: the problem it decides on

    def marks(self, name: str) -> bool:
        """Does the structure write `name` as a name: a table row, a header field, bold or
        code, or the title or a heading where no other word describes it ("Go should have
        generics"; not "Streaming uploads")?"""
        if _whole_word(name.lower(), self.marked[1]):
            return True
        pattern = re.compile(rf"(\w+)?[^\w\n]*(?<![\w-]){re.escape(name.lower())}(?![\w-])")
        return any(match.group(1) is None or match.group(1) in STOPWORDS
                   for match in pattern.finditer(f"{self.title.lower()}\n{self.marked[0]}"))

    def in_title(self, name: str) -> bool:
        if name.lower() not in self.title.lower():
            return False
        title = f" {_words(self.title)} "
        return f" {_words(name)} " in title or f" {_words(name)}s " in title  # "... containers"


@dataclass(frozen=True, slots=True)
class _Choice:
    score: int
    key: str
    name: str
    entity_type: str
    line: int
    text: str
    in_title: bool
    kind: str
    aliases: tuple[str, ...] = ()  # the acronym a name chosen by it is written as ("DSD")
    count: int = 0  # the lines it is written on


def _terms(result: Extraction, genre: str | None, structure: Structure, hits: CandidateHits,
           named_people: DocumentPeople) -> list[_Term]:
    """(kind, type, where written, bonus) of every term that may be a subject."""
    toc = toc_lines(structure.visible) | code_like_lines(structure.visible)  # neither is prose
    prose = [(number, text) for number, text in result.prose
             if number not in structure.heading_lines and number not in toc]
    title = [(result.subject.ref.line if result.subject else 1, result.title)]
    prose_text = "\n".join(text for _, text in prose)
    found: list[_Term] = []
    by_number = dict(prose)
    found.extend(_system_terms([*title, *prose], by_number, structure.by_number))
    if genre != MINUTES:
        found.extend(_phrase_terms(prose, hits, toc, genre))
    else:  # the names in minutes are the people who attend and act, and what they talk about
        people = meeting_people(structure)
        found.extend(term for term in _phrase_terms(prose, hits, toc, genre)
                     if term[2][0][1].split()[0].lower().lstrip("@") not in people)
    if genre != MINUTES:
        for seen in code_identifiers(hits.code_terms).values():
            camel = any(ch.isupper() for ch in seen[0][1][1:])
            found.append(("code", "component" if camel else "technology", seen, 0))
        for seen in coined_names(hits.code_terms, prose).values():  # `runnerd`, then "runnerd saw ..."
            found.append(("code", _entity_type(seen[0][1], genre), seen, 0))
    found.extend(_marked_terms(genre, structure, prose, prose_text))
    # the team's systems in code: `holdings-sync`, `item_holding`
    for seen in code_names(hits.code_terms, structure.by_number, title[0]).values():
        found.append(("named-code", "component", seen, 1))
    names, words = lower_case_names(prose)  # "... twice. shelfcheck, the kiosk back end, ..."
    found.extend(("lower-name", _entity_type(seen[0][1], genre), seen, 1) for seen in names.values()
                 if _coined_word(seen[0][1]))
    found.extend(("lower-word", _entity_type(seen[0][1], genre), seen, 0) for seen in words.values()
                 if _coined_word(seen[0][1]))
    found = _teams_by_short_name(found)
    headings = [(n, plain_text(text)) for n, text in structure.visible
                if n in structure.heading_lines and n not in toc]
    if genre == RUNBOOK:  # a page of alerts, one section each ("## MllpListenerDown")
        titles = [(structure.first_line + section.line, structure.title(section))
                  for section in structure.sections[1:]]
        found.extend(("named-code", "component", seen, 1) for seen in alert_headings(titles).values())
    for key, seen in known_technologies([*title, *headings, *prose]).items():
        usual = usual_spelling(key) or seen[0][1]  # "Github", "github" -> "GitHub" (no case alias)
        found.append(("known", "technology", [(n, usual) for n, _ in seen], 1))
    slug = slug_subject(source_stem(result.source), prose_text) if genre == PROPOSAL else None
    if slug is not None:
        found.append(("slug", _entity_type(slug, genre), [(title[0][0], slug)], 3))
    named_by_title = _title_subject(result, genre, structure, prose_text)
    if (named_by_title and not cut_from_title_label(named_by_title, result.title)
            and named_by_title.lower() in prose_text.lower()):
        found.append(("title", _entity_type(named_by_title, genre), [title[0][:1] + (named_by_title,)], 3))
    written = "\n".join(text for _, text in structure.written)
    for seen in _coined_in_title(result.title, title[0][0], written):  # "moving invoice-renderer ..."
        found.append(("title", _entity_type(seen[0][1], genre), seen, 3))
    for span in _TITLE_CODE_RE.findall(result.title):  # "A built-in Go error check function, `try`"
        found.append(("title", "technology", [(title[0][0], span)], 3))
    # the teams named where the page says who owns or does something: "Owner: Security team"
    found.extend(("owner", "team", seen, 2) for seen in owner_teams(structure, named_people).values())
    return [term for term in found
            if not (named_people.names(term[2][0][1]) or _after_a_person(term, named_people))
            or (term[0] == "known" and not _only_in_names(term[2], by_number, named_people))]


def _after_a_person(term: _Term, people: DocumentPeople) -> bool:
    """Is a capitalized term a person's full name and the word a wrapped line goes on with
    ("Reviewers: ..., Mairead Quinlan" / "Last updated: ..." read as "Mairead Quinlan Last")?"""
    words = term[2][0][1].lower().split()
    return term[0] in _CAPITAL_KINDS and any(" ".join(words[:n]) in people.full for n in range(2, len(words)))


def _coined_in_title(title: str, line: int, prose: str) -> list[list[tuple[int, str]]]:
    """The coined names the title writes in lower case, a hyphenated name of a word no
    dictionary holds or one that ends in a component's head ("moving invoice-renderer from
    Cloud Tasks", "move fleet-agent logging to log/slog"), that the page writes twice more:
    what the document changes or is about. (A single lower-case word is not enough: the
    dictionary misses "replay", "metadata", "delayed".)"""
    found = []
    for name in dict.fromkeys(_TITLE_COINED_RE.findall(plain_text(title))):
        words = name.split("-")
        coined = len(words) > 1 and (not ordinary_words(name) or _names_component(words[-1]))
        if (len(name) < 3 or name in _NOT_SUBJECTS or name in STOPWORDS or not coined
                or not all(w.isalpha() for w in words) or is_team(name)):
            continue
        if len(word_spans(prose, name, not_before="/.-", not_after="/-")) >= 2:
            found.append([(line, name)])
    return found


# A lower-case word or hyphenated name in a title, not inside a path or a version ("v5").
_TITLE_COINED_RE = re.compile(r"(?<![\w/.-])[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w/.-])")


def _system_terms(lines: list[tuple[int, str]], by_number: dict[int, str], visible: dict[int, str]
                  ) -> list[_Term]:
    """The system phrases ("session store", "Payments API") that name one system."""
    found: list[_Term] = []
    for seen in system_phrases(lines, title=1).values():
        if all(generic_mention(phrase, f'{by_number.get(number, "")} {by_number.get(number + 1, "")}')
               for number, phrase in seen):
            continue  # "a cold cache", "every product team": a kind of thing, not one system
        if _named_after(seen, visible):
            continue  # "the clean-up job `outbox-janitor`": the kind of a thing named in code
        if only_describes_a_name(seen[0][1], [visible.get(number, "") for number, _ in seen]):
            continue  # "Conveyor, our job runner": the kind of a named thing, the name its subject
        seen = _with_code_name(seen, visible)  # "the `picklist` PostgreSQL database": the picklist's
        if all(_opens_with_a_verb(phrase, visible.get(number, "")) for number, phrase in seen):
            continue  # "- Noor: estimate Prometheus storage": what to do, no system
        if all(_before_a_measure(phrase, f'{visible.get(number, "")} {visible.get(number + 1, "")}')
               for number, phrase in seen):
            continue  # "Raise the Stripe client timeout": a setting or measure of a thing, not the thing
        if all(_inside_a_longer_name(phrase, _lines_around(visible, number))
               for number, phrase in seen):  # with the lines around it: a name may wrap across a line end
            continue  # "Notification service" of "Apple Push Notification service (APNs)";
            # "Data Platform team" of "the Clinical" / "Data Platform team runs ..."
        found.append(("system", _system_type(seen[0][1]), seen, 0))
    return found


def _lines_around(lines: dict[int, str], number: int) -> str:
    return " ".join(lines.get(n, "") for n in (number - 1, number, number + 1))


def _before_a_measure(phrase: str, line: str) -> bool:
    """Is a system phrase written in `line` only before a word for a setting or measure of it
    ("the Stripe client timeout", "the connection pool size"), a credential it holds ("the
    NPX client certificate"), or a machine's role before its pool ("GPU node pool")?"""
    spans = word_spans(line, phrase)
    after = _MEASURES | _POOLS if phrase.split()[-1].lower() in _MACHINE_HEADS else _MEASURES
    return bool(spans) and all(line[end:].split()[:1] and line[end:].split()[0].lower().strip(".,;:)")
                               in after for _, end in spans)


# What one sets or measures of a system, written after its name; no word a verb of the
# phrase could be ("The Job controller counts a Pod", "the cache hit its limit").
_MEASURES = frozenset(
    """timeout timeouts size depth limit latency lag quota quotas ttl usage utilisation utilization
    capacity length threshold thresholds config configs configuration"""
    # what a system holds to prove who it is: "the NPX client certificate", "the OAuth client secret"
    """ certificate certificates cert certs secret secrets credential credentials""".split())
# A machine's role before its pool ("the privscreen GPU node pool"): one of many, the pool the thing.
_POOLS = frozenset({"pool", "pools"})


def _inside_a_longer_name(phrase: str, line: str) -> bool:
    """Is a capitalized system phrase written in `line` only as a piece of a longer name, a
    capitalized word right before it ("Apple Push Notification service") or after it ("Azure
    Service Bus"), or "for" and a name after it ("Azure Database for PostgreSQL")?"""
    if not phrase[:1].isupper():
        return False
    found = False
    for start, end in word_spans(line, phrase):
        after = line[end:].split()[:2]  # a link's or emphasis's marks beside a word are no letters of it:
        # "[Clinical"; a word that opens a bracket right before the phrase is outside it: a
        # diagram's node and its label ("G[LoRaWAN gateway]"), a function and its argument
        before = [word for word in line[:start].split()[-1:] if not word.endswith(("[", "("))]
        beside = [word.strip("[]*_") for word in [*before, *after[:1]]]
        if after[:1] == ["for"] and after[1:] and after[1][:1].isupper():
            beside.append(after[1])  # a product named for what it serves, written whole
        if not any(word[:1].isupper() and word.isalpha() and word.lower() not in STOPWORDS
                   for word in beside):
            return False  # "The Job controller": a sentence's opening word is no part of the name
        found = True
    return found


def _opens_with_a_verb(phrase: str, line: str) -> bool:
    """Does a system phrase open with a verb, what someone is to do: a lower-case word that
    opens an action's item, cell or clause before a name ("- Noor: estimate Prometheus
    storage", "| estimate RabbitMQ storage |")? (Not "writes to object storage".)"""
    words = phrase.split()
    if len(words) < 2 or not words[0].islower() or not words[1][:1].isupper():
        return False
    return re.search(rf"{_CLAUSE_OPENING}{re.escape(phrase)}", line) is not None


def _only_as_command(name: str, seen: list[tuple[int, str]], lines: dict[int, str]) -> bool:
    """Is one capitalised English word written only where an action's item or clause opens,
    before an article or a possessive ("- [x] Rewrite the latency runbook", "| Replace our
    ... |"): the verb of what someone is to do, no name?"""
    if " " in name or not name[:1].isupper() or not ordinary_word(name.lower()):
        return False
    command = re.compile(rf"{_CLAUSE_OPENING}{re.escape(name)}[ \t]+{_DETERMINER}")
    return all(command.search(lines.get(number, "")) for number, _ in seen)


_DETERMINER = r"(?:the|a|an|our|its|their|this|that|each|every|all)\b"
# Where an action's words open: a line or list item (a check box, "Name: " before it), a table
# cell, or the clause after a colon.
_CLAUSE_OPENING = r"(?:^[ \t]*(?:[-*+][ \t]+(?:\[.\][ \t]+)?)?(?:@?[\w.]+: )?|\|[ \t]*|: )"


def _teams_by_short_name(found: list[_Term]) -> list[_Term]:
    """A team written once in full and elsewhere by its name alone ("the Developer Experience
    team" ... "Developer Experience rolled back"): the team, written where either is."""
    short = {term_key(seen[0][1]): seen for kind, _, seen, _ in found if kind == "phrase"}
    merged: list[_Term] = []
    for kind, entity_type, seen, bonus in found:
        name = seen[0][1]
        more = short.get(term_key(name[:-5])) if kind == "system" and name.lower().endswith(" team") else None
        if more:
            seen = sorted({*seen, *[(n, name) for n, _ in more]})
        merged.append((kind, entity_type, seen, bonus))
    return merged


def _named_after(seen: list[tuple[int, str]], lines: dict[int, str]) -> bool:
    """Is a system phrase written only as the kind of a thing whose name follows in code
    ("The clean-up job `outbox-janitor` deletes ...": the subject is the name)?"""
    return all("`" in (line := lines.get(number, "")) and any(  # every match holds a code span
                   m.group(1) == phrase.split()[-1] and phrase in m.group(0)
                   for m in KIND_BEFORE_CODE_RE.finditer(line))
               for number, phrase in seen)


def _with_code_name(seen: list[tuple[int, str]], lines: dict[int, str]) -> list[tuple[int, str]]:
    """A system phrase written only right after a code span that names the thing ("the
    `claims-docs-inbound` S3 bucket", "the `picklist` PostgreSQL database"; the phrase may wrap
    onto the next line) is that thing's kind: the name is the code's and the kind's
    ("claims-docs-inbound S3 bucket", as a table cell writes it without the code span)."""
    named = []
    for number, phrase in seen:
        text = f'{lines.get(number, "")} {lines.get(number + 1, "")}'
        spans = word_spans(text, phrase) if "`" in text else []
        codes = {_code_before(text, start) for start, _ in spans}
        code = codes.pop() if len(codes) == 1 else None
        if not code:
            return seen
        named.append((number, f"{code} {phrase}"))
    return named


def _code_before(text: str, start: int) -> str | None:
    """The code span that ends right before `start` (a space between), if any, when it is one
    name (no space in it)."""
    close = len(text[:start].rstrip(" ")) - 1
    if close < 1 or text[close] != "`":
        return None
    opened = text.rfind("`", 0, close)
    code = text[opened + 1:close] if opened >= 0 else ""
    return code if code and " " not in code else None


def _only_in_names(seen: list[tuple[int, str]], lines: dict[int, str], people: DocumentPeople) -> bool:
    """Is every mention of a known technology's name the given name of a person the document
    names ("Julia" of "— Julia Nowak"), so no mention of the technology at all?"""
    for number, text in seen:
        line = lines.get(number, "").lower()
        if not any(name.startswith(f"{text.lower()} ") and name in line for name in people.full):
            return False
    return True


def _marked_terms(genre: str | None, structure: Structure, prose: list[tuple[int, str]],
                  prose_text: str) -> list[_Term]:
    """The terms the page's structure marks: an architecture page's listed and defined
    components, the "-er" components ("the dispatcher"), link texts, technology cells, names
    before a release number, the tools its commands run, the project it links by repository."""
    found: list[_Term] = []
    if genre == ARCHITECTURE:
        for seen in [*listed_components(structure).values(), *defined_terms(structure, prose_text).values()]:
            found.append(("listed", "component", seen, 3))
    if genre != MINUTES:  # elsewhere "the dispatcher" recurs three times to be a component
        for seen in agent_nouns(prose, plurals=genre == ARCHITECTURE, text=prose_text).values():
            # or "the scheduler" twice and the word four times ("a scheduler", "the new `scheduler`")
            noun = seen[0][1]
            mentions = [(n, noun) for n, line in prose if noun in line and _whole_word(noun, line)]
            if genre == ARCHITECTURE or len(seen) >= 3 or len(mentions) >= 4:
                found.append(("system", "component", seen if len(seen) >= 3 else mentions, 0))
    for seen in link_texts(structure.visible).values():
        found.append(("link", "component", seen, 0))
    # what a technology column or field says the system is built with ("| Tech | Kotlin, OptaPlanner |")
    found.extend(("stack", "technology", seen, 1) for seen in tech_cells(structure).values())
    found.extend(("version", "technology", seen, 0) for seen in versioned_names(prose).values())
    for seen in affected_systems(structure).values():  # "| Affected services | search API, ... |"
        typed = _entity_type(seen[0][1], genre)
        found.append(("affected", "service" if typed in {"technology", "component"} else typed, seen, 2))
    for seen in appositive_names(structure.written).values():  # "Conveyor, our job runner", code too
        found.append(("defined", _entity_type(seen[0][1], genre), seen, 1))
    found.extend(_tool_terms(genre, structure))
    if genre not in {None, PROPOSAL}:  # a proposal's are its examples' names ("git-clone", "kaniko-task")
        for seen in hyphenated_names(prose).values():
            found.append(("hyphen", "component", seen, 0))
        found.extend(("hyphen", "component", seen, 0) for seen in _acted_on(structure))
    elif genre == PROPOSAL:  # but a name whose last word names a component ("kube-scheduler")
        found.extend(("hyphen", "component", seen, 0) for seen in hyphenated_names(prose).values()
                     if _names_component(seen[0][1].rsplit("-", 1)[-1]) and not is_team(seen[0][1]))
        found.extend(("defined", "technology", [seen], 1) for seen in _named_alternatives(structure))
        found.extend(("defined", "technology", [seen], 1) for seen in _alternative_headings(structure))
    project = own_project(structure.visible)
    if project is not None:
        found.append(("repo", "technology", _project_spelling(project, prose_text), 2))
    return found


def _named_alternatives(structure: Structure) -> list[tuple[int, str]]:
    """The products a proposal's Alternatives section weighs, each an item led by its name in
    bold ("- **Flagsmith**: similar features, but ..."); not an approach ("**Keep LaunchDarkly**",
    "**Shorter block ranges.**") nor an ordinary word ("**Nothing**")."""
    found: list[tuple[int, str]] = []
    for section in structure.sections[1:]:
        if section_key(structure.title(section)) not in _ALTERNATIVES:
            continue
        for number, line in with_subsections(structure, section):
            match = _BOLD_LEAD_RE.match(line)
            if match and not ordinary_word(match["name"].lower()):
                found.append((number, match["name"]))
    return found


def _alternative_headings(structure: Structure) -> list[tuple[int, str]]:
    """The products a proposal's Alternatives section weighs, each under a sub-heading that is
    its name ("### PgCat", "### Amazon RDS Proxy", "#### Alternative: CUE"); not an approach
    ("### Stay on 1.19 and enforce `exec` mode", "### Do nothing") nor a section's word."""
    found: list[tuple[int, str]] = []
    within: int | None = None  # the level of the Alternatives section the headings are under
    for section in structure.sections[1:]:
        title = structure.title(section)
        if within is not None and section.level <= within:
            within = None
        if within is None:
            if section_key(title) in _ALTERNATIVES:
                within = section.level
            continue
        name = _ALTERNATIVE_LABEL_RE.sub("", title).strip()
        if _product_name(name):
            found.append((structure.number(section), name))
    return found


# "Alternative: CUE", "Option 2: PgCat": the label before an option's name.
_ALTERNATIVE_LABEL_RE = re.compile(r"^(?:alternative|option)\s*\w{0,2}\s*[:.\-–—]\s*", re.I)


def _product_name(name: str) -> bool:
    """A name of one to four words, each capitalized (or a number), one of them no English word
    or an acronym ("PgCat", "Amazon RDS Proxy", "CUE"; not "Do Nothing", "Status Quo")."""
    words = name.split()
    return (1 <= len(words) <= 4 and all(w[:1].isupper() or w[:1].isdigit() for w in words)
            and (not ordinary_words(name) or any(len(w) > 1 and w.isupper() for w in words))
            and not names_section(name) and re.fullmatch(r"[\w .+/-]+", name) is not None)


_ALTERNATIVES = frozenset({"alternatives", "alternatives considered", "rejected alternatives",
                           "considered alternatives", "options considered", "other options"})
_BOLD_LEAD_RE = re.compile(r"^\s*[-*+]\s+\*\*(?P<name>[A-Z][\w.+-]*[\w+])\*\*\s*[:.,(–—-]")


def _tool_terms(genre: str | None, structure: Structure) -> list[_Term]:
    """The tools the page's shell commands run (a runbook's or a postmortem's code spans too),
    each also where the prose names it (`patronictl reinit`); a tool run once, no English word,
    on a page of a genre other than a proposal, is one (`psql -h ...`)."""
    found: list[_Term] = []
    tools = command_tools(structure)
    if genre in {RUNBOOK, POSTMORTEM}:
        for tool, seen in inline_commands(structure).items():
            tools[tool] = sorted({*tools.get(tool, []), *seen})
    for tool, seen in tools.items():
        named = sorted({*seen, *[(n, tool) for n, text in structure.visible
                                 if tool in text and word_spans(text, tool, not_before="/.-")]})
        once = len(named) == 1 and genre not in {None, PROPOSAL} and not ordinary_word(tool)
        found.append(("one-tool" if once else "tool", "technology", named, 0))
    return found


def _acted_on(structure: Structure) -> list[list[tuple[int, str]]]:
    """The hyphenated names the page's commands act on (`--group billing-events`) that the page
    also writes outside its commands, where each is written."""
    found = []
    for name, seen in command_arguments(structure).items():
        commands = {number for number, _ in seen}
        named = [(n, name) for n, text in structure.visible
                 if n not in commands and name in text and _whole_word(name, text)]
        if named:
            found.append(sorted({*seen, *named}))
    return found


def _phrase_terms(prose: list[tuple[int, str]], hits: CandidateHits, toc: set[int], genre: str | None
                  ) -> list[_Term]:
    """The capitalized phrases: each where written (a name that also opens sentences, every
    time); a phrase written once inside a sentence is a name used once ("... paged in Grafana")."""
    found: list[_Term] = []
    capitalized = capitalized_words(prose, [p for p in hits.phrases if p.isalpha() and p[0].isupper()])
    by_number = dict(prose)
    for written, seen in _without_verbs(_with_longer(hits.phrases)).items():
        phrase = written
        kept = [(n, phrase) for n, _ in seen if n not in toc]
        if kept and phrase in capitalized and len(capitalized[phrase]) > len(kept):
            kept = [(n, phrase) for n in capitalized[phrase]]  # a name opening sentences too
        if (" " not in phrase and not phrase.isupper() and not coined_capitals(phrase)
                and not mid_sentence(phrase, (by_number[n] for n, _ in kept if n in by_number))):
            continue  # "Update", "Error", "Handling": a word capitalized where sentences start
            # (not "RotaWing": a coined name is one wherever it stands)
        if " " not in phrase and only_as_label(phrase, (line for n, line in seen if n not in toc)):
            continue  # "Error: ...", "Note: ...": a label
        # (a name that opens in lower case, "iOS", "pgSTAC", is no name used once: a platform
        # named in passing is written so as often; it recurs, or the registry holds it)
        once = len(kept) == 1 and phrase[0].isupper()
        if once and named_once(phrase, [line for n, line in seen if n not in toc]):
            found.append(("once", _entity_type(phrase, genre), kept, 0))
        elif kept:
            kind = "acronym" if _names_a_part(phrase, [by_number.get(n, "") for n, _ in kept]) else "phrase"
            found.append((kind, _entity_type(phrase, genre), kept, 0))
    return found


def _only_before_team(phrase: str, lines: list[str]) -> bool:
    """Is a capitalized phrase written, every time, right before a team's word ("the Fare
    Systems team on-call", "the Field Systems squad"): a team's name cut short, not a thing?"""
    teams = [team for line in lines for team in word_places(line, phrase, _TEAM_WORD_RE)]
    return bool(teams) and all(teams)


_TEAM_WORD_RE = re.compile(r"\s+(?:teams?|squads?|guilds?)\b")


def _without_verbs(phrases: dict[str, list[tuple[int, str]]]) -> dict[str, list[tuple[int, str]]]:
    """Phrases that open with an imperative verb capitalized where a sentence starts ("Run
    Unleash on our clusters", "Adopt Renovate"): the name after the verb, merged with where it
    is written alone."""
    found: dict[str, list[tuple[int, str]]] = {}
    for phrase, seen in phrases.items():
        verb, _, rest = phrase.partition(" ")
        name = rest if rest and verb.lower() in _OPENING_VERBS else phrase
        found.setdefault(name, []).extend(seen)
    return {name: sorted(set(seen)) for name, seen in found.items()}


_OPENING_VERBS = frozenset("""run use adopt keep move migrate switch replace deploy introduce enable
    build choose pick drop retire deprecate""".split())


def _names_a_part(phrase: str, lines: list[str]) -> bool:
    """Is `phrase` a short acronym that names a part of a system, written before the noun it
    names a part of ("the RGW benchmarks", "the MDS failover test"; not "our bot PAT was"), or
    the plural of one (things of one kind: "our SDKs", "the base AMIs")?"""
    if _PLURAL_ACRONYM_RE.fullmatch(phrase):
        return True
    if not _ACRONYM_RE.fullmatch(phrase):
        return False
    # each place the acronym opens a word, then the word after it (a span of the acronym, a blank
    # and lower-case letters is never inside another: the same places as one pattern's search)
    return any(match.group(1) not in STOPWORDS and not match.group(1).endswith("ed")
               for line in lines for match in _words_after(phrase, line))


def _words_after(acronym: str, line: str) -> list[re.Match[str]]:
    r"""The lower-case words written after `acronym` where it opens a word ("RGW benchmarks"):
    the matches of `(?<![\w-])ACRONYM\s+([a-z]{3,})\b`, the acronym found by `str.find`."""
    found = []
    at = line.find(acronym)
    while at >= 0:
        match = None
        if not (at and (line[at - 1].isalnum() or line[at - 1] in "_-")):
            match = _WORD_AFTER_RE.match(line, at + len(acronym))
            if match is not None:
                found.append(match)
        at = line.find(acronym, match.end() if match is not None else at + 1)
    return found


_WORD_AFTER_RE = re.compile(r"\s+([a-z]{3,})\b")
# A short acronym ("RGW", "MDS", "WAF").
_ACRONYM_RE = re.compile(r"[A-Z][A-Z0-9]{1,4}")
_PLURAL_ACRONYM_RE = re.compile(r"[A-Z]{2,5}s")


def _with_longer(phrases: dict[str, list[tuple[int, str]]]) -> dict[str, list[tuple[int, str]]]:
    """Each phrase of two words or more also where a longer phrase ends with it ("Object Lock"
    in "S3 Object Lock" and "Enable Object Lock"), each line once."""
    tails: dict[str, list[tuple[int, str]]] = {}
    for phrase in phrases:
        words = phrase.split()
        for size in range(2, len(words)):
            tail = " ".join(words[-size:])
            if tail in phrases:
                tails.setdefault(tail, []).extend(phrases[phrase])
    if not tails:
        return phrases
    merged = dict(phrases)
    for tail, more in tails.items():
        merged[tail] = sorted(dict([*more, *phrases[tail]]).items())
    return merged


def _project_spelling(project: tuple[str, list[tuple[int, str]]], prose: str) -> list[tuple[int, str]]:
    """Where a project named by its repository is linked, under its usual name: a known
    technology's spelling ("rust" -> "Rust"), else as the prose capitalizes it ("PostHog"),
    else a plain word capitalized ("zig" -> "Zig")."""
    repo, seen = project
    spelling = usual_spelling(repo)
    if spelling is None:
        written = re.findall(rf"(?<![\w/.-]){re.escape(repo)}(?![\w/-])", prose, re.I)
        spelling = next((w for w in written if w != w.lower()), repo.capitalize() if repo.isalpha() else repo)
    return [(number, spelling) for number, _ in seen]


def _title_subject(result: Extraction, genre: str | None, structure: Structure, prose: str) -> str | None:
    """What the title names: a postmortem's or architecture page's subject as it stands, what
    minutes are the meeting of, and any other title's subject when the prose writes it three
    times ("Specialization Review, 2020-02-03" -> "Specialization")."""
    if genre == POSTMORTEM:
        return title_subject(result.title)
    if genre == ARCHITECTURE:  # a component, not what it does ("Log ingestion architecture")
        named = title_subject(result.title)
        return None if named is None or names_process(named) else named
    if genre == MINUTES:
        return minutes_subject([result.title, *[structure.title(s) for s in structure.sections[1:2]]], prose)
    named = title_subject(result.title, at_prepositions=True)
    return named if named and written_often(named, apart_from_title(named, result.title, prose)) else None


def _choose(evidence: _Evidence, terms: list[_Term]) -> list[_Choice]:
    """The terms with the evidence their kind needs, best first, one per term key."""
    best: dict[str, _Choice] = {}
    written = _written_lines(terms)
    organisations = organisation_names(evidence.text)  # "Orchardline", "Westfield", "NHS"
    uses = _Uses(evidence)
    for kind, entity_type, own_seen, bonus in terms:
        if kind == "lower-word":
            continue  # never a subject of its own (an unsure term, see _enough)
        name = _usual_spelling(own_seen)
        key = term_key(name)
        # a name written in prose and in code spans ("PipelineRun", `PipelineRun`) counts both
        seen = written.get(key, own_seen) if kind in _WRITTEN_KINDS else own_seen
        if len(seen) < 2 and kind in {"phrase", "acronym", "code"}:
            continue  # never enough (a name written once in a sentence is of kind "once")
        if not key or not _may_be_subject(name, evidence, kind) or (
                evidence.record and not _record_subject(kind, name, seen, evidence)
                or _names_a_document(kind, name, seen, evidence)):
            continue
        in_title = evidence.in_title(name)
        key_hit = _key_hit(kind, name, seen, evidence)
        opening = any(n in evidence.opening for n, _ in seen)
        count = len(seen)
        if not _kind_enough(kind, name, seen, (in_title, key_hit is not None, opening), evidence):
            if not (kind in _PRODUCT_KINDS and _written_as_product(name, seen, evidence)):
                continue
            kind = "product"  # "Spring Security", "AWS Secrets Manager": a product, once is enough
        if (_kind_of_thing(kind, name, count, evidence.text) and not evidence.marks(name)
                or kind == "system" and _no_system_run(name, seen, in_title, evidence)):
            continue  # "error", "force-merge", "Product services": a candidate until the structure names it;
            # "the research portals", "Medidata support: case portal, priority 2": no system the team runs
        if (kind in _CAPITAL_KINDS and (capital_only(name, evidence.text)
                                        or _only_as_command(name, seen, evidence.lines))
                or kind in _CAPITAL_KINDS | {"acronym"} and _only_before_team(name, [evidence.lines.get(n, "")
                                                                                 for n, _ in seen])):
            continue  # "Access", "Observation": a common word a sentence, heading or cell opens;
            # "page the Fare Systems team": the team's name cut short (the team is read whole)
        if (_names_an_organisation(kind, key, organisations)
                or _used_as_no_subject(kind, name, uses)
                or kind == "system" and _only_as_label(name, seen, evidence.lines)):
            continue  # the team's own organisation, a town, a public body; a rotation, a place, a person
        if kind == "title" and organisations:  # "results service at Westfield": the service
            name = _without_place(name, organisations)
            key = term_key(name)
        name = _with_joined_tail(kind, name, uses)  # "Department of Building" / "and Safety"
        key = term_key(name)
        name, key, entity_type, aliases = _short_form(kind, (name, key, entity_type), evidence, organisations)
        line = key_hit[0] if key_hit else seen[0][0]
        choice = _Choice(count + bonus + 2 * in_title, key, name, entity_type, line,
                         evidence.title if in_title and key_hit is None else _line_text(seen, line),
                         in_title, kind, aliases, count)
        if key not in best or (kind != "stack" and best[key].kind == "stack") or (
                kind != "stack" and (choice.score, -len(kind)) > (best[key].score, 0)):
            best[key] = choice  # a technology cell adds a name no other evidence chose, outside the cap
    return sorted(best.values(), key=lambda c: (-c.score, c.key))


def _kind_enough(kind: str, name: str, seen: list[tuple[int, str]], where: tuple[bool, bool, bool],
                 evidence: _Evidence) -> bool:
    """Is a term written enough, where it counts, for its kind (`where`: in the title, on a
    conclusion's line, in the opening)?"""
    in_title, in_key_line, opening = where
    if kind == "known" or kind == "once" and coined_capitals(name):  # ("LaunchDarkly", "SchedMD"):
        # a coined name is weighed as a common technology is (named once in a sentence of a page
        # that tells what a team runs is enough)
        return _known_enough(seen, in_title, in_key_line, opening, evidence)
    return kind == "system" and (in_title or _owns(name, seen, evidence)) or _enough(
        kind, name, len(seen), in_title or opening, in_key_line, evidence.unsure)


def _names_a_document(kind: str, name: str, seen: list[tuple[int, str]], evidence: _Evidence) -> bool:
    """Does a term name a document, not a subject: a name written once, only as the text of a
    link to another page of the site ("see the [Gatehouse Change](../decisions/...md)": that
    document's title), or the process or template the page is modelled on ("modelled on the
    Debian DEP process": how the page is written)?"""
    if kind == "once" and all(_in_link_text(written, evidence.lines.get(n, ""), local=True)
                              for n, written in seen):
        return True
    return kind in _WRITTEN_KINDS | {"known"} and follows_a_model(
        [name, *(written for _, written in seen)], evidence.text)


def _only_as_label(name: str, seen: list[tuple[int, str]], lines: dict[int, str]) -> bool:
    """Is a system phrase written only as a field's label: a header table's first cell ("|
    **Implementation Team** | Priyanka Sethi |") or the label before a colon ("**Owning team:**
    ...")? The field says who or what, the label names nothing."""
    label = re.compile(rf"^[ \t]*(?:\|[ \t]*|[-*+][ \t]+)?[*_]*{re.escape(name)}[*_]*[ \t]*(?:\||:|[*_]+:)",
                       re.I)
    return all(label.match(lines.get(number, "")) for number, _ in seen)


def _key_hit(kind: str, name: str, seen: list[tuple[int, str]], evidence: _Evidence
             ) -> tuple[int, str] | None:
    """Where a term is written on a line of a conclusion, or a name used once in a decision
    record's Context ("the planned yield-forecast work (HarvestCast) needs the readings")."""
    hit = next(((n, text) for n, text in seen if n in evidence.key_lines), None)
    if hit is None and kind == "once" and evidence.context and not _OPS_NAME_RE.search(name):
        hit = next(((n, text) for n, text in seen if n in evidence.context), None)
    return hit


def _record_subject(kind: str, name: str, seen: list[tuple[int, str]], evidence: _Evidence) -> bool:
    """May a term of a decision record be one of its subjects? A record names the things it
    weighs in short noun phrases, and its prose is full of generic ones: a system phrase or a
    title's subject of plain lower-case words is a kind of thing ("message broker", "mapping
    table", "whichever scheduler", "Partitions follow node", "tape"), a name written once must
    be a name, not plain words ("Feature Collection", "DAGs of Customer Delivery"), a link text
    names another document ("ARB minute"), a word joined to another by "&" is a piece of a
    team's name ("Metadata team" of "Rights & Metadata team"), and a common technology written
    only inside a longer name is a piece of it ("AWS" of "AWS Batch"). A team is weighed as
    everywhere."""
    text = evidence.text
    words = name.split()
    if kind in _NOT_RECORD_KINDS or _joined_by_ampersand(words[0], text):
        return False
    if words[0].lower() in _RECORD_VERBS or words[-1].lower() in _NOT_SUBJECTS and (
            kind != "system" or words[-1].endswith("s")):  # (not "FlightCore API": one service)
        return False  # "Combine api-mongo cluster" (a title's verb), "GDS PaaS", "public APIs"
    if kind == "acronym" and _PLURAL_ACRONYM_RE.fullmatch(name) or kind == "phrase" and full_name(name):
        return False  # "ADRs", "IDEs": kinds of things; "Michael Nygard": a person, read by decision_people
    if kind == "known" and all(_inside_a_longer_name(name, line) or _in_link_text(written, line)
                               for n, written in seen for line in [evidence.lines.get(n, "")]):
        return False  # "AWS" of "AWS Batch"; "Supersedes [Use PostgreSQL](0001-use-postgresql.md)"
    if kind == "once" and all(_in_link_text(written, evidence.lines.get(n, "")) for n, written in seen):
        return False  # a document's title or a fragment of one: "[GDS Tech Forum Hosting Guide](...)"
    if written_as_no_subject(name, [written for _, written in seen], text):
        return False  # "(e.g. in Protobuf, GraphQL ...)", "Airbnb code style", "MySQL database"
    if is_team(name):
        return True
    if (kind in {"system", "title"} and name[1:].islower() and all(word.isalpha() for word in words)
            and (name[0].islower() or ordinary_word(words[0]))):
        return False  # not "Strongroom database", a name's
    plain = ordinary_words(name) and not any(ch.isdigit() for ch in name)
    if kind == "once" and (plain or any(word.islower() for word in words)):
        return False
    if kind == "phrase" and (len(words) == 1 and common_word(name) or ordinary_words(name.lower())):
        return False  # "Rights rarely change", "Public Internet": common words
    if kind == "version" and _after_a_name(name, text):
        return False  # "GeoReport" of "Open311 GeoReport v2"
    return True


def _after_a_name(name: str, text: str) -> bool:
    """Is `name` written only right after another capitalized or numbered word ("Open311
    GeoReport v2"): the tail of a longer name?"""
    spans = word_spans(text, name)
    return bool(spans) and all(_NAME_BEFORE_RE.search(text, max(0, start - 40), start) for start, _ in spans)


_NAME_BEFORE_RE = re.compile(r"(?<![\w.-])[A-Z][\w.-]*[0-9A-Z][\w.-]*\s{1,3}$")


# Kinds a decision record's prose gives too loosely: links to other documents, code spans and
# lower-case or hyphenated words (its examples and fields: `apiVersion`, `foo-test`, "filename").
_NOT_RECORD_KINDS = frozenset({"link", "code", "hyphen", "lower-name"})
# A title's or option's opening verb, kept in a system phrase ("Combine api-mongo cluster").
_RECORD_VERBS = _OPENING_VERBS | {"combine", "merge", "remove", "add", "centralise", "centralize"}


def _in_link_text(name: str, line: str, *, local: bool = False) -> bool:
    """Is every `name` of `line` inside a link's text ("[Use PostgreSQL](0001-use-postgresql.md)"):
    the title of another document, not what this one names? `local`: of a link to a page of the
    same site (a relative path, no "https:" or "//": not a product's home page). (Found by
    `str.find`: a pattern over brackets is quadratic on a line of brackets.)"""
    at = line.find(name)
    if at < 0:
        return False
    while at >= 0:
        opened, closes = line.rfind("[", 0, at), line.find("]", at)
        inside = opened >= 0 and line.rfind("]", 0, at) < opened and closes >= 0
        if not (inside and line.startswith("(", closes + 1)) or (
                local and _EXTERNAL_TARGET_RE.match(line, closes + 2) is not None):
            return False
        at = line.find(name, at + len(name))
    return True


_EXTERNAL_TARGET_RE = re.compile(r"\s*<?(?:[A-Za-z][\w+.-]*:|//)")


def _joined_by_ampersand(name: str, text: str) -> bool:
    """Is `name` written only beside "&" and another capitalized word ("Rights & Metadata")?"""
    return _only_beside(name, text, _AMPERSAND_AFTER_RE, _AMPERSAND_BEFORE_RE, 40)


def _only_beside(name: str, text: str, after: re.Pattern[str], before: re.Pattern[str], reach: int) -> bool:
    """Is `name` written in `text`, and each time with `after` just after it or `before` ending
    just before it (within `reach` characters)?"""
    spans = word_spans(text, name)
    return bool(spans) and all(after.match(text, end) or before.search(text, max(0, start - reach), start)
                               for start, end in spans)


_AMPERSAND_AFTER_RE = re.compile(r"[ \t]*&[ \t]*[A-Z]")
_AMPERSAND_BEFORE_RE = re.compile(r"[A-Z][\w-]*[ \t]*&[ \t]*$")
_NEVER_RE = re.compile(r"(?!)")


def _with_joined_tail(kind: str, name: str, uses: _Uses) -> str:
    """A capitalized name of "X of Y" that the page goes on with "and Z" ("the Department of
    Building and Safety's inspection line", "Office of Data and Analytics"): the whole name, as
    phrases are cut at "and"; a name the page writes only before "& Y" ("Transport &
    Logistics" in a contributors' cell and in prose): the whole name; so a team written only
    after "X &" ("Identity & Access team")."""
    if kind in _CAPITAL_KINDS and _joined_by_ampersand(name, uses.flat):
        match = re.search(rf"(?<![\w-]){re.escape(name)}[ \t]*&[ \t]*[A-Z][\w-]*(?![\w-])", uses.flat)
        return match.group() if match else name
    if kind == "system" and is_team(name) and _only_beside(name, uses.flat, _NEVER_RE,
                                                           _AMPERSAND_BEFORE_RE, 40):
        # "(Identity & Access team lead)": the team, not "Access team"
        match = re.search(rf"(?<![\w-])[A-Z][\w-]*[ \t]*&[ \t]*{re.escape(name)}(?![\w-])", uses.flat)
        return match.group() if match else name
    if kind not in _CAPITAL_KINDS or " of " not in name:
        return name
    match = re.search(rf"(?<![\w-]){re.escape(name)} (?:and|&) [A-Z][\w-]*(?![\w-]| [A-Z])", uses.flat)
    return match.group() if match else name


def _short_form(kind: str, named: tuple[str, str, str], evidence: _Evidence, organisations: frozenset[str]
                ) -> tuple[str, str, str, tuple[str, ...]]:
    """(name, key, type, aliases) of a chosen term: an acronym the page spells out is the name
    it spells, the acronym its alias ("DSD": the Digital Services Division, a unit of people,
    typed team); any other term as it is (`named`: its name, key and type)."""
    name, key, entity_type = named
    spelled = spelled_out(name, evidence.text) if kind in _SHORT_FORM_KINDS else None
    if spelled is None or term_key(spelled) == evidence.own or _names_an_organisation(
            "phrase", term_key(spelled), organisations):
        return name, key, entity_type, ()
    key = term_key(spelled)
    return spelled, key, "team" if key.split()[-1] in _UNIT_HEADS else entity_type, (name,)


class _Uses:
    """How a document uses its names (tasks/extract/non_subjects.py), each read once and only
    when a term asks: its on-call rotations, where it writes places, the given names of people."""

    def __init__(self, evidence: _Evidence) -> None:
        self._evidence = evidence

    @cached_property
    def rotations(self) -> frozenset[str]:
        return rotation_names(self._evidence.lines.items())

    @cached_property
    def places(self) -> tuple[str, set[int]]:
        flat = " ".join(self._evidence.lines.values())  # a list of places may wrap: "at" / "Eastfield, ..."
        return flat, places_after_at(flat)

    @property
    def text(self) -> str:
        return self._evidence.text

    @cached_property
    def given_names(self) -> frozenset[str]:
        return given_names(self._evidence.text)

    @cached_property
    def flat(self) -> str:
        """The visible text, each paragraph on one line (a name may wrap: "(Platform" /
        "Operations)"); a heading, a blank line and a gap end a line ("## ACH through Stripe" is
        no "Stripe Dev" with the line under it)."""
        headings = self._evidence.heading_lines
        parts: list[str] = []
        previous: int | None = None
        for number, line in self._evidence.lines.items():
            joined = (previous == number - 1 and previous not in headings and number not in headings
                      and bool(line.strip()))
            parts.append((" " if joined else "\n") + " ".join(line.split()))
            previous = number if line.strip() else None
        return "".join(parts)

    @cached_property
    def statuses(self) -> frozenset[str]:
        if "tatus" not in self._evidence.text:  # most pages give no status legend or column
            return frozenset()
        return status_words(self._evidence.lines.items())


# The states a record passes through, which a page names when it explains its log ('gets a
# "Superseded by" note'): never a system or a technology.
_LIFECYCLE_WORDS = frozenset({
    "proposed", "accepted", "approved", "rejected", "declined", "withdrawn", "deferred", "superseded",
    "deprecated", "obsolete", "abandoned", "implemented", "implementable"})
_LOG_LEVELS = frozenset({"TRACE", "DEBUG", "INFO", "WARN", "WARNING", "ERROR", "FATAL", "CRITICAL"})


def _used_as_no_subject(kind: str, name: str, uses: _Uses) -> bool:
    """Is a term written as who is paged ("the `claims-primary` rotation"), as a place
    ("controllers at Northgate and Riverside", "Ward 7B"), as a person's given name
    ("(Tomasz, in progress)"), as a record's status ("Parked") or only inside longer names,
    not as a system or a technology?"""
    if ("-" in name or "_" in name) and name.lower() in uses.rotations:  # rotations are code-like names
        return True
    if name in _LOG_LEVELS:  # "logged at DEBUG level": how loud a log line is, not a system
        return True
    if kind in _CAPITAL_KINDS | {"acronym"} and (city_name(name) or written_as_place(name, *uses.places)):
        return True
    if kind in _CAPITAL_KINDS and written_as_label(name, uses.text):
        return True
    if kind in _CAPITAL_KINDS | {"version"} and " " not in name and (name.lower() in uses.statuses
                                                       or name.lower() in _LIFECYCLE_WORDS):
        return True  # "Parked", a state a log's legend or Status column gives its records
    if kind in _CAPITAL_KINDS and " " not in name and only_inside_names(name, uses.flat):
        return True  # "Platform" of "311 Platform" and "Platform Operations": two teams, not a third
    if kind == "system" and (done_one_by_one(name, uses.flat) or written_as_role(name, uses.flat)):
        return True  # "The rollback went node by node": how it was done; "Revenue managers correct it"
    if kind == "once" and only_possessive(name, uses.flat):
        return True  # "OHIP, Oracle's integration platform": the vendor
    return kind in _CAPITAL_KINDS and name in uses.given_names


def _names_an_organisation(kind: str, key: str, organisations: frozenset[str]) -> bool:
    """Is a term read from capitals the name of an organisation or a place ("Orchardline",
    "NHS"), or one with its institution's words ("Westfield General Hospital", "City of
    Kestrel Point": the team's own city, county or university)?"""
    words = key.split()
    if kind in _CAPITAL_KINDS and len(words) > 2 and words[1] == "of" and words[0] in _INSTITUTION_WORDS:
        return True
    if kind in _CAPITAL_KINDS and len(words) >= 2 and words[-1] in _INSTITUTION_HEADS:
        return True  # "The Fenwick Genome Institute runs its secondary analysis on ...": who writes
    if kind in _CAPITAL_KINDS and len(words) >= 2 and key in organisations:
        return True  # "Harrowfell Energy" of "priya.raman@harrowfell-energy.example"
    return kind in _CAPITAL_KINDS | {"acronym"} and bool(words) and words[0] in organisations and (
        len(words) == 1 or _INSTITUTION_WORDS.issuperset(words[1:]))


_INSTITUTION_WORDS = frozenset("""general hospital hospitals infirmary council county borough city town
    village district region province university college school clinic surgery trust trusts ministry
    police government authority agency commission parliament health healthcare group holdings
    board""".split())


# The last word of an institution's own name, whatever its other words ("Fenwick Genome
# Institute", "Larkspur Valley University"); not a group's or a board's, which name teams too.
_INSTITUTION_HEADS = frozenset("""institute university college foundation hospital infirmary council
    ministry parliament""".split())


def _without_place(name: str, organisations: frozenset[str]) -> str:
    """A title's subject without the place it ends with ("results service at Westfield")."""
    match = re.match(r"^(.+?)\s+(?:at|in|for)\s+(\S+)", name)
    return match.group(1) if match and match.group(2).lower() in organisations else name


def _owns(name: str, seen: list[tuple[int, str]], evidence: _Evidence) -> bool:
    """A team the page says owns or runs something ("The Search team owns the cluster")."""
    if not is_team(name):
        return False
    said = re.compile(rf"\b{re.escape(name)}\s+(?:owns|runs|operates|maintains)\b"
                      rf"|\b(?:owned|run|operated|maintained)\s+by\s+(?:the\s+)?{re.escape(name)}\b", re.I)
    return any(said.search(evidence.lines.get(n, "")) for n, _ in seen)


# Kinds of a name written in capitals that may be the short form of a name the page spells out.
_SHORT_FORM_KINDS = frozenset({"acronym", "phrase", "once"})
# The heads of a unit of an organisation ("Digital Services Division"): a team, as its people are.
_UNIT_HEADS = frozenset({"division", "department", "directorate", "office", "unit"})
# Kinds read from capitals alone: a common capitalised word of these needs more (common_capitals.py).
_CAPITAL_KINDS = frozenset({"phrase", "once"})
_TITLE_CODE_RE = re.compile(r"`([A-Za-z][\w.-]{1,40})`")
_WRITTEN_KINDS = frozenset({"phrase", "acronym", "code", "once"})


def _written_lines(terms: list[_Term]) -> dict[str, list[tuple[int, str]]]:
    """Where each name is written as a capitalized phrase or in a code span, one hit a line."""
    written: dict[str, dict[int, str]] = {}
    for kind, _, seen, _ in terms:
        if kind in _WRITTEN_KINDS:
            lines = written.setdefault(term_key(_usual_spelling(seen)), {})
            for number, text in seen:
                lines.setdefault(number, text)
    return {key: sorted(lines.items()) for key, lines in written.items()}


_PER_KIND = {"one-tool": 1, "acronym": 3, "affected": 4, "slug": 1, "tool": 2, "hyphen": 3, "repo": 1,
             "phrase": 5, "system": 5, "code": 4, "link": 4,
             "listed": 16, "title": 2, "known": 10, "once": 3, "defined": 3, "named-code": 5, "product": 5,
             "lower-name": 2, "lower-word": 0, "owner": 4, "stack": 12, "version": 3}


def _capped(chosen: list[_Choice]) -> list[_Choice]:
    """At most a few of each kind, the best of them, and MAX_SUBJECTS in all beside the
    components an architecture page lists and the systems it names in code."""
    taken: dict[str, int] = {}
    kept: list[_Choice] = []
    # a tool that watches or pages named once comes after the others of its kind (sorted is stable)
    for choice in sorted(chosen, key=_watch_tool_once):
        taken[choice.kind] = taken.get(choice.kind, 0) + 1
        if taken[choice.kind] <= _PER_KIND[choice.kind]:
            kept.append(choice)
    listed = [choice for choice in kept if choice.kind in _UNCAPPED_KINDS]
    # a vendor's product named once, and a tool that watches or pages named once, fill a place
    # no other evidence took (they displace none)
    rest = sorted((choice for choice in kept if choice.kind not in _UNCAPPED_KINDS),
                  key=lambda choice: choice.kind == "product" or _watch_tool_once(choice))
    return [*listed, *rest[:MAX_SUBJECTS]]


def _watch_tool_once(choice: _Choice) -> bool:
    """Is `choice` a tool that watches or pages (Grafana, PagerDuty) named once and nowhere it
    counts: a subject where the page has room for it, after every subject with more evidence?"""
    return choice.kind == "known" and choice.count <= 1 and not choice.in_title and choice.key in _WATCH_TOOLS


# An architecture page's listed components, the systems a page names in code, the teams it
# names as owners and the products of its technology cells: beside the others, not in their
# place (a few at most of each, by _PER_KIND).
_UNCAPPED_KINDS = frozenset({"listed", "named-code", "owner", "stack"})


def _without_fragments(chosen: list[_Choice], prose: str, parts: dict[str, list[str]]) -> list[_Choice]:
    """A term that is the tail of a longer chosen term written as often ("plane node" of
    "control plane node") is a fragment of it; a longer term written less often than its tail
    is a description of it ("per-tenant bucket index" of "bucket index"); a name written once
    that opens a longer chosen term is a part of it ("Discovery" of "Discovery team"), and a tail written
    apart less often than the longer term is its short form ("activity job" of "field activity
    job", an alias); a subject's service,
    cluster or server ("Cortex service" beside "Cortex") is the subject where it runs.
    A term that opens or ends a longer chosen term and is never written apart from it ("Azure
    Load" of "Azure Load\nTesting", cut at a line end), and a team's short name ("Platform"
    beside "Platform team"), are the longer term: their names go to `parts`, its aliases."""
    dropped: set[str] = set()
    flat = " ".join(prose.lower().split())  # a line end inside a name is a blank
    for short in chosen:
        for long in chosen:
            if long.key != short.key and long.key.endswith(" " + short.key):
                dropped.add(_weaker_of(short, long, flat, parts))
            elif short.kind == "once" and long.key.startswith(short.key + " "):
                dropped.add(short.key)  # "Discovery" written once, in "the Discovery team"
            elif short.kind == "phrase" and " " not in short.key and long.key == f"{short.name.lower()} team":
                dropped.add(short.key)  # "Payments flips the switch": the Payments team, by its short name
            elif (short.kind == "named-code" and long.kind == "system"
                  and long.name.startswith(short.name + " ")):
                dropped.add(long.key)  # "the `pick-jobs` SQS queue": chosen by its name, `pick-jobs`
                parts.setdefault(short.key, []).append(long.name)
    names = {choice.key: choice for choice in chosen if choice.kind in _NAME_KINDS}
    for choice in chosen:  # "Cortex service", "etcd cluster": where a subject runs, no other thing
        words = choice.key.split()
        owner = term_key(usual_spelling(words[0]) or words[0])  # "postgres" -> "postgresql"
        if choice.kind == "system" and owner in names and (
                len(words) == 2 and words[1] in _RUNS_ON or words[-1] == "log"):
            # or its log ("Postgres write-ahead log"): a part of it; but a word written once
            # ("Payment could not be processed") is no name beside a service named more often
            dropped.add(owner if _weaker_name(names[owner], choice) else choice.key)
    dropped.update(_where_a_name_runs(chosen, set(names)))
    dropped.update(choice.key for choice in chosen if _written_in_a_language(choice))
    kept = [choice for choice in chosen if choice.key not in dropped]
    for short in kept:  # after the rules above: "Hourly Rollup job" is where "Hourly Rollup" runs
        for long in kept:
            if long.key != short.key and long.key not in dropped and _part_of_name(short, long, flat):
                dropped.add(short.key)
                parts.setdefault(long.key, []).append(short.name)
    return [choice for choice in chosen if choice.key not in dropped]


def _weaker_of(short: _Choice, long: _Choice, flat: str, parts: dict[str, list[str]]) -> str:
    """The key to drop of a chosen term and a longer one that ends with it: the tail, a fragment
    or the longer name said short (its alias then: "the activity job's fixtures" beside
    "RowTrack's field activity job"), or the longer, a description of the tail."""
    if long.score >= short.score or _names_the_kind(short, long):
        return short.key
    if _said_short(short, long, flat):
        parts.setdefault(long.key, []).append(short.name)
        return short.key
    return long.key


def _said_short(short: _Choice, long: _Choice, flat: str) -> bool:
    """Is a system phrase the tail of a longer one written apart from it less often than the
    longer is written ("RowTrack's field activity job" twice, "the activity job's fixtures"
    once): the longer name said short, not a kind the longer describes ("per-tenant bucket
    index" beside "bucket index" written often)?"""
    if short.kind != "system" or long.kind != "system" or is_team(short.name):
        return False  # (a team's name is its own: "Platform team" beside "Data Platform team")
    whole = _whole_words(long.key, flat)
    return _whole_words(short.key, flat) - whole < whole


def _names_the_kind(short: _Choice, long: _Choice) -> bool:
    """Is `short` a bare lower-case word ("connector", "controller") that a longer chosen name
    gives its name ("Cityworks connector", "Slurm controller"), or plain words an acronym does
    ("help desk" of "the ESG help desk")? Written more often, it is still the short way to say
    the named one, not a subject of its own (a name written once is too weak to say so:
    "ledger" beside "Entitlements Ledger" written once)."""
    if long.kind == "once" or not short.name.islower():
        return False
    if " " not in short.key:
        return long.name[:1].isupper()
    # "help desk" of "ESG help desk": plain words an acronym gives its name (not a sentence's
    # opening verb: "Compact write-ahead log")
    named = long.name[:len(long.name) - len(short.name)].split()
    return len(named) == 1 and len(named[0]) > 1 and named[0].isupper() and ordinary_words(short.name)


def _part_of_name(short: _Choice, long: _Choice, flat: str) -> bool:
    """Is `short`, a capitalized phrase no list knows ("Kafka" of "Kafka team" is a name of its
    own), a team's short name of `long`, or its start or end written in the prose only inside it?"""
    if short.kind not in _CAPITAL_KINDS or usual_spelling(short.name) is not None:
        return False
    if long.key == f"{short.key} team":
        return True
    if not (long.key.startswith(short.key + " ") or long.key.endswith(" " + short.key)):
        return False
    written = _whole_words(short.key, flat)
    return 0 < written <= _whole_words(long.key, flat)


def _whole_words(key: str, flat: str) -> int:
    return len(word_spans(flat, key))


def _weaker_name(name: _Choice, system: _Choice) -> bool:
    """Is a name written once (kind "once") weaker evidence than the system phrase that opens
    with it ("Payment" of a quoted error beside "Payments API", written six times)?"""
    return name.kind == "once" and system.score > name.score


def _written_in_a_language(choice: _Choice) -> bool:
    """A system phrase that says what a program is written in ("a Go service", "the Python
    worker"): one of its kind, not one system."""
    words = choice.key.split()
    return choice.kind == "system" and len(words) == 2 and words[0] in _LANGUAGES and words[1] in _RUNS_ON | {
        "worker", "daemon", "binary", "app", "program", "library"}


_LANGUAGES = frozenset("""go golang rust java python ruby php kotlin scala elixir erlang haskell typescript
    javascript swift perl lua dart""".split())
_VENDOR_WORDS = frozenset({"amazon", "aws", "google", "azure", "microsoft", "apache"})


def _where_a_name_runs(chosen: list[_Choice], names: set[str]) -> set[str]:
    """The keys of chosen terms that name where another chosen name runs, its name of more
    than one word ("route-planner deployment" beside "route-planner") or written once
    ("Kubernetes Deployment" beside "Kubernetes"): the subject itself, no other thing; and a
    system phrase written once that puts a head after a chosen name ("Raise the Stripe client
    timeout", "an append-only Iceberg table"): one of that name's things, not a system."""
    dropped: set[str] = set()
    for choice in chosen:
        words = choice.key.split()
        once = (choice.kind == "system" and choice.score == 1 and not choice.in_title
                and words[-1] in _INSTANCE_HEADS)
        if (len(words) < 2 or (words[-1] not in _RUNS_ON and not once)
                or choice.kind not in {"system", "once"}
                or words[0] in _VENDOR_WORDS):
            continue  # "Amazon OpenSearch Service": a product's own name
        owner = " ".join(words[:-1])
        if term_key(usual_spelling(owner) or owner) in names and owner != choice.key:
            dropped.add(choice.key)
    return dropped


# What a product's user makes of it, one of many: a table in its format ("an Iceberg table").
_INSTANCE_HEADS = frozenset({"table"})
_NAMED_KINDS = frozenset({"title", "slug", "repo"})
# a product's name
_NAME_KINDS = frozenset({"acronym", "known", "product", "phrase", "once", "code", "repo", "tool", "one-tool",
                         "listed", "hyphen", "defined", "stack", "version"})
_RUNS_ON = frozenset({"service", "cluster", "server", "node", "instance", "deployment", "api", "job",
                      "process", "pod", "container"})


def _enough(kind: str, name: str, count: int, up_front: bool, in_key_line: bool,  # noqa: PLR0913  the evidence a kind weighs
            unsure: bool) -> bool:
    """Does a term of this kind recur enough, where it counts (the title or opening, the lines
    of a conclusion), to be a subject?"""
    if kind in {"listed", "title", "repo", "slug", "defined", "affected", "named-code", "lower-name",
                "owner", "stack", "version"}:
        return True
    if kind == "lower-word" or _any_desk(name, count):  # a coined word that opens no sentence: a
        return False  # subject once the registry holds it; a desk where one goes, no team
    single = " " not in name and "-" not in name
    if kind == "once":  # a name used once, where a conclusion is stated
        return in_key_line and not unsure
    if kind == "phrase":  # a page of no genre ("unsure") needs one more
        return (count >= (3 if single else 2) + unsure and (up_front or in_key_line) or count >= 6
                or single and count >= 2 and in_key_line and not unsure and not ordinary_word(name.lower()))
    if kind == "acronym":  # a component's acronym, written twice (a page of no genre: as a phrase)
        return count >= 2 and not unsure or count >= 4 and (up_front or in_key_line) or count >= 6
    if kind == "system":  # a system named where a conclusion is stated; a team up front or twice
        return in_key_line or (count >= 2 or is_team(name)) and up_front or count >= 4 or (
            is_team(name) and count >= 2)
    if kind == "hyphen":  # "the order-router": a lower-case name, written often or where it counts;
        return (count >= 3 or count >= 2 and (up_front or in_key_line)  # a coined one ("cart-svc")
                or in_key_line and (not ordinary_words(name)  # once where a conclusion is stated,
                                    or _names_component(name.split("-")[-1])  # or "listing-service",
                                    and name.split("-")[0].lower() not in _VERB_PREFIXES))  # not "re-index"
    if kind == "tool":  # a tool the page's commands run, more than once or named in prose
        return count >= 2 or up_front or in_key_line
    if kind == "one-tool":  # a tool a runbook's or a write-up's command runs once
        return True
    if kind == "link":  # a link to another page of the same site
        return up_front or in_key_line or count >= 2
    if not any(ch.isupper() for ch in name[1:]) and "-" not in name and name[:1].isupper():
        return count >= 10 and in_key_line  # `Pipeline`, `Array`: a type of the code at most
    return count >= 3 and (up_front or in_key_line) or count >= 8  # a code identifier


def _any_desk(name: str, count: int) -> bool:
    """Is a desk named once, where one goes ("Staff at the issue desk report ...", "visit the IT
    help desk"), or by what every organisation's desk does ("the service desk", "an information
    desk"): no team the page is about? A team's desk is named by its work and written again
    ("the porting desk", "the Public Warnings desk"), or by whose it is ("the ESG help desk")."""
    words = name.lower().replace("-", " ").split()
    if words[-1] not in {"desk", "desks"}:
        return False
    return count < 2 or len(words) == 2 and words[0] in _ANY_DESK


_ANY_DESK = frozenset({"help", "service", "information", "front", "reception", "issue", "it"})


def _known_enough(seen: list[tuple[int, str]], in_title: bool, in_key_line: bool,
                  opening: bool, evidence: _Evidence) -> bool:
    """A common technology is a subject when the title, a heading or a conclusion names it,
    when the opening names it twice, or when it is named three times; on a page of no genre
    (notes, with no conclusions) only by the title, a heading or three times."""
    headed = any(n in evidence.heading_lines for n, _ in seen)
    if in_title or headed:
        return True
    if _watched_with(seen, evidence):
        return True
    if seen[0][1].lower() in _LOOKED_AT and len(seen) < 2:
        return False  # "the #checkout channel in Slack": where one talks, named once
    if all(_as_example(evidence.lines.get(n, ""), written) for n, written in seen):
        return False  # "a notification channel, such as email, PagerDuty or OpsGenie"
    if len(seen) >= 3 or evidence.narrative and _named_in_prose(seen, evidence):
        return True
    return not evidence.unsure and (in_key_line or (opening and len(seen) >= 2))


def _written_as_product(name: str, seen: list[tuple[int, str]], evidence: _Evidence) -> bool:
    """Is a name a known technology's or vendor's product ("Spring Security", "Argo Workflows",
    "AWS Secrets Manager": tasks/extract/technologies.py `vendor_product`) written once at least
    in the prose: not in a heading (whose title case makes any words a name), a table's row (a
    technology cell is read by tasks/extract/stack_names.py), a link's text, an example or a
    label? Any team writes a product so; once is enough, as for a common technology named in
    prose, in any genre (a proposal's rejected option is one of its subjects too), in brackets
    too ("Push notifications (Azure Notification Hubs) sent ...")."""
    if (evidence.unsure or evidence.record or not vendor_product(name)
            or name.split()[-1].lower() in _NOT_SUBJECTS):
        return False  # (a page of no genre needs more, see _known_enough; a decision record's
        # subjects are what its decision and its context name, see _record_subject)
    return any(n not in evidence.heading_lines and written in line and not line.lstrip().startswith("|")
               and not _in_link_text(written, line)
               and not _as_example(line, written) and not _as_label(line, written)
               and not _where_one_looks(line, written)
               for n, written in seen for line in [evidence.lines.get(n, "")])


def _as_label(line: str, name: str) -> bool:
    """Is `name` written as a label, before a colon ("**Kafka Consumer Lag:** ..."), not as a name?"""
    at = line.find(name)
    return at >= 0 and line[at + len(name):].lstrip("*_ ").startswith(":")


def _where_one_looks(line: str, name: str) -> bool:
    """Is `name` written before the page one opens in it ("the AWS Health dashboard", "the
    Stripe Checkout console"), or as the tool a page's footer says it is made with ("Powered
    by Atlassian Statuspage") or printed from ("Printed from ServiceNow"): where one looks, not
    what the page is about?"""
    at = line.find(name)
    return at >= 0 and (_LOOKED_IN_RE.match(line, at + len(name)) is not None
                        or _MADE_WITH_RE.search(line, 0, at) is not None
                        or _PRINTED_FROM_RE.search(line, 0, at) is not None)


_LOOKED_IN_RE = re.compile(r"[ \t]+(?:dashboards?|console|portal|status page|UI)\b")
_MADE_WITH_RE = re.compile(r"\b(?:[Pp]owered|[Bb]uilt|[Mm]ade|[Hh]osted)[ \t]+(?:by|with|on)[ \t]+$")
# The tool a printout's footer names ("KB0010443 · Printed from ServiceNow by ..."), opening the
# footer's line or a part of it: how the page was printed. (Not "Exported from FireHydrant": the
# tool a record is exported from is where the team keeps it, one of its tools.)
_PRINTED_FROM_RE = re.compile(r"(?:^|[·|•—–_*(])[ \t_*]*[Pp]rinted[ \t]+(?:from|by|with|out of)[ \t]+$")


# Kinds a product's name is read as: a capitalized phrase, a name used once, a known technology's
# longer name ("Azure Service Bus", "Google Cloud Tasks").
_PRODUCT_KINDS = frozenset({"phrase", "once", "known"})


def _watched_with(seen: list[tuple[int, str]], evidence: _Evidence) -> bool:
    """Is a monitoring or paging tool named where a page that tells what a team runs says
    it alerted or paged ("Datadog monitor ... fires", "the alert in Grafana paged", "page the
    on-call in PagerDuty"), or in the field or row that says where the team's dashboard or
    pager is ("**Dashboard:** Grafana → Origin overview", "| Dashboard | Grafana / Orbit |",
    "Pager: Opsgenie schedule")? Those are the team's own tools, even named once; not in an
    example or an aside."""
    if not evidence.narrative or seen[0][1].lower() not in _WATCH_TOOLS:
        return False
    return any((_WATCHING_RE.search(line) or _WATCH_FIELD_RE.search(line))
               and not _as_example(line, written) and not _aside(line, written)
               for n, written in seen for line in [evidence.lines.get(n, "")])


# Where a team watches its systems and is paged: named where it watches, each is one of its tools.
_WATCH_TOOLS = frozenset("""grafana datadog pagerduty opsgenie kibana splunk honeycomb sentry nagios zabbix
    statsd""".split())
# Words of an alert that fired or paged (a dashboard one opens is where one looks, not a subject).
_WATCHING_RE = re.compile(r"\b(?:monitors?|alert(?:s|ed|ing)?|paged|pages|paging|page\s+the|fire[sd])\b",
                          re.I)
# A field's label or a row's head that says where the team's dashboard or pager is ("Dashboard:",
# "| Dashboard |", "Pager:"): the tool its value names is the one the team runs.
_WATCH_FIELD_RE = re.compile(r"\b(?:dashboards?|pager|paging|alerting)[*_]*[ \t]*[:|]", re.I)


def _as_example(line: str, name: str) -> bool:
    """Is `name` written in `line` as one example of a kind ("such as email, PagerDuty or
    OpsGenie", "e.g. Redis")?"""
    at = line.find(name)
    if at < 0:
        return False
    sentence = re.split(r"[.;:!?]\s", line[:at])[-1]
    return _EXAMPLE_RE.search(sentence) is not None


_EXAMPLE_RE = re.compile(r"\b(?:such as|e\.g\.?|for example|for instance|including)\s")


def _tells_what_happened(genre: str | None, structure: Structure) -> bool:
    """Does the document tell what a team runs and did (a postmortem, runbook, architecture
    page, minutes, or a page of no genre written in sections), where a common technology named
    once is one it uses? Not a proposal, which names others' as prior art and comparison
    ("Iterators in Rust and Python inspired this"), nor a short note."""
    return genre != PROPOSAL and (genre is not None or len(structure.sections) > 2)


def _named_in_prose(seen: list[tuple[int, str]], evidence: _Evidence) -> bool:
    """A common technology named in a sentence of the prose, once is enough ("We moved CI
    from Jenkins to GitHub Actions"), when written in its usual spelling ("protobuf" in a list
    of examples is not) and not only where one talks, files work or runs things (a tracker, a
    chat, an operating system: "filed in Jira", "on Windows"; the tools that watch and page,
    Grafana or PagerDuty, are the team's own, see _LOOKED_AT),
    nor only as an aside: in parentheses, on a line with a link, in a quoted error."""
    if seen[0][1].lower() in _LOOKED_AT:
        return False
    return any(written in line and not _aside(line, written)  # `seen` holds the usual spelling
               for n, written in seen for line in [evidence.lines.get(n, "")])


@lru_cache(maxsize=4096)  # the merge asks again for each document that names the subject
def _written_alone(name: str) -> re.Pattern[str]:
    """`name` in any case, with no word character or hyphen beside it."""
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.I)


def named_in_a_sentence(line: str, names: Iterable[str]) -> bool:
    """Is one of `names` (a registered subject's spellings) written in `line` as a sentence
    writes what it is about ("Argo CD rolled the workers back", "refund-runner refunded 212
    customers twice"), and not in passing: where one talks or files work (a chat, a tracker),
    as one example of a kind, or as an aside (in parentheses, beside a link,
    in a quoted error)? The registry is the evidence a common technology's list is for a term
    written once (see _named_in_prose)."""
    for name in names:
        match = _written_alone(name).search(line)
        if match is not None:
            written = match.group(0)
            return (written.lower() not in _LOOKED_AT and not _as_example(line, written)
                    and not _aside(line, written))
    return False


def _aside(line: str, name: str) -> bool:
    """Is `name` written in `line` only as an aside: inside parentheses, on a line with a link
    (a reference, a tracker's field) or in a quoted error? A bracket that opens with the name
    says what the noun before it is made of ("by SMS (Twilio)", "a Postgres cluster (Patroni)",
    "`forecast` (LightGBM model, hourly)"): no aside; one that names it further in is ("(see
    the Redis docs)", "(the node runs Ubuntu)")."""
    at = line.find(name)
    if _ASIDE_RE.search(line) or at >= 0 and _PRINTED_FROM_RE.search(line, 0, at) is not None:
        return True  # (or the tool a footer says the page was printed from)
    opened = line.rfind("(", 0, at) if at >= 0 else -1
    return opened > line.rfind(")", 0, at) and line[opened + 1:at].strip(" *_`") != ""


# Tools where one talks, files work or runs things, and the links one connects over ("when they
# connect to the depot Wi-Fi"): named once, they are where, not what. The tools that watch and
# page (_WATCH_TOOLS: Grafana, PagerDuty) are not among them: the team's monitoring stack is one of
# its subjects even named once ("Open the Picklist dashboard in Grafana"), as readers of every
# set's documents judge it (21 of the 46 tuning sets' gold name Grafana a key subject, 1 judges it not).
_LOOKED_AT = frozenset(
    """jira slack github gitlab bitbucket windows linux macos ubuntu debian aws gcp azure
    wi-fi wifi ethernet bluetooth""".split())
# The watching tools' names in a longer name named once ("the Prism Grafana dashboard"): no system.
_ASIDE_TOOLS = _LOOKED_AT | _WATCH_TOOLS
# A line that writes a name only in or beside a link, or in a quoted error.
_ASIDE_RE = re.compile(r"\]\(|\]\[|^\s*[-*]?\s*(?:error|warning)\b", re.I)


# Kinds that are evidence of a name by themselves: a listed component, a link, a command's tool,
# a known technology, a code span, the title's subject, a linked repository, a name an appositive defines.
_MARKED_KINDS = frozenset({"one-tool", "listed", "link", "tool", "known", "product", "code", "title", "repo",
                           "defined", "affected", "named-code", "owner", "stack", "version"})
# Heads of a machine's role, one of many ("API node", "worker host"), not one system.
_MACHINE_HEADS = frozenset({"node", "host", "instance", "machine", "vm"})
# Modifiers that tell where or how a system runs, not which it is ("production cluster", "batch job").
_SETTING_MODIFIERS = frozenset(
    """production prod staging stage dev development test testing qa sandbox canary preprod live
    demo batch background periodic nightly hourly daily weekly monthly recurring
    morning evening overnight midnight""".split())  # "the morning job": when it runs


def _kind_of_thing(kind: str, name: str, count: int, text: str) -> bool:
    """Is a term made only of ordinary English words (tasks/extract/ordinary_words.py), none
    of them capitalized inside a sentence ("Aurora database"), one that names a kind of thing
    more often than one system, so that only the document's structure makes it a subject:
    - a lower-case word ("error", "uploads"; "the dispatcher", an agent noun of a page, is a
      component);
    - a compound that does not end in a component's head ("force-merge"; not "order-router",
      "inventory-service");
    - a two-word system phrase naming a machine's role ("API node") or where or how a system
      runs ("production cluster", "batch job"), or written at most twice and only in the
      plural or after "a" / "each" ("Product services publish ...", "each product team"), its
      head no agent noun ("build workers": the replicas of one component)?"""
    if kind in _MARKED_KINDS or not ordinary_words(name):
        return False
    words = name.replace("-", " ").split()
    lines = _lines_of(text)
    if any(mid_sentence(word, lines) for word in words if word[:1].isupper() and not word.isupper()):
        return False  # a name capitalized where a sentence goes on ("Aurora database")
    if kind == "hyphen":
        return not _names_component(words[-1])
    if len(words) == 1:
        return kind != "system" and name.islower()
    if kind != "system" or len(words) != 2:
        return False
    head = words[-1].lower()
    if head in _MACHINE_HEADS or words[0].lower() in _SETTING_MODIFIERS:
        return True
    return (count <= 2 and not _agent_noun(head) and written_as_kind(name, text))


def _no_system_run(name: str, seen: list[tuple[int, str]], in_title: bool, evidence: _Evidence) -> bool:
    """Is a system phrase no one system the team runs, though the page writes it where it
    counts: many of a kind on a page that tells what a team runs (not a proposal, which
    designs for a kind: "init containers"), or a channel a runbook escalates through?"""
    return (evidence.narrative and not in_title and _only_plural(name, evidence.text)
            or _escalated_through(name, seen, evidence) or _only_compared(name, seen, evidence))


def _only_compared(name: str, seen: list[tuple[int, str]], evidence: _Evidence) -> bool:
    """Is a system phrase written only as what something is likened to ("validated the file
    like the campaign tool does", "unlike the old importer"): another system set beside the
    page's own, not one it is about? (The line before counts: a sentence wraps.)"""
    lines = evidence.lines
    texts = [f"{lines.get(number - 1, '')[-40:]} {lines.get(number, '')}" for number, _ in seen]
    if not all("like" in text.lower() for text in texts):  # a literal gate first
        return False
    compared = re.compile(r"\b(?:un)?like\s+(?:the|a|an|our|their|its)\s+" + re.escape(name) + r"\b", re.I)
    return all(compared.search(text) for text in texts)


def _only_plural(name: str, text: str) -> bool:
    """Is a two-word system phrase of plain lower-case words written in the plural more than
    once, and in the singular only after "a", "each" or "every" and at least so once ("the VPN
    and the research portals", "a research portal"): many systems of a kind, even where a table
    row names them? (Not "the rating tables", never written as one.)"""
    words = name.split()
    if len(words) != 2 or not name.islower() or _agent_noun(words[-1]):
        return False
    lower = text.lower()
    phrase = rf"{re.escape(words[0])}\s+{re.escape(words[1])}"
    plural = len(re.findall(rf"(?<![\w-]){phrase}e?s(?![\w-])", lower))
    one = re.search(rf"\b(?:a|an|each|every)\s+{phrase}(?![\w-])", lower)
    return plural >= 2 and one is not None and written_as_kind(name, text)


def _escalated_through(name: str, seen: list[tuple[int, str]], evidence: _Evidence) -> bool:
    """Is a system phrase written only in a runbook's Escalation section, and not as the group
    that is called ("page the data platform on-call", "the FlightCore database lead") nor a
    team: a channel one escalates through ("Medidata support: case portal, priority 2")?"""
    if is_team(name) or not all(n in evidence.escalation for n, _ in seen):
        return False
    called = re.compile(rf"(?<![\w-]){re.escape(name)}\s+{_CALLED_ROLES}\b", re.I)
    return not any(called.search(evidence.lines.get(n, "")) for n, _ in seen)


# The words after a system that make it the group one calls ("the data platform on-call").
_CALLED_ROLES = r"(?:on-?call|lead|owner|rota|rotation|manager)"


@lru_cache(maxsize=1)  # the page's text, split once for all its terms (not once a term)
def _lines_of(text: str) -> tuple[str, ...]:
    return tuple(text.splitlines())


# Prefixes that make a verb of what follows ("re-index", "pre-warm the cache"), not a name.
_VERB_PREFIXES = frozenset({"re", "pre", "de", "un", "co", "over", "under", "out", "up", "down"})


def _names_component(word: str) -> bool:
    """Is a compound's last word a component's head ("service", "gateway", "team") or an
    agent noun ("router", "worker"; not "letter", "order")?"""
    lower = singular(word.lower())
    return lower in SYSTEM_HEADS or lower in _TEAM_HEADS or _agent_noun(lower)


def _coined_word(word: str) -> bool:
    """A lower-case word that may be a name the team coined ("tapsettle", "vehpos"): not a
    short keyword ("func"), an agent noun ("scheduler") or a plural ("workspaces", "ingesters")."""
    single = singular(word)
    plural = single != word and (word.endswith(("es", "ers")) or ordinary_word(single))
    return len(word) >= 5 and not _agent_noun(single) and not plural


def _agent_noun(word: str) -> bool:
    """A singular lower-case noun of one that acts ("router", "worker", "consumer"; not
    "order", "letter", "cluster")."""
    return word in _AGENT_HEADS or (len(word) >= 5 and word.endswith(("er", "or")) and word not in NOT_AGENTS)


# Agent nouns too common to be "the X" of a page (NOT_AGENTS) that still end a component's name.
_AGENT_HEADS = frozenset(
    """consumer producer provider sender receiver listener subscriber reader writer monitor
    exporter filter buffer wrapper""".split())


def _whole_word(term: str, text: str) -> bool:
    at = text.find(term)
    while at >= 0:
        end = at + len(term)
        if not (at and (text[at - 1].isalnum() or text[at - 1] in "-_")) and not (
                end < len(text) and (text[end].isalnum() or text[end] in "-_")):
            return True
        at = text.find(term, end)
    return False


def _usual_spelling(seen: list[tuple[int, str]]) -> str:
    """The spelling most often written (a capitalized one on a tie)."""
    counts: dict[str, int] = {}
    for _, written in seen:
        counts[written] = counts.get(written, 0) + 1
    return min(counts, key=lambda w: (-counts[w], w.islower(), w))


def _line_text(seen: list[tuple[int, str]], line: int) -> str:
    return next((text for n, text in seen if n == line), seen[0][1])


def _system_type(phrase: str) -> str:
    head = phrase.lower().split()[-1]
    if is_team(phrase):  # "fulfilment team", "porting desk"
        return "team"
    return "service" if head in _SERVICE_HEADS else "system"


def _may_be_subject(name: str, evidence: _Evidence, kind: str) -> bool:
    lower = name.lower()
    key = term_key(name)  # "# FareEngineCapLag" of a page titled "Fare Engine Cap Lag": the page itself
    if key in {evidence.own, evidence.own.replace(" ", "")} or lower in evidence.people or len(name) < 2:
        return False
    words = lower.replace("-", " ").split()
    if kind in {"known", "owner"}:
        return True  # a common technology (what names it is weighed by _known_enough); an owning team
    text = evidence.text
    if (kind == "once" and (_ASIDE_TOOLS.intersection((lower, words[-1])) or _joined_by_ampersand(name, text))
            or _names_no_system(name, words, kind) or _only_in_breadcrumbs(name, text)):
        return False  # "paged through Opsgenie", "the Prism Grafana dashboard": where one looks, named once;
        # "Train Systems" of "Passenger & Train Systems"; "Repository › Application Architecture › Views"
    if (starts_as_description(name) and kind != "affected" and not vendor_product(name)  # not "Spring Batch"
            or series_key(name, evidence.text)
            or kind in {"once", "phrase"} and _identifier_of_a_name(name, evidence.text)):
        return False  # "older SDK", "OPS" of "OPS-7781", "NetLedger ID": no name of a system
    if lower in _NOT_SUBJECTS or (lower in evidence.headings and kind in {"phrase", "acronym", "system"}):
        return False
    if all(word in TEMPLATE_WORDS or word in _NOT_SUBJECTS for word in words) or (
            kind in _WRITTEN_KINDS and _written_as_no_name(name, evidence)) or (
            kind == "stack" and _described_kind(name, words)):
        return False  # "Root Cause", "Action Items": template words, not a subject; "16:05 CST";
        # "| Technology | Vendor SaaS |": how a product is bought, not its name
    if _DOCUMENT_KIND_RE.search(lower) or lower in _ENVIRONMENTS:
        return False  # "Platform team decision log": a kind of document; "Production": where it runs
    if re.fullmatch(r"[A-Z]{1,2}\d*", name) or (re.search(r"\d{3,}", name)
                                                 and not (kind == "named-code" and alert_name(name))):
        return False  # a number, a ticket; not an alert named by a status code ("Origin404RateHigh")
    if kind == "once" and re.fullmatch(r"[A-Z]{2,}s", name) or re.fullmatch(r"[A-Z]{2,}(?:ed|ing)", name):
        return False  # "cache TTLs" written once: a kind; "were OCRed": an acronym as a verb
    if is_placeholder(name) or is_file_name(name):
        return False  # `Foo`, `MyStruct`; "Dockerfile", "values.yaml": examples and files
    if (len(words) == 1 and len(lower) >= 6 and lower.endswith("ing")
            and kind not in _NAMED_KINDS | {"named-code"}
            and (ends_in_an_act(name) or not coined_capitals(name))):
        return False  # "DOSing", "Handling", "VerticalScaling": what is done, not a thing (`item_holding`
        # is a table; "RotaWing" a coined name whose last word is a noun)
    if kind == "system" and words[0] in _TECH_ACRONYMS:
        return True  # "API gateway", "DNS server": an acronym that says what the system serves
    return not (words[0] in _NOT_SUBJECTS and len(words) <= 2)


def _described_kind(name: str, words: list[str]) -> bool:
    """Is a technology cell's item a way of delivering software after ordinary words ("Vendor
    SaaS", "Managed PaaS"): how a product is bought or run, no product (a known one keeps its
    name; "Mews Connector API" ends in no delivery model)?"""
    return (len(words) > 1 and words[-1] in _DELIVERY_MODELS and ordinary_words(" ".join(words[:-1]))
            and usual_spelling(name) is None)


_DELIVERY_MODELS = frozenset({"saas", "paas", "iaas", "faas"})


def _only_in_breadcrumbs(name: str, text: str) -> bool:
    """Is `name` written only as a step of a breadcrumb trail, beside a "›" or "»" that parts
    the steps ("*Architecture Repository › Application Architecture › Views*"): where the page
    sits in its site, not what it is about?"""
    if "›" not in text and "»" not in text:
        return False  # the cheap gate: a page with no trail
    return _only_beside(name, text, _BREADCRUMB_AFTER_RE, _BREADCRUMB_BEFORE_RE, 4)


_BREADCRUMB_AFTER_RE = re.compile(r"[ \t]*[›»]")
_BREADCRUMB_BEFORE_RE = re.compile(r"[›»][ \t]*$")


def _written_as_no_name(name: str, evidence: _Evidence) -> bool:
    """Is a term written as what names no system: a unit or a time zone after a number ("16:05
    CST"), a priority ("raise a P3 for Platform Operations"), the kind of document the page is
    ("PIR owner" on a "Post-incident review: ..."), a chat channel ("the Grain Marketing channel")?"""
    return (unit_after_number(name, evidence.text) or _PRIORITY_RE.match(name) is not None
            or _abbreviates_title_label(name, evidence.title) or _talked_in(name, evidence.text))


# A page's or an incident's priority or severity opening a phrase ("raise a P3 for Platform Operations").
_PRIORITY_RE = re.compile(r"(?:P|SEV|Sev)-?\d\b")  # (not "S3": Amazon's, as often as a severity)


def _abbreviates_title_label(name: str, title: str) -> bool:
    """Is an acronym the initials of the label the title opens with, the kind of document the
    page is ("PIR owner" in "Post-incident review: DISC-2291 ...")?"""
    label, colon, _ = title.partition(":")
    if not colon or not name.isupper() or len(name) < 2:
        return False
    initials = "".join(word[0] for word in re.split(r"[\s-]+", label.strip()) if word[:1].isalpha()).upper()
    return initials == name


def _talked_in(name: str, text: str) -> bool:
    """Is `name` written only right before "channel" ("the Grain Marketing channel"): where
    people talk, not a system?"""
    spans = word_spans(text, name)
    return bool(spans) and all(_CHANNEL_AFTER_RE.match(text, end) for _, end in spans)


_CHANNEL_AFTER_RE = re.compile(r"[ \t]+(?:channels?|chat|chatroom|mailing list)\b")


def _names_no_system(name: str, words: list[str], kind: str) -> bool:
    """A name that is no system by its words: a person's role ("duty manager", "AOC duty
    manager"), a named storm ("Storm Fenella", an event), a measure of a system ("Redis CPU"),
    a product with what it is used for, written once: a known one ("Twilio for SMS": Twilio),
    or one used for a kind of thing or a format ("Amazon Textract for OCR")."""
    if len(words) < 2:
        return False
    if kind == "system" and words[-1] in {"manager", "managers"} and words[-2] in _ROLE_MODIFIERS:
        return True
    if words[0] in _POST_HEADS and words[1] == "of":  # "Head of Airport Systems"
        return True
    if words[0] in _WEATHER_WORDS and len(words) == 2 and name[:1].isupper():
        return True
    if kind in {"once", "phrase"} and words[-1] in _MEASURE_WORDS:
        return True
    if kind in {"hyphen", "title"} and "-" in name and _hyphenated_word(words):
        return True
    if kind != "once" or " for " not in name:
        return False
    product, purpose = name.split(" for ", 1)
    # a known product ("Twilio for SMS"), or any used for a kind of thing ("Amazon Textract for OCR")
    return usual_spelling(product) is not None or purpose.lower() in _NOT_SUBJECTS


def _identifier_of_a_name(name: str, text: str) -> bool:
    """Is `name` a thing's identifier ("its existing NetLedger ID"): "ID" after a name the page
    writes alone too (NetLedger), not a product whose name ends so ("Entra ID")?"""
    owner, _, last = name.rpartition(" ")
    return last in {"ID", "IDs"} and bool(owner) and any(
        not text.startswith(" ID", end) for _, end in word_spans(text, owner))


def _hyphenated_word(words: list[str]) -> bool:
    """An English word written with a hyphen: its parts joined are a word ("e-mail"), or it
    opens with a prefix ("re-index", "post-processor"), not a coined name ("cart-svc")."""
    joined = "".join(words)
    return words[0] in _WORD_PREFIXES or ordinary_word(joined) or common_word(joined)


# Prefixes written with a hyphen before a word (a closed class): "re-index", "co-owner", "e-mail".
_WORD_PREFIXES = frozenset({"re", "pre", "post", "de", "un", "co", "non", "self", "multi", "sub", "e"})
# What names a person's post before "manager" (a closed class of job titles), never software's.
_ROLE_MODIFIERS = frozenset("""duty shift product project programme program incident engineering
    delivery account hiring line general office operations ops lab laboratory site ward practice
    release service location branch store plant facility area regional district territory""".split())
_POST_HEADS = frozenset({"head", "heads", "director", "directors", "vp", "chief"})
_WEATHER_WORDS = frozenset({"storm", "hurricane", "typhoon", "cyclone"})
# What one measures of a system ("Redis CPU", "queue TTL"): the words of _NOT_SUBJECTS that say so.
_MEASURE_WORDS = frozenset("cpu cpus gpu gpus ram io ttl oom rps qps tps mttr mttd mtbf".split())


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _role_lines(result: Extraction) -> dict[int, str]:
    """An incident's cause and resolution lines: a subject named there caused or mitigated it."""
    roles: dict[int, str] = {}
    for fact in result.observations:
        role = CAUSED_BY if fact.text.startswith(("Cause: ", "Trigger: ")) else (
            MITIGATED_BY if fact.text.startswith(("Resolution: ", "Mitigation: ")) else None)
        if role is not None:
            roles.update(dict.fromkeys(range(fact.line_start, fact.line_end + 1), role))
    return roles


def _relation(genre: str | None, in_title: bool, line: int, roles: dict[int, str]) -> str:
    """An incident `affected` what its title names, is `caused_by` what its cause names and
    `mitigated_by` what its resolution names; any other relation is `about`."""
    if genre != POSTMORTEM:
        return ABOUT
    if in_title:
        return AFFECTED
    return roles.get(line, ABOUT)


def _key_lines(result: Extraction, structure: Structure, genre: str | None) -> set[int]:
    """The lines the document's conclusions were read from (a decision log's table rows); an
    architecture page's Components / Services section; the first line of each option a
    proposal's Alternatives section or a record's Considered Options lists."""
    lines: set[int] = set()
    for fact in result.observations:
        if fact.kind in {"conclusion", "constraint", "action", "decision"}:
            lines.update(range(fact.line_start, fact.line_end + 1))
    rows = decision_rows(structure)  # a decision log kept as one table: each row states a decision
    if len(rows) >= 2:
        lines.update(rows)
    if genre == ARCHITECTURE:
        section = find_section(structure, "components", "services")
        if section is not None:
            lines.update(number for number, _ in with_subsections(structure, section))
    if genre in {PROPOSAL, DECISION_RECORD}:  # the options weighed and rejected: each item's first line
        section = find_section(structure, *_ALTERNATIVES_HEADINGS)
        if section is not None:
            lines.update(number for number, text in with_subsections(structure, section)
                         if _ITEM_RE.match(text))
    return lines


_ALTERNATIVES_HEADINGS = ("alternatives", "alternatives considered", "rationale and alternatives",
                          "considered alternatives", "options considered", "considered options", "options")
_ITEM_RE = re.compile(r"^\s{0,3}(?:[-*+]|\d+[.)])\s")


def _escalation_lines(structure: Structure, genre: str | None) -> frozenset[int]:
    """The lines of a runbook's Escalation section: the teams to call and the channels to
    reach them by (a vendor's case portal, a hotline). A diagram drawn at its end is code
    (structure's colon fences and fences), never read as prose."""
    section = find_section(structure, "escalation", "escalate") if genre == RUNBOOK else None
    return frozenset(number for number, _ in structure.lines(section)) if section is not None else frozenset()


def _record_context_lines(structure: Structure, genre: str | None) -> frozenset[int]:
    """The lines of a decision record's Context (Nygard's Context, MADR's Context and Problem
    Statement, Tyree and Akerman's Issue): the systems the problem is stated in are what the
    record decides about, a name written there once as much as one written in its Decision."""
    section = find_section(structure, *_RECORD_CONTEXT_HEADINGS) if genre == DECISION_RECORD else None
    return frozenset(number for number, _ in structure.lines(section)) if section is not None else frozenset()


# A name of operations ("a principle of TechOps", "DevOps", "FinOps"): a group or a practice a
# Context cites, not a system the record decides about.
_OPS_NAME_RE = re.compile(r"[a-z]Ops$")
_RECORD_CONTEXT_HEADINGS = ("context", "context and problem statement", "problem statement", "issue",
                            "background")


def _opening_lines(structure: Structure) -> set[int]:
    """The lines before the document's first section, and that section's, and its summary's
    (a Summary / Abstract / TL;DR section says what the document is about)."""
    opening = [*structure.sections[:2], find_section(structure, *_SUMMARY_HEADINGS)]
    return {number for section in opening if section is not None for number, _ in structure.lines(section)}


_SUMMARY_HEADINGS = ("summary", "abstract", "tl;dr", "tldr", "executive summary", "overview")


def _entity_type(phrase: str, genre: str | None) -> str:
    head = phrase.lower().split()[-1]
    if head in _TEAM_HEADS or phrase.lower().startswith("sig-") or names_a_department(phrase):
        return "team"
    if head in _SERVICE_HEADS:
        return "service"
    if head in _SYSTEM_HEADS:
        return "system"
    return "component" if genre in {RUNBOOK, ARCHITECTURE} else "technology"


def _relate(result: Extraction, subject: NameRef, relation_type: str, target: EntityFact,
            observation: ObservationFact) -> None:
    if target.ref.display.lower() == subject.display.lower():
        return
    result.entities.append(target)
    result.relations.append(RelationFact(subject, relation_type, target.ref))
    result.entity_observations.append((target.ref, observation))
