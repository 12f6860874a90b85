"""LineText finds the lines holding a literal; each reader's literals are in every match of the
pattern they stand before, so searching only the lines that hold one gives the same matches."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from tasks.extract.document_people import (
    _DEED_NEEDLES,
    _DEED_RE,
    _HINT_NEEDLES,
    _HINT_RE,
    _TALKED_TO_NEEDLES,
    _TALKED_TO_RE,
)
from tasks.extract.line_search import LineText, WordGate
from tasks.extract.plain_conclusions import _CHOICE, _FAILURE, _RULE, _STRONG_RULE


def test_the_lines_holding_a_literal_are_those_a_line_by_line_test_finds() -> None:
    lines = ["", "by the owner", "nothing", "—", "owner owner", "", "the IC", "ICICI", "x"]
    text = LineText(lines)
    for needles in [("owner",), ("IC", "—"), ("by ", "x"), ("zz",), ("",)[:0]]:
        assert text.holding(*needles) == {i for i, line in enumerate(lines) if any(n in line for n in needles)}
    assert LineText([]).holding("a") == set()


def _random_lines(words: list[str], count: int) -> list[str]:
    rng = random.Random(7)
    glue = [" ", "  ", "\t", ", ", ". ", "(", ")", "-", ": ", "|", " — ", "–", "@", "x", "I", "C", "by"]
    return ["".join(rng.choice(words) if rng.random() < 0.5 else rng.choice(glue)
                    for _ in range(rng.randint(0, 12))) for _ in range(count)]


def _needles_cover(pattern: re.Pattern[str], needles: tuple[str, ...], words: list[str]) -> int:
    matched = 0
    for line in _random_lines(words, 20_000):
        if pattern.search(line):
            matched += 1
            assert any(needle in line for needle in needles), line
    return matched


def test_every_hinted_line_holds_a_hint_literal() -> None:
    words = ["by", "Assignee", "DRI", "Owner", "owner", "Commander", "Scribe", "scribe", "Lead", "lead",
             "On-call", "oncall", "Responder", "reviewer", "Approver", "Taker", "taker", "facilitator",
             "IC", "PUBLIC", "Ilse", "Brandt", "x", "On", "call", "ead", "wne"]
    assert _needles_cover(_HINT_RE, _HINT_NEEDLES, words) > 1000


def test_every_line_of_a_deed_holds_its_word() -> None:
    words = ["decided", "declared", "paged", "asked", "said", "agreed", "acknowledged", "escalated",
             "noticed", "joined", "volunteered", "approved", "confirmed", "rolled", "owns", "took", "over",
             "Ilse", "undecided", "x"]
    assert _needles_cover(_DEED_RE, _DEED_NEEDLES, words) > 1000


def test_every_line_talking_to_someone_holds_its_verb() -> None:
    words = ["reach", "reached", "out", "to", "talk", "talked", "spoke", "ping", "pinged", "ask", "asked",
             "thank", "thanks", "thanked", "Aaron", "Hill", "Ilse", "Brandt"]
    assert _needles_cover(_TALKED_TO_RE, _TALKED_TO_NEEDLES, words) > 100


def test_the_lines_of_a_rotation_word_hold_one_lower_cased() -> None:
    # rotation_names tests the lower-cased line for "rota", "call" or "@" before _ROTATION_WORD_RE
    from tasks.extract.non_subjects import _ROTATION_WORD_RE

    words = ["rota", "ROTA", "Rotation", "On-Call", "ONCALL", "on-call", "@", "x", "ro", "ta", "call"]
    for line in _random_lines(words, 5_000):
        if _ROTATION_WORD_RE.search(line):
            lower = line.lower()
            assert "rota" in lower or "call" in lower or "@" in line, line


def test_given_names_read_from_the_lines_with_a_comma_are_those_of_the_whole_text() -> None:
    from tasks.extract.non_subjects import _GIVEN_NAME_RE, given_names

    words = ["(Tomasz", "Tomasz", "Sade", "by", "done", "engineer", "on-call", "oncall", "the", "our", "on",
             "Realtime", "x", "\n", ",", ", ", ",\t", "(", "lead"]
    lines = _random_lines(words, 4_000)
    text = "\n".join(lines)
    whole = frozenset(m["owner"] or m["named"] or m["responder"] for m in _GIVEN_NAME_RE.finditer(text))
    assert given_names(text) == whole
    assert len(whole) >= 2


def test_a_line_the_gate_of_an_appositive_pattern_passes_by_holds_no_match() -> None:
    # subject_marks._GATES: each gate is a part of its pattern, opened by a comma, bracket or backtick
    from tasks.extract.subject_marks import _GATES

    words = ["Conveyor", "our", "the", "a", "an", "job", "runner", "tus", "protocol", "`flagd`", "`x`", "`",
             "(Avalara)", "(the", "(", ")", "Atlas", "new", "layer", "tool", "shipit", "—", "--", "-", ".", "A9",
             "The", "Our", "Conveyor, our job runner,", "Our deploy tool, shipit,", "the tax provider (Avalara)",
             "Atlas (the new metrics layer)", "the `flagd` sidecar", "The clean-up job `outbox-janitor`",
             "Relay, a relay process;", "Outboxd, an outbox daemon.", "the job-, Foo,"]
    for pattern, gate in _GATES.items():
        matched = 0
        for line in _random_lines(words, 20_000):
            if pattern.search(line):
                matched += 1
                assert gate.search(line), (pattern.pattern, line)
        assert matched > 20, pattern.pattern


def test_the_lines_a_host_hint_matches_are_found_by_one_search_of_the_text() -> None:
    from tasks.extract.organisations import _BARE_HINT_RE, _OWN_HINT_RE, _lines_matching

    words = ["a@b", "@", ".com", ".COM", "x.internal", "e.g. co", "shop.example", "text", ".", "\n", "\n\n", "io"]
    for hint in (_OWN_HINT_RE, _BARE_HINT_RE):
        for lines in [_random_lines(words, 2_000), ["", "@", ""], ["x.io"], [""]]:
            text = "\n".join(lines)
            expected = [line for line in text.split("\n") if hint.search(line)]
            assert _lines_matching(hint, text) == expected
        assert len(_lines_matching(hint, "\n".join(_random_lines(words, 2_000)))) > 300


def test_each_host_pattern_matches_only_on_the_lines_its_hint_keeps() -> None:
    from tasks.extract.organisations import _BARE_HINT_RE, _BARE_HOST_RE, _OWN_HINT_RE, _OWN_HOST_RE

    words = ["mei", "@", "orchardline", ".", "internal", "example", "com", "io", "api", "-", "+", "INTERNAL", "x1",
             "api.orchardline.com", "docs.x.io", "mei@orchardline.example", "runbooks.orchardline.internal"]
    for pattern, hint in ((_OWN_HOST_RE, _OWN_HINT_RE), (_BARE_HOST_RE, _BARE_HINT_RE)):
        matched = 0
        for line in _random_lines(words, 20_000):
            if pattern.search(line):
                matched += 1
                assert hint.search(line), (pattern.pattern, line)
        assert matched > 10, pattern.pattern


def test_a_line_a_person_pattern_matches_passes_its_cheap_test() -> None:
    from tasks.extract.document_people import _BRACKETED_GATE_RE, _BRACKETED_ROLE_RE, _HINTED

    words = ["Ilse Brandt", "Tomás Ruiz", "(IC, SRE)", "(chair)", "(Head of Platform)", "(x", ")", "(", "Written",
             "written by", "by", "Owner:", "owners", "Owned by", "Assignee", "assigned to", "DRI", "- ", "* ",
             ", Incident Commander", ", the lead", " — ", " – ", "—", "lead", "sre", "x"]
    cases = [*_HINTED, (_BRACKETED_ROLE_RE, _BRACKETED_GATE_RE.search)]
    for pattern, may_match in cases:
        matched = 0
        for line in _random_lines(words, 20_000):
            if pattern.search(line):
                matched += 1
                assert may_match(line), (pattern.pattern, line)
        assert matched > 2, pattern.pattern


def test_the_capitalized_openers_read_apart_are_those_of_one_search() -> None:
    # lower_case_names reads a line's opening word and a sentence's apart (code_names.py)
    from tasks.extract.code_names import _CAPITAL_OPENER_RE, _CAPITAL_WORD_RE

    one = re.compile(r"(?:^|[.!?][ \t]{1,3})([A-Z][a-z0-9]{3,})\b", re.M)
    words = ["Replay", "the", "Events", "x", ". ", "! ", "?\t", ".", "  ", "Abcd1", "ABCD", "Word.", "Next", "\n"]
    for lines in [_random_lines(words, 3_000), ["Word.  Next", "A. Bcde. Fghi", "", "Abcd"]]:
        whole = "\n".join(lines)
        expected = {m.group(1).lower() for m in one.finditer(whole)}
        found = {m.group(1).lower() for m in _CAPITAL_OPENER_RE.finditer(whole)}
        found.update(m.group(0).lower() for line in whole.split("\n") if (m := _CAPITAL_WORD_RE.match(line)))
        assert found == expected
    assert len(expected) >= 3


def test_a_line_a_field_pattern_matches_holds_a_colon_or_a_bar() -> None:
    from tasks.extract.subject_marks import _FIELD_RE

    words = ["Owner", "owners", "team", "Affected services", "impacted", "**", "Services", ":", "|", ". ", "x", " "]
    matched = 0
    for line in _random_lines(words, 10_000):
        if _FIELD_RE.search(line):
            matched += 1
            assert ":" in line or "|" in line, line
    assert matched > 100


def test_every_rotation_a_line_names_holds_a_hyphen_or_an_underscore() -> None:
    from tasks.extract.non_subjects import _ROTATION_RE

    words = ["labels-primary", "claims_intake", "rotation", "rota", "on-call", "oncall", "@", "`", '"', " ", "\t",
             "x-backup", "team", "Rota", "ON-CALL", "abc"]
    matched = 0
    for line in _random_lines(words, 20_000):
        if _ROTATION_RE.search(line):
            matched += 1
            assert "-" in line or "_" in line, line
    assert matched > 500


def test_at_before_a_capital_is_found_after_a_boundary_as_before() -> None:
    from tasks.extract.non_subjects import _AT_RE

    one = re.compile(r"\b[Aa]t (?=[A-Z])")
    words = ["at", "At", "cat", "_at", "-at", "é", "at ", " Ashvale", "Northgate", "x", " ", "\n", "1at"]
    rng = random.Random(5)
    for _ in range(20_000):
        text = "".join(rng.choice(words) for _ in range(rng.randint(0, 10)))
        assert [m.span() for m in _AT_RE.finditer(text)] == [m.span() for m in one.finditer(text)], text


def test_the_spans_of_a_word_are_those_its_bounded_pattern_finds() -> None:
    from tasks.extract.genre_subjects import _words_after
    from tasks.extract.text import word_spans

    rng = random.Random(11)
    pieces = ["Job controller", "Job", "job", "-", "_", " ", "\t", "é", "RGW", "benchmarks", "ed", "  ", "x1", ".", "/"]
    checked = 0
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
        for word in ("Job controller", "Job", "aa", "-x"):
            expected = [m.span() for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)]
            assert word_spans(text, word) == expected, (word, text)
            checked += bool(expected)
            # a path's characters beside it too ("/.-" before, "/-" after), as the callers ask
            in_path = [m.span() for m in re.finditer(rf"(?<![\w/.-]){re.escape(word)}(?![\w/-])", text)]
            assert word_spans(text, word, not_before="/.-", not_after="/-") == in_path, (word, text)
        expected_words = [m.group(1) for m in re.finditer(r"(?<![\w-])RGW\s+([a-z]{3,})\b", text)]
        assert [m.group(1) for m in _words_after("RGW", text)] == expected_words, text
    assert word_spans("aaaa", "aa") == [] and word_spans("aa aa", "aa") == [(0, 2), (3, 5)]
    assert word_spans("./aa aa/ aa.", "aa", not_before="/.-", not_after="/-") == [(9, 11)]
    assert checked > 1000


def test_a_role_field_read_as_its_two_openings_is_the_one_pattern_finds() -> None:
    from tasks.extract.document_people import _ROLE_CELL_RE, _ROLE_FIELD_RE, _ROLE_FIELD_START_RE

    words = ["Owner", "owner", "Incident Commander", "**Scribe**", "|", ":", " ", "- ", "Ilse Brandt", "Lead", "x",
             "_", "*", "who", "DRI"]
    matched = 0
    for line in _random_lines(words, 20_000):
        one = _ROLE_FIELD_RE.search(line)
        two = _ROLE_FIELD_START_RE.match(line) or _ROLE_CELL_RE.search(line)
        assert (one and (one.span(), one.group(1))) == (two and (two.span(), two.group(1))), line
        matched += one is not None
    assert matched > 500


def test_every_go_the_pattern_finds_is_go_as_a_word() -> None:
    from tasks.extract.technologies import _GO_RE, _GO_WORD_RE

    words = ["in", "of", "Go", "Google", "Good", "written", "language", "'s", " ", "  ", "1.22", "v1", "xGo", "_", "\n"]
    matched = 0
    for line in _random_lines(words, 20_000):
        if _GO_RE.search(line):
            matched += 1
            assert _GO_WORD_RE.search(line), line
    assert matched > 100


def test_a_link_a_toc_or_local_link_pattern_finds_holds_its_bracket_and_parenthesis() -> None:
    from tasks.extract.subject_terms import _LOCAL_LINK_RE, _TOC_RE

    words = ["- ", "[queriers]", "(./querier.md)", "(#distributor)", "[Distributor]", "](", "](#", "x", " ", "[", "]",
             "(", ")", ".md", "#a"]
    matched = 0
    for line in _random_lines(words, 20_000):
        if _LOCAL_LINK_RE.search(line):
            matched += 1
            assert "](" in line, line
        if _TOC_RE.match(line):
            matched += 1
            assert "](#" in line, line
    assert matched > 100


def test_a_bold_label_or_decision_field_holds_its_bold_marks() -> None:
    from tasks.extract.genre_prose import _LABEL_RE
    from tasks.extract.genres import _DECISION_FIELD_RE

    words = ["**", "__", "Impact", "Decision", "decision", ":", " ", "- ", "*", "_", "x", "text", "**Impact:**",
             "__Decision__:", "**decision**:"]
    matched = 0
    for line in _random_lines(words, 20_000):
        if _LABEL_RE.match(line) or _DECISION_FIELD_RE.match(line):
            matched += 1
            assert "**" in line or "__" in line, line
    assert matched > 100


def test_the_letters_tested_in_lower_case_have_no_case_blind_twin_outside_ascii() -> None:
    # rotation_names ("rota", "call") and _sentences_like ("rejected") test a lower-cased text
    # for a word a case-blind pattern matches: exact only if no other character matches a letter
    # of it case-blind ("ı" matches "i", "ſ" matches "s")
    from tasks.extract.genre_parts import _STEMS

    letters = set("rotacall") | {letter for stem in _STEMS.values() for letter in stem}
    beyond_ascii = "".join(map(chr, range(0x80, 0x110000)))
    assert re.findall(f"[{''.join(sorted(letters))}]", beyond_ascii, re.I) == []
    assert re.fullmatch("i", "ı", re.I)  # such a twin exists for other letters


def test_the_given_names_of_each_alternative_survive_the_line_filter() -> None:
    from tasks.extract.non_subjects import given_names

    text = "x\nAleksander, on the Realtime on-call, got paged\nthe on-call, Tomasz, saw it\n(Sade, by 21 Feb)\ny, z"
    assert given_names(text) == {"Aleksander", "Tomasz", "Sade"}


def test_a_sentence_opening_inside_a_line_follows_a_stop_and_a_blank() -> None:
    from tasks.extract.code_names import _SENTENCE_OPENER_RE

    words = ["word", "shelfcheck", ".", "!", "?", " ", "\t", "  ", "x", "e.g", "runs"]
    matched = 0
    for line in _random_lines(words, 20_000):
        if _SENTENCE_OPENER_RE.search(line):
            matched += 1
            assert ". " in line or "? " in line or "! " in line or "\t" in line, line
    assert matched > 500


def test_sentences_split_where_the_pattern_with_its_lookbehind_first_splits() -> None:
    from tasks.extract.genre_prose import _SENTENCE_RE

    one = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[])")
    pieces = [".", "!", "?", " ", "  ", "\t", "\n", "A", "a", "`x`", '"', "'", "(", "[", "word", "e.g."]
    rng = random.Random(13)
    split = 0
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert _SENTENCE_RE.split(text) == one.split(text), text
        split += len(one.split(text)) > 1
    assert split > 2_000


def _gate_sentences(words: list[str], count: int) -> list[str]:
    rng = random.Random(11)
    glue = [" ", "  ", "\t", ", ", ". ", "'", "-", "; ", "s", "ed", "x", "no ", "at ", "is ", "the ", "we "]
    cases: list[Callable[[str], str]] = [str.lower, str.upper, str.title, str]
    return ["".join(rng.choice(cases)(rng.choice(words)) if rng.random() < 0.6 else rng.choice(glue)
                    for _ in range(rng.randint(0, 14))) for _ in range(count)]


def _gated_like_pattern(gate: WordGate, words: list[str]) -> int:
    """How many sentences the pattern matched; asserts the gate answers as the pattern does."""
    matched = 0
    for sentence in _gate_sentences(words, 20_000):
        expected = _span(gate.pattern.search(sentence))
        assert _span(gate.search(sentence)) == expected, sentence
        assert _span(gate.search(sentence, sentence.lower())) == expected, sentence
        matched += expected is not None
    return matched


def _span(match: re.Match[str] | None) -> tuple[int, int] | None:
    return None if match is None else match.span()


def _pattern_words(gate: WordGate) -> list[str]:
    """The pattern's own words (its letters runs), and the gate's, to build sentences from."""
    return sorted({*re.findall(r"[a-z]{2,}", gate.pattern.pattern.replace(r"\s", " ")), *gate.words})


def test_each_form_gate_answers_as_its_pattern() -> None:
    for gate in (_STRONG_RULE, _RULE, _FAILURE):
        assert _gated_like_pattern(gate, _pattern_words(gate)) > 1000
    # a choice takes a chooser and its verb: sentences of the pattern's phrases, shuffled
    phrases = ["we", "the board", "the CAB", "have", "then", "decided", "chose", "agreed to", "settled on",
               "went with", "will use", "will stay", "go with", "stay with", "recommends", "the decision is",
               "the outcome was", "was approved", "have been chosen", "were accepted", "Kafka", "opted", "x"]
    assert _gated_like_pattern(_CHOICE, phrases) > 1000


def test_a_gate_without_one_of_its_words_is_caught() -> None:
    narrowed = WordGate(_FAILURE.pattern, [word for word in _FAILURE.words if word != "stuck"])
    try:
        _gated_like_pattern(narrowed, _pattern_words(_FAILURE))
    except AssertionError:
        return
    raise AssertionError("a gate that misses a word of its pattern passed")


def test_a_text_outside_ascii_goes_to_the_pattern() -> None:
    # "ſ" (long s) and "K" (Kelvin) match "s" and "k" case-blind, but str.lower keeps them apart
    assert "muſt".lower() != "must" and re.search("must", "muſt", re.I)
    assert _STRONG_RULE.search("Clients muſt retry") is not None
    assert _FAILURE.search("the job got ſtuck") is not None
    assert _STRONG_RULE.search("Clients mußt retry") is None  # not ASCII, searched: no match
