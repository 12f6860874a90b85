"""HTML sources converted to markdown: content only, in order, with title and description."""

from __future__ import annotations

from tasks.markdown.html import html_to_markdown


def test_content_title_and_description() -> None:
    html = ("<html><head><title>  The\n title </title><meta name='DESCRIPTION' content=' Short. '>"
            "</head><body><hr/><h2>First</h2><p>a_b and *c*</p><noscript>x</noscript>"
            "<pre class='lang-sh'>echo hi</pre></body></html>")
    source = html_to_markdown(html)
    assert source.title == "The title" and source.description == "Short."
    assert source.markdown == "## First\n\na_b and *c*\n\n```sh\necho hi\n```\n"  # no escapes: read by agents


def test_no_head_and_no_text() -> None:
    bare = html_to_markdown("<p>Only   this.</p>\n\n\n\n<p>And that.</p>")
    assert (bare.title, bare.description) == (None, None)
    assert bare.markdown == "Only this.\n\nAnd that.\n"
    assert html_to_markdown("<script>x()</script><style>p{}</style>").markdown == ""


def test_conversion_is_deterministic() -> None:
    html = "<ul><li>one</li><li>two<ul><li>deep</li></ul></li></ul><table><tr><td>1</td></tr></table>"
    assert html_to_markdown(html) == html_to_markdown(html)
