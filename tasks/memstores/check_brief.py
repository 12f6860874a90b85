"""memory-custodian's entry-file rules: platform entry files stay short; brief.md is a curated
summary of the project, not a generated scaffold and not about MemoryCustodian.

    agent files   AGENTS.md, CLAUDE.md, GEMINI.md at the project root (the folder holding docs/)
                  at most MC_AGENT_FILE_MAX_TOKENS tokens (tiktoken)
    scaffold      brief.md keeps fewer than MIN_PROJECT_WORDS words of prose once headings,
                  HTML comments, placeholders (`<...>`, `[...]`, TODO, TBD, "describe ...") and
                  lines about MemoryCustodian are set aside
    off topic     a brief.md line names MemoryCustodian
"""

from __future__ import annotations

import re
from collections.abc import Callable

from schemas.stores import MC_AGENT_FILE_MAX_TOKENS, StoreFinding
from tasks.markdown.parser import block_parser
from tasks.memstores.custodian import CustodianTree
from tasks.memstores.findings import store_finding

BRIEF = "brief.md"
MIN_PROJECT_WORDS = 8
_COMMENT_RE = re.compile(r"<!--.*?-->", re.S)
_CUSTODIAN_RE = re.compile(r"memory[\s_-]?custodian", re.I)
_PLACEHOLDER_RE = re.compile(
    r"<[^<>\n]*>|\[[^\[\]\n]*\](?!\()|\{\{[^{}\n]*\}\}|\b(?:TODO|TBD|FIXME|placeholder)\b"
    r"|\b(?:describe|fill in|replace this|add a short|summari[sz]e)\b", re.I)
_LABEL_RE = re.compile(r"^[A-Z][\w /-]{0,40}:\s*$")
_WORD_RE = re.compile(r"[^\W\d_]{2,}")


def _prose_lines(text: str) -> list[tuple[int, str]]:
    """(line, text) of every paragraph line (lists included), HTML comments blanked."""
    blanked = _COMMENT_RE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    tokens = block_parser(html=False, tables=False).parse(blanked)
    out: list[tuple[int, str]] = []
    for index, token in enumerate(tokens):
        if token.type == "inline" and token.map and tokens[index - 1].type == "paragraph_open":
            out += [(token.map[0] + 1 + n, line.strip())
                    for n, line in enumerate(token.content.split("\n")) if line.strip()]
    return out


def check_brief(tree: CustodianTree) -> list[StoreFinding]:
    """brief.md: project content, not a scaffold; about the project, not MemoryCustodian."""
    text = tree.files.get(BRIEF)
    if text is None:
        return []
    lines = _prose_lines(text)
    about_custodian = [number for number, line in lines if _CUSTODIAN_RE.search(line)]
    project = [line for _, line in lines
               if not _CUSTODIAN_RE.search(line) and not _PLACEHOLDER_RE.search(line)
               and not _LABEL_RE.match(line)]
    words = sum(len(_WORD_RE.findall(line)) for line in project)
    out: list[StoreFinding] = []
    if words < MIN_PROJECT_WORDS:
        out.append(store_finding("mc_brief_scaffold", BRIEF, 1,
                                 f"brief.md has {words} word(s) of project prose (fewer than "
                                 f"{MIN_PROJECT_WORDS}) once placeholders, headings and lines "
                                 "about MemoryCustodian are set aside: still a scaffold"))
    if about_custodian:
        out.append(store_finding("mc_brief_off_topic", BRIEF, about_custodian[0],
                                 f"brief.md names MemoryCustodian on {len(about_custodian)} "
                                 "line(s): it summarizes the project, not the memory protocol"))
    return out


def check_agent_files(tree: CustodianTree,
                      count_tokens: Callable[[list[str]], list[int]]) -> list[StoreFinding]:
    """AGENTS.md / CLAUDE.md / GEMINI.md of the project root stay short."""
    names = sorted(tree.agent_files)
    counted = count_tokens([tree.agent_files[n] for n in names])
    return [store_finding("mc_agent_file_too_long", name, None,
                          f"{name.rsplit('/', 1)[-1]} is {tokens} tokens (at most "
                          f"{MC_AGENT_FILE_MAX_TOKENS}): keep platform entry files short")
            for name, tokens in zip(names, counted, strict=True)
            if tokens > MC_AGENT_FILE_MAX_TOKENS]
