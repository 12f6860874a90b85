"""Terms that may name what a document is about, beside its recurring capitalized phrases
(tasks/extract/candidates.py): where each is written (line numbers). Pure.

- system phrases: a noun phrase whose head says it is a system, a service or a team
  ("the login service", "the session store", "ingest queue", "writer database", "Payments
  API", "fulfilment team"), read in any case, never after a determiner-like modifier ("a new
  service", "the same cluster");
- code identifiers: terms written in code spans that look like a name (`PipelineTask`, `etcd`,
  `orders-consumer`), not flags, paths, values or keywords of a language;
- listed components: an architecture page's components, as its Components / Services section
  lists them (link texts, bold names, subsection headings);
- the title's subject: the title without the genre's words ("Postmortem: Login service outage"
  -> "Login service");
- link texts of links to other pages of the same site ("[queriers](./querier.md)");
- capitalized words counted where they open sentences too, when prose never writes them in
  lower case ("Kubernetes continued ..."); an architecture page's "-er" / "-or" components
  ("the dispatcher");
- a name written once inside a sentence (not an acronym, not an author cited); what minutes
  are the meeting of, from their titles.

A phrase that opens with a preposition, a describing adjective or participle, or a verb
("without scheduler", "older SDK", "consider tracking SDK") is a description, not a name.

Plural and singular spellings are one term (the singular kept: "build workers" -> "build
worker"), so counts add up.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import accumulate

from tasks.extract.ordinary_words import ordinary_word, ordinary_words
from tasks.extract.structure import Structure, section_key, with_subsections
from tasks.extract.text import STOPWORDS, plain_text, word_places, word_spans
from tasks.markdown.code_spans import replace_code_spans

Seen = dict[str, list[tuple[int, str]]]  # term key -> (line number, the term as written)

SYSTEM_HEADS = frozenset(
    """service services store stores queue queues database databases db cache caches cluster
    clusters job jobs manager managers table tables index gateway gateways pipeline pipelines
    deployment deployments worker workers controller controllers operator operators console
    consoles node nodes server servers api apis storage bucket buckets registry engine engines
    proxy proxies daemon daemons team teams collector collectors generator generators indexer
    indexers scheduler schedulers dispatcher dispatchers broker brokers sdk sdks extension
    platform container containers feed feeds log logs client clients runner runners tool tools cdn
    portal portals connector connectors allocator allocators desk desks""".split()
)
_TEAM_HEADS = frozenset({"team", "teams", "desk", "desks"})  # "the porting desk": the people who answer it
# Modifiers that make a phrase a description, not a name ("a new service", "each node").
_NOT_MODIFIERS = STOPWORDS | frozenset(
    """new old same single multiple entire whole other each every all any many several few
    first second third last next main existing given specific different separate additional
    extra full default custom internal external given affected underlying relevant following
    above below certain various own both either neither another previous current available
    specified particular corresponding respective individual remote optional per today tomorrow
    yesterday general two three four five six seven eight nine ten twelve dozen""".split()
)
# Prepositions and describing adjectives: "without scheduler", "older SDK", "large cluster".
_PREPOSITIONS = frozenset(
    """without within across between behind beyond against toward towards around during among
    inside outside onto upon like unlike about versus vs near throughout despite except""".split()
)
_ADJECTIVES = frozenset(
    """large small big huge tiny enough old older oldest newer newest latest earlier later deep
    deeper faster slower cheaper costlier bigger smaller larger higher lower longer shorter better
    worse best worst
    idempotent stateless stateful concurrent persistent transient consistent redundant resilient
    distributed deterministic
    simple complex healthy unhealthy broken stable unstable temporary permanent empty good bad
    real actual possible likely potential necessary important critical similar typical common
    usual normal proper correct wrong invalid valid known unknown busy slow fast high low whole
    entire such much stuck concurrent idle hung""".split()
)
# Participles that name a kind of system ("shared cache", "managed database"), not a state.
# A state one thing of many is in ("a third spare gateway", "a corrupt folder index"): the
# phrase says which state, not which system, and no shorter phrase of it names one.
_STATE_WORDS = frozenset({"spare", "corrupt", "corrupted", "damaged", "faulty"})
_NAMING_PARTICIPLES = frozenset(
    """shared managed distributed hosted embedded federated replicated centralized centralised
    sharded partitioned networked tiered""".split()
)
_DESCRIBING_PREFIXES = ("multi-", "single-", "non-", "cross-", "self-", "well-", "newly-", "long-",
                        "short-", "high-", "low-", "near-", "semi-", "fully-", "in-", "on-", "out-", "off-")
# Endings of describing adjectives ("gradual", "expensive", "scalable", "careless"), and the
# words with those endings that name a kind of system or a thing ("local cache", "archive").
_ADJECTIVE_RE = re.compile(r"^[a-z]{3,}(?:al|ive|ous|ful|less|able|ible)$")
_NAMING_ADJECTIVES = frozenset(
    """local central portal journal terminal signal canal metal capital hospital rental archive
    drive hive table cable label""".split())
# A code span that names something: an identifier, a hyphenated or CamelCase name.
_IDENTIFIER_RE = re.compile(r"^[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+)*(?:-[a-z0-9]+)*$")
_NOT_IDENTIFIERS = frozenset(
    """true false null none nil yes no up down default on off if else for func return error
    string int bool list map get set put post delete id name type value key spec status kind
    metadata data params param args name test main string""".split()
)
# Code that names an error type or a function, not a component: `TypeError`, `isDisabled`.
_NOT_NAME_CODE_RE = re.compile(
    r"^(?:[A-Z]\w*(?:Error|Exception)|(?:is|has|get|set|should|can|on|to|with|do)[A-Z]\w*)$")
_LOCAL_LINK_RE = re.compile(r"\[([^\]\[]{2,40})\]\((?![a-z]+:|//|#)[^)\s]*\.md(?:#[^)\s]*)?\)")
_TOC_RE = re.compile(r"^\s*[-*+]\s+\[[^\]]+\]\(#[^)]*\)\s*$")
_LOWER_WORDS_RE = re.compile(r"[a-z]+")
_TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*|[^\sA-Za-z]")
# (These two open with their letter and check the boundary before it behind it: the engine
# skips to the capitals, or the t's, instead of trying the pattern at every character.)
_CAPITALIZED_RE = re.compile(r"[A-Z](?<!\w[A-Z])[A-Za-z]*\b")
_LOWER_RE = re.compile(r"[a-z]+")
_AGENT_RE = re.compile(r"[Tt](?<!\w[Tt])he\s+([a-z]{4,}(?:er|or)s?)\b")
_PLURAL_AGENT_RE = re.compile(r"(?<![\w-])([a-z]{4,}(?:er|or)s)(?![\w-])")
NOT_AGENTS = frozenset(
    """user users number other order error former latter header customer parameter identifier
    character buffer filter matter layer member folder owner provider consumer container trigger
    operator after under over either neither whether together rather further however another
    master letter paper answer center centre cluster server color colour floor door factor
    author editor reader writer caller behavior behaviour major minor vendor sender receiver
    manner meter monitor marker pointer counter developer engineer maintainer reviewer approver
    contributor partner subscriber listener viewer tenant others orders numbers letters papers
    answers programmer sponsor speaker organizer coordinator facilitator leader manager creator
    requester interviewer customer supporter inventor ancestor predecessor successor error
    wrapper attacker hacker intruder"""
    # people's posts and trades: "an inspector keeps their own districts"
    """ inspector supervisor officer administrator auditor examiner assessor surveyor adjuster
    investigator instructor teacher lecturer researcher councillor counsellor
    solicitor doctor volunteer farmer"""
    # the parties of a trade or a journey: "the carrier announced maintenance", "the seller can't
    # find it" (a company or a person the system serves, not a component of it)
    """ carrier seller shipper buyer retailer supplier wholesaler purchaser lender borrower insurer
    passenger traveller traveler rider courier"""
    # comparatives: "the earlier ones", "the larger cluster"
    """ earlier easier heavier busier happier larger faster slower bigger longer shorter higher
    greater simpler smaller stronger deeper cheaper closer louder quieter tighter looser harder
    softer thinner thicker lighter darker brighter cleaner clearer richer poorer""".split()
)
_LISTED_RE = re.compile(r"^\s*[-*+]\s+(?:The\s+)?(?:\[([^\]]{2,40})\]|\*\*([^*]{2,40})\*\*)")
_PAGE_WORDS = frozenset({"document", "documents", "doc", "docs", "page", "pages", "here", "this",
                         "guide", "documentation", "section", "above", "below", "proposal",
                         "issue", "issues", "link", "example", "examples",
                         # a document of a genre, named by its kind: "[the debrief](..)", "[IIIF
                         # design](..)", "[restore drill incident](..)", "[March backlog write-up](..)"
                         "debrief", "design", "incident", "incidents", "write-up", "writeup", "postmortem",
                         "post-mortem", "retrospective", "runbook", "playbook", "record", "records",
                         "minutes", "notes", "report", "rfc", "adr",
                         # a thread, post or entry of where a team writes ("[Basecamp thread](..)",
                         # "[decision log](..)", "[Q3 review](..)", "[radar blip](..)")
                         "thread", "threads", "post", "posts", "log", "review", "reviews", "decision",
                         "decisions", "checklist", "memo", "article", "entry", "blip", "discussion",
                         # a change proposal or request named by its kind (Fedora's "Changes/..." pages,
                         # an ITIL change record): "[the Change](..)", "[Gatehouse Change](..)"
                         "change", "changes"})
# A link text ending so names a setting of something ("distributor argument", "retention flag").
_SETTING_WORDS = frozenset(
    """argument arguments flag flags option options parameter parameters setting settings field
    fields variable variables property properties config configuration""".split())
_VERBS = frozenset(
    """reduce increase use run add remove restart scale update create delete enable disable deploy
    start stop read write check reach affect make keep call serve send receive fetch save move
    copy provide allow require need want let get put set expose configure install upgrade
    migrate replace consider ensure avoid prevent try pull push publish poll consume produce drain
    retry accept page queue tell ask notify inform warn""".split()
)
_VERBISH_RE = re.compile(r"(?:ing|ly)$")
_PERIODIC = frozenset({"hourly", "daily", "nightly", "weekly", "monthly", "quarterly", "yearly"})
_GENRE_TITLE_WORDS = re.compile(
    r"\b(?:post-?mortem|post[- ]?incident|pirs?|major(?=\s+incident)|incident|outages?|retrospective|review"
    r"|report|write-?ups?"
    r"|summary|architecture|overview"
    r"|runbook|playbook|design|doc|proposal|draft|problem|notes?|debrief(?:ing)?|on|of|for|the|a|an|multiple"
    r"|internal|and|in|is|down|bugs?|attack|breach|failures?|latency|errors?|issues?|delays?|backlogs?|timeouts?|lag|slowdowns?|spikes?|leaks?|crash(?:es)?|degradation|saturation|overload|downtime|disruptions?)\b",
    re.I,
)
_DATE_RE = re.compile(
    r"\b(?:(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December)\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s*\d{4})?|\d{4}-\d{2}-\d{2})",
    re.I,
)


def singular(word: str) -> str:
    """A plural lower-case head word's singular ("workers" -> "worker", "APIs" -> "API");
    a capitalized name keeps its spelling ("Tekton Pipelines")."""
    if word[:1].isupper() and not word.isupper() and not word[:-1].isupper():
        return word
    lower = word.lower()
    if lower.endswith("ies") and lower in SYSTEM_HEADS:  # "proxies" -> "proxy", not "proxie"
        return word[:-3] + ("Y" if word.isupper() else "y")
    if len(word) > 3 and lower.endswith("s") and not lower.endswith(("ss", "us", "is", "xes")):
        return word[:-1]
    return word


@lru_cache(maxsize=16384)
def term_key(term: str) -> str:
    """A term's key: lower case, hyphens as spaces, its last word singular."""
    words = term.lower().replace("-", " ").split()
    return " ".join([*words[:-1], singular(words[-1])]) if words else ""


def system_phrases(lines: Iterable[tuple[int, str]], title: int = 0) -> Seen:
    """The system phrases of plain prose lines: up to two words before a head word (a run of
    head words ends at its last: "shared cache service"). A word capitalized only where a
    sentence opens names nothing ("Define deployment strategy"), except in the first `title`
    lines (the title's)."""
    seen: Seen = {}
    alone: set[str] = set()  # the phrases written whole, not only as the tail of a longer one
    numbered = list(lines)
    names: set[str] | None = None  # the words the prose capitalizes inside sentences, when asked
    words = [_LOWER_WORDS_RE.findall(text.lower()) for _, text in numbered]
    for index, (number, text) in enumerate(numbered):
        wrapped = _wrapped_words(numbered, index) if index + 1 < len(words) and not SYSTEM_HEADS.isdisjoint(
            words[index + 1][:2]) else []
        if not wrapped and SYSTEM_HEADS.isdisjoint(words[index]):
            continue
        tokens = _TOKEN_RE.findall(text)
        own = len(tokens)
        tokens += wrapped
        end = -1  # heads up to here were read as the modifiers of a later head
        for i, token in enumerate(tokens):
            if i <= end or token.lower() not in SYSTEM_HEADS:
                continue
            if i > own or i == own and not (i and tokens[i - 1][0].isalnum()):
                break  # a phrase of the next line's own, not one that runs across the break
            end = i
            while end + 1 < len(tokens) and tokens[end + 1].lower() in SYSTEM_HEADS:
                end += 1
            if end + 1 < len(tokens) and tokens[end + 1].lower() in _OBJECT_WORDS:
                continue  # "the cluster stores its events": a verb, not a head
            start = i
            while start > i - 2 and start > 0 and tokens[start - 1][0].isalnum():
                start -= 1
            start = next((k + 1 for k in range(i - 1, start - 1, -1)  # "does not touch service code"
                          if k and tokens[k - 1].lower() in _AUXILIARIES and tokens[k].islower()), start)
            if (index >= title and start < i and tokens[start][0].isupper()
                    and tokens[start].lower() not in _NOT_MODIFIERS and _opens_item(text, tokens, start)):
                if names is None:
                    names = set(_MID_CAPITAL_RE.findall("\n".join(line for _, line in numbered[title:])))
                start += tokens[start] not in names  # "- Define deployment strategy": what to do
            if start < end:
                before = _carried_words(numbered, index) if start == 0 else []
                _add_system_phrase(seen, alone, number, [*before, *tokens[start:end]][-2:], tokens[end])
    return {key: hits for key, hits in seen.items() if key in alone}


def _wrapped_words(numbered: list[tuple[int, str]], index: int) -> list[str]:
    """The first two words of the next line (they hold a head word) when a sentence wraps onto
    it ("... stop sidecar" / "containers once ..."): a phrase may run across the break."""
    number, text = numbered[index]
    if index + 1 >= len(numbered) or numbered[index + 1][0] != number + 1:
        return []
    following = numbered[index + 1][1]
    if (not text.strip() or text.rstrip()[-1:] in _LINE_ENDS or _ITEM_RE.match(following)
            or _FIELD_LABEL_RE.match(following)):
        return []
    return _TOKEN_RE.findall(following[:40])[:2]


# A line that opens a header field ("**Team:** Open Data", "Owner: ..."): a new field, no
# sentence running on from the line before ("... Airflow DAG" / "**Team:**").
_FIELD_LABEL_RE = re.compile(r"\s*(?:\*\*[A-Za-z][\w /-]{0,30}(?::\*\*|\*\*:)|[A-Z][\w/-]{0,30}:\s)")


def _carried_words(numbered: list[tuple[int, str]], index: int) -> list[str]:
    """The last words of the line before when a sentence wraps from it onto this line's first
    words ("... a rate" / "limit service ..."): a phrase opening a line may start before it."""
    number, text = numbered[index]
    if index == 0 or numbered[index - 1][0] != number - 1:
        return []
    previous = numbered[index - 1][1].rstrip()
    if not previous or previous[-1] in _LINE_ENDS:
        return []
    words = _TOKEN_RE.findall(previous)[-2:]
    if not text.lstrip()[:1].islower():  # a new item or sentence opens the line, unless a name
        return words[-1:] if words and words[-1][:1].isupper() else []  # runs on: "the Hourly" / "Rollup job"
    while words and not words[0][0].isalnum():
        words.pop(0)
    return words if all(word[0].isalnum() for word in words) else words[-1:] if words[-1][0].isalnum() else []


_LINE_ENDS = frozenset(".!?:;|)")


# A capitalized word written inside a sentence (after a lower-case word or a comma).
_MID_CAPITAL_RE = re.compile(r"(?<=[a-z0-9,;)] )[A-Z][A-Za-z0-9]*")


_ITEM_RE = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s")


def _opens_item(line: str, tokens: list[str], at: int) -> bool:
    """Is tokens[at] the first word of a list item, or of its text after a label ("- **X**:
    Define ...")? Items open with what to do."""
    if not _ITEM_RE.match(line):
        return False
    return (all(not token[0].isalnum() or token.isdigit() for token in tokens[:at])
            or (at > 0 and tokens[at - 1] in {":", "–", "—"}))


# Words a verb follows, never a modifier: "does not touch service code", "will drain queues".
_AUXILIARIES = frozenset(
    """not never will would can cannot could should must may might does did""".split())
# Heads that are verbs too ("workers queue jobs", "Ingesters store samples").
_VERB_HEADS = frozenset({"store", "cache", "queue", "index", "proxy", "schedule", "manage"})
# Words that follow a verb, never a noun: "stores its events", "queues the job".
_OBJECT_WORDS = frozenset({"the", "a", "an", "its", "their", "our", "his", "her", "them", "it",
                           "this", "these", "those", "each", "every"})


def _add_system_phrase(seen: Seen, alone: set[str], number: int, words: list[str], head: str) -> None:
    if any(word.lower() in _STATE_WORDS for word in words):
        return
    cut = [i for i, word in enumerate(words) if _not_modifier(word)
           and not (i and words[i - 1].lower() == "the" and _plain_plural(word))  # "the blocks storage"
           and not (i and words[i - 1].lower() in _DETERMINERS and _gerund_noun(word))  # "the billing team"
           and not (head.lower() in _TEAM_HEADS and _gerund_noun(word)  # a team's field: "Owner: messaging
                    and (i == 0 or not _not_modifier(words[i - 1])))]  # team", "data engineering team"
    joint = words[cut[-1]].lower() if cut and cut[-1] + 1 < len(words) else ""
    both = joint == "and" and _plain_plural(head) and words[cut[-1] + 1].islower()
    if (joint == "or" or both) and head.lower() not in _TEAM_HEADS:
        return  # "a compression or retention job running now": either kind (not "the loyalty or data team");
        # "the older etch and furnace controllers": both kinds (not "the MES Platform and etch teams")
    if head.islower():  # "ChirpStack v4 network server": its release and kind (not "GeoReport v2 API")
        cut += [i for i, word in enumerate(words) if _VERSION_RE.fullmatch(word.lower())]
    words = words[max(cut) + 1:] if cut else words  # "scheduler assigns jobs": no modifier
    if not words or (head.lower() in _VERB_HEADS and _plain_plural(words[-1].lower())
                     and not words[-1].isupper()):  # "DNS cache": an acronym, no plural
        return  # "Ingesters store recent samples": a plural acts, its head is a verb
    head = head if any(w[:1].isupper() for w in words) and head[:1].isupper() else singular(head)
    alone.add(term_key(" ".join([*words, head])))
    for size in range(len(words), 0, -1):  # "per-tenant bucket index", "bucket index"
        phrase = " ".join([*words[-size:], head])
        seen.setdefault(term_key(phrase), []).append((number, phrase))


def _not_modifier(word: str) -> bool:
    """A word that does not name a system ahead of its head: a determiner-like word, a verb
    ("assigns jobs", "reduce storage"), an auxiliary or negation ("PermitHub never stores"),
    a preposition ("without scheduler"), a describing
    adjective or participle ("older SDK", "fixed SDK", "multi-tenant cluster"), a number or
    its unit ("20 minute job")."""
    lower = word.lower()
    return (lower in _NOT_MODIFIERS or lower in _AUXILIARIES or lower in _NUMBER_WORDS or lower in _VERBS
            or lower in _UNIT_WORDS
            or lower in _PREPOSITIONS
            or lower in _ADJECTIVES or lower[-1:] == "s" and lower[:-1] in _VERBS  # "Runs FFmpeg jobs"
            or bool(_VERBISH_RE.search(lower)) and not (word[0].isupper() and lower in _PERIODIC)
            or word[0].isdigit() or describing(word)
            or (word.islower() and lower.endswith("s") and not lower.endswith("ss")))


# A release written before a product's kind ("a ChirpStack v4 network server"): ChirpStack's, no name.
_VERSION_RE = re.compile(r"v\d+(?:\.\d+)*")


def starts_as_description(term: str) -> bool:
    """Does a phrase of two words or more open with a word that describes, acts or relates
    ("older SDK", "without scheduler", "consider tracking SDK") rather than names?"""
    words = term.split()
    if len(words) < 2:
        return False
    first = words[0].lower()
    return (first in _PREPOSITIONS or first in _ADJECTIVES or first in _VERBS
            or bool(_VERBISH_RE.search(first)) and not (words[0].islower() and _gerund_noun(first))
            and not (words[0][0].isupper() and first in _PERIODIC)  # "the Hourly Rollup", a job's name
            or describing(words[0].lower())
            or (bool(_ADJECTIVE_RE.match(first)) and first not in _NAMING_ADJECTIVES))


_NUMBER_WORDS = frozenset(
    """zero one two three four five six seven eight nine ten twelve hundred thousand half double
    triple""".split())
# Units a number measures in ("a 20 minute job timeout", "the 5 GB cache", "an 8-thread worker
# pool"): a measure, no name.
_UNIT_WORDS = frozenset(
    """millisecond milliseconds ms second seconds sec secs minute minutes min mins hour hours hr hrs
    kb mb gb tb byte bytes thread threads""".split())
_DETERMINERS = frozenset({"the", "a", "an", "our", "their", "its", "this", "that", "your", "my"})
# Participles that tell a state ("the running jobs"), not what a system does ("the billing team").
_STATE_PARTICIPLES = frozenset(
    """running failing pending remaining growing missing waiting starting stopping incoming
    outgoing upcoming leading trailing working breaking crashing hanging existing following
    corresponding underlying matching resulting surrounding containing owning using having
    being getting making taking""".split())


def _gerund_noun(word: str) -> bool:
    """An -ing word that names what a system does ("billing", "logging", "streaming")."""
    return word.islower() and word.endswith("ing") and len(word) > 5 and word not in _STATE_PARTICIPLES


def _plain_plural(word: str) -> bool:
    lower = word.lower()
    return (word.islower() and lower.endswith("s") and not lower.endswith("ss")
            and lower not in _NOT_MODIFIERS and lower not in _VERBS and lower not in _ADJECTIVES)


# A compound that says what a thing is like ("Catalyst-style", "Redis-like", "Heroku-ish").
_LIKENESS_SUFFIXES = ("-style", "-like", "-ish", "-esque", "-flavoured", "-flavored")


def describing(word: str) -> bool:
    """A past participle that tells a state ("released", "fixed"; not "shared", not
    "content-addressed") or a describing compound ("multi-tenant")."""
    if word.startswith(_DESCRIBING_PREFIXES):
        return True
    if word.lower().endswith(_LIKENESS_SUFFIXES):  # "Catalyst-style hosted service": like one, not its name
        return True
    head = word.split("-", 1)[0].lower() if "-" in word else ""
    if head in _NOT_MODIFIERS or head in _ADJECTIVES or head in _NUMBER_WORDS:
        return True  # "first-out queue", "two-phase commit", "three-node cluster": it describes
    return (word.islower() and "-" not in word and word.endswith("ed") and not word.endswith("eed")
            and len(word) > 4 and word not in _NAMING_PARTICIPLES) or word in _IRREGULAR_STATES


# Irregular past participles that tell a state as "-ed" ones do ("the rebuilt feed", "a rewritten job").
_IRREGULAR_STATES = frozenset(
    """rebuilt rewritten rerun redone remade undone frozen stolen torn worn outgrown overgrown
    overwritten""".split())


def link_texts(lines: Iterable[tuple[int, str]]) -> Seen:
    """The texts of links to other pages of the same site or sections of the page
    ("[queriers](./querier.md)", "[Distributor](#distributor)"): names of what they link."""
    seen: Seen = {}
    for number, line in lines:
        for text in _LOCAL_LINK_RE.findall(line) if "](" in line else ():  # a link's "](" first
            name = plain_text(text)
            if (1 <= len(name.split()) <= 3 and not re.search(r"\d|:", name)  # "TimescaleDB: Adopt": a title
                    and not name.strip("`").startswith("-") and not names_section(name)  # a flag, "Tips"
                    and name.lower().split()[-1] not in _PAGE_WORDS | _SETTING_WORDS):
                written = " ".join([*name.split()[:-1], singular(name.split()[-1])])
                seen.setdefault(term_key(written), []).append((number, written))
    return seen


def capitalized_words(prose: list[tuple[int, str]], words: Iterable[str]) -> dict[str, list[int]]:
    """The lines each of `words` (capitalized words) is written on, a sentence's first word
    too, for those prose never writes in lower case: a name that also opens sentences
    ("Kubernetes continued ...") counts every time; "Query" beside "query" is a word."""
    text = "\n".join(line for _, line in prose)
    lower = set(_LOWER_RE.findall(text))
    wanted = {word for word in words if word.lower() not in lower}
    if not wanted:
        return {}
    starts = list(accumulate((len(line) + 1 for _, line in prose), initial=0))
    found: dict[str, list[int]] = {}
    for match in _CAPITALIZED_RE.finditer(text):
        word = match.group(0)
        if word in wanted:
            found.setdefault(word, []).append(prose[bisect_right(starts, match.start()) - 1][0])
    return found


def agent_nouns(prose: list[tuple[int, str]], *, plurals: bool = True, text: str | None = None) -> Seen:
    """The components an architecture page names by what they do: "the dispatcher", "the
    compactor" (a lower-case -er / -or noun after "the", written at least twice), and when
    asked "ingesters" (its plural, written three times: the page's sibling components).
    `text`: the prose lines joined, when the caller has them."""
    text = "\n".join(line for _, line in prose) if text is None else text
    found = [match for match in _AGENT_RE.finditer(text)  # "the inspectors" as "the inspector"
             if singular(match.group(1).lower()) not in NOT_AGENTS]
    many = [match for match in (_PLURAL_AGENT_RE.finditer(text) if plurals else ())
            if match.group(1)[:-1] not in NOT_AGENTS]
    seen: Seen = {}
    plural: Seen = {}
    for match, number in _numbered(found, prose, text):
        written = singular(match.group(1))
        seen.setdefault(term_key(written), []).append((number, written))
    for match, number in _numbered(many, prose, text):
        plural.setdefault(term_key(match.group(1)), []).append((number, match.group(1)[:-1]))
    for key, hits in plural.items():
        if len(hits) >= 3 and len(seen.get(key, ())) < 2:
            seen[key] = hits
    return {key: hits for key, hits in seen.items()
            if len(hits) >= 2 and not _acts_as_person(hits[0][1], text)}


def _acts_as_person(noun: str, text: str) -> bool:
    """Is an "-er" noun a person's role, not a component: the page writes it (or its plural)
    saying, wanting, deciding or trusting what only people do ("The planner decides when to
    re-plan", "Planners will not trust a plan", "drivers say", "Driver books a slot")?"""
    return re.search(rf"(?<![\w-]){re.escape(noun)}s?(?![\w-])[ \t]+{_PERSON_VERBS}", text, re.I) is not None


# What only people do, after an optional modal and "not": the verbs of _acts_as_person.
_PERSON_VERBS = (r"(?:(?:will|would|must|can|cannot|can't|could|should|do|does|don't|doesn't|did|didn't)"
                 r"[ \t]+(?:not[ \t]+)?)?(?:say|says|said|ask|asks|asked|want|wants|wanted|decide|decides"
                 r"|decided|trust|trusts|trusted|likes|agree|agrees|agreed|complain|complains"
                 r"|complained|think|thinks|thought|prefer|prefers|preferred|book|books|booked)\b")


def _numbered(matches: list[re.Match[str]], prose: list[tuple[int, str]], text: str
              ) -> Iterator[tuple[re.Match[str], int]]:
    """Each match (in order) with the number of the prose line it starts on (`text`: the
    prose lines joined by newlines)."""
    index, at = 0, 0
    for match in matches:
        index += text.count("\n", at, match.start())
        at = match.start()
        yield match, prose[index][0]


def toc_lines(lines: Iterable[tuple[int, str]]) -> set[int]:
    """The lines of a table of contents (list items that only link a section of the page)."""
    return {number for number, line in lines if "](#" in line and _TOC_RE.match(line)}  # (its link)


def code_identifiers(code_terms: dict[str, list[tuple[int, str]]]) -> Seen:
    """Code-span terms that look like names (`PipelineTask`, `orders-consumer`), a plural merged
    with its singular when both are written (a name is kept as written: `order-events`); a
    plain lower-case word (`alpha`, `namespace`) is a value or a keyword far more often than a
    name, and is left out; so are an error type (`TypeError`) and a function or property
    (`isDisabled`, `getValue`)."""
    seen: Seen = {}
    for term, hits in code_terms.items():
        if (not _IDENTIFIER_RE.match(term) or term.lower() in _NOT_IDENTIFIERS or len(term) < 2
                or term.lower() in STOPWORDS or re.search(r"\d", term) or term.isalpha() and term.islower()
                or _NOT_NAME_CODE_RE.match(term)):
            continue
        single = singular(term)  # `PipelineTasks` beside `PipelineTask`; `order-events` alone as written
        written = single if single != term and single in code_terms else term
        seen.setdefault(term_key(written), []).extend((n, written) for n, _ in hits)
    return seen


# The sections that list an architecture page's parts, in the public styles' words (arc42's
# "Building block view", C4's "Containers").
COMPONENT_SECTIONS = frozenset({"components", "services", "architecture", "building blocks",
                                "building block view", "containers", "subsystems", "modules",
                                "main components", "key components", "system components",
                                "core components"})


def listed_components(structure: Structure) -> Seen:
    """An architecture page's components as its Components / Services section names them."""
    seen: Seen = {}
    for section in structure.sections[1:]:
        if section_key(structure.title(section)) not in COMPONENT_SECTIONS:
            continue
        for later in structure.sections[structure.sections.index(section) + 1:]:
            if later.level <= section.level:
                break
            if later.level > section.level + 1:
                continue  # a component's own subsections ("Hashing") are not components
            for title in _joined_names(structure.title(later)):  # "### Wrenchlog and Towerhand": two
                if _listable(title):
                    seen.setdefault(term_key(title), []).append((structure.number(later), title))
        for number, line in with_subsections(structure, section):
            for name in _LISTED_RE.findall(line):
                text = plain_text(name[0] or name[1])
                if _listable(text) and not (name[1] and field_label(text)):
                    seen.setdefault(term_key(text), []).append((number, text))
    return seen


def _joined_names(title: str) -> list[str]:
    """A heading's names: one, or the two a heading of one section joins with "and" or "&"
    ("Wrenchlog and Towerhand"), capitalized words one at least no dictionary holds (not
    "Monitoring and Alerting")."""
    match = re.fullmatch(r"([A-Z][\w-]+)\s+(?:and|&)\s+([A-Z][\w-]+)", title.strip())
    if match and not all(ordinary_word(name.lower()) for name in match.groups()):
        return list(match.groups())
    return [title]


def field_label(text: str) -> bool:
    """A bold label of a field ("**Language:** Go", "**Consumes**: the orders topic"): one
    capitalised English word or hyphenated compound ("**On-call:**"), not a thing's name."""
    words = text.strip().rstrip(":").split()
    return len(words) == 1 and words[0][:1].isupper() and ordinary_words(words[0])


def _listable(text: str) -> bool:
    """A short heading or list item that may name a component (not code, an acronym or a part
    of the documentation)."""
    return (1 <= len(text.split()) <= 3 and "`" not in text and not text.isupper() and not names_section(text)
            and not _numbered_label(text))


def _numbered_label(text: str) -> bool:
    """A heading that numbers a part of a series ("Level 1", "Phase 2"): no component."""
    words = text.split()
    return len(words) == 2 and words[1].isdigit() and ordinary_word(words[0])


# Last words of a title that names a part of the documentation, not a thing ("Production tips");
# a reference architecture's steps and credits (Azure Architecture Center: "Workflow" or
# "Dataflow" under "Architecture", "Contributors"; "Acknowledgements", "Credits" elsewhere).
_SECTION_WORDS = frozenset(
    """tips notes considerations recommendations limitations examples overview introduction faq
    troubleshooting guidelines practices glossary terminology definitions references appendix
    changelog roadmap caveats workflow dataflow contributors acknowledgements acknowledgments
    credits""".split())
GLOSSARY_TITLES = frozenset({"glossary", "terminology", "definitions", "terms", "concepts"})


def holds_terms(title_key: str) -> bool:
    """Does a section of this title (a section_key) hold terms of the domain, not things: a
    glossary, or concepts or principles of any kind (arc42's "Crosscutting concepts", "Design
    principles")?"""
    return title_key in GLOSSARY_TITLES or title_key.rsplit(" ", 1)[-1] in {"concepts", "principles"}


def names_section(title: str) -> bool:
    """Does a heading or a link text name a part of the documentation ("Production tips")?"""
    words = title.lower().split()
    return bool(words) and words[-1] in _SECTION_WORDS


# Words that open what happened around the subject ("API errors after a cache failover").
_CIRCUMSTANCE_RE = re.compile(
    r"\s+(?:after|before|during|following|due|caused|because|when|while|since|amid|through|"
    r"until|via)\s+", re.I)


def title_subject(title: str, *, at_prepositions: bool = False) -> str | None:
    """The title without its genre's words, dates and numbers, when a short name is left; a
    state it ends with left out ("search unavailable" -> "search"); cut at prepositions too
    when asked ("Sidecar containers for batch Jobs" -> "Sidecar containers")."""
    text = _DURATION_RE.sub("", _DATE_RE.sub(" ", re.sub(r"^(?:[A-Z]+-?\d+|#?\d+)\s*:\s*", "", title)))
    text = _WHEN_RE.sub(" ", text)
    pieces = [_CIRCUMSTANCE_RE.split(piece)[0] for piece in re.split(r"\s+[-–—(]\s*|[:,]\s+", text)]
    pieces = [piece[:-1] if piece.endswith(")") and "(" not in piece else piece  # "... in OCR (DocSight)"
              for piece in pieces]
    if at_prepositions:
        pieces = [part for piece in pieces for part in _PREPOSITION_RE.split(piece)]
    parts = [p for p in (_without_state(_GENRE_TITLE_WORDS.sub(" ", part)) for part in pieces
                         if not _STATE_WORDS_RE.search(_without_state(part)))
             if p and not re.search(r"\d", p)]
    if not parts:
        return None
    words = parts[0].split()
    return parts[0] if 1 <= len(words) <= 4 else None


# When it happened: "Tuesday's API outage", "Last week's deploy failures", "Friday: ...".
_WHEN_RE = re.compile(
    r"\b(?:(?:last|this|yesterday|today)(?:'s)?\s+)?(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|week|night|weekend)"
    r"(?:'s|s)?\b", re.I)
# How long it lasted: "... delayed for 3 hours", "... down for about 40 minutes".
_DURATION_RE = re.compile(
    r"\s+(?:for|by|over)\s+(?:up to\s+|about\s+|around\s+|nearly\s+|almost\s+|over\s+)?\d+\+?\s*"
    r"(?:h|hours?|hrs?|m|min|mins|minutes?|s|seconds?|days?)\b", re.I)
# Words that tell what went wrong, not what: "Users unable to log in", "Builds cannot start".
_STATE_WORDS_RE = re.compile(
    r"\b(?:unable|cannot|can't|could not|couldn't|not|failed|failing|fails|stopped|stuck|unavailable"
    r"|out of date|outdated|stale|missing|wrong|incorrect|lost|duplicated|duplicate)\b",
    re.I)
_PREPOSITION_RE = re.compile(r"\s+(?:for|of|in|on|with|to|from|at|by|into|over|about|per)\s+", re.I)


def _without_state(part: str) -> str:
    """A title's part without the state it ends with ("search unavailable", "queue degraded")."""
    words = part.split()
    while len(words) > 1 and (words[-1].lower() in _ADJECTIVES or describing(words[-1].lower())
                              or _ADJECTIVE_RE.match(words[-1].lower())):
        words.pop()
    return " ".join(words)


_SLUG_WORDS = frozenset(
    """proposal proposals design draft overview kep tep rfc pep adr doc docs new support
    add adding allow allowing use using make""".split())


def slug_subject(stem: str, prose_text: str) -> str | None:
    """What a design document's file name says it is about, when the prose writes it four
    times ("15292-generics" -> "generics", "0107-propagating-parameters" -> "parameters",
    "0033-tekton-feature-gates" -> "feature gates"): the longest tail of a run of the name's
    words (numbers, stop words and an opening verb left out) that the prose writes; one word
    alone only when it is all the run."""
    runs: list[list[str]] = [[]]
    for word in re.split(r"[-_\s]+", stem.lower()):
        if (re.search(r"\d", word) or word in STOPWORDS or word in _SLUG_WORDS or len(word) < 2
                or not runs[-1] and (word in _VERBS or _VERBISH_RE.search(word))):
            runs.append([])
        else:
            runs[-1].append(word)
    for run in runs:
        for size in range(len(run), 0, -1):
            phrase = " ".join(run[-size:])
            if size == 1 and (len(run) > 1 or len(phrase) < 5 or _VERBISH_RE.search(phrase)):
                continue  # "types" of "array result types" says nothing alone
            if written_often(phrase, prose_text, 4):
                return _usual_case(phrase, prose_text)
    return None


def _usual_case(phrase: str, text: str) -> str:
    """The spelling `text` writes `phrase` in most often (capitalized on a tie)."""
    counts: dict[str, int] = {}
    for written in re.findall(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text, re.I):
        counts[written] = counts.get(written, 0) + 1
    return min(counts, key=lambda w: (-counts[w], w.islower(), w)) if counts else phrase


_MINUTES_TITLE_WORDS = re.compile(
    r"\b(?:meeting|meetings|agenda|minutes|triage|sync|weekly|daily|monthly|standup|stand-up"
    r"|retro|retrospective|review|notes?|planning|design|discussion|call|session|and|the|of"
    r"|for|on|a|an)\b",
    re.I,
)


def minutes_subject(titles: Iterable[str], prose_text: str) -> str | None:
    """What minutes are the meeting of, from their titles without the meeting's words ("T-lang
    meeting agenda" -> "T-lang", "Specialization Review, 2020-02-03" -> "Specialization"):
    a name (a hyphen or capital inside it, a team), or a word the notes write three times."""
    for title in titles:
        text = _DATE_RE.sub(" ", title)
        left = " ".join(_MINUTES_TITLE_WORDS.sub(" ", re.split(r"[:,(]", text)[0]).split())
        if not left or re.search(r"\d", left) or len(left.split()) > 3:
            continue
        name_like = bool(re.search(r"\w-\w|[a-z][A-Z]", left)) or is_team(left)
        if name_like or written_often(left, prose_text):
            return left
    return None


def written_often(name: str, prose_text: str, times: int = 3) -> bool:
    """Does the prose write `name` (as a whole word, in any case) at least `times` times?"""
    lower, key = prose_text.lower(), name.lower()
    count, at = 0, lower.find(key)
    while at >= 0 and count < times:
        end = at + len(key)
        before, after = lower[at - 1:at], lower[end:end + 1]
        joined = before.isalnum() or before in {"-", "_"} or after.isalnum() or after in {"-", "_"}
        count += not joined
        at = lower.find(key, at + 1)
    return count >= times


def apart_from_title(name: str, title: str, prose_text: str) -> str:
    """The prose without the places it writes the title's whole name that `name` was cut from at
    a preposition ("Code" of "Code of Conduct": "this Code of Conduct will help" names the
    code of conduct, not code), so that only the times it writes `name` apart are counted."""
    at = title.lower().find(name.lower())
    rest = title[at + len(name):] if at >= 0 else ""
    whole = re.split(r"\s+[-–—(]\s*|[:,]\s+", rest)[0]
    if not whole or not _PREPOSITION_RE.match(whole):
        return prose_text
    return re.sub(re.escape(f"{name}{whole}"), " ", prose_text, flags=re.I)


def named_once(phrase: str, lines: list[str]) -> bool:
    """A phrase written once inside a sentence, not an acronym (those need to recur: "SHA" of
    "SHA-256", "ERROR") and not an author cited ("Jazayeri, et al")."""
    return (not phrase.isupper() and all(_inside_sentence(phrase, line) for line in lines)
            and not any("et al" in line and re.search(rf"{re.escape(phrase)},?\s+et\s+al\b", line)
                        for line in lines))


def mid_sentence(word: str, lines: Iterable[str]) -> bool:
    """Is `word` written inside a sentence at least once, not only as the first word of a
    sentence, a list item or a heading ("Update the map ...", "Error budgets ...")?"""
    for line in lines:
        at = line.find(word)
        while at >= 0:
            end = at + len(word)
            if _joined(line[at - 1:at]) or _joined(line[end:end + 1]):
                at = line.find(word, end)
                continue  # part of a longer word
            before = line[:at].rstrip(" \t*_`[]\"'(")
            if before and before[-1] not in ".!?:;|#>-+–—•" and not before[-1].isdigit():
                return True
            at = line.find(word, end)
    return False


def _joined(char: str) -> bool:
    return bool(char) and (char.isalnum() or char in "_-")


def _inside_sentence(phrase: str, line: str) -> bool:
    """Is `phrase` written inside a sentence of `line`, not as its first word, nor as the first
    word of a quotation that goes on in lower case (the saved report "Duplicate crew codes": a
    quoted title opens as a sentence does)?"""
    at = line.find(phrase)
    before = line[:at].rstrip(" \t*_`[]")  # the last character written before it, markup aside
    if before[-1:] in _OPENING_QUOTES and _LOWER_AFTER_RE.match(line, at + len(phrase)):
        return False
    return at > 0 and bool(before) and before[-1] not in ".!?:;|#>-+" and not before[-1].isdigit()


_OPENING_QUOTES = frozenset("\"“‘'")
_LOWER_AFTER_RE = re.compile(r"[ \t]+[a-z]")


_PLACEHOLDER_RE = re.compile(
    r"^(?i:foo|bar|baz|qux|quux|corge|foobar|lorem|ipsum)$|^(?:Foo|Bar|Baz|Qux)[A-Z0-9]\w*$"
    r"|^(?:My|Some|The|Other|Your|Another)[A-Z][a-z]\w*$")
_FILE_NAME_RE = re.compile(
    r"^(?!profile$)[A-Za-z][a-z]+file$|\.[A-Za-z]{1,5}$|^(?:README|CHANGELOG|LICENSE|CODEOWNERS"
    r"|CONTRIBUTING|NOTICE|AUTHORS|OWNERS|MAINTAINERS)\b", re.I)


def is_placeholder(name: str) -> bool:
    """A name an example makes up (`Foo`, `MyStruct`, `SomeTrait`, `T`), not a subject."""
    return " " not in name and bool(_PLACEHOLDER_RE.match(name))


def is_file_name(name: str) -> bool:
    """A file or format named as a common noun ("Dockerfile", "Makefile", "values.yaml",
    "README"): the file of a thing, not a thing of its own."""
    return " " not in name and bool(_FILE_NAME_RE.search(name.removesuffix("s"))) and not name.endswith(
        (".js", ".io", ".com", ".net"))  # "Node.js", "Booking.com": a product or a company


# Words before a phrase that make it any one of a kind ("a cold cache", "every product team").
# (and "no": "no hosted broker is used", "no event store": what the page says is not there)
_INDEFINITE = frozenset({"a", "an", "any", "every", "some", "other", "many", "several", "all", "no"})
_ANY_OF_KIND = _INDEFINITE | {"each", "most", "no"}
# Modifiers that tell a system's place in a request's path, not which system ("the backend service").
_ROLE_WORDS = frozenset({"backend", "back-end", "frontend", "front-end", "upstream", "downstream"})
# A role in a message's path right before a phrase ("the receiving mail server must refuse ..."):
# any server that plays it, cut from the phrase as a verb's form.
_PATH_ROLES = _ROLE_WORDS | {"receiving", "sending", "calling"}


def generic_mention(phrase: str, line: str) -> bool:
    """Is a system phrase written in `line` as any one of a kind, not one system: after "a",
    "every" or "other" ("a cold cache", "every product team") or "no" ("no event store"), or
    named by its role in a request's path ("the backend service", "the receiving mail server")?"""
    if phrase.split()[0].lower() in _ROLE_WORDS:
        return True
    lower, key = line.lower(), phrase.lower()
    at = lower.find(key)
    while at >= 0 and (_joined(lower[at - 1:at]) if at else False):
        at = lower.find(key, at + 1)
    if at < 0:
        return False  # written across a line break: read as a whole where it was written
    before = _LOWER_WORDS_RE.findall(lower[max(0, at - 12):at])[-1:]
    return (bool(before) and (before[0] in _INDEFINITE or before[0] in _PATH_ROLES)
            and lower[at - len(before[0]) - 1:at - 1] == before[0])


_DEFINITE = frozenset({"our", "their", "its"})


def written_as_kind(phrase: str, text: str) -> bool:
    """Is a two-word system phrase written in `text` only as a kind of thing: in the plural or
    after "a", "each", "every" ("Product services publish ...", "each product team"), never
    as one system ("the product service", "our billing queues")? Written nowhere: no."""
    *modifiers, head = phrase.lower().split()
    heads = [head, head + "s", head + "es"] + ([head[:-1] + "ies"] if head.endswith("y") else [])
    pattern = re.compile(r"(?:\b([a-z]+)\s+)?(?<![\w-])" + r"\s+".join(map(re.escape, modifiers))
                         + r"\s+(" + "|".join(map(re.escape, heads)) + r")(?![\w-])")
    found = False
    for match in pattern.finditer(text.lower()):
        if match.group(2) == head and match.group(1) not in _ANY_OF_KIND or match.group(1) in _DEFINITE:
            return False  # "the product service", "our billing queues": the one system
        found = True
    return found


def series_key(word: str, text: str) -> bool:
    """Is an upper-case `word` written before a number in `text` ("OPS-7781", "DEP 42",
    "KEP-3127", "HTTP 503"; "DEC-1" beside "DEC-2", "DTP 3" beside "DTP 9"), or as the kind
    of document the page is ("This OEP moves the poolers ...", "This LEP was rejected"): the
    key of a tracker's tickets or of a series of documents, not a subject?"""
    if not word.isupper():
        return False
    at = text.find(word)
    numbered: set[str] = set()  # the one-digit numbers it is written with ("DEC-1", "DEC-2")
    keyed = written = 0  # how often it is written, and how often as a key of one number ("MIP-4")
    while at >= 0:
        end = at + len(word)
        match = None if at and _joined(text[at - 1]) else _NUMBERED_RE.match(text, end)
        if match and sum(ch.isdigit() for ch in match.group()) >= 2:
            return True
        if not (at and _joined(text[at - 1])) and not _joined(text[end:end + 1]) or text[end:end + 1] == "-":
            written += 1
            keyed += bool(match and match.group().startswith("-"))
        if match:
            numbered.add(match.group()[-1])
        elif text.endswith(("This ", "this "), 0, at) and _OWN_KIND_AFTER_RE.match(text, end):
            return True
        at = text.find(word, end)
    # a log's entries "DEC-1", "DEC-2"; a document's key written so every time ("MIP-4" three
    # times, never "MIP" alone); not "SEV-2" once
    return len(numbered) >= 2 or keyed >= 2 and keyed == written


def unit_after_number(word: str, text: str) -> bool:
    """Is an upper-case `word` written in `text` only right after a number or a time ("16:05
    CST", "Mar 2, 2026 - 10:52 CST", "30 GB"): a time zone or a unit, not a subject?"""
    if not word.isupper():
        return False
    spans = word_spans(text, word)
    return bool(spans) and all(_NUMBER_BEFORE_RE.search(text, max(0, start - 12), start)
                               for start, _ in spans)


# A number or a time right before a word, one blank between ("16:05 CST", "30 GB").
_NUMBER_BEFORE_RE = re.compile(r"(?<![\w.-])\d+(?:[:.]\d+)*[ \t]$")


# "OPS-7781", "DEC-1", "INC-2026-031" (a year and a number), "MER-C-0419" (a letter of its kind between)
_NUMBERED_RE = re.compile(
    r"(?:-[A-Z]{1,3}(?=-\d))?(?:(?:[- ]|: )?\d{2,}(?:-\d+)?|(?:[- ]|: )\d)(?![\w-]|\.\d)")
# What follows the kind of document a page calls itself: a verb ("This OEP moves", "This LEP
# was rejected") or a stop ("... in this OEP;"), not a noun ("this NFS mount", "This OID exhaustion").
_OWN_KIND_AFTER_RE = re.compile(
    r"(?:[;,.:)]|[ \t]+(?:is|was|has|does|did|will|would|can|could|may|must|should"
    r"|[a-z]+[^s\W]s|[a-z]+ed)\b)")


def only_as_label(word: str, lines: Iterable[str]) -> bool:
    """Is `word` written only as a label that a colon follows ("Error: ...", "Note: ...")?"""
    lines = [line for line in lines if word in line]
    if not any(f"{word}:" in line for line in lines):
        return False
    colons = [match.group() for line in lines for match in word_places(line, word, _COLONS_RE) if match]
    return bool(colons) and all(written == ":" for written in colons)


_COLONS_RE = re.compile(r":{0,2}")  # after a label's word: its colon; "::" is a path's or a type's


_HYPHENATED_RE = re.compile(r"(?<![\w/.@`#-])([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+)(?![\w/`@-]|\.\w)")
# Last parts of compounds that describe ("built-in", "opt-out", "type-safe", "node-local").
_COMPOUND_ENDS = frozenset(
    """in out up on off down over based like wide free safe only aware specific level time term side
    friendly local ready proof style native compatible grade scale source party""".split())


_NOT_PLAIN_RE = re.compile(r"\]\([^)]*\)|\[[^\]]*\]:?|<[^>]*>")  # link targets and labels


def hyphenated_names(prose: list[tuple[int, str]]) -> Seen:
    """Lower-case hyphenated names written as plain prose, outside code spans and links
    ("the order-router", "ceph-csi 3.11"): a component's or a tool's name, unless a part of it
    describes ("long-term", "user-defined", "opt-in"), is a stop word ("task-with-params") or
    names a process ("de-amplification")."""
    seen: Seen = {}
    lines = dict(prose)
    for number, text in prose:
        if "-" not in text:
            continue
        plain = _NOT_PLAIN_RE.sub(" ", replace_code_spans(text))
        for match in _HYPHENATED_RE.finditer(plain):
            name, parts = match.group(1), match.group(1).split("-")
            after = plain[match.end():]
            if not after.strip() and number + 1 in lines:  # "the streaming-platform" / "team": the
                after = f" {lines[number + 1].lstrip()[:40]}"  # next word is on the next line
            following = _LOWER_WORDS_RE.match(after[1:]) if after[:1] == " " else None
            if following and (following.group() in SYSTEM_HEADS or _plain_plural(following.group())) and (
                    ordinary_words(name)):  # not "the ceph-csi driver", "kube-proxy pods": a name
                continue  # "key-value store", "open-source packages": it describes the next word
            if (re.search(r"\d", name) or describing(name) or singular(parts[-1]) in _COMPOUND_ENDS
                    or any(part in _NOT_MODIFIERS or part in _ADJECTIVES or part in _PREPOSITIONS
                           or describing(part) for part in parts)
                    or names_process(parts[-1])):
                continue
            seen.setdefault(name, []).append((number, name))
    return seen


def names_process(term: str) -> bool:
    """Does a term name what is done ("Hashing", "Log ingestion", "Replication"), not a thing?"""
    words = term.lower().split()
    return bool(words) and bool(_PROCESS_RE.search(words[-1]))


_PROCESS_RE = re.compile(r"(?:ing|tion|sion|ment|ity|ness|ency|ancy|ics|ism)$")


def is_team(term: str) -> bool:
    return term.lower().split()[-1] in _TEAM_HEADS
