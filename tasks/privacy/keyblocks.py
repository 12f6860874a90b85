"""Private key blocks: the lines a key spans, and whether its body is a key or a placeholder.

detect-secrets' PrivateKeyDetector matches the BEGIN line only (`BEGIN RSA PRIVATE KEY`,
`PuTTY-User-Key-File-2`, ...). A block goes on to its END line (`-----END RSA PRIVATE KEY-----`,
PuTTY's `Private-MAC:`), and everything in between is the key: a redaction replaces every line
of the block, and a body left without its BEGIN line (an END line under base64 lines, as a
redaction that took the BEGIN line only leaves it) is a key too.

A body is real when it holds at least `REAL_BODY_CHARS` characters of base64 words of high
entropy; documentation writes `-----BEGIN PRIVATE KEY-----\\n...` or `<your key>` instead.
A block may also sit on one line, its line breaks escaped (`"-----BEGIN ...\\nMIIE...\\n-----END
...-----\\n"` in JSON): its body is then the rest of that line. Pure functions over lines.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

MAX_BLOCK_LINES = 400  # an RSA-16384 PEM is about 220 lines
REAL_BODY_CHARS = 40  # an Ed25519 PKCS#8 key is one 64-character line
_ELLIPSIS_BODY_CHARS = 128  # a body cut short with "..." is a placeholder below this
_BASE64_WORD = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")
_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|^\s*Private-MAC:")
END_PRIVATE_KEY = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d")


@dataclass(frozen=True)
class KeyBlock:
    """Lines `first`..`last` (1-based, inclusive) of one private key, and its body's text."""

    first: int
    last: int
    body: str

    @property
    def real(self) -> bool:
        return real_body(self.body)


def _entropy(word: str) -> float:
    counts = Counter(word)
    return -sum(n / len(word) * math.log2(n / len(word)) for n in counts.values())


def real_body(body: str) -> bool:
    """Does `body` hold key material (base64 of high entropy), not a stand-in?"""
    words = [w for w in _BASE64_WORD.findall(body) if _entropy(w) >= 3.5]
    chars = sum(len(w) for w in words)
    if "..." in body or "\u2026" in body:
        return chars >= _ELLIPSIS_BODY_CHARS
    return chars >= REAL_BODY_CHARS


def block_at(lines: Sequence[str], number: int, marker: str) -> KeyBlock:
    """The block whose BEGIN `marker` is on line `number` (1-based)."""
    line = lines[number - 1]
    at = line.find(marker)
    rest = line[at + len(marker):] if at >= 0 else line
    if _END.search(rest):  # the whole block on one line (escaped line breaks)
        return KeyBlock(number, number, rest)
    body = [rest]
    last = number
    for later in range(number, min(len(lines), number + MAX_BLOCK_LINES)):
        text = lines[later]
        if _BEGIN.search(text):
            break  # the next block begins: this one had no END
        if _END.search(text):
            return KeyBlock(number, later + 1, "\n".join([*body, text]))
        body.append(text)
        if _BASE64_WORD.search(text):
            last = later + 1
        elif not text.strip() and last > number:
            break  # no END: the body ends at the first blank line after it began
    return KeyBlock(number, last, "\n".join(body[: last - number + 1]))


def orphan_bodies(lines: Sequence[str], covered: set[int]) -> list[KeyBlock]:
    """Bodies above an END line whose BEGIN line is gone (lines in `covered` belong to blocks
    already found): the base64 lines right above the END line, up to a blank line."""
    found: list[KeyBlock] = []
    for index, text in enumerate(lines):
        number = index + 1
        if number in covered or not END_PRIVATE_KEY.search(text):
            continue
        first = number
        while first > 1 and number - first < MAX_BLOCK_LINES:
            above = lines[first - 2]
            if not above.strip() or _BEGIN.search(above) or not _BASE64_WORD.search(above):
                break
            first -= 1
        block = KeyBlock(first, number, "\n".join(lines[first - 1:number]))
        if block.real:
            found.append(block)
    return found


_PEM_LINE = re.compile(r"[A-Za-z0-9+/]{64}|[A-Za-z0-9+/]{70}")  # PEM and OpenSSH wrap widths
_LAST_LINE = re.compile(r"[A-Za-z0-9+/]{4,70}={0,2}")
_OTHER_BEGIN = re.compile(r"-----BEGIN (?![A-Z0-9 ]*PRIVATE KEY)[A-Z0-9 ]+-----")
BARE_BODY_LINES = 3  # an Ed25519 OpenSSH key is 5 wrapped lines, an EC P-256 key 3


def bare_bodies(lines: Sequence[str]) -> list[KeyBlock]:
    """Runs of at least BARE_BODY_LINES lines wrapped like a PEM body (64 or 70 base64
    characters each, the last one shorter) with no BEGIN or END line at all: what is left of a
    key whose marker lines were taken out. A run right under another BEGIN line (a certificate,
    a public key) is that block's body, not a key."""
    found: list[KeyBlock] = []
    index = 0
    while index < len(lines):
        start = index
        while index < len(lines) and _PEM_LINE.fullmatch(lines[index].strip()):
            index += 1
        end = index  # lines[start:end] are full-width lines
        if end < len(lines) and end > start and _LAST_LINE.fullmatch(lines[end].strip()):
            end += 1
        above = lines[start - 1] if start > 0 else ""
        block = KeyBlock(start + 1, end, "\n".join(lines[start:end]))
        if end - start >= BARE_BODY_LINES and not _OTHER_BEGIN.search(above) and block.real:
            found.append(block)
        index = max(end, start + 1)
    return found
