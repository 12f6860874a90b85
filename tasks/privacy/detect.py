"""Secret and personal-data detection over text already in memory (pure: no file I/O).

Secrets come from detect-secrets' own plugins and filters (cloud keys, private keys, tokens,
high-entropy strings, keyword passwords; every built-in plugin except public IP addresses,
which are not credentials), plus a few formats it lacks (tasks.privacy.context). Precision
comes from context, not from file names: a hex or base64 string is a secret only beside a
secret-like key (an ETag, a commit SHA or a checksum is not); detect-secrets' word-list filter
drops values marked as examples (AKIAIOSFODNN7EXAMPLE, YOUR_API_KEY); a private key block is a
secret only when its body is key material, not `...` (tasks.privacy.keyblocks), and it spans
its whole block. Personal data (PII) comes from a small documented set:

  Email Address        an RFC 5322-ish address; reserved example domains (RFC 2606/6761:
                       example.com/.net/.org, *.example, *.test, *.invalid, *.localhost) skipped
  Phone Number         libphonenumber (`phonenumbers`) on candidate digit runs, leniency VALID;
                       numbers without a leading + are read in `phone_region` (None: + only)
  Payment Card Number  13-19 digits (spaces or dashes allowed) with a card-network prefix
                       (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro) and a
                       valid Luhn check digit (python-stdnum)

Speed: detect-secrets runs every plugin on every line through injected calls (about 0.16 MB/s
here), and one Python regex pass per plugin trigger cost about as much as counting the text's
tokens. Each detector has a trigger (tasks.privacy.triggers) that every line it could report
holds; one RE2 pass over the text finds the lines any trigger touches, one set match per such
line says which detectors read it, and each detector reads only those lines, once.
detect-secrets' filters run only where a plugin found something.

The secret value never leaves this module: a finding carries a masked preview and the sha1
fingerprint detect-secrets' baseline uses (`hashed_secret`), never the value.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from tasks.privacy.keyblocks import bare_bodies, block_at, orphan_bodies
from tasks.privacy.triggers import (
    CARD_LINES,
    EMAIL_LINES,
    PHONE_ANY,
    PHONE_INTERNATIONAL,
    Selection,
    known,
    select_lines,
)

Category = Literal["secret", "pii"]

# Plugins that flag things which are not credentials in a memory of documents.
_SKIPPED_PLUGINS = frozenset({"IPPublicDetector"})
# The keyword plugin reads every file as a config file, so `password = hunter2` (unquoted, as
# people write it in notes, and inside JSON strings of chat transcripts) is found; by the file's
# own type detect-secrets would need quotes in markdown, text, HTML and JSON.
_KEYWORD_FILE_NAME = "memory.cfg"
# A file name is scanned as the one line of a text file with this name (detect-secrets picks
# its per-file-type rules and filters by the name; the real name may be any extension).
_NAME_SCAN_FILE = "file-name.txt"
NAME_LINE = 0  # the line number of a finding in a file's name
# Words that mark a value as an example or a stand-in (AKIAIOSFODNN7EXAMPLE, YOUR_API_KEY,
# dummy-secret): detect-secrets' word-list filter drops a secret that contains one.
EXAMPLE_WORDS = Path(__file__).with_name("example-words.txt")
# Filters of tasks.privacy.context: a hex or base64 string is a secret only beside a secret-like
# key; and two of detect-secrets' own filters, replaced by calls with more context.
_REPLACED_FILTERS = ("detect_secrets.filters.heuristic.is_potential_uuid",
                     "detect_secrets.filters.heuristic.is_indirect_reference")
# The class names of _configured_plugins()'s plugins, in its order (tests/tasks/privacy/test_detect.py
# holds them to it): the triggers select lines by these names, so a text where no secret trigger
# selects a line is passed without importing and configuring detect-secrets (~0.2 s of cpu, most
# of it requests and urllib3 imported by its plugin base) just to learn them.
PLUGIN_NAMES = (
    "AWSKeyDetector", "ArtifactoryDetector", "AzureStorageKeyDetector", "Base64HighEntropyString",
    "BasicAuthDetector", "CloudantDetector", "DiscordBotTokenDetector", "GitHubTokenDetector",
    "GitLabTokenDetector", "HexHighEntropyString", "IbmCloudIamDetector", "IbmCosHmacDetector",
    "JwtTokenDetector", "KeywordDetector", "MailchimpDetector", "NpmDetector", "OpenAIDetector",
    "PrivateKeyDetector", "PypiTokenDetector", "SendGridDetector", "SlackDetector",
    "SoftlayerDetector", "SquareOAuthDetector", "StripeDetector", "TelegramBotTokenDetector",
    "TwilioKeyDetector",
    # ours (tasks.privacy.context.EXTRA_PLUGINS)
    "KeyedValueDetector", "GoogleApiKeyDetector", "GitHubFineGrainedTokenDetector",
    "NpmTokenDetector",
)
_PLUGIN_NAME_SET = frozenset(PLUGIN_NAMES)
_OUR_FILTERS = ("tasks.privacy.context.is_high_entropy_without_secret_key",
                "tasks.privacy.context.is_potential_uuid",
                "tasks.privacy.context.is_indirect_reference")
# A sha256 digest (bare or "sha256:"-prefixed): the content addresses membank itself writes.
_DIGEST_RE = re.compile(r"^(?:sha256:)?[0-9a-f]{64}$")

# Values documentation uses as stand-ins (`http://user:pass@host`, `password = changeme`): not
# credentials. Compared case-insensitively; a value of one repeated character (xxxx, ****) too.
PLACEHOLDERS = frozenset({
    "pass", "password", "passwd", "pwd", "secret", "changeme", "change-me", "example", "test",
    "token", "apikey", "api_key", "your-password", "yourpassword", "mypassword", "my-password",
    "redacted", "none", "null", "dummy", "placeholder", "foo", "bar", "foobar", "username", "user",
    # type names: `password: str` in a signature or a schema
    "str", "string", "int", "bytes", "bool", "secretstr", "text", "varchar",
})
_SHORT_NUMBER_RE = re.compile(r"\d{1,7}")  # `password_min_length = 14`: a setting, not a PIN

PRIVATE_KEY = "Private Key"  # detect-secrets' type name
EMAIL = "Email Address"
PHONE = "Phone Number"
CARD = "Payment Card Number"
PII_KINDS = (EMAIL, PHONE, CARD)

_EMAIL_RE = re.compile(
    r"(?<![\w.+%:/-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@"
    r"((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24})(?![\w-])")
_RESERVED_EMAIL_DOMAINS = frozenset({"example.com", "example.net", "example.org", "localhost"})
_RESERVED_EMAIL_TLDS = (".example", ".test", ".invalid", ".localhost")
# `cv@cv.txt` in a curl example is a file, not an address: domains ending in a file extension.
_FILE_EXTENSIONS = frozenset({
    "txt", "md", "json", "yaml", "yml", "toml", "ini", "cfg", "csv", "xml", "html", "htm", "png",
    "jpg", "jpeg", "gif", "svg", "pdf", "zip", "gz", "tar", "py", "js", "ts", "sh", "log", "lock"})
_CARD_RE = re.compile(r"(?<![\w.-])\d(?:[ -]?\d){12,18}(?![\w-]|\.\d)")
# Issuer prefixes (first digits) and lengths of the major card networks.
_CARD_PREFIXES = re.compile(
    r"^(?:4\d{12}(?:\d{3}){0,2}"                       # Visa 13, 16, 19
    r"|(?:5[1-5]\d{2}|222[1-9]|22[3-9]\d|2[3-6]\d{2}|27[01]\d|2720)\d{12}"  # Mastercard
    r"|3[47]\d{13}"                                    # American Express
    r"|6(?:011|5\d{2}|4[4-9]\d)\d{12,15}"              # Discover
    r"|35(?:2[89]|[3-8]\d)\d{12,15}"                   # JCB
    r"|3(?:0[0-5]|[68]\d)\d{11,16}"                    # Diners Club
    r"|62\d{14,17}"                                    # UnionPay
    r"|(?:5018|5020|5038|6304|6759|676[1-3])\d{8,15})$"  # Maestro
)
_PHONE_CANDIDATE_RE = re.compile(r"(?<![\w.])\+?\(?\d[\d ().-]{5,}\d(?![\w])")


@dataclass(frozen=True)
class PrivacyFinding:
    """One suspected secret or piece of personal data. Never holds the value itself."""

    path: str
    line: int
    kind: str  # detect-secrets' secret type, or one of PII_KINDS
    category: Category
    preview: str  # masked: a few leading characters, then stars and the length
    fingerprint: str  # sha1 hex of the value: detect-secrets' baseline `hashed_secret`

    def one_line(self) -> str:
        return f"{self.path}:{self.line}: {self.kind} ({self.category}) {self.preview}"


@dataclass(frozen=True)
class DetectOptions:
    """What to look for. `phone_region`: ISO 3166 region for numbers written without +."""

    secrets: bool = True
    pii: bool = True
    phone_region: str | None = None


def mask(value: str) -> str:
    """A preview that identifies a finding to its owner without disclosing it."""
    shown = min(4, len(value) // 5)
    return f"{value[:shown]}{'*' * min(max(len(value) - shown, 1), 12)} ({len(value)} chars)"


def fingerprint(value: str) -> str:
    return hashlib.sha1(value.encode("utf-8")).hexdigest()  # detect-secrets' baseline hash


# --------------------------------------------------------------------------------------------
# Lines and the detectors that read them


class _Lines:
    """The text's lines (1-based, as detect-secrets reads them), and which detectors read which
    line (tasks.privacy.triggers), computed once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._lines: list[str] | None = None
        self._selection: Selection | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            parts = self.text.split("\n")
            self._lines = [line.rstrip("\r") for line in parts] if "\r" in self.text else parts
        return self._lines

    def selected(self, names: Sequence[str]) -> Selection:
        """Line -> the named detectors (of those given) whose trigger it holds."""
        if self._selection is None:
            self._selection = select_lines(self.text, names)
        return self._selection

    def reading(self, selection: Selection, name: str) -> Iterator[tuple[int, str]]:
        """(number, line) of every line detector `name` reads, in order."""
        if selection.everything or not known(name):
            yield from enumerate(self.lines, start=1)
            return
        all_lines = self.lines
        for number, names in selection.lines.items():
            if name in names:
                yield number, all_lines[number - 1]


# --------------------------------------------------------------------------------------------
# Secrets: detect-secrets' plugins and filters


_CONFIGURE = threading.RLock()  # ingest prepares batches on threads; detect-secrets is global


def _plugins() -> tuple[Any, ...]:
    with _CONFIGURE:
        return _configured_plugins()


def _import_detect_secrets() -> None:
    """Import detect-secrets whole, once, under _CONFIGURE. Its package imports a cycle of its
    own modules (secrets_collection -> scan -> filters.allowlist -> util), and two ingest
    threads that import two of them at once (one for a line's allowlist pragma, one for the
    plugins) get a partially initialised module: an ImportError that failed whole sources."""
    with _CONFIGURE:
        _imported_detect_secrets()


@lru_cache(maxsize=1)
def _imported_detect_secrets() -> None:
    import detect_secrets.core.scan
    import detect_secrets.filters.allowlist
    import detect_secrets.filters.heuristic
    import detect_secrets.plugins.keyword
    import detect_secrets.plugins.npm
    import detect_secrets.settings
    import detect_secrets.util.code_snippet  # noqa: F401


@lru_cache(maxsize=1)
def _configured_plugins() -> tuple[Any, ...]:
    """detect-secrets' built-in plugins with its default filters, configured once per process."""
    _imported_detect_secrets()
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.filters import wordlist
    from detect_secrets.settings import get_filters, get_plugins, get_settings

    from tasks.privacy.context import EXTRA_PLUGINS  # imports detect-secrets: only here

    plugin_classes: dict[str, type] = get_mapping_from_secret_type_to_class()
    names = sorted(c.__name__ for c in plugin_classes.values())
    settings = get_settings()
    settings.configure_plugins([{"name": n} for n in names if n not in _SKIPPED_PLUGINS])
    # Text is scanned from memory, not from a file on disk (as detect-secrets' adhoc scan does).
    settings.disable_filters("detect_secrets.filters.common.is_invalid_file")
    settings.disable_filters(*_REPLACED_FILTERS)
    settings.filters.update(dict.fromkeys(_OUR_FILTERS, {}))
    wordlist.initialize(str(EXAMPLE_WORDS), min_length=4)  # detect-secrets' word-list filter
    get_filters.cache_clear()
    return (*get_plugins(), *(cls() for cls in EXTRA_PLUGINS))


_WHOLE_VALUE = 8  # a value this long is the secret itself, not a group of its pattern


def _is_digest(line: str, value: str) -> bool:
    """A sha256 digest, unless a secret-like key holds it (`webhook_secret: <64 hex>`)."""
    from tasks.privacy.context import secret_key_before

    return bool(_DIGEST_RE.match(value)) and not secret_key_before(line, value)


def _whole_token(line: str, value: str) -> str:
    """The value grown to the whole token around it: some plugins report a regex group only
    (GitHub's gives "ghp"), and a preview, fingerprint or redaction needs the token."""
    at = line.find(value)
    if at < 0 or len(value) >= _WHOLE_VALUE:
        return value
    start, end = at, at + len(value)
    while start > 0 and (line[start - 1].isalnum() or line[start - 1] in "_-"):
        start -= 1
    while end < len(line) and (line[end].isalnum() or line[end] in "_-"):
        end += 1
    return line[start:end]


def _plugin_lines(plugins: tuple[Any, ...], lines: _Lines, selection: Selection) -> dict[int, list[Any]]:
    """line number -> the plugins that read it, in the plugins' order."""
    by_name = {type(p).__name__: p for p in plugins}
    if not selection.everything and all(known(name) for name in by_name):
        chosen = ((n, [by_name[name] for name in names if name in by_name])
                  for n, names in selection.lines.items())
        return {n: found for n, found in chosen if found}
    wanted: dict[int, list[Any]] = {}
    for plugin in plugins:  # a plugin without a trigger (a newer detect-secrets) reads every line
        for number, _line in lines.reading(selection, type(plugin).__name__):
            wanted.setdefault(number, []).append(plugin)
    return wanted


def _scan_secrets(path: str, lines: _Lines, selection: Selection) -> Iterator[tuple[int, int, str, str]]:
    """(first line, last line, kind, value) of every secret detect-secrets finds and does not
    filter out; a private key spans its whole block (tasks.privacy.keyblocks).

    Each line a trigger selected goes once through the plugins that selected it; detect-secrets'
    line filters (allowlist pragma, indirect references: regexes that cost more than most
    plugins) run only on the few lines where a plugin found something."""
    plugins = _plugins()  # imports and configures detect-secrets (filters too): first
    # detect-secrets keeps these private; pinned <2 in pyproject, and tested on every kind.
    from detect_secrets.core.scan import _is_filtered_out, _scan_line
    from detect_secrets.plugins.keyword import KeywordDetector
    from detect_secrets.util.code_snippet import get_code_snippet

    from tasks.privacy.context import ordinary_word_key_before, reads_as_prose

    if _is_filtered_out(required_filter_parameters=["filename"], filename=path):
        return
    wanted = _plugin_lines(plugins, lines, selection)
    all_lines = lines.lines
    key_lines: set[int] = set()
    for number in sorted(wanted):
        line = all_lines[number - 1]
        context = get_code_snippet(lines=all_lines, line_number=number)
        candidates = [
            (plugin, name, secret)
            for plugin in wanted[number]
            for name in (_KEYWORD_FILE_NAME if isinstance(plugin, KeywordDetector) else path,)
            for secret in _scan_line(plugin=plugin, filename=name, line=line, line_number=number,
                                     context=context)]
        if not candidates or _is_filtered_out(required_filter_parameters=["line"], filename=path,
                                              line=line, context=context):
            continue  # nothing, or e.g. `pragma: allowlist secret`
        seen: set[str] = set()  # one finding per value, of the first plugin that names it
        for plugin, name, secret in candidates:
            value = secret.secret_value or ""
            if value in seen or is_placeholder(value) or _is_digest(line, value):
                continue
            if isinstance(plugin, KeywordDetector) and (ordinary_word_key_before(line, value)
                                                        or reads_as_prose(value)):
                continue  # `Secretary: Hana Okafor` (the keyword plugin reads `secret\w*:`), a sentence
            if _is_filtered_out(required_filter_parameters=["context"], filename=name,
                                secret=value, plugin=plugin, line=line, context=context):
                continue
            seen.add(value)
            last = number
            if secret.type == PRIVATE_KEY:
                block = block_at(all_lines, number, value)
                if not block.real:
                    continue  # `-----BEGIN PRIVATE KEY-----\n...`: a placeholder
                last = block.last
                key_lines.update(range(number, last + 1))
            yield number, last, secret.type, value
    if "-----END" in lines.text:  # a key body whose BEGIN line is gone
        for block in orphan_bodies(all_lines, key_lines):
            yield block.first, block.last, PRIVATE_KEY, block.body.strip()


# --------------------------------------------------------------------------------------------
# Personal data


def _luhn_valid(digits: str) -> bool:
    from stdnum import luhn

    return luhn.is_valid(digits)


def _email_reserved(domain: str) -> bool:
    domain = domain.lower()
    return (domain in _RESERVED_EMAIL_DOMAINS or domain.endswith(_RESERVED_EMAIL_TLDS)
            or any(domain.endswith("." + d) for d in _RESERVED_EMAIL_DOMAINS)
            or domain.rsplit(".", 1)[-1] in _FILE_EXTENSIONS)


def is_placeholder(value: str) -> bool:
    """A stand-in, not a credential. detect-secrets' keyword plugin (in config-file mode) takes
    the rest of the line as the value: `password: str) -> Connection:` is judged by `str`."""
    words = value.split(maxsplit=1)
    folded = (words[0] if words else value).strip("'\"`<>{}[](),; ").casefold()
    return folded in PLACEHOLDERS or len(set(folded)) <= 1 or bool(_SHORT_NUMBER_RE.fullmatch(folded))


def _pii_names(options: DetectOptions) -> tuple[str, ...]:
    return EMAIL_LINES, CARD_LINES, PHONE_ANY if options.phone_region else PHONE_INTERNATIONAL


def _scan_pii(lines: _Lines, selection: Selection,
              options: DetectOptions) -> Iterator[tuple[int, str, str]]:
    """(line, kind, value) of every personal datum found: e-mails, then cards, then phones, each
    in text order. Every pattern stays within a line and reads a line's edges as it reads "\\n"
    (its look-arounds exclude it), so a line at a time finds what the whole text would."""
    for number, line in lines.reading(selection, EMAIL_LINES):
        for match in _EMAIL_RE.finditer(line):
            if not _email_reserved(match.group(1)):
                yield number, EMAIL, match.group()
    card_spans: dict[int, list[tuple[int, int]]] = {}
    for number, line in lines.reading(selection, CARD_LINES):
        for match in _CARD_RE.finditer(line):
            digits = re.sub(r"[ -]", "", match.group())
            if _CARD_PREFIXES.match(digits) and _luhn_valid(digits):
                card_spans.setdefault(number, []).append(match.span())
                yield number, CARD, match.group()
    yield from _scan_phones(lines, selection, options.phone_region, card_spans)


def _scan_phones(lines: _Lines, selection: Selection, region: str | None,
                 card_spans: dict[int, list[tuple[int, int]]]) -> Iterator[tuple[int, str, str]]:
    name = PHONE_ANY if region else PHONE_INTERNATIONAL
    for number, line in lines.reading(selection, name):
        if not any(region is not None or "+" in m.group() for m in _PHONE_CANDIDATE_RE.finditer(line)):
            continue
        # imported at the first candidate only: its import costs ~0.1 s of a command that
        # ingests one note, and most texts hold no phone number candidate
        import phonenumbers

        for match in phonenumbers.PhoneNumberMatcher(line, region, leniency=phonenumbers.Leniency.VALID):
            if any(a <= match.start < b for a, b in card_spans.get(number, ())):
                continue  # the digits of a card number, already reported as a card
            yield number, PHONE, match.raw_string


# --------------------------------------------------------------------------------------------
# Entry point


@dataclass(frozen=True)
class _Found:
    """A finding with its value: never leaves this module."""

    line: int
    last: int  # the last line it spans (a private key block spans several)
    kind: str
    category: Category
    value: str  # as the detector reports it (detect-secrets' baseline hashes this)
    shown: str  # the whole token around it: what a preview shows and a redaction replaces


def _found(path: str, text: str, options: DetectOptions) -> list[_Found]:
    lines = _Lines(text)
    # Every detector's trigger, whatever `options` leave out: one compiled pass per process
    # serves file names and texts alike (a detector not asked for ignores its lines).
    selection = lines.selected([*PLUGIN_NAMES, *_pii_names(options)])
    found: list[_Found] = []
    if options.secrets and _may_hold_secrets(lines, selection):
        found.extend(_Found(n, last, kind, "secret", value, _whole_token(lines.lines[n - 1], value))
                     for n, last, kind, value in _scan_secrets(path, lines, selection))
    if options.pii:
        pii = list(_scan_pii(lines, selection, options))
        allowlisted = _allowlisted_lines(path, lines, {number for number, _k, _v in pii})
        found.extend(_Found(n, n, kind, "pii", value, value) for n, kind, value in pii
                     if n not in allowlisted)
    return found


def _may_hold_secrets(lines: _Lines, selection: Selection) -> bool:
    """Can _scan_secrets find anything in these lines? Not when no line is selected for a
    plugin (every plugin has a trigger and reads only the lines it selects) and no key's END
    line is there (a key body left without its BEGIN line, found without any plugin)."""
    return (selection.everything or "-----END" in lines.text
            or any(not _PLUGIN_NAME_SET.isdisjoint(names) for names in selection.lines.values()))


def scan_text(path: str, text: str, options: DetectOptions | None = None) -> list[PrivacyFinding]:
    """Every secret and personal datum in `text` (the content of `path`), by line then kind.

    Lines carrying `pragma: allowlist secret` (in any comment style detect-secrets knows, e.g.
    `# ...` or `<!-- ... -->`), or following a `pragma: allowlist nextline secret` line, are
    skipped for secrets and personal data alike."""
    unique: dict[tuple[int, str, str], PrivacyFinding] = {}
    for item in _found(path, text, options or DetectOptions()):
        print_safe = PrivacyFinding(path, item.line, item.kind, item.category, mask(item.shown),
                                    fingerprint(item.value))
        unique.setdefault((item.line, item.kind, print_safe.fingerprint), print_safe)
    return sorted(unique.values(), key=lambda f: (f.line, f.category, f.kind, f.fingerprint))


def redact_text(path: str, text: str, options: DetectOptions | None = None) -> str:
    """`text` with nothing left of any finding. Every line a secret spans (a private key: its
    BEGIN line, body and END line) becomes `[REDACTED <kind>]` (its indentation kept); personal
    data are replaced on their line. The line count does not change."""
    found = _found(path, text, options or DetectOptions())
    if not found:
        return text
    lines = text.split("\n")
    secret_kinds: dict[int, list[str]] = {}
    for item in found:
        if item.category == "secret":
            for number in range(item.line, item.last + 1):
                kinds = secret_kinds.setdefault(number, [])
                if item.kind not in kinds:
                    kinds.append(item.kind)
    for item in sorted(found, key=lambda f: -len(f.shown)):
        if item.category == "pii" and item.line not in secret_kinds:
            lines[item.line - 1] = lines[item.line - 1].replace(item.shown, f"[REDACTED {item.kind}]")
    for number, kinds in secret_kinds.items():
        line = lines[number - 1]
        indent = line[:len(line) - len(line.lstrip())]
        lines[number - 1] = f"{indent}[REDACTED {', '.join(sorted(kinds))}]"
    return "\n".join(lines)


def scan_key_bodies(path: str, text: str) -> list[PrivacyFinding]:
    """Private key bodies left without their BEGIN and END lines (tasks.privacy.keyblocks
    `bare_bodies`), except those scan_text already reports: the audit looks for them in
    proposals/, where an older redaction could leave one."""
    if "-----" in text and "PRIVATE KEY" in text:  # a block scan_text reports may hold it
        spans = [(f.line, f.last) for f in _found(path, text, DetectOptions(pii=False))]
    else:
        spans = []
    return [PrivacyFinding(path, block.first, PRIVATE_KEY, "secret", mask(block.body.strip()),
                           fingerprint(block.body.strip()))
            for block in bare_bodies(_Lines(text).lines)
            if not any(first <= block.last and block.first <= last for first, last in spans)]


def scan_name(name: str) -> list[PrivacyFinding]:
    """Secrets in a file name or path (`name` itself is the text: one line)."""
    return scan_text(_NAME_SCAN_FILE, name.replace("\n", " "), DetectOptions(pii=False))


def redact_name(name: str) -> str:
    """`name` with every secret in it replaced by `REDACTED-<kind>` (a usable file name)."""
    line = name.replace("\n", " ")
    found = _found(_NAME_SCAN_FILE, line, DetectOptions(pii=False))
    for item in sorted(found, key=lambda f: -len(f.shown)):
        kind = re.sub(r"[^a-z0-9]+", "-", item.kind.lower()).strip("-")
        line = line.replace(item.shown, f"REDACTED-{kind}")
    return line


def _allowlisted_lines(path: str, lines: _Lines, numbers: set[int]) -> set[int]:
    if not numbers:
        return set()  # (without importing detect-secrets)
    _import_detect_secrets()
    from detect_secrets.filters.allowlist import is_line_allowlisted
    from detect_secrets.util.code_snippet import get_code_snippet

    return {n for n in numbers if is_line_allowlisted(
        filename=path, line=lines.lines[n - 1],
        context=get_code_snippet(lines=lines.lines, line_number=n))}
