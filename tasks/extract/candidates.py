"""Candidates (not facts): capitalized phrases that recur and terms written in code spans."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from tasks.extract.model import CandidateFact, NameRef
from tasks.extract.ordinary_words import ordinary_word
from tasks.extract.subject_coined import opens_as_name
from tasks.extract.technologies import usual_spelling
from tasks.extract.text import STOPWORDS, excerpt
from tasks.markdown.code_spans import code_span_contents

# The first word's capital comes first, then the word boundary before it as a lookbehind
# ("\b[A-Z]..."): a pattern that starts with a character set is searched for that set's
# characters only, where "\b" was tried at every position of the line (a fifth faster).
_CAP_PHRASE_RE = re.compile(
    r"[A-Z](?<![^\W_][A-Z])(?:[A-Za-z0-9]*[a-z0-9][A-Za-z0-9]*|[A-Z]+[0-9]*)"
    r"(?:[ -](?:[A-Z][A-Za-z0-9]*[a-z0-9][A-Za-z0-9]*|[A-Z]{2,}[0-9]*|of|for)){0,4}"
    r"(?<![ -]of)(?<![ -]for)\b"
)
# A product's name that opens in lower case before its capitals ("pgSTAC", "gRPC", "eBPF", "iOS",
# "mTLS"): a name as a capitalized phrase is. The gate opens with the capital (the engine skips to
# capitals) and checks the lower-case letter behind it; the name's pattern runs on those lines only.
_MIXED_GATE_RE = re.compile(r"[A-Z](?<=[a-z][A-Z])[A-Z]")
_MIXED_NAME_RE = re.compile(r"(?<![\w.@/-])[a-z]{1,4}[A-Z]{2,}[A-Za-z0-9]*(?![\w@/-]|\.\w)")
_LONE_CAPITAL_RE = re.compile(r" [A-Z](?: [A-Za-z])")
# A company or product named by its web domain ("Booking.com", "Hotels.com", "Authorize.net"): a
# capitalized word and a top-level domain, not a path, a host's further parts or a file.
_DOMAIN_NAME_RE = re.compile(r"[A-Z][A-Za-z0-9]+\.(?:com|net)(?![\w/@-]|\.\w)")
_CODE_TERM_RE = re.compile(r"^[A-Za-z_@][\w.\-/@:]{2,59}$")
_HEX_RE = re.compile(r"^[0-9a-f]{12,}$")


# A product line's or edition's number between a name's words, as vendors write them
# ("Pinnacle 21 Enterprise", "Dynamics 365 Business Central", "Route 53 Resolver"): one to
# three digits (no year) before a capitalized word, not an acronym or a kind ("RHEL 8 VMs",
# "Route 53 API", "Camunda 8 SaaS-free"). Not after a word that numbers a date or a part of
# something ("March 3 Alice", "Step 2 Configure", "Phase 1 Rollout"), nor after a known
# technology, whose number is its release.
_NUMBER_BETWEEN_RE = re.compile(r" \d{1,3} (?=[A-Z][a-z]+\b(?!-))")
_NUMBERED_WORDS = frozenset(
    """january february march april may june july august september october november december jan feb
    mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday
    mon tue tues wed thu thur thurs fri sat sun step steps phase phases section sections figure fig table
    chapter appendix page pages sprint version release level tier stage room floor week day quarter
    part item rule option round wave gate ward terminal pier platform line issue ticket change rfc pep
    kep adr inc draft revision rev priority sev severity p q""".split())


def _numbered_tail(prose: str, end: int, phrase: str) -> re.Match[str] | None:
    """The capitalized words after a number that continues the name ending at `end`, if any."""
    number = _NUMBER_BETWEEN_RE.match(prose, end)
    if number is None or phrase.split()[-1].lower() in _NUMBERED_WORDS or usual_spelling(phrase):
        return None  # (a known technology's number is its release: "Kafka 3 Brokers")
    return _CAP_PHRASE_RE.match(prose, number.end())


@dataclass(slots=True)
class CandidateHits:
    """Where each capitalized phrase and code term was seen: (line number, stripped line)."""

    phrases: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    code_terms: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    heading_lines: set[int] = field(default_factory=set)  # a heading's phrases are no hits

    def add_code_terms(self, number: int, stripped: str) -> None:
        """The terms in a line's code spans (not numbers, not hashes)."""
        for content in code_span_contents(stripped):
            term = content.strip()
            if _CODE_TERM_RE.match(term) and not term.isdigit() and not _HEX_RE.match(term):
                self.code_terms.setdefault(term, []).append((number, stripped))

    def add_phrases(self, number: int, stripped: str, prose: str) -> None:
        """The capitalized phrases of a prose line (none of a heading's line)."""
        if number in self.heading_lines:
            return
        joined_to = 0  # where a name joined across a number ends ("Pinnacle 21 Enterprise")
        for match in _CAP_PHRASE_RE.finditer(prose):
            if match.start() < joined_to:
                continue  # the words after the number, counted with the name
            if (
                prose[match.end() : match.end() + 1] in {".", "/", "@"}
                and prose[match.end() + 1 : match.end() + 2].isalnum()
            ):
                dotted = _DOMAIN_NAME_RE.match(prose, match.start()) if " " not in match.group(0) else None
                if dotted is not None:  # "Booking.com", "Authorize.net": a company named by its domain
                    self.phrases.setdefault(dotted.group(0), []).append((number, stripped))
                continue  # part of a dotted name or path (GOV.UK, Node.js), not a phrase
            if _LONE_CAPITAL_RE.match(prose, match.end()):
                continue  # cut before a lone letter of a longer name ("SITA Type" of "SITA Type B network")
            # (a coined name opening a sentence is one: "RotaWing published the change")
            phrase = _trim_phrase(match.group(0), prose, match.start()) or (
                match.group(0) if opens_as_name(match.group(0), prose, match.end(), stripped) else None)
            own = _own_tail(prose, match.end(), phrase) if phrase and match.group(0).endswith(phrase) else ""
            if phrase and own:
                phrase += own  # "SM-DP+", "Disney+", "MQTT Sparkplug B": the name's own
            elif phrase and match.group(0).endswith(phrase):
                tail = _numbered_tail(prose, match.end(), phrase)
                if tail is not None:  # "Pinnacle 21 Enterprise": one name across its number
                    phrase = f"{phrase}{prose[match.end():tail.end()]}"
                    joined_to = tail.end()
            if phrase:
                self.phrases.setdefault(phrase, []).append((number, stripped))
        if _MIXED_GATE_RE.search(prose):  # a capital after a lower-case letter: few lines have one
            for name in _MIXED_NAME_RE.findall(prose):
                self.phrases.setdefault(name, []).append((number, stripped))

    def add_wrapped_phrases(self, number: int, prose: str, next_prose: str) -> None:
        """The capitalized phrases a line break splits ("the Hourly" / "Rollup job"): one hit
        on the first line, with the two lines' text joined."""
        if number in self.heading_lines or prose[-1:] in ".!?:;":
            return
        joined = f"{prose} {next_prose}"
        for match in _CAP_PHRASE_RE.finditer(joined, max(0, len(prose) - 80)):
            if match.start() >= len(prose) or match.end() <= len(prose) + 1:
                continue  # all on one line: counted there
            phrase = _trim_phrase(match.group(0), joined, match.start())
            if phrase and " " in phrase:
                self.phrases.setdefault(phrase, []).append((number, joined))
                # its halves ("Hourly", "Cloud Messaging" of "Firebase / Cloud Messaging") name nothing
                self._drop(joined[match.start():len(prose)].strip(), number)
                self._drop(joined[len(prose) + 1:match.end()].strip(), number + 1)

    def _drop(self, phrase: str, number: int) -> None:
        hits = [hit for hit in self.phrases.get(phrase, []) if hit[0] != number]
        if hits:
            self.phrases[phrase] = hits
        else:
            self.phrases.pop(phrase, None)

    def candidates(self, subject: NameRef) -> list[CandidateFact]:
        """Phrases that recur (a single word three times, others twice; never the subject's
        name), then every code term."""
        found: list[CandidateFact] = []
        for phrase, hits in self.phrases.items():
            single = " " not in phrase and "-" not in phrase
            if len(hits) >= (3 if single else 2) and phrase.lower() != subject.display.lower():
                found.append(
                    CandidateFact(
                        phrase, "capitalized_phrase", hits[0][0], excerpt(hits[0][1]), len(hits)
                    )
                )
        for term, hits in self.code_terms.items():
            found.append(
                CandidateFact(term, "code_term", hits[0][0], excerpt(hits[0][1]), len(hits))
            )
        return found


def _trim_phrase(phrase: str, prose: str, start: int) -> str | None:
    """A phrase without leading and trailing stop words; None for a capitalized word that only
    starts a sentence."""
    text = _trimmed(phrase)
    if text is None:
        return None
    if " " not in text and "-" not in text and not text.isupper() and _starts_sentence(
            prose, start):
        return None
    return text


@lru_cache(maxsize=16384)  # pure; a page repeats its phrases ("Some", "The API") line after line
def _trimmed(phrase: str) -> str | None:
    words = phrase.replace("-", " - ").split()
    # a stop word hyphened to the next or last word is a part of the name ("OR-Tools", "Log-In")
    while words and words[0].lower() in STOPWORDS and words[1:2] != ["-"]:
        words.pop(0)
    while words and words[-1].lower() in STOPWORDS and words[-2:-1] != ["-"]:
        words.pop()
    text = " ".join(words).replace(" - ", "-")
    if not text or len(text) < 3 or text.lower() in STOPWORDS:
        return None
    return text


def _starts_sentence(prose: str, start: int) -> bool:
    """Whether the text before `start`, blanks left out, is empty or ends a sentence (or an
    emphasis): read backwards in place, not as a copy of the line's start per phrase."""
    end = start
    while end and prose[end - 1].isspace():
        end -= 1
    return not end or prose[end - 1] in ".!?:;*"


def _own_tail(prose: str, end: int, phrase: str) -> str:
    """What a name goes on with after the capitalized phrase: a plus ("SM-DP+", "ES2+",
    "Disney+") or a lone letter (_letter_after), else nothing."""
    if _plus_after(prose, end):
        return "+"
    if " " not in phrase and "-" not in phrase and prose[end:end + 1] == "-":
        tail = _LOWER_TAIL_RE.match(prose, end)
        if tail is not None and tail.group(1) not in _COMPOUND_TAILS:
            return tail.group(0)  # "Queue-it" written inside a sentence: the product's name
    return prose[end:end + 2] if _letter_after(prose, end, phrase) else ""


# A one-word name's short lower-case tail after a hyphen ("Queue-it"), not a compound's ("Built-in",
# "Welsh-language").
_LOWER_TAIL_RE = re.compile(r"-([a-z]{2,3})(?![\w'’+&/-])")
_COMPOUND_TAILS = frozenset(
    """in on up out off only based level like free wide side time term way ready aware driven
    specific related facing owned enabled managed first end run style type side scale""".split())


def _letter_after(prose: str, end: int, phrase: str) -> bool:
    """Does a lone capital letter that ends a clause follow a name with a word no dictionary
    holds ("publishes as MQTT Sparkplug B."; "Sparkplug B payloads" is cut before the letter
    above), not ordinary words' series ("Option B", "Type C", "Plan B")?"""
    return (prose[end:end + 1] == " " and _LETTER_TAIL_RE.match(prose, end) is not None
            and not all(ordinary_word(word.lower()) for word in phrase.split()))


_LETTER_TAIL_RE = re.compile(r" [B-HJ-Z](?![\w'’+&-])(?! [A-Za-z&])")


def _plus_after(text: str, end: int) -> bool:
    """Does a plus end the name that ends at `end` ("SM-DP+ server"), not join it to another
    word ("SM-DP+SM-DS", "A+B") nor open a "++"?"""
    return text[end:end + 1] == "+" and not (text[end + 1:end + 2].isalnum() or text[end + 1:end + 2] == "+")
