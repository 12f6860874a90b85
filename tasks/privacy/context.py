"""Keyword context and the few formats detect-secrets 1.5 has no plugin for.

A hex or base64 string of high entropy is a secret only beside a secret-like key (`api_key:`,
`"client_secret": "..."`, `Authorization: Bearer ...`): on its own it is an ETag, a commit SHA,
a checksum, an integrity hash or an image. `is_high_entropy_without_secret_key` is a
detect-secrets filter (registered by import path, as detect-secrets loads its own), and
`KeyedValueDetector` finds the unquoted values under such keys that the quoted-string
high-entropy plugins cannot see in markdown. The other detectors are token formats with a fixed
prefix: Google API keys, GitHub fine-grained tokens, npm tokens. Two of detect-secrets' own
filters are called with more context: its UUID filter (not for npm's `_authToken=`, where
legacy tokens are UUIDs) and its indirect-reference filter (per secret: a quoted literal passed
to a call is still a secret).

Imported by detect-secrets (filters) and by tasks.privacy.detect when it configures the
plugins, never at start-up: detect-secrets is heavy to import.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Generator
from typing import Any

from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin

# Words that make a key secret-like. A key ends with one (`GITHUB_TOKEN`, `db_password`,
# `authToken`), optionally followed by a data suffix (`client-key-data`); `tokenizer`,
# `author`, `private_key_id` and `password_min_length` do not.
SECRET_WORDS = (
    r"passw(?:or)?d|passphrase|pwd|secret|token|bearer|credentials?|api[_-]?key|apikey"
    r"|priv(?:ate)?[_-]?key|client[_-]?key|signing(?:[_-]?key)?|access[_-]?key|account[_-]?key"
    r"|auth[_-]?key|encryption[_-]?key|master[_-]?key|session(?:[_-]?key)?|auth"
    r"|authorization|cookie|salt|hmac"
)
_KEY = rf"(?<![A-Za-z0-9])[\w.-]*?(?:{SECRET_WORDS})(?:[_-]?(?:data|value|b64|base64|hex))?"
# ... then the end of the key (a closing quote or bracket), the assignment, an auth scheme.
_ASSIGN = r"[\"'\]]{0,2}\s*(?:=>|:=|[:=])\s*(?:(?:bearer|basic|token)\s+)?[\"'`]?"
_KEY_BEFORE_VALUE = re.compile(rf"{_KEY}{_ASSIGN}$|{_KEY}[\"']?\s+[\"'`]?$", re.IGNORECASE)
_VALUE = r"[A-Za-z0-9+/_\-.~]{16,}={0,2}"
_KEYED_VALUE = re.compile(rf"{_KEY}{_ASSIGN}({_VALUE})(?![\w+/=.~-])", re.IGNORECASE)
_HEX = re.compile(r"[0-9a-fA-F]+")
# English words that only begin like detect-secrets' keyword `secret\w*`: minutes and
# org pages write `Secretary: Hana Okafor`, which is a role, not a credential.
_WORD_KEY_BEFORE_VALUE = re.compile(
    r"(?<![\w-])(?:secretar(?:y|ies|iat)|secretions?|secretive|secretly)[\"'\]]{0,2}\s*:=?\s*[\"'`]?$",
    re.IGNORECASE)


def shannon_entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def secret_key_before(line: str, value: str) -> bool:
    """Is `value` on `line` right after a secret-like key (and its assignment)?"""
    at = line.find(value)
    while at >= 0:
        if _KEY_BEFORE_VALUE.search(line[max(0, at - 200):at]):
            return True
        at = line.find(value, at + 1)
    return False


def ordinary_word_key_before(line: str, value: str) -> bool:
    """Is `value` on `line` right after an ordinary word that only looks like a secret key
    (`Secretary:`), and not itself random-looking? A token there is still a secret."""
    at = line.find(value)
    words = value.split(maxsplit=1)
    return (at >= 0 and bool(_WORD_KEY_BEFORE_VALUE.search(line[max(0, at - 40):at]))
            and not looks_random(words[0] if words else value))


# Words of a sentence, never of a credential: a phrase after a secret keyword that has one is the
# sentence going on ("These need the client's password: quarantine the item and tell the case
# team."). A passphrase of bare words ("correct horse battery staple") has none and stays a secret.
_FUNCTION_WORDS = frozenset(
    "a an the and or but to of in on for with from by is are be it its this that these those we "
    "you our your their them then if when not no".split())


def reads_as_prose(value: str) -> bool:
    """Is `value` (what the keyword plugin took after `password:`) a sentence, not a secret?
    Three or more words, none random-looking, one of them a function word."""
    words = value.split()
    return (len(words) >= 3 and not any(looks_random(word) for word in words)
            and any(word.strip(".,;:!?()\"'").lower() in _FUNCTION_WORDS for word in words))


def is_high_entropy_without_secret_key(secret: str, plugin: Any, line: str) -> bool:
    """detect-secrets filter: a high-entropy string with no secret-like key before it."""
    return isinstance(plugin, HighEntropyStringsPlugin) and not secret_key_before(line, secret)


def is_potential_uuid(secret: str, plugin: Any) -> bool:
    """detect-secrets' UUID filter, except for npm's `_authToken=` (legacy npm tokens are UUIDs)."""
    from detect_secrets.filters.heuristic import is_potential_uuid as uuid_shaped
    from detect_secrets.plugins.npm import NpmDetector

    return not isinstance(plugin, NpmDetector) and uuid_shaped(secret)


def is_indirect_reference(secret: str, line: str, context: Any) -> bool:
    """detect-secrets' indirect-reference filter (`secret = get_secret()`), judged per secret:
    a quoted literal in the call (`client(aws_secret_access_key="...")`) is still a secret."""
    from detect_secrets.filters.heuristic import is_indirect_reference as call_on_line

    del context  # asked for so detect-secrets runs this filter per secret, not per line
    quoted = any(f"{q}{secret}{q}" in line for q in "\"'`")
    return not quoted and call_on_line(line)


def looks_random(value: str) -> bool:
    """Letters and digits mixed with the entropy of a random string of that alphabet."""
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    return shannon_entropy(value) >= (3.0 if _HEX.fullmatch(value) else 3.5)


class KeyedValueDetector(RegexBasedDetector):
    """A random-looking value under a secret-like key, quoted or not (`api_token: 9f2c...`,
    `Authorization: Bearer ...`): the keyword context of a high-entropy string."""

    secret_type = "Secret Keyword"  # detect-secrets' type for a value under a secret keyword
    denylist = (_KEYED_VALUE,)  # its trigger: tasks.privacy.triggers

    def analyze_string(self, string: str) -> Generator[str, None, None]:
        for match in _KEYED_VALUE.finditer(string):
            if looks_random(match.group(1)):
                yield match.group(1)


class GoogleApiKeyDetector(RegexBasedDetector):
    secret_type = "Google API Key"
    denylist = (re.compile(r"AIza[0-9A-Za-z_-]{35}"),)


class GitHubFineGrainedTokenDetector(RegexBasedDetector):
    secret_type = "GitHub Token"  # detect-secrets' type for the classic formats
    denylist = (re.compile(r"github_pat_[0-9A-Za-z_]{82}"),)


class NpmTokenDetector(RegexBasedDetector):
    secret_type = "NPM tokens"  # detect-secrets' type for .npmrc auth tokens
    denylist = (re.compile(r"npm_[0-9A-Za-z]{36}"),)


EXTRA_PLUGINS = (KeyedValueDetector, GoogleApiKeyDetector, GitHubFineGrainedTokenDetector,
                 NpmTokenDetector)
