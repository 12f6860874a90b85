"""first_paragraph: a section's first prose paragraph, the list it introduces, its range."""

from __future__ import annotations

from tasks.extract.paragraphs import first_paragraph


def numbered(text: str, first: int = 1) -> list[tuple[int, str]]:
    return list(enumerate(text.split("\n"), start=first))


def test_skips_blank_admonition_image_comment_and_table_lines_before_the_paragraph() -> None:
    lines = numbered("\n::: note\n![x](y.png)\n<!-- c -->\n| a |\n---\nWe use **X**.\nMore.\n\nLater.")
    assert first_paragraph(lines) == ("We use X. More.", 7, 8)


def test_a_lead_in_takes_the_list_after_a_blank_line() -> None:
    lines = numbered("We chose:\n\n- Postgres for data\n- Redis for\n  caching\n\nAfter.")
    assert first_paragraph(lines) == ("We chose: Postgres for data; Redis for caching", 1, 5)


def test_without_a_lead_in_the_paragraph_ends_at_the_blank_line() -> None:
    assert first_paragraph(numbered("We chose Postgres.\n\n- a\n- b")) == ("We chose Postgres.", 1, 1)


def test_a_list_ends_at_an_unindented_line_that_is_no_item() -> None:
    lines = numbered("- one\n- two\nNot an item.")
    assert first_paragraph(lines) == ("one; two", 1, 2)


def test_a_code_block_right_after_completes_an_unfinished_sentence() -> None:
    lines = numbered("The file should be named", first=10)
    code = {12: "catalog.json"}  # the code inside the fence (lines 11 and 13 are its fence lines)
    assert first_paragraph(lines, code) == ("The file should be named `catalog.json`", 10, 12)
    assert first_paragraph(numbered("Done.", first=10), code) == ("Done.", 10, 10)


def test_a_dangling_example_lead_in_is_dropped_and_long_text_is_cut_with_a_mark() -> None:
    assert first_paragraph(numbered("Use X. Example:")) == ("Use X.", 1, 1)
    long = " ".join(["word"] * 200) + "."
    text, start, end = first_paragraph(numbered(long), limit=100) or ("", 0, 0)
    assert len(text) <= 100 and text.endswith(" […]") and (start, end) == (1, 1)
    assert first_paragraph(numbered("\n\n")) is None
