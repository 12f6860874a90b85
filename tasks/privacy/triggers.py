"""Which lines each detector must read: one pass of RE2 over the whole text, one set match per line.

Every detector (each detect-secrets plugin, ours, and the three kinds of personal data) has a
trigger here: an RE2 pattern that every finding's line contains, whatever the detector's own
patterns, filters and Python `re` semantics make of that line. The triggers of all detectors form
one alternation that RE2 runs over the UTF-8 bytes of the text at C speed (a DFA: its cost does
not grow with the number of detectors, as one Python `re` pass per trigger did); each line it
touches is then matched once against the set of triggers (RE2's Set) to learn which detectors
read it. A detector then reads only those lines, each once.

A trigger is a literal part of every match (`AKIA`, `ghp_`, `BEGIN ... PRIVATE KEY`), or a
looser pattern that contains every match, written so that it holds under Python's semantics:
`\\d` of a str pattern is any Unicode decimal digit (`\\p{Nd}` here); a pattern compiled with
re.IGNORECASE matches İ and ı for i, K (Kelvin) for k and ſ for s (RE2 folds the last two itself,
`_caseless` adds the first); a match never crosses a line (detect-secrets reads line by line, the
personal-data patterns exclude newlines), so the pass runs with never_nl. A finding's line then
always holds its trigger; tests/tasks/privacy/test_triggers.py compares the scan with one that
runs every detector on every line, over generated lines each detector fires on.

Text that is not valid UTF-8 when encoded (lone surrogates) selects every line for every
detector: slower, never different.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import re2

EMAIL_LINES = "email"
CARD_LINES = "card"
PHONE_INTERNATIONAL = "phone+"  # a candidate with a leading +: what is read without a region
PHONE_ANY = "phone"  # any candidate: what is read in a region

_I = "[iI\u0130\u0131]"  # what Python's re.IGNORECASE matches for i (RE2 folds k and s itself)
_DIGIT = r"\p{Nd}"  # Python's \d in a str pattern
_SPACE = r"\s\v\x1c-\x1f\x85\p{Z}"  # Python's \s in a str pattern (in a class)


def _caseless(pattern: str) -> str:
    """`pattern` (letters, `|`, `?`, `[-_]`, escapes of punctuation: no class names, no flags
    with an i) in any case, as Python's re.IGNORECASE reads it."""
    return "(?i:" + "".join(_I if c in "iI" else c for c in pattern) + ")"


# Words every secret-like key contains (tasks.privacy.context.SECRET_WORDS: `passphrase` and
# `password` hold `pass`, every `..._key` holds `key`, `authorization` holds `auth`).
_SECRET_KEY_WORDS = _caseless("pass|pwd|secret|token|bearer|credential|key|signing|session|auth"
                              "|cookie|salt|hmac")
_QUOTE = "[\"']"
# detect-secrets' keyword plugin: every pattern begins with one of its DENYLIST words.
_DENYLIST = _caseless("api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key"
                      "|private_?key|client_?key|db_?pass|database_?pass|key_?pass|password|passwd"
                      "|pwd|secret|contraseña|contrasena")
# build_assignment_regex (IBM, SoftLayer, Cloudant): a key word, an optional quote and bracket,
# spaces, then `=`, `:`, `:=`, `=>`, `::` or a space.
_ASSIGNED = "[\"']?\\]? *[=: ]"
# BasicAuth's user and password: none of these ASCII characters (nor Python's Unicode spaces,
# which RE2's \s does not exclude: a looser class).
_URL_PART = "[^:/?#\\[\\]@!$&'()*+,;=\\s]+"

# Detector name -> trigger. detect-secrets' plugins by class name (their patterns in comments
# where the trigger is not a literal of them), then ours (tasks.privacy.context).
SECRET_TRIGGERS: dict[str, str] = {
    # (?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}, and (?i)aws.{0,20}?(?:key|...)...
    "AWSKeyDetector": "A3T|ABIA|ACCA|AKIA|ASIA|" + _caseless("aws"),
    # (?:\s|=|:|"|^)AKC[a-zA-Z0-9]{10,}..., (?:\s|=|:|"|^)AP[\dABCDEF][a-zA-Z0-9]{8,}...
    "ArtifactoryDetector": f"AKC|AP[{_DIGIT}A-F]",
    "AzureStorageKeyDetector": "AccountKey=",
    # A high-entropy string is kept only beside a secret-like key (is_high_entropy_without_secret_key,
    # before any of its occurrences on the line) and only in quotes (the plugin's own regex).
    "Base64HighEntropyString": f"{_SECRET_KEY_WORDS}[^\n]*{_QUOTE}|{_QUOTE}[^\n]*{_SECRET_KEY_WORDS}",
    "HexHighEntropyString": f"{_SECRET_KEY_WORDS}[^\n]*{_QUOTE}|{_QUOTE}[^\n]*{_SECRET_KEY_WORDS}",
    # ://[^:/?#...\s]+:([^:/?#...\s]+)@
    "BasicAuthDetector": f"://{_URL_PART}:{_URL_PART}@",
    # (?i)(?:cloudant|cl|clou)[_-]?(?:api)?(?:key|pwd|pw|password|pass|token)..., and
    # (?i)https?://[\w-]+:...@[\w-]+\.cloudant\.com
    "CloudantDetector": _caseless(r"cl(?:oudant|ou)?[-_]?(?:api)?(?:key|pw|pass|token)|\.cloudant\.com"),
    # [MNO][a-zA-Z\d_-]{23,25}\.[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27}
    "DiscordBotTokenDetector": f"\\.[a-zA-Z{_DIGIT}_-]{{6}}\\.[a-zA-Z{_DIGIT}_-]{{27}}",
    "GitHubTokenDetector": "gh[pousr]_",
    "GitLabTokenDetector": "glpat-|gldt-|glft-|glsoat-|glrt-|GR1348941|glcbt-|glimt-|glptt-|glagent-|gloas-",
    # (?i)...(?:key|pwd|password|pass|token)(?:"|'|)(?:\]|)(?: *)(?:=|:|:=|=>| +|::)(?: *)
    # (?:"|'|)([a-zA-Z0-9_\-]{44}(?![a-zA-Z0-9_\-]))...
    "IbmCloudIamDetector": _caseless("(?:key|pwd|password|pass|token)[\"']?\\]? *(?:=|:|:=|=>| +|::)"
                                     " *[\"']?[a-z0-9_\u0130\u0131-]{44}"),
    # (?i)...(?:secret[-_]?(?:access)?[-_]?key)(?:"|'|)(?:\]|)(?: *)(?:=|:|:=|=>| +|::)...
    "IbmCosHmacDetector": _caseless("secret[-_]?(?:access)?[-_]?key") + _ASSIGNED,
    "JwtTokenDetector": "eyJ",
    "KeywordDetector": _DENYLIST,
    "MailchimpDetector": "-us[0-9]",  # [0-9a-z]{32}-us[0-9]{1,2}
    "NpmDetector": ":_authToken=",  # \/\/.+\/:_authToken=\s*...
    "OpenAIDetector": "T3BlbkFJ",
    "PrivateKeyDetector": "BEGIN [A-Z0-9 ]*PRIVATE KEY|PuTTY-User-Key-File-2",
    "PypiTokenDetector": "pypi-AgE",
    "SendGridDetector": r"SG\.",
    # (?i)xox(?:a|b|p|o|s|r)-(?:\d+-)+[a-z0-9]+, (?i)https://hooks\.slack\.com/services/...
    "SlackDetector": _caseless(r"xox[abposr]-|hooks\.slack\.com"),
    # (?i)...(?:softlayer|sl)[_-]?(?:api)?[_-]?(?:key|pwd|password|pass|token)..., and
    # (?i)(?:http|https)://api.softlayer.com/soap/...
    "SoftlayerDetector": _caseless("softlayer|sl[-_]?(?:api)?[-_]?(?:key|pwd|pass|token)"),
    "SquareOAuthDetector": "sq0csp-",
    "StripeDetector": "k_live_",  # (?:r|s)k_live_[0-9a-zA-Z]{24}
    "TelegramBotTokenDetector": ":[0-9A-Za-z_-]{35}",  # \d{8,10}:[0-9A-Za-z_-]{35}
    "TwilioKeyDetector": "AC[a-z0-9]{32}|SK[a-z0-9]{32}",
    # (?i)<key ending in a secret word>(?:[_-]?<data suffix>)?<closing quotes>\s*(?:=>|:=|[:=])...:
    # after the word's trigger, the rest of the word, the suffix, quotes and spaces
    "KeyedValueDetector": f"{_SECRET_KEY_WORDS}[\\pL\\pN_\"'\\]{_SPACE}-]*[:=]",
    "GoogleApiKeyDetector": "AIza",
    "GitHubFineGrainedTokenDetector": "github_pat_",
    "NpmTokenDetector": "npm_",
}

# Personal data (tasks.privacy.detect): an e-mail address's local part ends and its domain
# begins around the @; a card number is 13-19 digits with single spaces or dashes between; a
# phone candidate is \+?\(?\d[\d ().-]{5,}\d, and without a region only one with a + is read.
PII_TRIGGERS: dict[str, str] = {
    EMAIL_LINES: "[A-Za-z0-9._%+-]@[A-Za-z0-9]",
    CARD_LINES: f"{_DIGIT}(?:[ -]?{_DIGIT}){{12,18}}",
    PHONE_INTERNATIONAL: f"\\+\\(?{_DIGIT}",
    PHONE_ANY: f"{_DIGIT}[{_DIGIT} ().-]{{5,}}{_DIGIT}",
}


@dataclass(frozen=True)
class Selection:
    """Line number (1-based) -> names of the detectors that read it; every line of the text, for
    every detector, when the text could not be encoded (`everything`)."""

    lines: dict[int, list[str]]
    everything: bool = False


class _Triggers:
    """The detectors' triggers compiled for one pass (alternation) and one set (per line)."""

    def __init__(self, names: Sequence[str]) -> None:
        patterns = {**SECRET_TRIGGERS, **PII_TRIGGERS}
        self.names = tuple(names)
        options = re2.Options()
        options.never_nl = True
        options.log_errors = False
        options.max_mem = 64 << 20
        alternation = "|".join(f"(?:{patterns[n]})" for n in self.names)
        self.any = re2.compile(alternation.encode(), options)._regexp
        self.set = re2.Set.SearchSet(options)
        for name in self.names:
            self.set.Add(patterns[name].encode())
        self.set.Compile()


@lru_cache(maxsize=8)
def _compiled(names: tuple[str, ...]) -> _Triggers:
    return _Triggers(names)


def known(name: str) -> bool:
    """Has this detector a trigger? (One without is run on every line.)"""
    return name in SECRET_TRIGGERS or name in PII_TRIGGERS


def _touched_lines(data: bytes, triggers: _Triggers) -> Iterator[tuple[int, bytes]]:
    """(line number, line bytes) of every line some trigger matches, in order."""
    unanchored: Any = re2._Anchor.UNANCHORED
    end, pos, number, counted = len(data), 0, 1, 0
    while pos <= end:
        start = triggers.any.Match(unanchored, data, pos, end)[0][0]
        if start < 0:
            return
        first = data.rfind(b"\n", 0, start) + 1
        last = data.find(b"\n", start)
        last = end if last < 0 else last
        number += data.count(b"\n", counted, first)
        counted = first
        yield number, data[first:last]
        pos = last + 1


def select_lines(text: str, names: Sequence[str]) -> Selection:
    """The lines of `text` (split on "\\n", as tasks.privacy.detect splits them) that each named
    detector must read."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: read everything
        return Selection({}, everything=True)
    triggers = _compiled(tuple(names))
    selected: dict[int, list[str]] = {}
    for number, line in _touched_lines(data, triggers):
        hits = triggers.set.Match(line)
        if hits:
            selected[number] = [triggers.names[i] for i in sorted(hits)]
    return Selection(selected)
