"""The canonical UTC clock: system UTC by default, a fixed time when injected.

Every timestamp in content or names goes through a Clock, never through datetime.now().
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from tasks.store.errors import ClockError

if TYPE_CHECKING:  # (a type only: pydantic-settings and asyncio are ~0.05 s to import, and the
    # readers of names and dates, a search index update among them, need no settings)
    from tasks.store.settings import MembankSettings

_ISO_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


@dataclass(frozen=True)
class Clock:
    """A source of canonical UTC time. `source` is called on each read."""

    source: Callable[[], datetime]
    label: str = "system"

    def now(self) -> datetime:
        try:
            value = self.source()
        except Exception as exc:  # any failure of the time source is the same recoverable error
            raise ClockError(
                f"canonical UTC clock ({self.label}) could not be read: {exc}",
                hint="writes were aborted; retry when the time source is available",
            ) from exc
        if not isinstance(value, datetime) or value.tzinfo is None:
            raise ClockError(
                f"canonical UTC clock ({self.label}) returned a naive or invalid time: {value!r}",
                hint="the time source must return a timezone-aware datetime",
            )
        return value.astimezone(UTC).replace(microsecond=0)


def parse_utc(text: str) -> datetime:
    """Parse an ISO 8601 time; a naive time is taken as UTC."""
    cleaned = text.strip()
    if cleaned.endswith("Z"):
        cleaned = cleaned[:-1] + "+00:00"
    parsed = datetime.fromisoformat(cleaned)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def iso_utc(moment: datetime) -> str:
    """2026-03-24T22:40:05Z: the one text form of a canonical time."""
    return moment.astimezone(UTC).strftime(_ISO_FORMAT)


def system_clock() -> Clock:
    return Clock(lambda: datetime.now(UTC), "system")


def fixed_clock(moment: datetime | str) -> Clock:
    try:
        value = parse_utc(moment) if isinstance(moment, str) else moment.astimezone(UTC)
    except ValueError as exc:
        raise ClockError(
            f"fixed clock value {moment!r} is not an ISO 8601 time",
            hint="use a form like 2026-03-24T22:40:05Z (MEMBANK_FIXED_CLOCK)",
        ) from exc
    return Clock(lambda: value, f"fixed {iso_utc(value)}")


def clock_from_settings(settings: MembankSettings) -> Clock:
    if settings.fixed_clock:
        return fixed_clock(settings.fixed_clock)
    return system_clock()
