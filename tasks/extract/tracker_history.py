"""The state an issue tracker's history leaves a record in (pure), when the page states no status
of its own: the last of its history's state events, as trackers print them and a page copied or
exported from them keeps them (GitHub's "**bo** closed this as completed in #325 on Mar 3" and
"reopened this", GitLab's "Kai Brandt closed via merge request !412", Redmine's journal line
"**Status** changed from *In Progress* to *Resolved*"). A state quoted in a comment ("#301 is
still Open") is no event and is not read."""

from __future__ import annotations

import re
from collections.abc import Sequence

from tasks.extract.model import ObservationFact
from tasks.extract.status_text import is_status_word, status_observation
from tasks.extract.text import plain_text

# Someone closing or reopening the issue itself: GitHub's "closed this" / "reopened this" (with
# its close reason), GitLab's "closed via merge request !412" / "closed via commit 1a2b3c".
_CLOSE_EVENT_RE = re.compile(
    r"^\W{0,3}@?[\w.-]{1,40}(?:\s+[A-Z][\w.-]{0,30}){0,2}\W{0,3}\s+(?P<event>closed|reopened)"
    r"(?:\s+this(?:\s+as\s+(?:completed|not\s+planned|duplicate)\b|(?=\s+in\s+\S*#\d|\s+on\s+[A-Z]|\s*$))"
    r"|\s+via\s+(?:merge\s+request|commit)\b)")
# A journal's state change ("Status changed from New to In Progress"), its values in emphasis or not.
_STATUS_CHANGE_RE = re.compile(
    r"^\W{0,3}(?:status|state)\W{0,3}\s+changed\s+from\s+\W{0,2}(?P<old>[A-Za-z][\w' -]{0,30}?)\W{0,2}"
    r"\s+to\s+\W{0,2}(?P<new>[A-Za-z][\w' -]{0,30}?)\W{0,2}\s*$", re.I)
_STATE_OF_EVENT = {"closed": "Closed", "reopened": "Open"}


def history_status(lines: Sequence[tuple[int, str]]) -> ObservationFact | None:
    """The `Status:` the last state event among `lines` leaves the record in, None when they
    hold none."""
    found: ObservationFact | None = None
    for number, line in lines:
        if "hanged" not in line and "losed" not in line and "opened" not in line:
            continue  # a literal gate first
        event = _CLOSE_EVENT_RE.match(line)
        if event is not None:
            found = status_observation(_STATE_OF_EVENT[event["event"]], number, number)
            continue
        change = _STATUS_CHANGE_RE.match(plain_text(line).lstrip("-*+ "))
        if change is not None and is_status_word(change["new"]):
            found = status_observation(change["new"].strip(), number, number)
    return found
