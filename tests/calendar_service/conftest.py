"""Fixtures shared by the calendar service's unit and integration tests."""

from __future__ import annotations

from datetime import datetime

import pytest

from calendar_service.application import busy_time
from calendar_service.domain.slot_intervals import Interval
from calendar_service.domain.slots import SlotQuery, SlotResult, free_slots_of


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    """How many times the slot engine ran (one ``now`` per run)."""
    runs: list[datetime] = []

    def counting(query: SlotQuery, busy: list[Interval], now: datetime) -> SlotResult:
        runs.append(now)
        return free_slots_of(query, busy, now)

    monkeypatch.setattr(busy_time, "free_slots_of", counting)
    return runs
