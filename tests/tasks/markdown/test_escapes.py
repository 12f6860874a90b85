"""Link texts membank writes read back as the same text, as CommonMark reads them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tasks.markdown.escapes import escape_link_text, unescape_link_text
from tasks.markdown.parser import inline_parser


@given(st.text(alphabet=st.sampled_from("ab \\[]n*_`!")))
def test_an_escaped_text_reads_back_as_written(text: str) -> None:
    assert unescape_link_text(escape_link_text(text)) == text


def test_only_punctuation_is_unescaped_as_commonmark_does() -> None:
    assert unescape_link_text("Note\\n") == "Note\\n"  # "\\n" is two characters
    assert unescape_link_text("C:\\\\share \\[v2\\]") == "C:\\share [v2]"
    assert unescape_link_text("plain") == "plain"


def test_markdown_it_reads_an_escaped_link_text_as_the_name() -> None:
    for name in ("C:\\new\\table", "Lock [File]", "regex \\d+\\\\", "Note\\n\\nThe team"):
        tokens = inline_parser().parseInline(f"[{escape_link_text(name)}](x.md)")[0].children
        assert [t.type for t in tokens] == ["link_open", "text", "link_close"], name
        assert tokens[1].content == name
