"""A GitBook page's block tags (`{% hint style="danger" %}` ... `{% endhint %}`, `{% tabs %}`) are
markup: none of their text is kept in an observation, the text between them is."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.genre_text import clean_lines

PAGE = """# Quota service

{% hint style="danger" %}
**The quota service is the only writer of quotas.** Every other service reads them.
{% endhint %}

## How it works

The quota service keeps one row per tenant and serves reads from a cache.

## Limitations

- A tenant must never hold more than 50 quotas.
"""


def test_a_line_that_is_only_a_template_tag_is_markup() -> None:
    lines = [(1, '{% hint style="warning" %}'), (2, "Text."), (3, "{% endhint %}"), (4, "{%- include note.html -%}"),
             (5, "Use {% raw %} here.")]
    assert clean_lines(lines) == [(1, ""), (2, "Text."), (3, ""), (4, ""), (5, "Use {% raw %} here.")]


def test_no_observation_holds_a_template_tag() -> None:
    result = extract_facts(PAGE, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "architecture/quota.md"))
    texts = [fact.text for fact in result.observations]
    assert not any("{%" in text for text in texts), texts
    assert any(text.startswith("Overview: The quota service is the only writer of quotas.") for text in texts), texts
