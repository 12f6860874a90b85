"""The team's own systems as a page writes them in code spans or in lower case (issue 23 item
4): a service
(`holdings-sync`, or one word no dictionary holds, `labroute`, in code on three lines and acting in
a sentence), a database table or a topic (`item_holding`, `holdings.changed.v1`), a
cluster or a node group (`eks-apps-prod`, `memory-2x`), an alert (`HoldingsSyncStale`).

A code span is such a name by its shape and where the page writes it, never by a list of
names: a lower-case name joined by '-', '_' or '.', written in code on two lines or more (the
title counts), one of them a line that says what kind of thing it is ("the `item_holding`
table", "the newest row in `item_holding`", "on the `holdings.changed.v1` topic", "node group
`memory-2x`"), or once on such a line when it names a system's kind (a topic, queue,
bucket, table, job or cluster: "the `hl-claims-docs` S3 bucket", "a new topic,
`fraud.scores.v1`"; not a metric or a row); a hyphenated one also
where a table row, a header field (`**Service:** `holdings-sync``) or the title writes it,
since a value in a query (`"slow-resource"`) or a setting (`max_connections`,
`spring.datasource.url`) is shaped the same; a CamelCase name of three words or more, twice,
where a line says it fires or alerts (once is enough: "The `QuoteLatencyP95High` alert
fired at 07:58"). Not a command or a path (a span with a blank, '/' or
'='), a version or an address (a part of digits only: `python3.11`, `10.0.0.1`), a host
(`koha.example.org`), a file (`values.yaml`, `assign-reviewers.js`), a flag or setting in
capitals (`SYNC_PAUSED`).

A name the team coined is also written bare in lower case, even where it opens a sentence
("... twice. shelfcheck, the kiosk back end, retried ...", "tapsettle reconnects on its own"),
which an English word is not: a lower-case word no dictionary holds, written on three lines or
more, that opens a sentence of running prose at least once (not a list item or a table cell,
where fragments open in lower case; not after "e.g."), and is never written capitalized where
a sentence opens ("Replay the events"). Pure."""

from __future__ import annotations

import re

from tasks.extract.ordinary_words import ordinary_word
from tasks.extract.subject_terms import Seen, is_file_name, term_key
from tasks.extract.text import STOPWORDS, word_spans
from tasks.markdown.code_spans import code_spans

_JOINED_RE = re.compile(r"^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+$")
_COINED_WORD_RE = re.compile(r"^[a-z]{4,}$")
# A verb after a name: an auxiliary, a past tense, or a present tense before what it acts on.
_VERB = (r"(?:is|was|has|had|does|did|will|can|could|must|should|may|would|never|only|then|also|[a-z]{2,}ed"
         r"|[a-z]{2,}[^s\W]s[ \t]{1,3}(?:the|a|an|every|each|its|their|all|no|any|some|one|to|\d))\b")
# An alert's name: CamelCase words, an acronym among them ("SlurmctldRPCLatencyHigh", "LustreOSTFull").
_ALERT_PART_RE = re.compile(r"[A-Z][a-z0-9]+|[A-Z]{2,}(?![a-z])|[0-9]+[a-z]*")
# The condition an alert's name ends with: two words are enough then ("SlurmctldDown", "NodeDown").
_CONDITIONS = frozenset("""down up high low full stale lag slow failing failed failure missing
    unreachable unavailable degraded stuck silent expiring expired saturated errors""".split())
_MAX_ALERT_NAME = 80
_ALERTING_RE = re.compile(r"\b(?:alerts?|alerting|fires|fired|firing|paged|pages)\b", re.I)
# A header field line ("**Service:** `x`", "Service: `x` · Owner: ...").
_FIELD_RE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?[A-Z][\w -]{0,30}:(?:\*\*|__)?\s")
# The kind of thing a line says a code span is ("the `item_holding` table", "node group `memory-2x`").
_KINDS = (r"(?:(?:hyper)?tables?|topics?|subjects?|exchanges?|queues?|streams?|metrics?|counters?|gauges?"
          r"|buckets?|indexes|index"
          r"|views?|jobs?|cronjobs?|services?|clusters?|node\s+groups?|databases?|workers?|daemons?|modules?"
          r"|alerts?|dags?|consumers?|producers?|channels?|operations?|rows?\s+(?:in|to|of|on|from))")
# A product's name between a code span and its kind ("the `hl-claims-docs` S3 bucket", "the `x`
# SQS queue", "the `x` Kafka topic"): one capitalized word or acronym.
_PRODUCT = r"(?:(?-i:[A-Z][A-Za-z0-9]*)[ \t]{1,3})?"


def _span_of_kind(kinds: str) -> re.Pattern[str]:
    """A code span's content, where the line says it is one of `kinds` ("the `x` table",
    "table `x`", "a new topic, `x`", "the `x` SQS queue")."""
    return re.compile(rf"\b{kinds},?[ \t]{{1,3}}`([^`\n]+)`|`([^`\n]+)`[ \t]{{1,3}}{_PRODUCT}{kinds}\b", re.I)


_KIND_SPAN_RE = _span_of_kind(_KINDS)
# The kinds of a system, named once (not a metric, a row or a view: what one reads off a system).
_SYSTEM_SPAN_RE = _span_of_kind(
    r"(?:(?:hyper)?tables?|topics?|subjects?|exchanges?|queues?|streams?|buckets?|indexes|index"
    r"|jobs?|cronjobs?"
    r"|services?|clusters?|node\s+groups?|databases?|workers?|daemons?|dags?|consumers?|producers?"
    # an AsyncAPI document's channel and the operation on it ("### PUB `vessel.visit.v1` Operation")
    r"|channels?|operations?)")
# A span a sentence publishes or consumes: a topic, a subject or a queue, by what is done with it
# ("Kestrel publishes `kestrel.rates.published`", "publishes the answer to `npx.events.v1`",
# "Tidewater consumes `lintel.inventory.changed`", "subscribes to `x`"): a few words may stand
# between the verb and "to", "on" or "from" before the span.
_MESSAGING_BEFORE_RE = re.compile(
    r"\b(?:publish(?:es|ed|ing)?|emit(?:s|ted|ting)?|consum(?:es|ed|ing|e)|subscrib(?:es|ed|ing|e)"
    r"|produc(?:es|ed|ing|e))\b(?:(?:[ \t]{1,3}[\w-]{1,20}){0,4}?[ \t]{1,3}(?:to|on|onto|from))?"
    r"(?:[ \t]{1,3}(?:the|an?|its|their))?[ \t]{1,3}$", re.I)
_MESSAGING_REACH = 140  # characters before a span the verb and its words can take
_TOPIC_SPAN_RE = _span_of_kind(r"(?:topics?|subjects?|exchanges?|queues?|streams?)")
# What a line says a code span is when it names a setting, not a system ("an `expires-on` tag",
# "the `enable-api-fields` flag", "label `team`").
_SETTING_SPAN_RE = _span_of_kind(r"(?:tags?|labels?|flags?|fields?|headers?|annotations?|settings?"
                                 r"|parameters?|options?|attributes?|columns?|propert(?:y|ies)|variables?)")
# A host's or a file's last part (`koha.example.org`, `assign-reviewers.js`, `values.yaml`).
_HOST_AND_FILE_ENDS = frozenset("""com org net io dev example internal local localhost co uk eu de gov edu
    app js ts mjs py go rb rs java sh yaml yml json toml md txt sql conf cfg ini xml html css lock log tf
    env""".split())


def code_names(code_terms: dict[str, list[tuple[int, str]]], lines: dict[int, str],
               title: tuple[int, str]) -> Seen:
    """The code spans that name one of the team's systems, each with the lines it is written on
    (the title's line too when the title names it: "Playbook: HoldingsSyncStale")."""
    seen: Seen = {}
    for term, hits in code_terms.items():
        named = term in title[1] and bool(word_spans(title[1], term, not_before=".-"))
        numbers = sorted({number for number, _ in hits} | ({title[0]} if named else set()))
        if len(numbers) < 2 and not _says_its_kind(term, lines.get(numbers[0], "")):
            continue
        if not _names_a_system(term, numbers, lines, title):
            continue
        seen.setdefault(term_key(term), []).extend((number, term) for number in numbers)
    return seen


def _names_a_system(term: str, numbers: list[int], lines: dict[int, str], title: tuple[int, str]) -> bool:
    written = [title[1] if number == title[0] else lines.get(number, "") for number in numbers]
    if alert_name(term):
        return any(_ALERTING_RE.search(line) for line in written)
    if _COINED_WORD_RE.match(term):  # `labroute`: a word no dictionary holds, in code on three lines
        return (len(numbers) >= 3 and not ordinary_word(term) and not _runs_as_command(term, lines)
                and any(_acts(term, line) for line in written))
    if not _JOINED_RE.match(term):
        return False
    parts = re.split(r"[-_.]", term)
    if any(part.isdigit() for part in parts) or "." in term and parts[-1] in _HOST_AND_FILE_ENDS:
        return False
    if "." in term and any(_published(term, line) for line in written):
        return True  # a dotted name a sentence publishes or consumes, or a topic's: no setting's key
    if is_file_name(term):  # (`results.events` ends as a file's extension might: a topic first)
        return False
    if any(term in match.groups() for line in written for match in _KIND_SPAN_RE.finditer(line)):
        return True
    if any(term in match.groups() for line in written for match in _SETTING_SPAN_RE.finditer(line)):
        return False  # "with an `expires-on` tag": a setting's name, written in a field as a system's is
    if "-" not in term:  # `max_connections`, `spring.datasource.url`: a setting, unless said otherwise
        return False
    return title[0] in numbers or any(line.lstrip().startswith("|") or _FIELD_RE.match(line)
                                      for line in written)


def alert_name(name: str) -> bool:
    """Is `name` written as an alert is named: CamelCase words (an acronym may be one, not the
    first), three or more, or two that end with a condition ("MllpListenerDown",
    "SlurmctldRPCLatencyHigh", "LumenOrigin404RateHigh", "SlurmctldDown"; not "PipelineRun")?"""
    if not (2 < len(name) <= _MAX_ALERT_NAME) or not name[0].isupper() or not name[1:2].islower():
        return False
    parts = _ALERT_PART_RE.findall(name)
    if "".join(parts) != name:
        return False
    return len(parts) >= 3 or (len(parts) == 2 and parts[-1].lower() in _CONDITIONS)


def alert_headings(headings: list[tuple[int, str]]) -> Seen:
    """The alerts a runbook's sections are named after, a CamelCase name of three words or
    more alone in a heading ("## MllpListenerDown"): each section is that alert's entry."""
    seen: Seen = {}
    for number, text in headings:
        name = text.strip().strip("`")
        if alert_name(name):
            seen.setdefault(term_key(name), []).append((number, name))
    return seen


def _says_its_kind(term: str, line: str) -> bool:
    """Is a code span written once on a line that says what kind of system it is ("the
    `hl-claims-docs` S3 bucket", "the `QuoteLatencyP95High` alert fired")? Named once, it is
    named as a system, where a value in a query or a setting is not."""
    if alert_name(term):
        return _ALERTING_RE.search(line) is not None
    return bool(_JOINED_RE.match(term)) and (
        any(term in match.groups() for match in _SYSTEM_SPAN_RE.finditer(line))
        or "." in term and _published(term, line))


def _published(term: str, line: str) -> bool:
    """Does a sentence of `line` publish, emit, consume or subscribe to the code span `term`, or
    call it a topic, a subject, an exchange, a queue or a stream?"""
    if f"`{term}`" not in line:
        return False
    if any(span.content == term
           and _MESSAGING_BEFORE_RE.search(line[max(0, span.start - _MESSAGING_REACH):span.start])
           for span in code_spans(line)):
        return True
    return any(term in match.groups() for match in _TOPIC_SPAN_RE.finditer(line))


def _acts(term: str, line: str) -> bool:
    """Does a sentence make the code span its agent ("`labroute` reads every result", "`labroute`
    processed the messages", "`labroute` is split"), as a system is written, and not a setting, a
    keyword or a label (`exec` mode, the `expr` patterns, `namespace` and `job`)?"""
    return _after_span(f"`{term}`", _VERB_AFTER_RE, line)


def _runs_as_command(term: str, lines: dict[int, str]) -> bool:
    """Is `term` a command the page runs (`kubectl -n x get pods`), a tool and not the team's
    system? Read from the code spans that open with it and go on."""
    span = f"`{term}"  # made once, not once a line
    return any(span in line and _after_span(span, _ARGUMENT_AFTER_RE, line) for line in lines.values())


def _after_span(span: str, after: re.Pattern[str], line: str) -> bool:
    """Does `after` match right after one of the places `line` writes `span`? The same as a
    search for the span's escaped text then `after`'s pattern, without a pattern compiled for
    each term (the verb's alternation took a millisecond to compile, once a term)."""
    at = line.find(span)
    while at >= 0:
        if after.match(line, at + len(span)):
            return True
        at = line.find(span, at + 1)
    return False


_VERB_AFTER_RE = re.compile(rf"[ \t]{{1,3}}{_VERB}")
_ARGUMENT_AFTER_RE = re.compile(r"[ \t]+[^`\n]")  # a command's arguments after its name


def lower_case_names(prose: list[tuple[int, str]]) -> tuple[Seen, Seen]:
    """The coined names written bare in lower case that open a sentence (see the module's
    docstring), each with the lines it is written on; and every lower-case word no dictionary
    holds, written on two lines or more and never capitalized where a sentence opens (a name
    the memory's registry may already hold: "real-time capping in tapsettle went live").
    `prose` is plain text without code."""
    lines = dict(prose)
    openers: set[str] = set()
    for number, text in prose:
        if text.startswith("|"):
            continue
        previous = lines.get(number - 1)
        starts = previous is None or previous.rstrip()[-1:] in ".!?"
        first = _PARAGRAPH_OPENER_RE.match(text) if starts else None
        # a sentence's stop then a blank inside the line (one line in nine): searched there only
        inside = ". " in text or "? " in text or "! " in text or "\t" in text
        openers.update(m.group(1) for m in [first, *(_SENTENCE_OPENER_RE.finditer(text) if inside else ())]
                       if m and not _ABBREVIATION_RE.search(text, 0, m.start(1)))
    written: dict[str, list[int]] = {}  # each lower-case word -> the lines it is written on (one pass)
    for number, text in prose:
        for word in dict.fromkeys(_LOWER_WORD_RE.findall(text)):
            written.setdefault(word, []).append(number)
    whole = "\n".join(text for _, text in prose)
    # "Replay the events": a capitalized word opening a line or a sentence. (The two searched
    # apart: no opening of one kind lies inside the other's, and the pattern of the lines'
    # openings, tried at every character as one, is matched at each line's start.)
    capitalized = {m.group(1).lower() for m in _CAPITAL_OPENER_RE.finditer(whole)}
    capitalized.update(m.group(0).lower() for line in whole.split("\n")
                       if (m := _CAPITAL_WORD_RE.match(line)))
    names: Seen = {}
    words: Seen = {}
    for word, numbers in sorted(written.items()):
        if len(numbers) < 2 or word in capitalized or word in STOPWORDS or ordinary_word(word):
            continue
        seen = names if word in openers and len(numbers) >= 3 else words
        seen[term_key(word)] = [(number, word) for number in numbers]
    return names, words


_WORD = r"([a-z][a-z0-9]{3,})(?![\w/@-]|\.\w)"
_PARAGRAPH_OPENER_RE = re.compile(_WORD)
_LOWER_WORD_RE = re.compile(r"(?<![\w/.@-])" + _WORD)
_CAPITAL_OPENER_RE = re.compile(r"[.!?][ \t]{1,3}([A-Z][a-z0-9]{3,})\b")
_CAPITAL_WORD_RE = re.compile(r"[A-Z][a-z0-9]{3,}\b")
_SENTENCE_OPENER_RE = re.compile(r"[.!?][ \t]{1,3}" + _WORD)
_ABBREVIATION_RE = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|viz)\.[ \t]{1,3}$", re.I)
