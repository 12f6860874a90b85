"""The relation vocabulary: the active-voice verbs a graph relation may use (no I/O).

Distill takes a relation verb from a list item (`- depends_on [[Other]]`) only when it is one of
these (or its passive form, turned around), or when the item stands in a "Relations" section;
reconcile reports relation types outside this list. Three passive forms are verbs here: a
decision is `decided_by` / `authored_by` / `owned_by` the people and teams its record names
(tasks/extract/decision_people.py), so the decision stays the source like its uses / replaces.
A genre document is `about` its subjects; an incident `affected` the systems it names, and is
`caused_by` / `mitigated_by` what its cause and resolution name (tasks/extract/genre_subjects.py).
"""

from __future__ import annotations

RELATION_VERBS = frozenset(
    """
    mentions relates_to supersedes partially_supersedes amends replaces rejects uses
    depends_on requires consumes calls extends contains includes implements owns serves
    reads_from writes_to reports_to part_of member_of child_of derived_from produces publishes
    subscribes_to configures deploys runs_on hosted_on stores monitors tests documents
    blocks conflicts_with alternative_to see_also related_to works_on maintains manages
    delegates_to triggers notifies sends_to receives_from exposes caches indexes schedules
    creates updates deletes validates generates authenticates_with stores_data_in
    decided_by authored_by owned_by
    about affected caused_by mitigated_by
    """.split()
)
