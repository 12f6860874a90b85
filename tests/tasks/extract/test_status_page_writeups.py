"""A status page's incident history followed by its write-up (conc63): the Identified update's
cause is kept beside the write-up's own story of the cause (what was found that day, in its
words), not dropped because the write-up has a cause too."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

HISTORY = """# Incident history: card payments failing at the ticket shop

**Resolved** - This incident has been resolved. Card payments have worked normally since 14:10.
Mar 6, 2026 - 14:30 GMT

**Monitoring** - The payment gateway's new API key has been loaded. We are monitoring payments.
Mar 6, 2026 - 14:12 GMT

**Identified** - The payment gateway's API key expired at 13:00 this afternoon.
Mar 6, 2026 - 13:40 GMT

**Investigating** - Customers report "payment declined" at checkout. We are investigating.
Mar 6, 2026 - 13:15 GMT

## Post-incident write-up

For 70 minutes no card payment went through at the ticket shop.

### Root cause

The ticket shop signs its calls to the payment gateway with an API key that lasts a year. The
reminder to renew it was set in the calendar of a developer who left in the autumn.

### What we are changing

1. An expiry alert 30 and 7 days before any key runs out.
"""


def test_the_identified_updates_cause_is_kept_beside_the_write_ups() -> None:
    result = extract_facts(HISTORY, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md"))
    said = [fact.text for fact in result.observations]
    assert any(s.startswith("Cause: The payment gateway's API key expired at 13:00 this afternoon.")
               for s in said), said
    assert any(s.startswith("Cause: The ticket shop signs its calls") for s in said), said
