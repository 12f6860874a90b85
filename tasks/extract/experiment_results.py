"""What an experiment found, in a write-up read as a decision record (pure).

An experiment's write-up (Hypothesis / Method / Result / Decision, as growth and product teams
keep them) has a Decision section, so it is read as a decision record; the record readers keep
its decision, not what the experiment measured. Each statement of its "Result(s)" or "Findings"
section that no reader kept is kept as an Outcome (the label the field readers give a result).
"""

from __future__ import annotations

import re

from tasks.extract.genre_text import part_fact
from tasks.extract.model import ObservationFact
from tasks.extract.part_statements import statements
from tasks.extract.structure import Structure, section_key

MAX_PER_SECTION = 8
_RESULTS_RE = re.compile(r"^(?:(?:key|main|experiment|test)\s+)?(?:results?|findings|observations)$")


def experiment_results(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The statements of the record's results sections that `facts` do not hold, as Outcomes."""
    held = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    found: list[ObservationFact] = []
    for section in structure.sections[1:]:
        if not _RESULTS_RE.match(section_key(structure.title(section))):
            continue
        spans = [span for span in statements(structure, structure.lines(section))
                 if not held & set(range(span[1], span[2] + 1))]
        found += [part_fact("Outcome", span, "detail") for span in spans[:MAX_PER_SECTION]]
    return found
