"""Terms a document's structure marks as things, lower case or not (issue 23 item 4): the
bold term a line defines and the first column of a table of components on a reference page, a
heading that names a component; the tools its shell commands run (`etcdctl`); the project of
an organisation it links by repository path only (rust-lang/rust -> Rust); and the lines that
read as code though written as text, where no name is counted. Pure."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from itertools import accumulate

from tasks.extract.non_subjects import written_as_message
from tasks.extract.ordinary_words import ordinary_word
from tasks.extract.structure import Structure, section_key, with_subsections
from tasks.extract.subject_terms import (
    Seen,
    describing,
    field_label,
    holds_terms,
    names_section,
    term_key,
    written_often,
)
from tasks.extract.tech_radar import MIN_RINGS, RINGS, radar_rings
from tasks.extract.text import plain_text
from tasks.markdown.code_spans import code_span_contents, mask_code_spans
from tasks.markdown.fences import fence_language

# Code written as text (an indented example in a list item): "impl<T> Extend for T { ... }".
# (and a diagram's edge, "S[Sensors] --> G[LoRaWAN gateway]": a wiki's Mermaid block is no fence)
_CODE_LINE_RE = re.compile(r"[{};]\s*(?://.*)?$|^\s*//|\w<[\w', ]{1,40}>|\w::\w|\bimpl\b|=>|-->|\)\s*\{")


def code_like_lines(lines: Iterable[tuple[int, str]]) -> set[int]:
    """The indented lines that read as code, not prose (an example under a list item):
    braces, semicolons, generics, paths, a diagram's edges."""
    return {number for number, line in lines
            if line[:2] in _INDENTS and _CODE_HINT_RE.search(line) and _CODE_LINE_RE.search(line)}


_INDENTS = frozenset({"  ", "\t", " \t"})
_CODE_HINT_RE = re.compile(r"[{};<]|::|=>|-->|impl|^\s*//")


_BOLD_TERM_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?\*\*`?([^*`]{2,40}?)`?(?::\*\*|\*\*\s*(?::|—|–|\s-\s))")
_TABLE_NAME_HEADERS = frozenset(
    """component components service services name module modules system systems process
    binary tool tools role container containers subsystem subsystems microservice microservices
    application applications""".split())
# A column that says what each row's thing does: the first column of its table names components
# ("| Container | Responsibility | ...", "| Part | Purpose |"), whatever its header.
_DUTY_HEADERS = frozenset({"responsibility", "responsibilities", "purpose"})
# A column of people: the table lists who holds each role (a RACI chart, a fact sheet's
# subscriptions: "| Role | Person |" with "Responsible", "Accountable"), its first column no things.
_PEOPLE_HEADERS = frozenset({"person", "people", "persons", "who", "name", "names", "contact", "contacts",
                             "assignee", "assignees", "member", "members", "holder", "holders",
                             "subscriber", "subscribers"})
_PROCESS_RE = re.compile(r"(?:ing|tion|sion|ment|ity|ness|ency|ancy|ics|ism)$")


def defined_terms(structure: Structure, prose_text: str) -> Seen:
    """What a reference page marks as its things, lower case or not: the bold term a line
    defines ("**querier**: ...") or a definition list's term, the first column of a table of
    components ("| `router` | ..." under "| Component | ..."), and a heading that names one
    ("## Querier") when the prose writes it twice too (not a process: "## Hashing", nor a field
    a table's header names: a catalog page's "### Lifecycle" beside "| Component | Lifecycle |")."""
    seen: Seen = {}
    naming: bool | None = None  # in a table: does its first column name components?
    previous = (0, "")
    glossary = {number for section in structure.sections[1:]
                if holds_terms(section_key(structure.title(section)))
                for number, _ in with_subsections(structure, section)}  # terms of the domain, not things
    radar = radar_rings(structure) >= MIN_RINGS  # "## Trial": a ring of the radar, no thing
    columns: set[str] = set()  # what a table's header names: a field of each row, no thing
    for number, line in structure.visible:
        if number in structure.heading_lines or number in glossary:
            continue
        bold = _BOLD_TERM_RE.match(line) if "**" in line else None
        if (bold and not field_label(plain_text(bold.group(1))) and not _field_line(line, bold.end())
                and not names_process(plain_text(bold.group(1)))):  # "**Business criticality:** high"
            _add_defined(seen, number, bold.group(1))
        elif line.startswith(": ") and previous[0] == number - 1 and previous[1].strip():
            _add_defined(seen, previous[0], previous[1])  # a definition list: "querier" / ": ..."
        if naming is None and line.lstrip().startswith("|"):  # a table's header: the names of its columns
            columns.update(plain_text(cell).strip().lower() for cell in line.strip().strip("|").split("|"))
        naming = _table_row(seen, number, line, naming)
        previous = (number, line)
    for section in structure.sections[2:]:
        title = structure.title(section)
        if radar and section_key(title) in RINGS:
            continue
        if (section.level >= 2 and 1 <= len(title.split()) <= 3 and not names_process(title)
                and not names_section(title) and written_often(title, prose_text, 2)
                and title.strip().lower() not in columns):  # "### Lifecycle" beside "| ... | Lifecycle |"
            _add_defined(seen, structure.number(section), title)
    return seen


def _field_line(line: str, end: int) -> bool:
    """Is a line that opens with a bold label a line of header fields, not a definition: two
    labels or more ("**Lifecycle:** production · **Tier:** 2"), or a label whose value is a
    date, a number or a version ("**Last reviewed:** 2025-03-01")?"""
    return len(_BOLD_LABEL_RE.findall(line)) >= 2 or _FIELD_VALUE_RE.match(line, end) is not None


# A bold field label: "**Tier:**", "**Owner**:".
_BOLD_LABEL_RE = re.compile(r"\*\*[^*\n]{1,30}?(?::\*\*|\*\*:)")
# A field's value that is a date, a number or a version, alone: "2025-03-01", "2", "v1.4".
_FIELD_VALUE_RE = re.compile(r"[ \t]{0,4}v?\d[\d./:-]*[ \t]*(?:$|[·|,;(])")


def names_process(term: str) -> bool:
    """Does a term name what is done ("Hashing", "Log ingestion", "Replication"), not a thing?"""
    words = term.lower().split()
    return bool(words) and bool(_PROCESS_RE.search(words[-1]))


def _table_row(seen: Seen, number: int, line: str, naming: bool | None) -> bool | None:
    """Read one line of a table: its header (a new table: does its first column name
    components?), else its first cell, a term when the header names components; None once
    the line is no table row."""
    if not line.lstrip().startswith("|"):
        return None
    first = line.strip().strip("|").split("|", 1)[0].strip()
    if naming is None:
        cells = [plain_text(cell).strip().lower() for cell in line.strip().strip("|").split("|")]
        if cells[0] in {"role", "roles"} and any(c in _PEOPLE_HEADERS for c in cells[1:]):
            return False  # "| Role | Person |": who does what, the roles no components
        return plain_text(first).lower() in _TABLE_NAME_HEADERS or any(c in _DUTY_HEADERS for c in cells[1:])
    if naming and not set(first) <= set(":- "):
        _add_defined(seen, number, first)
    return naming


def _add_defined(seen: Seen, number: int, written: str) -> None:
    text = plain_text(written).strip().strip("`").strip()
    if 1 <= len(text.split()) <= 3 and not re.search(r"\d|[^\w\s.-]", text) and not text.isupper():
        seen.setdefault(term_key(text), []).append((number, text))


_SHELLS = frozenset({"sh", "bash", "shell", "console", "terminal", "zsh", "shell-session", "shellsession"})
_PROMPT_RE = re.compile(r"^\s*(?:[\w@.~:-]+[$#]|\$|%|PS>)\s+(?:sudo\s+)?([a-z][a-z0-9_-]{2,30})(?=\s|$)")
_FLAGGED_RE = re.compile(r"^\s*(?:sudo\s+)?([a-z][a-z0-9_-]{2,30})\s+(?:[\w.:/-]+\s+){0,3}--?[a-z]")
_COMMAND_RE = re.compile(r"^\s*(?:sudo\s+)?([a-z][a-z0-9_-]{2,30})(?=\s|$)")
# Commands of every shell: the tool a page is about is none of them.
_COMMON_COMMANDS = frozenset(
    """cat echo export grep egrep sed awk cut sort uniq head tail less more curl wget rm cp mv
    mkdir rmdir chmod chown touch find xargs tee env set unset source exit for do done if then
    else elif fi while case esac true false test printf read kill killall ps top watch sleep
    time date tar gzip gunzip unzip zip ssh scp rsync vi vim nano open which whoami pwd
    cd ls man diff patch bash zsh node python python3 pip pip3 make go cargo npm npx yarn git
    docker jq yq base64 openssl dig nslookup ping telnet nc netstat lsof df du free uname
    journalctl systemctl service tr wc let local function return shift eval exec trap
    sudo doas nohup nice timeout""".split())


_QUOTED_RE = re.compile(r"\"[^\"]*\"|'[^']*'")  # a query a command is given (`psql -c "SELECT now()"`)
_CALL_RE = re.compile(r"(?<![$\w])\w+\(")  # a query or a call ("sum by(resource)"), not a command


def command_tools(structure: Structure) -> Seen:
    """The tools a page's shell commands run (`etcdctl`, `kubectl`, `psql`): the first word
    of each command in a shell code block (or after a prompt in any block), not a command
    every shell has (`cd`, `grep`, `curl`)."""
    seen: Seen = {}
    for number, _, tool in shell_commands(structure):
        if tool not in _COMMON_COMMANDS:
            seen.setdefault(tool, []).append((number, tool))
    return seen


def inline_commands(structure: Structure) -> Seen:
    """The tools of the commands a page writes in code spans of its prose (`argocd app
    history checkout-web`, `redis-cli -n 3 llen ...`): a span of a tool and its arguments."""
    seen: Seen = {}
    for index in sorted(structure.holding("`")):
        number, line = structure.visible[index]
        if number in structure.heading_lines:
            continue
        for content in code_span_contents(line):
            match = _INLINE_COMMAND_RE.match(content)
            if (match and match.group(1) not in _COMMON_COMMANDS and not _CALL_RE.search(content)
                    and not written_as_message(content)):  # "fails with `recipe resolve timeout`"
                seen.setdefault(match.group(1), []).append((number, match.group(1)))
    if any(ordinary_word(tool) for tool in seen):
        commands = [line for _, line, _ in shell_commands(structure)]
        seen = {tool: hits for tool, hits in seen.items()
                if not (ordinary_word(tool) and _subcommand(tool, commands))}
    return seen


def _subcommand(word: str, commands: list[str]) -> bool:
    """Is an English word that opens a code span a subcommand another tool's commands run
    (`stream info CREW_JOBS` of "nats --context crewline-admin stream info ...")?"""
    for line in commands:
        if word in line:
            words = line.split()
            if word in words[1:-1]:  # after the tool, before an argument of its own
                return True
    return False


# A tool and its arguments: a flag, or two words; after `sudo` one argument is enough (`sudo
# turnstilectl selftest`: what `sudo` runs is a command).
_INLINE_COMMAND_RE = re.compile(
    r"^(?:sudo\s+(?=[a-z][a-z0-9_-]{2,30}\s+[\w-])|(?=[a-z][a-z0-9_-]{2,30}\s+(?:-{1,2}[a-z]|[a-z][\w-]*\s+\S)))"
    r"([a-z][a-z0-9_-]{2,30})")


def shell_commands(structure: Structure) -> Iterator[tuple[int, str, str]]:
    """(line number, line, the tool it runs) of each command in a shell code block (or after
    a prompt in any block); not a query or a call."""
    shell: bool | None = False  # None: a block of no language, where a line with flags is a command
    for number in sorted(structure.code):
        line = structure.code[number]
        if number not in structure.code_content:
            language = fence_language(line)
            shell = None if language == "" else language is not None and language.lower() in _SHELLS
            continue
        match = (_PROMPT_RE.match(line) if "$" in line or "%" in line or "@" in line else None) or (
            _COMMAND_RE.match(line) if shell else _FLAGGED_RE.match(line) if shell is None else None)
        if match and not _CALL_RE.search(_QUOTED_RE.sub("", line) if "(" in line else line):
            yield number, line, match.group(1)


def command_arguments(structure: Structure) -> Seen:
    """The hyphenated names a page's shell commands act on (`--group billing-events`,
    `deploy/billing-consumer`, `app=billing-consumer`): not flags, hosts or files."""
    seen: Seen = {}
    for number, line, tool in shell_commands(structure):
        for name in _ARGUMENT_RE.findall(line):
            if name != tool:
                seen.setdefault(name, []).append((number, name))
    return seen


# (not an instance's name, numbered: "orders-replica-1", "web-0")
_ARGUMENT_RE = re.compile(
    r"(?:(?<=\s)|(?<==)|(?<=[a-z]/))([a-z][a-z0-9]*(?:-[a-z0-9]+)*-[a-z][a-z0-9]*)(?=\s|$)")


_REPO_RE = re.compile(r"https?://(?:www\.)?(?:github|gitlab|codeberg)\.(?:com|org)/([\w.-]+)/([\w.-]+)")


def own_project(lines: Iterable[tuple[int, str]]) -> tuple[str, list[tuple[int, str]]] | None:
    """The project of an organisation that the page links at least twice, named only by its
    repository path ("github.com/rust-lang/rust/pull/61812" -> "rust", "PostHog/posthog-js"):
    a repository named as its owner is (rust-lang/rust, golang/go, ziglang/zig), not a
    repository of documents (rust-lang/rfcs, tektoncd/community). The most linked one."""
    numbered = list(lines)
    text = "\n".join(line for _, line in numbered)
    counts: dict[str, list[tuple[int, str]]] = {}
    index, at = 0, 0
    for match in _REPO_RE.finditer(text):
        index, at = index + text.count("\n", at, match.start()), match.start()
        owner, repo = match.group(1).lower(), match.group(2).lower().removesuffix(".git")
        stem = repo.split("-")[0]
        if len(stem) >= 2 and (owner.startswith(stem) or repo.startswith(owner)):
            counts.setdefault(repo, []).append((numbered[index][0], repo))
    best = max(sorted(counts.items()), key=lambda item: len(item[1]), default=None)
    return best if best is not None and len(best[1]) >= 2 else None


# A header field that names systems or owners ("| Affected services | ... |", "Owner: messaging team"),
# which ends in its colon or bar (a line holding neither is not searched).
_FIELD_RE = re.compile(
    r"(?:^|\|\s*|\.\s+)\**(?:owners?|owning team|team|affected[\w ]{0,20}|impacted[\w ]{0,20}"
    r"|services?|components?|systems?)\**\s*[:|]", re.I)
_BOLD_RE = re.compile(r"\*\*([^*]{2,80})\*\*|__([^_]{2,80})__")


def structural_text(structure: Structure) -> tuple[str, str]:
    """The text the document's structure marks, lower case, one piece a line: its headings;
    and its table rows, header fields that name systems or owners, bold terms and code spans. A
    lower-case term of ordinary words is a name where this text writes it
    (tasks/extract/genre_subjects.py)."""
    lines = structure.by_number
    headings = [plain_text(lines[number].lstrip("# ")) for number in sorted(structure.heading_lines)
                if number in lines]
    pieces: list[str] = []
    for index in sorted(structure.holding("|", ":", "**", "__", "`")):  # no other line is marked
        number, line = structure.visible[index]
        if number in structure.heading_lines:
            continue
        if line.lstrip().startswith("|") or (":" in line or "|" in line) and _FIELD_RE.search(line):
            pieces.append(plain_text(line))
        elif "**" in line or "__" in line or "`" in line:
            pieces.extend(next(filter(None, match.groups())) for match in _BOLD_RE.finditer(line))
            pieces.extend(code for code in code_span_contents(line) if 2 <= len(code) <= 80)
    return "\n".join(headings).lower(), "\n".join(pieces).lower()


def coined_names(code_terms: dict[str, list[tuple[int, str]]], prose: list[tuple[int, str]]) -> Seen:
    """A lower-case word written in a code span that is no English word and that the prose
    also writes bare, twice or more and never after an article ("a small Go program we call
    `runnerd`" ... "runnerd saw the failed jobs"; not "the namespace"): a name the team coined,
    in code where it is introduced. Each line where it is written, in code or not."""
    seen: Seen = {}
    bare_text = "\n".join(mask_code_spans(text) for _, text in prose)
    starts = list(accumulate((len(text) + 1 for _, text in prose), initial=0))
    for term, hits in code_terms.items():
        if (not (term.isalpha() and term.islower()) or len(term) < 3 or ordinary_word(term)
                or bare_text.count(term) < 2):
            continue
        matches = _word_starts(bare_text, term)
        bare = {prose[bisect_right(starts, at) - 1][0] for at in matches}
        if len(bare) >= 2 and not any(_ARTICLE_RE.search(bare_text, max(0, at - 8), at) for at in matches):
            seen[term] = [(number, term) for number in sorted(bare | {number for number, _ in hits})]
    return seen


def _word_starts(text: str, word: str) -> list[int]:
    """Where `word` is written in `text` as a word of its own (not in a path or a compound)."""
    found = []
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        before, after = text[at - 1:at] or " ", text[end:end + 1] or " "
        if not (before.isalnum() or before in "_/.-") and not (after.isalnum() or after in "_/-"):
            found.append(at)
        at = text.find(word, end)
    return found


_ARTICLE_RE = re.compile(r"\b(?:a|an|the|this|that|each|every|per|your|our)\s+$", re.I)


def appositive_names(prose: list[tuple[int, str]]) -> Seen:
    """A name the prose defines by an appositive that says what kind of thing it is
    ("Conveyor, our job runner, ...", "tus, the resumable upload protocol, ..."): one mention is
    enough. Not a sentence's opening adverb ("However, the parser ..."): the appositive ends in
    a system's or a tool's head and closes with a comma, a dash or the sentence's end."""
    seen: Seen = {}
    previous = (0, "")
    for number, text in prose:
        found = [(m.group(1), m.group(2)) for m in _matches(_APPOSITIVE_RE, text)] if ", " in text else []
        if ", " in text:  # the kind may open on the line before ("... A relay" / "process, outboxd, ...")
            carried = previous[1][-30:] + " " if previous[0] == number - 1 else ""
            found += [(m.group(2), m.group(1)) for m in _matches(_HEAD_FIRST_RE, carried + text)]
        previous = (number, text)
        if "`" in text:
            found += [(m.group(1), m.group(2)) for m in _matches(_CODE_BEFORE_HEAD_RE, text)]
            found += [(m.group(2), m.group(1)) for m in _matches(KIND_BEFORE_CODE_RE, text)]
        if "(" in text:  # "the tax provider (Avalara)", "Atlas (the new metrics layer)"
            found += [(m.group(2), m.group(1)) for m in _matches(_KIND_THEN_NAME_RE, text)]
            found += [(m.group(1), m.group(2)) for m in _matches(_NAME_THEN_KIND_RE, text)]
        for name, head in found:
            kind = head.lower()
            if ((kind in _APPOSITIVE_HEADS or kind.removesuffix("s") in _APPOSITIVE_HEADS)
                    and (name[0].isupper() or not ordinary_word(name))
                    and not describing(name)):  # "A vendor claims system, customised, on ...": a state
                seen.setdefault(term_key(name), []).append((number, name))
    return seen


_APPOSITIVE_RE = re.compile(
    r"(?<![\w.-])([A-Za-z][\w.-]*[A-Za-z0-9]),\s+(?:our|the|a|an)\s+(?:[\w-]+\s+){0,2}?([a-z][a-z-]+)(?=\s*(?:,|—|--|;|\.(?:\s|$)))")
# "Our deploy tool, shipit, shows ...", "our client library, `flagkit`, talks ...": the kind first.
_HEAD_FIRST_RE = re.compile(
    r"\b(?:[Oo]ur|[Tt]he|[Aa]n?)\s+(?:[\w-]+\s+){0,2}?([a-z][a-z-]+),\s+`?([A-Za-z][\w.-]*[A-Za-z0-9])`?"
    r"(?=,|\s+—|\s+--)")
# In parentheses: "the tax provider (Avalara)"; "Atlas (the new metrics layer)".
_KIND_THEN_NAME_RE = re.compile(
    r"\b(?:[Tt]he|[Oo]ur|[Aa]n?)\s+(?:[\w-]+\s+){0,2}?([a-z][a-z-]+)\s+\(([A-Z][\w.-]*[A-Za-z0-9])\)")
_NAME_THEN_KIND_RE = re.compile(
    r"(?<![\w.-])([A-Z][\w.-]*[A-Za-z0-9])\s+\((?:the|our|a|an)\s+(?:[\w-]+\s+){0,2}?([a-z][a-z-]+)\)")
# "the `flagd` sidecar streams ...": a coined name in code before the kind of thing it is.
_CODE_BEFORE_HEAD_RE = re.compile(r"\b(?:[Tt]he|[Oo]ur|[Aa]n?)\s+`([a-z][\w-]*[a-z0-9])`\s+([A-Za-z]+)\b")
# "The clean-up job `outbox-janitor` deletes ...": the kind of thing, then its coined name in code.
KIND_BEFORE_CODE_RE = re.compile(
    r"\b(?:[Tt]he|[Oo]ur|[Aa]n?)\s+(?:[\w-]+\s+){0,2}?([a-z][a-z-]+)\s+`([a-z][\w-]*[a-z0-9])`")
# The part of each pattern above that holds its rarest character, opened by that character (a
# comma, a bracket, a backtick), what comes before it checked behind: the engine skips to those
# characters, where the whole pattern, opening with a word, is tried at every one. A line
# without the part holds no match; the pattern runs on the others (a fifth of the time).
_GATES = {
    _APPOSITIVE_RE: re.compile(r",(?<=[A-Za-z0-9],)\s+(?:our|the|an?)\s"),
    _HEAD_FIRST_RE: re.compile(r",(?<=[a-z-],)\s+`?[A-Za-z][\w.-]*[A-Za-z0-9]`?(?:,|\s+—|\s+--)"),
    _CODE_BEFORE_HEAD_RE: re.compile(r"`(?<=\s`)[a-z][\w-]*[a-z0-9]`\s+[A-Za-z]"),
    KIND_BEFORE_CODE_RE: re.compile(r"`(?<=\s`)[a-z][\w-]*[a-z0-9]`"),
    _KIND_THEN_NAME_RE: re.compile(r"\((?<=\s\()[A-Z][\w.-]*[A-Za-z0-9]\)"),
    _NAME_THEN_KIND_RE: re.compile(r"\((?<=\s\()(?:the|our|an?)\s"),
}


def _matches(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    return list(pattern.finditer(text)) if _GATES[pattern].search(text) else []


_APPOSITIVE_HEADS = frozenset(
    """service store queue database cache cluster scheduler runner protocol library framework tool
    gateway proxy broker daemon worker controller operator engine platform system pipeline
    orchestrator format language runtime registry server agent client sdk cli app sidecar plugin bot
    autoscaler process relay provider vendor layer job cronjob daemonset""".split())


# Fields and sections of minutes that list people: who attended, chaired or took the notes.
_PEOPLE_KEYS = frozenset(
    """attendees attendance participants present absent regrets apologies scribe notes note-taker
    notetaker minutes facilitator chair host moderator team members others guests""".split())
_PEOPLE_SECTIONS = frozenset({"attendees", "attendance", "participants", "present", "absent", "regrets"})
_PEOPLE_ROW_RE = re.compile(
    r"^\s*\|\s*(?:\*\*|__)?([A-Za-z][A-Za-z -]{1,30}?)(?:\*\*|__)?\s*\|\s*([^|]+?)\s*\|?\s*$")
_PEOPLE_FIELD_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?([A-Za-z][A-Za-z -]{1,30}?)(?:\*\*|__)?\s*:\s*(.+)$")
# "- Marco: the staging cluster ...", "- [ ] Jun: upgrade ...": who spoke or acts.
_SPEAKER_RE = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(?:\*\*|__)?([A-Z][a-z]+)(?:\*\*|__)?\s*:")
# "Elif asked whether ...", "Tom proposed ...", "Question from Dmitri": who spoke.
_SAID_RE = re.compile(
    r"\b([A-Z][a-z]+)\s+(?:said|says|asked|asks|proposed|proposes|suggested|suggests|showed|shows"
    r"|wants|agreed|agrees|noted|notes that|mentioned|raised|presented|explained|objected|volunteered"
    r"|is out|demoed)\b"
    r"|\b(?:[Qq]uestion from|[Aa]sk|[Aa]sked|[Pp]ing|[Tt]hanks)\s+([A-Z][a-z]+)\b(?!\s+[A-Z])")
_NAME_RE = re.compile(r"@?[A-Za-z][\w.-]*")
# Capitalised words inside brackets after a team's label: the people of "storage (Kofi Mensah,
# Wren)" and "SRE (Keisha)"; not the role after a name ("Piotr (developer productivity)",
# "Noor (Kafka team)").
_BRACKETED_NAME_RE = re.compile(r"[^\W\d_a-z][\w'’-]*")
_BRACKETED_RE = re.compile(r"\(([^)]*)\)?")
_WORD_BEFORE_RE = re.compile(r"([\w'’-]*)\s*$")
_WRAPPED_RE = re.compile(r"^\s*[^\s#>|*+-]")  # a plain line, not a list item, table row or quote


def _listed_people(value: str) -> set[str]:
    """The words of the names a people field lists, lower case: outside brackets every word
    ("Marco, Jun and @elif"), inside them the capitalised ones ("SRE (Keisha, Mateus Lima)")."""
    words: set[str] = set()
    for name in re.split(r"[,;/]|\band\b", re.sub(r"\([^)]*\)?", " ", value)):
        words.update(word.lower().lstrip("@") for word in _NAME_RE.findall(name))
    for bracket in _BRACKETED_RE.finditer(value):
        before = _WORD_BEFORE_RE.search(value[max(0, bracket.start() - 40):bracket.start()])
        label = before.group(1) if before else ""
        if not label[:1].isupper() or label.isupper():  # "Noor (Kafka team)": a role, not people
            words.update(word.lower() for word in _BRACKETED_NAME_RE.findall(bracket.group(1)))
    return words


def meeting_people(structure: Structure) -> set[str]:
    """The names (lower case, each word) minutes give as people: those their attendance and
    notes fields and sections list, those who speak at the start of an item ("- Marco: ...")
    and those said to speak ("Elif asked ...", "Question from Dmitri")."""
    people: set[str] = set()
    listing = {number for section in structure.sections[1:]
               if section_key(structure.title(section)) in _PEOPLE_SECTIONS
               for number, _ in structure.lines(section)}
    continued = False  # the line after a people field that wraps: "payments (Ilse, Tomás\nRuiz)"
    for number, line in structure.visible:
        if number in structure.heading_lines:
            continued = False
            continue
        field = _PEOPLE_FIELD_RE.match(line) or _PEOPLE_ROW_RE.match(line)
        value = field.group(2) if field and field.group(1).strip().lower() in _PEOPLE_KEYS else None
        if value is None and (number in listing or (continued and not field and _WRAPPED_RE.match(line))):
            value = line.split(":", 1)[-1] if ":" in line and number in listing else line
        continued = value is not None
        if value is not None:
            people.update(_listed_people(plain_text(value)))
        speaker = _SPEAKER_RE.match(line)
        if speaker:
            people.add(speaker.group(1).lower())
        if any(ch.isupper() for ch in line):
            for match in _SAID_RE.finditer(line):
                people.add((match.group(1) or match.group(2)).lower())
    return people


# A field that lists the systems a document concerns: "| Affected services | a, b |",
# "Services affected: a, b", "Impacted components: ...", a header's "**Systems:** a, b".
_SYSTEMS_FIELD_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?\|?\s*(?:\*\*|__)?((?:affected|impacted)\s+(?:services?|systems?|components?|products?)"
    r"|(?:services?|systems?|components?|products?)\s+(?:affected|impacted)|systems)(?:\*\*|__)?\s*(?::|\|)"
    r"(?:\*\*|__)?\s*([^|]+?)\s*\|?\s*$", re.I)


def affected_systems(structure: Structure) -> Seen:
    """The systems a field of affected services lists (an incident's header table or block),
    each where written: a name of one to four words, not a sentence."""
    seen: Seen = {}
    for index in sorted(structure.holding("ffected", "mpacted", "ystems")):
        number, line = structure.visible[index]
        match = _SYSTEMS_FIELD_RE.match(line)
        if match is None:
            continue
        for name in re.split(r"\s*(?:[,;]|\band\b)\s*", plain_text(match.group(2))):
            name = name.strip(" .`*")
            if 1 <= len(name.split()) <= 4 and not re.search(r"[^\w .-]", name) and not ordinary_word(name):
                seen.setdefault(term_key(name), []).append((number, name))
    return seen
