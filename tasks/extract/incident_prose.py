"""What an incident review or a procedure states in its story rather than under a part's
heading (pure).

Narrative learning reviews (Jeli style) and Atlassian write-ups tell the cause, the trigger, the
detection and the loss in sentences of "What happened", "Leadup", "Fault" or the opening
summary; procedures state their rollback inside a step. Each is found by its verbs:

- cause: a sentence that explains ("... because ...", "..., so Adyen saw ...", "caused by");
- trigger: the change that set it off ("a Terraform change that ... was merged", "a deploy",
  "The event was triggered by a ..."));
- detection: how it was noticed ("was detected by customer calls", "noticed by ...");
- lasting impact: what was lost for good ("... could not be recovered", "are lost for good");
- resolution: what the responders did that ended it ("We reverted the node type at 08:55",
  "the deployment was rolled back");
- a cause the writer names as such ("So the root cause, in one line: ...");
- a procedure's rollback: a step's "If ..., move the alias back".

Each is a sentence with the lines it spans; a timeline, a table, a list or code is not a story.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from tasks.extract.genre_prose import (
    SPOKEN_SUMMARY_LABELS,
    plain_label,
    prose_paragraphs,
    sentences,
    timeline_lines,
)
from tasks.extract.genres import is_field_line, names_itself
from tasks.extract.model import LineSpan
from tasks.extract.structure import Structure
from tasks.extract.text import plain_text, shorten
from tasks.markdown.tables import table_cells

# "because", "caused by", "due to"; in the story (not the summary, where "X, so Y" tells what the
# failure did) a consequence after a comma too (", so it was scheduled"), not a purpose ("so that").
_BECAUSE_RE = re.compile(
    r"\b(?:because|caused\s+by|due\s+to|as\s+a\s+result\s+of|stemmed\s+from)\b", re.I
)
_SO_RE = re.compile(r",\s+so\s+(?!that\b|far\b|here\b|\w+\s+(?:can|could)\b)", re.I)
_TRIGGER_RE = re.compile(
    r"\b(?:(?:merged|deployed|rolled\s+out|shipped|released|applied|pushed)\b[^.;]{0,80}\bchanges?\b"
    r"|changes?\b[^.;]{0,80}\b(?:merged|deployed|rolled\s+out|shipped|released|applied|pushed|introduced)\b"
    # Atlassian's summary sentence ("The event was triggered by a deploy of ... at 13:02")
    r"|\b(?:was|were)\s+(?:triggered|set\s+off)\s+by\b"
    r"|an?\s+(?:routine\s+|scheduled\s+|planned\s+)?(?:deploy|deployment|release|rollout|migration)\s+"
    r"(?:of\s+[^.;]{1,60}\s)?(?:restarted|replaced|changed|removed|moved|started))", re.I
)
_DETECTED_RE = re.compile(
    r"\b(?:was|were)\s+(?:first\s+)?(?:detected|noticed|spotted|reported|discovered|found)\s+by\b"
    # said of who noticed it, in a summary ("Finance Systems spotted the duplicates in the bank report")
    r"|\b(?:first\s+)?(?:noticed|spotted|detected|discovered)\s+(?:the|that|a|an|it)\b"
    # who was first ("The help desk noticed first, from patron emails, at 09:05")
    r"|\b(?:noticed|spotted|detected|saw)\s+(?:it\s+)?first\b", re.I
)
# A sentence that says what is no part of the cause ("SEP-0014 is unrelated to the cause but was
# discussed because ..."): its "because" explains something else.
_NOT_CAUSE_RE = re.compile(
    r"\b(?:unrelated\s+to|not\s+related\s+to|nothing\s+to\s+do\s+with|(?:is|was|were|are)\s+not\s+"
    r"(?:the\s+|a\s+)?(?:root\s+)?cause)\b", re.I
)
# A clause that names what ended it as such ("Mitigation was to stop the harvester ...;
# resolution was to undo the bulk edit", "The fix was to raise the limit"): the part and the clause.
_NAMED_REPAIR_RE = re.compile(
    r"(?:^|[;:]\s+)(?:the\s+|our\s+)?(?P<part>fix|resolution|mitigation|workaround|remedy)\s+(?:was|is)\s+"
    r"(?:to\s+)?(?=\S)", re.I
)
_LOST_RE = re.compile(
    r"\b(?:(?:are|is|were|was)\s+lost\b|lost\s+for\s+good|could\s+not\s+be\s+recovered"
    r"|cannot\s+be\s+recovered|unrecoverable|permanently\s+lost"
    r"|\b(?:we|they)\s+lost\s+(?:about\s+|roughly\s+|around\s+|nearly\s+|over\s+|some\s+)?\d)", re.I
)
# An instruction inside a step to undo it when a check fails ("If it falls below 97%, move the
# alias back", "If more than 5% fail, restore the old chain").
_ROLLBACK_RE = re.compile(
    r"^If\b[^.]{3,160}?,\s+(?:[a-z]+\s+){0,4}?(?:\w+\s+back\b|roll\s+back|revert|restore|undo|re-?enable"
    r"|switch\s+back)", re.I
)
# What ended it: a responder's repair ("we reverted / rolled it back / restored / paused ...") or
# the thing repaired ("the change was reverted").
_REPAIRED_RE = re.compile(
    r"\b(?:we|they|on-call|the\s+on-call\s+engineer|[A-Z][a-z]+)\s+(?:then\s+|quickly\s+|finally\s+)?"
    r"(?:reverted|rolled\s+(?:[\w`'-]+\s+){0,3}back|restored|restarted|re-?enabled|failed\s+over|paused"
    r"|redeployed|re-?deployed|re-?ran|cleared|drained|redrove|replayed|disabled|flushed|purged"
    # the repair told as how it ended ("We recovered by cutting the concurrency to 16")
    r"|recovered\s+by|(?:mitigated|fixed|resolved)\s+(?:it\s+|this\s+)?by)\b"
    r"|\b(?:was|were|has\s+been|have\s+been)\s+(?:then\s+)?(?:reverted|rolled\s+back|restored|re-?enabled)\b",
)
# A sentence that names the root cause as such ("So the root cause, as far as I can put it in one
# line: ...", "The root cause was ..."), not a heading or a question about it.
# "The trigger was a schedule import: ..." names it too.
_ROOT_CAUSE_RE = re.compile(
    r"\broot\s+cause\b[^.?]{0,60}?(?::|\bwas\b|\bis\b)\s+\S"
    # said at once: not "the trigger to be `on: x`"
    r"|\b(?:the|its|our)\s+(?:trigger|cause)(?::|\s+(?:was|is):?)\s+\S", re.I)
# How many sentences after it a named cause that opens its paragraph is read with: the paragraph
# goes on to explain it ("With duplicate flights demanding the same stands, the solver ...").
_CAUSE_FOLLOWING = 2
MAX_CAUSES = 4
MAX_REPAIRS = 2


# A sentence of the story: its text, its first and last lines, and its paragraph's first line.
Told = tuple[str, int, int, int]


def story_sentences(structure: Structure) -> list[Told]:
    """The sentences of the document's prose paragraphs, outside its timeline, tables, lists and
    code, each with its lines and its paragraph's first line (read once per document and shared
    by its readers: a new list each call, the sentences built once)."""
    return list(structure.remembered(_story_sentences))


def _story_sentences(structure: Structure) -> tuple[Told, ...]:
    found: list[Told] = []
    for start, parts in prose_paragraphs(structure):
        if is_field_line(parts[0][1]) and plain_label(parts[0][1]) not in SPOKEN_SUMMARY_LABELS:
            continue  # a header block ("Date: ... Summary: ...") is not the story; "In short: ..." is
        if names_itself(parts[0][1]):
            continue  # "This post-incident review is final; ... because so many of you were affected"
        found += [(sentence, first, last, start) for sentence, first, last in sentences(parts)
                  if not sentence.endswith("?")]  # "Why did this change get merged?" asks
    return tuple(found)


def explaining_sentences(
    story: list[Told], skipped: AbstractSet[int], summary: AbstractSet[int]
) -> list[LineSpan]:
    """The story's sentences (outside the paragraphs `skipped` opens) that explain why it
    happened, at most MAX_CAUSES; in the `summary` lines only a "because" / "caused by" one."""
    return _spans([told for told in story if told[3] not in skipped and not _NOT_CAUSE_RE.search(told[0])
                   and not _RUN_IN_PART_RE.match(told[0]) and not _ABOUT_THE_WRITE_UP_RE.search(told[0])
                   and (_BECAUSE_RE.search(told[0]) or _SO_RE.search(told[0])
                        and (told[1] not in summary or not _BROKE_FIRST_RE.match(told[0]))
                        or told[1] in summary and _tells_change(told[0]))
                   ])[:MAX_CAUSES]


# A sentence about the write-up itself ("This is about the rights check, so it is mine to write
# up", "I am writing this because ..."): why it was written, not why it broke.
_ABOUT_THE_WRITE_UP_RE = re.compile(
    r"\bwrite(?:-|\s)?(?:it\s+)?up\b|\bwriting\s+(?:this|it)\b"
    r"|\bthis\s+(?:post|note|e-?mail|message|write-?up)\b", re.I)
# A summary's "X, so Y" whose X is the outage itself ("The API was down for two hours, so users
# could not log in") tells what the failure did, not why: X opens with a failure of its own.
_BROKE_FIRST_RE = re.compile(
    r"^(?:for\s+[^,]{1,40},\s+)?[^,;]{1,80}?\b(?:was|were)\s+(?:down|unavailable|offline|degraded|broken|slow)\b",
    re.I)
# A summary sentence that dates the failure from a change ("... failed on every file after a
# dependency upgrade", "timed out after a model deployment") or says what the change made the
# system do ("A new model release made every scoring call take longer than ..."): its cause.
_AFTER_CHANGE_RE = re.compile(
    r"\bafter\s+(?:a|an|the|our|its|their|this)\s+(?:[\w.-]+\s+){0,3}?(?:upgrade|update|deploy(?:ment)?|release"
    r"|change|migration|roll-?out|rotation|patch|config(?:uration)?\s+change)\b", re.I)
def _tells_change(sentence: str) -> bool:
    return _AFTER_CHANGE_RE.search(sentence) is not None or _MADE_RE.search(sentence) is not None


_MADE_RE = re.compile(
    r"\bmade\s+(?:every|all|each|the|our|its|it|them|[A-Z][\w-]*)\b[^.;]{0,60}?\b(?:take|fail|return|mark|drop"
    r"|reject|skip|stop|time\s+out|retry|crash|hang|wait|lose|go)\b", re.I)


def trigger_sentence(story: list[Told], skipped: AbstractSet[int]) -> LineSpan | None:
    """The first story sentence that tells the change which set the incident off."""
    found = _spans([told for told in story if told[3] not in skipped and _TRIGGER_RE.search(told[0])])
    return found[0] if found else None


def detection_sentences(story: list[Told], summary: AbstractSet[int]) -> list[LineSpan]:
    """The sentences of the `summary` lines that tell how the incident was noticed ("... and was
    detected by customer calls to the Travel Centre")."""
    return _spans([told for told in story if told[1] in summary and _DETECTED_RE.search(told[0])])


def story_detection(story: list[Told], skipped: AbstractSet[int]) -> list[LineSpan]:
    """The first story sentence (outside the paragraphs `skipped` opens: lessons, actions) that
    tells how the incident was noticed, for a review whose summary does not."""
    return _spans([told for told in story if told[3] not in skipped and _DETECTED_RE.search(told[0])])[:1]


def repair_sentences(story: list[Told], skipped: AbstractSet[int]) -> list[LineSpan]:
    """The story sentences (outside the paragraphs `skipped` opens) that tell what ended the
    incident, at most MAX_REPAIRS."""
    found = [told for told in story if told[3] not in skipped and _REPAIRED_RE.search(told[0])]
    return _spans(found)[:MAX_REPAIRS]


def named_repair_sentences(story: list[Told], skipped: AbstractSet[int]) -> list[tuple[str, LineSpan]]:
    """Each clause of the story (outside the paragraphs `skipped` opens) that names what ended
    the incident as such, with its part: "Mitigation" for a mitigation, else "Resolution"."""
    found: list[tuple[str, LineSpan]] = []
    for text, first, last, start in story:
        if start in skipped or not any(word in text.lower() for word in _REPAIR_PARTS):
            continue  # a literal test first: most sentences name no part
        named = list(_NAMED_REPAIR_RE.finditer(text))
        for index, match in enumerate(named):
            end = named[index + 1].start() if index + 1 < len(named) else len(text)
            clause = text[match.start():end].lstrip(";: ").strip()
            part = "Mitigation" if match["part"].lower() == "mitigation" else "Resolution"
            found.append((part, (shorten(clause), first, last)))
    return found[:MAX_REPAIRS]


_REPAIR_PARTS = ("fix", "resolution", "mitigation", "workaround", "remedy")


# A timeline entry that tells how the incident was noticed ("Dispatch supervisor notices no new
# work orders", "Ana reports duplicate payments from the bank report; incident declared").
_NOTICED_RE = re.compile(
    r"\b(?:notices|noticed|spots|spotted|reports|reported|detects|detected|discovers|discovered"
    r"|flag(?:s|ged)\s+(?:the|a|an|it|that|up)"  # "Trading flags the forecast miss" (not "/flags requests")
    r"|alerts?\s+fired|alert\s+fires|pages|paged)\b", re.I)
# The entry from which the responders work on it: noticed, or declared an incident.
_DECLARED_RE = re.compile(r"\bincident\s+declared\b|\bdeclared\s+(?:an?\s+)?incident\b"
                          # a severity opened ("SEV1 opened", "P1 raised")
                          r"|\b(?:SEV\s*-?\d|P[0-4]|incident)\s+(?:opened|raised|declared)\b", re.I)
# A timeline entry that tells a repair, in the clipped tense a timeline writes ("Fix deployed:
# ...", "Tidewater 2.8.1 deployed with a pattern that ...", "Retry queue replayed", "Redrive of the
# dead-letter queue started", "Public Works IT issues a new client secret").
_TIMELINE_REPAIR_RE = re.compile(
    r"\b(?:fix\s+(?:deployed|released|shipped|applied|rolled\s+out)|hotfix|(?:re-?)?deployed\s+with"
    r"|replay(?:ed|s)?|redriv(?:e|en|es)|redrove|restart(?:ed|s)?|rolled\s+back|rolls\s+back|revert(?:ed|s)"
    r"|restor(?:ed|es)|re-?ran|(?:issues|issued)\s+a\s+new|rotated|failed\s+over)\b", re.I)
# ... or one that stops the harm before the fix: a containment ("Service scaled to one task;
# sending paused", "Feature flag disabled", "Writes halted"), the mitigation.
_CONTAINED_RE = re.compile(
    r"\b(?:paused|halted|throttled|scaled\s+(?:down|in|to\s+(?:one|zero|0|1)\b)|(?:switched|turned)\s+off"
    r"|disabled|suspended)\b", re.I)
# An entry led by the part it tells ("Mitigated: clock stepped manually", "Fixed: pool size raised").
_NAMED_ENTRY_RE = re.compile(
    r"^(?P<part>mitigated|mitigation|resolved|resolution|fixed|fix\s+applied)\s*:\s*(?=\S)", re.I)
# The time an entry opens with ("13:50 — ", "Tue 9 Dec 08:40 | ").
_ENTRY_TIME_RE = re.compile(
    r"^(?:\*\*)?[\w ,]{0,16}?\d{1,2}[:.]\d{2}(?:\s*[A-Z]{2,4})?(?:\*\*)?(?:\s*[—–-]+)?\s+")
MAX_TIMELINE_REPAIRS = 4


def timeline_entries(structure: Structure) -> list[tuple[int, str]]:
    """Each entry of the timeline sections, its time left out: a table row's last cell (not its
    header) or a list item's text."""
    lines = timeline_lines(structure)
    if not lines:
        return []
    entries: list[tuple[int, str]] = []
    header_seen = False
    for number, line in structure.visible:
        if number not in lines:
            continue
        text = line.strip()
        if text.startswith("|"):
            cells = [cell for cell in table_cells(text) if cell]
            if not header_seen or not cells or set(cells[0]) <= set(":- "):
                header_seen = True  # the header row, then its separator
                continue
            entries.append((number, plain_text(cells[-1])))
        elif (marker := _ITEM_MARK_RE.match(text)) is not None:
            entries.append((number, plain_text(_ENTRY_TIME_RE.sub("", text[marker.end():], count=1))))
    return entries


_ITEM_MARK_RE = re.compile(r"^(?:[-*+]|\d{1,3}[.)])\s+")


# A response entry that tells who found what was wrong ("Ana identified connection exhaustion on
# the primary"): the diagnosis, between noticing and repairing.
_DIAGNOSED_RE = re.compile(r"\b(?:identifie[sd]|diagnos(?:ed|es)|pinpoint(?:ed|s)"
                           r"|traced?\s+(?:it|the\s+\w+)\s+to"
                           r"|found\s+(?:that|the\s+cause))\b", re.I)
# Who raised it ("The help desk raised a P1 from branch calls"): how it was noticed.
_RAISED_RE = re.compile(r"\braised\s+(?:a|an)\s+(?:P[0-4]|SEV-?\d|sev-?\d|incident|ticket|alarm|page)\b")


def response_part(text: str) -> str | None:
    """The part a response entry tells other than the repair: "Detection" for who noticed or
    raised it, "Diagnosis" for who found what was wrong; None for a repair or anything else."""
    if _RAISED_RE.search(text) or _NOTICED_RE.search(text) or _DETECTED_RE.search(text):
        return "Detection"
    return "Diagnosis" if _DIAGNOSED_RE.search(text) else None


def timeline_detection(entries: list[tuple[int, str]]) -> LineSpan | None:
    """The first timeline entry that tells how the incident was noticed."""
    return next(((shorten(text), n, n) for n, text in entries if _NOTICED_RE.search(text)), None)


def timeline_repairs(entries: list[tuple[int, str]]) -> list[tuple[str, LineSpan]]:
    """The timeline entries after it was noticed that tell a repair (a change deployed before it
    was noticed is what set it off, not what ended it), at most MAX_TIMELINE_REPAIRS, each with
    its part: "Mitigation" for one that contains the harm ("sending paused"), else "Resolution"."""
    noticed = next((i for i, (_, text) in enumerate(entries)
                    if _NOTICED_RE.search(text) or _DECLARED_RE.search(text)), None)
    if noticed is None:
        return []
    found: list[tuple[str, LineSpan]] = []
    for n, text in entries[noticed + 1:]:
        if (named := _NAMED_ENTRY_RE.match(text)) is not None:  # "Mitigated: clock stepped by hand"
            part = "Mitigation" if named["part"].lower().startswith("mitigat") else "Resolution"
            found.append((part, (shorten(text[named.end():]), n, n)))
        elif _TIMELINE_REPAIR_RE.search(text):
            found.append(("Resolution", (shorten(text), n, n)))
        elif _CONTAINED_RE.search(text):
            found.append(("Mitigation", (shorten(text), n, n)))
    return found[:MAX_TIMELINE_REPAIRS]


def tells_cause(sentence: str) -> bool:
    """Does the sentence explain why ("... because ...", "caused by", "due to")?"""
    return _BECAUSE_RE.search(sentence) is not None


def tells_repair(sentence: str) -> bool:
    """Does the sentence tell what ended an incident ("Fixed on Friday by raising the limit",
    "Ruth cleared the cache by hand")?"""
    return bool(_REPAIRED_RE.search(sentence) or _FIXED_BY_RE.match(sentence))


# A short report's repair, without its subject ("Fixed on Friday by raising the limit to 256 kB").
_FIXED_BY_RE = re.compile(r"^(?:fixed|resolved|mitigated|worked\s+around|repaired)\b[^.]{0,60}?\bby\b", re.I)


def named_cause_sentences(story: list[Told], skipped: AbstractSet[int]) -> list[LineSpan]:
    """The story sentence that names the root cause as such; one that opens its paragraph with
    the sentences after it in that paragraph (at most _CAUSE_FOLLOWING)."""
    for index, (text, first, last, start) in enumerate(story):
        if start in skipped or not _ROOT_CAUSE_RE.search(text):
            continue
        if first == start:
            following = [told for told in story[index + 1 : index + 1 + _CAUSE_FOLLOWING] if told[3] == start]
            text = " ".join([text, *(told[0] for told in following)])
            last = following[-1][2] if following else last
        return [(shorten(text), first, last)]
    return []


def loss_sentences(story: list[Told]) -> list[LineSpan]:
    """The story sentences that tell what was lost for good."""
    return _spans([told for told in story if _LOST_RE.search(told[0])])[:2]


def _spans(found: list[Told]) -> list[LineSpan]:
    return [(shorten(text), first, last) for text, first, last, _ in found]


def rollback_sentences(steps: Iterable[LineSpan]) -> list[LineSpan]:
    """The sentences of a procedure's steps that say how to undo it when a check fails."""
    found: list[LineSpan] = []
    for text, start, end in steps:
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text):
            if _ROLLBACK_RE.match(sentence):
                found.append((shorten(sentence), start, end))
    return found


# How long it lasted and what it did ("for a little under two hours ... every bus looked as if
# it had parked"): a summary's impact sentence.
_DURATION_RE = re.compile(
    r"\bfor\s+(?:about\s+|around\s+|nearly\s+|almost\s+|over\s+|roughly\s+|more\s+than\s+|less\s+than\s+"
    r"|a\s+little\s+(?:under|over)\s+|just\s+(?:under|over)\s+)?(?:\d+|an?|one|two|three|four|five|six"
    r"|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\s+(?:\w+\s+)?"
    r"(?:minutes?|hours?|days?)\b", re.I
)


def duration_sentences(story: list[Told], summary: AbstractSet[int]) -> list[LineSpan]:
    """The first sentence of the `summary` lines that tells how long the incident lasted and
    what it did."""
    return _spans([told for told in story if told[1] in summary and _DURATION_RE.search(told[0])])[:1]


# A runbook's opening sentence that says when its alert fires ("The alert fires when ...").
_FIRES_RE = re.compile(
    r"\b(?:fires|triggers|is\s+triggered|is\s+raised|goes\s+off|pages|is\s+firing)\s+(?:\w+\s+)?(?:when|if|once)\b",
    re.I,
)


def alert_and_meaning(parts: list[tuple[int, str]]) -> tuple[LineSpan | None, LineSpan | None]:
    """From a runbook's opening paragraph (its lines), the sentence that says when the alert
    fires and the sentences after it (what it means)."""
    found = sentences(parts)
    index = next((i for i, (text, _, _) in enumerate(found) if _FIRES_RE.search(text)), None)
    if index is None:
        return None, None
    alert = found[index]
    rest = found[index + 1:]
    meaning = (shorten(" ".join(text for text, _, _ in rest)), rest[0][1], rest[-1][2]) if rest else None
    return (shorten(alert[0]), alert[1], alert[2]), meaning


# What the incident did to those it hit, as a summary tells it: a count or "every / nobody" with a
# verb of loss ("received 17 reservations they could not honour", "23 wafers ... were scrapped",
# "stopped loading new wafer sort results", "nobody saw it until the data caught up").
_SUMMARY_LOSS_RE = re.compile(
    r"\b(?:stopped|could\s+not|couldn't|did\s+not|didn't|unable|failed|scrapped|lost|dropp(?:ed|ing)"
    r"|missed|offline|delayed|waited|not\s+honou?red|nobody\s+(?:saw|noticed)|no\s+one\s+(?:saw|noticed)"
    # what users got instead of an answer ("returned errors or timed out for most requests")
    r"|timed\s+out|returned\s+(?:errors?|5\d\d)s?)\b",
    re.I)
_SUMMARY_COUNT_RE = re.compile(r"\d|\b(?:every|all|nobody|no\s+one)\b", re.I)
MAX_SUMMARY_IMPACTS = 3


def summary_impacts(story: list[Told], summary: AbstractSet[int]) -> list[LineSpan]:
    """The sentences of the `summary` lines that tell what was lost or who could not do what,
    with a count ("every bus", "1,140 guests"): the summary's impact, each a sentence."""
    return _spans([told for told in story if told[1] in summary and _SUMMARY_LOSS_RE.search(told[0])
                   and _SUMMARY_COUNT_RE.search(told[0])])[:MAX_SUMMARY_IMPACTS]


# A sentence of a summary led by another part's name ("Cause: a release set the T7 timer to 1 s",
# "Fix: ..."), as a TL;DR packs the parts into one paragraph; the label stripped.
_RUN_IN_PART_RE = re.compile(r"^(?P<part>(?:root\s+)?causes?|trigger|impact|fix|fixed|resolution|mitigation)"
                             r"\s*:\s+(?=\S)", re.I)
_RUN_IN_PARTS = {"cause": "Cause", "causes": "Cause", "root cause": "Cause", "root causes": "Cause",
                 "trigger": "Trigger", "impact": "Impact", "fix": "Resolution", "fixed": "Resolution",
                 "resolution": "Resolution", "mitigation": "Mitigation"}


def summary_parts(story: list[Told], summary: AbstractSet[int]) -> list[tuple[str, LineSpan]]:
    """The sentences of the `summary` lines that state another part: led by its name ("Cause:
    ..."), or telling the repair ("Fixed by rolling Tessera back"), each with its part."""
    found: list[tuple[str, LineSpan]] = []
    for text, first, last, _ in story:
        if first not in summary:
            continue
        match = _RUN_IN_PART_RE.match(text)
        if match is not None:
            part = _RUN_IN_PARTS[" ".join(match["part"].lower().split())]
            found.append((part, (shorten(text[match.end():]), first, last)))
        elif tells_repair(text):
            found.append(("Resolution", (shorten(text), first, last)))
    return found
