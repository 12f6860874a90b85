from datetime import UTC, datetime

import pytest

from tasks.store.clock import Clock, clock_from_settings, fixed_clock, iso_utc, parse_utc, system_clock
from tasks.store.errors import ClockError
from tasks.store.settings import MembankSettings


def test_system_clock_is_utc_and_second_precision() -> None:
    now = system_clock().now()
    assert now.tzinfo is not None and now.utcoffset().total_seconds() == 0
    assert now.microsecond == 0


def test_fixed_clock_from_setting_is_used() -> None:
    clock = clock_from_settings(MembankSettings(fixed_clock="2026-03-24T22:40:05Z"))
    assert iso_utc(clock.now()) == "2026-03-24T22:40:05Z"
    assert iso_utc(clock.now()) == "2026-03-24T22:40:05Z"


def test_fixed_clock_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", "2026-03-24T23:40:05+01:00")
    assert iso_utc(clock_from_settings(MembankSettings()).now()) == "2026-03-24T22:40:05Z"


def test_naive_time_is_taken_as_utc() -> None:
    assert parse_utc("2026-03-24T22:40:05") == datetime(2026, 3, 24, 22, 40, 5, tzinfo=UTC)


def test_invalid_fixed_clock_is_a_clock_error() -> None:
    with pytest.raises(ClockError, match="not an ISO 8601 time"):
        fixed_clock("yesterday")


def test_failing_time_source_aborts_with_recoverable_error() -> None:
    def broken() -> datetime:
        raise OSError("ntp unreachable")

    with pytest.raises(ClockError) as info:
        Clock(broken, "ntp").now()
    assert info.value.recoverable
    assert "ntp unreachable" in str(info.value)


def test_naive_result_from_time_source_is_rejected() -> None:
    with pytest.raises(ClockError, match="naive"):
        Clock(lambda: datetime(2026, 1, 1), "bad").now()
