import json
from pathlib import Path

import json5
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.store.errors import ContractError
from tasks.store.jsonc import dumps_json, loads_jsonc, read_jsonc_file, strip_jsonc


def test_plain_json_takes_fast_path() -> None:
    assert loads_jsonc('{"a": [1, 2]}') == {"a": [1, 2]}


def test_comments_and_trailing_commas() -> None:
    text = """{
      // line comment
      "url": "http://example.com/*not a comment*/", /* block
      comment */ "list": [1, 2, /* c */ ],
      "nested": {"k": "v // kept",},
    }"""
    assert loads_jsonc(text) == {
        "url": "http://example.com/*not a comment*/",
        "list": [1, 2],
        "nested": {"k": "v // kept"},
    }


def test_escaped_quotes_inside_strings() -> None:
    assert loads_jsonc('{"a": "say \\"hi\\" // no", /* x */ "b": 1,}') == {"a": 'say "hi" // no', "b": 1}


def test_json5_fallback_for_hand_edited_files() -> None:
    assert loads_jsonc("{unquoted: 'single', hex: 0x10}") == {"unquoted": "single", "hex": 16}


def test_malformed_jsonc_names_the_file() -> None:
    with pytest.raises(ContractError) as info:
        loads_jsonc('{"a": ', file="context/knowledge-graph.index.jsonc")
    assert "context/knowledge-graph.index.jsonc" in str(info.value)
    assert "malformed JSONC" in str(info.value)


def test_unreadable_and_invalid_utf8_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonc"
    bad.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(ContractError, match="invalid UTF-8 at byte offset 7"):
        read_jsonc_file(bad)
    with pytest.raises(ContractError, match="missing"):
        read_jsonc_file(tmp_path / "absent.jsonc")


def test_dumps_is_plain_json_with_newline() -> None:
    text = dumps_json({"b": 1, "a": [1]})
    assert text.endswith("\n") and json.loads(text) == {"b": 1, "a": [1]}


# --- property: the fast path agrees with json5 on generated JSONC -------------------------

# json5 does not join escaped surrogate pairs (\ud800\udc00) into one character, so the
# comparison with it stays in the Basic Multilingual Plane; orjson handles the rest.
_text = st.text(st.characters(blacklist_categories=("Cs",), max_codepoint=0xFFFF), max_size=12)
_scalars = st.none() | st.booleans() | st.integers(-10**9, 10**9) | _text
_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_text, children, max_size=4),
    max_leaves=15,
)
_comments = st.sampled_from(["", " ", "\n", "// note\n", "/* block */", "/* multi\nline */", "// a \"quoted\" /*\n"])


@st.composite
def jsonc_documents(draw: st.DrawFn) -> tuple[str, object]:
    value = draw(_values)

    def render(node: object) -> str:
        pad = draw(_comments)
        if isinstance(node, list):
            items = [render(child) for child in node]
            trailing = "," if items and draw(st.booleans()) else ""
            return f"[{pad}{', '.join(items)}{trailing}{draw(_comments)}]"
        if isinstance(node, dict):
            items = [f"{json.dumps(k)}{draw(_comments)}: {render(v)}" for k, v in node.items()]
            trailing = "," if items and draw(st.booleans()) else ""
            return f"{{{pad}{', '.join(items)}{trailing}{draw(_comments)}}}"
        return pad + json.dumps(node, ensure_ascii=draw(st.booleans())) + draw(_comments)

    return render(value), value


@settings(max_examples=300, deadline=None)
@given(jsonc_documents())
def test_fast_path_agrees_with_json5(document: tuple[str, object]) -> None:
    text, value = document
    fast = json.loads(strip_jsonc(text))
    assert fast == json5.loads(text)
    assert fast == value


def test_astral_characters_survive_the_fast_path() -> None:
    assert loads_jsonc('{"k": "\\ud83d\\ude00 😀", /* c */}') == {"k": "😀 😀"}
