"""Which of a document's own dates a field holds, by the words of its name (pure).

The date fields teams write are named in many ways ("Created", "Date opened", "Authored",
"Incident window", "Dates", "Last edited time", "Next review", "Resolved at"): one vocabulary of
their words says which date a field holds, read after the exact names genre_meta knows (which
keep their order of preference): the document's own day (`MAIN`: when it was opened or held,
or when what it tells of happened; `WRITTEN`: when the write-up was made), its last change
(`UPDATED`), its last review (`REVIEWED`), or a day that is not the document's (`OTHER`: when
something is due, ends or was closed).
"""

from __future__ import annotations

MAIN, WRITTEN, UPDATED, REVIEWED, OTHER = "main", "written", "updated", "reviewed", "other"

# Words of a day that is not the document's own: a deadline, an end, a plan (checked first:
# "next review", "target date", "resolved at", "end date").
_OTHER_WORDS = frozenset({
    "next", "due", "target", "deadline", "expires", "expiry", "expiration", "end", "ended", "ends",
    "resolved", "closed", "mitigated", "recovered", "fixed", "until", "eta", "planned", "scheduled",
    "release", "launch", "sunset", "cutover", "retirement", "decommission", "freeze", "renewal",
    "follow", "followup", "birth", "valid", "expected", "estimated", "retire",
})
_UPDATED_WORDS = frozenset({"updated", "modified", "edited", "revised", "changed", "amended", "lastmod"})
_REVIEWED_WORDS = frozenset({"reviewed", "review", "verified", "checked", "tested", "audited", "validated"})
# Words of when something happened or was held (they say more than a review's word beside them:
# "Review held" is the review's day, the page's own) and, weaker, a day's plain nouns ("Date
# reviewed" is a review's day).
_HAPPENED_WORDS = frozenset({
    "window", "opened", "started", "start", "began", "begun", "occurred", "happened", "reported",
    "detected", "raised", "held", "declared",
    # the meeting that decided or heard a paper (a committee paper's cover "Meeting: 14 June 2022",
    # a decision notice's "DA meeting"), the event an incident review is of (a CAST analysis's
    # "Loss event", "Event date")
    "meeting", "event",
})
_MAIN_WORDS = frozenset({"date", "dates", "day", "when", "time", "dated"})
# Words of the day the write-up itself was made: a proposal's or a page's own day, never the day
# an incident happened (a postmortem is written and published after it).
_WRITTEN_WORDS = frozenset({
    "created", "authored", "written", "drafted", "filed", "logged", "submitted", "proposed", "published",
    "posted", "issued", "prepared", "compiled",
})
_MAX_KEY_WORDS = 4


def date_role(key: str) -> str | None:
    """The date a field named `key` (lower case, words apart by one blank, as genres.field_key
    spells it) holds, or None when its name says no date."""
    words = set(key.replace("/", " ").split())
    if not words or len(words) > _MAX_KEY_WORDS:
        return None
    if words & _OTHER_WORDS:
        return OTHER
    if words & _UPDATED_WORDS or ("last" in words and words & _WRITTEN_WORDS):
        return UPDATED  # the last of a write-up's days: "Last published date", "Last posted"
    if words & _HAPPENED_WORDS:
        return MAIN
    if words & _REVIEWED_WORDS:
        return REVIEWED
    if words & _WRITTEN_WORDS:
        return WRITTEN
    return MAIN if words & _MAIN_WORDS else None
