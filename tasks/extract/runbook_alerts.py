"""A reference page of several alerts, each read as its own runbook (pure).

An alert reference page ("Clinical integration: alert reference") keeps one section per alert
(`## MllpListenerDown`), each with the same parts under its own sub-headings (Context,
Investigation, Resolution). Read as one runbook, only the first alert's parts were kept; here
each alert gives its own: when it fires and what it means (from its Context or Meaning), how to
diagnose it and how to mitigate it, each observation naming its alert.
"""

from __future__ import annotations

import re

from tasks.extract.genre_text import MAX_SPAN_LINES, find_sections, list_items, section_paragraph
from tasks.extract.incident_prose import alert_and_meaning
from tasks.extract.model import LineSpan, ObservationFact
from tasks.extract.structure import Structure, section_key
from tasks.extract.text import shorten
from tasks.markdown.blocks import Section

# What an alert's sub-heading names, by the part it holds.
_ABOUT = frozenset({"context", "meaning", "what it means", "what this alert means", "description",
                    "overview", "summary", "about", "background", "symptoms", "alert", "details"})
_DIAGNOSIS = frozenset({"investigation", "investigate", "diagnosis", "diagnose", "troubleshooting",
                        "checks", "possible checks", "triage", "how to investigate", "debugging"})
_MITIGATION = frozenset({"resolution", "mitigation", "remediation", "fix", "how to fix", "resolve",
                         "what to do", "response", "actions", "steps", "recovery", "workaround"})
_MAX_STEPS = 8


def alert_sections(structure: Structure) -> list[tuple[Section, list[Section]]]:
    """The page's alerts, each a section with its sub-sections, when two or more sections of
    one level each hold two or more runbook parts (an about part, a diagnosis, a mitigation)."""
    sections = structure.sections
    found: list[tuple[Section, list[Section]]] = []
    for index, section in enumerate(sections[1:], start=1):
        under: list[Section] = []
        for later in sections[index + 1:]:
            if later.level <= section.level:
                break
            under.append(later)
        top = min((sub.level for sub in under), default=0)  # its own parts, not its alerts' parts
        keys = {section_key(structure.title(sub)) for sub in under if sub.level == top}
        if sum(bool(keys & kind) for kind in (_ABOUT, _DIAGNOSIS, _MITIGATION)) >= 2:
            found.append((section, under))
    levels = [section.level for section, _ in found]
    return found if len(found) >= 2 and len(set(levels)) == 1 else []


def alert_facts(structure: Structure, alerts: list[tuple[Section, list[Section]]]) -> list[ObservationFact]:
    """Each alert's parts: Alert and Meaning (the about part's sentence that says when it fires,
    and what follows; the whole paragraph is the meaning when none says it), Diagnosis and
    Mitigation (each step of a list, else the first paragraph)."""
    facts: list[ObservationFact] = []
    for section, under in alerts:
        name = structure.title(section).strip()
        for sub in under:
            key = section_key(structure.title(sub))
            found = section_paragraph(structure, sub)
            if key in _ABOUT and found is not None:
                lines = [(n, text) for n, text in structure.lines(sub) if found[1] <= n <= found[2]]
                alert, meaning = alert_and_meaning(lines)
                facts += [_fact(label, name, span) for label, span in (("Alert", alert), ("Meaning", meaning))
                          if span is not None]
                if alert is None:
                    facts.append(_fact("Meaning", name, found))
            elif key in _DIAGNOSIS or key in _MITIGATION:
                label = "Diagnosis" if key in _DIAGNOSIS else "Mitigation"
                steps = list_items(structure.lines(sub), limit=_MAX_STEPS)
                kind = "detail" if label == "Diagnosis" else "conclusion"  # checks name tools, not subjects
                facts += [_fact(label, name, span, kind) for span in (steps or ([found] if found else []))]
    return facts


def _fact(label: str, alert: str, span: LineSpan, kind: str = "conclusion") -> ObservationFact:
    text, start, end = span
    return ObservationFact(f"{label}: {shorten(f'{alert}: {text}')}", start,
                           min(end, start + MAX_SPAN_LINES - 1), kind)


# An item that names one of the page's alerts and says when it fires, as a runbook lists the
# alerts it answers among its symptoms ("`SlurmctldDown` fires: neither controller answered ...",
# "`OriginErrorRateHigh`: more than 2% of responses are 5xx for 5 minutes"). The name is one
# identifier (no blank in it), so the pattern reads each character once.
_ALERT_ITEM_RE = re.compile(r"^(?:Alert\s+)?`?(?P<name>[A-Z][A-Za-z0-9_]{3,80})`?"
                            r"(?:\s(?:alert\s)?(?:fires|triggers|is\sraised))?:\s+(?P<condition>\S.*)$")
_SYMPTOM_SECTIONS = frozenset({"symptoms", "symptom", "alert", "alerts", "meaning", "what it means",
                               "alert description", "alert conditions", "when this alert fires"})


def listed_alerts(structure: Structure) -> list[LineSpan]:
    """Each item of a Symptoms (or Alert, Meaning) section that names an alert, an identifier in
    CamelCase, and its condition: what fires it, led by its name."""
    found: list[LineSpan] = []
    for section in find_sections(structure, _SYMPTOM_SECTIONS):
        for text, start, end in list_items(structure.lines(section), limit=_MAX_STEPS):
            match = _ALERT_ITEM_RE.match(text)
            if match and sum(char.isupper() for char in match["name"]) >= 2:
                found.append((shorten(f"{match['name']}: {match['condition']}"), start, end))
    return found
