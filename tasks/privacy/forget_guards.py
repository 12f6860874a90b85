"""The guards `membank forget --apply` passes first (spec/memory-custodian.md, Forgetting 2-4).

- The plan it applies is the plan the user was shown: the dry run prints the plan's hash and
  `--apply` takes it back as `--confirm-plan HASH`; a different plan (the memory or the
  request changed since) is refused.
- A match inside a paragraph, a table, a code block (any unit that is not a whole entry) is
  not removed on its own: the plan marks it `needs_rewrite` and apply refuses until it is
  rewritten by hand, or until `--allow-broad-match` accepts removing that listed set whole.
- A short topic (under BROAD_TOPIC_CHARS characters) matches more than meant: it also needs
  `--allow-broad-match`.

Pure functions over a plan: no I/O.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from tasks.privacy.forget_plan import ForgetPlan
from tasks.privacy.topic_match import BROAD_TOPIC_CHARS, is_broad
from tasks.store.errors import InputError

PLAN_HASH_CHARS = 12


def plan_hash(plan: ForgetPlan, rows: Sequence[tuple[str, str]]) -> str:
    """A short hash of what the plan would change: its mode, target, every row of the plan
    (path and what happens there) and the text of every page it deletes or rewrites as it is
    now. Independent of the clock (a rewrite's new updated_at is not in it)."""
    digest = hashlib.sha256()
    head = {"mode": plan.mode, "topics": sorted(plan.target.topics),
            "assets": sorted(plan.target.asset_ids)}
    digest.update(json.dumps(head, sort_keys=True).encode("utf-8"))
    for path, why in rows:
        digest.update(f"\n{path}\t{why}".encode())
    for change in plan.pages:
        digest.update(f"\n{change.path}\t{change.before}".encode())
    return digest.hexdigest()[:PLAN_HASH_CHARS]


def rewrite_rows(plan: ForgetPlan) -> list[tuple[str, str]]:
    """(path, why) of each page with units that need a manual rewrite."""
    rows = []
    for change in plan.pages:
        if change.rewrite:
            units = "; ".join(u.describe() for u in change.rewrite)
            rows.append((change.path, f"needs_rewrite: {units} name(s) it inside prose, a table "
                                      "or code; rewrite by hand, or --allow-broad-match removes "
                                      "them whole"))
    return rows


def rewrite_count(plan: ForgetPlan) -> int:
    return sum(len(change.rewrite) for change in plan.pages)


def broad_reasons(plan: ForgetPlan) -> list[str]:
    """Why applying this plan needs --allow-broad-match (empty: it does not)."""
    reasons = [f"topic {t!r} is shorter than {BROAD_TOPIC_CHARS} characters and matches "
               "broadly" for t in plan.target.topics if is_broad(t)]
    count = rewrite_count(plan)
    if count:
        pages = sum(1 for c in plan.pages if c.rewrite)
        reasons.append(f"{count} unit(s) of prose, tables or code in {pages} page(s) need a "
                       "manual rewrite (needs_rewrite in the plan)")
    return reasons


def check_apply(plan: ForgetPlan, rows: Sequence[tuple[str, str]], *, confirm: str | None,
                allow_broad: bool) -> str:
    """Refuse to apply a plan the user was not shown, or a broad one not allowed; return the
    plan's hash."""
    current = plan_hash(plan, rows)
    if not confirm:
        raise InputError("forget --apply needs --confirm-plan HASH, the hash of the plan you "
                         "reviewed", hint="run the same forget without --apply: it prints the "
                         "plan and its hash")
    if confirm.strip().casefold() != current:
        raise InputError(f"--confirm-plan {confirm.strip()} is not the hash of this plan: the "
                         "memory or the request changed since that plan was shown; nothing "
                         "changed", hint="run the same forget without --apply and review the "
                         "plan it prints now")
    reasons = broad_reasons(plan)
    if reasons and not allow_broad:
        raise InputError("forget refuses a broad plan: " + "; ".join(reasons) + "; nothing "
                         "changed", hint="rewrite the needs_rewrite units by hand and plan "
                         "again, name the topic in full, or pass --allow-broad-match to remove "
                         "the listed units whole")
    return current
