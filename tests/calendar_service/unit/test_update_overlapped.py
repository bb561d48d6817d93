"""An event another caller overlapped (with ``ALLOW_OVERLAP``) can still be edited by its
owner: only time a change makes busy that the event did not already take is create-if-free
(session 43's adversarial review: a summary-only update, a private-properties update and a
move to where the event already is were all refused ``SLOT_TAKEN``, so any product with a
write grant could freeze another's events)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from agenda_kit.calendar.errors import SlotTakenError
from agenda_kit.calendar.port import ConflictPolicy, EventChanges, EventTime
from calendar_service.application.event_writes import (
    EventMove,
    EventUpdate,
    MoveEvent,
    UpdateEvent,
)
from calendar_service.application.guard import SlotGuard
from calendar_service.application.use_cases import Caller
from tests.calendar_service.unit.test_guard import CAL, T0, RawBackend, draft
from tests.fakes.in_memory_holds import InMemoryHolds


async def test_the_owner_edits_an_event_another_caller_overlapped() -> None:
    backend, holds = RawBackend(), InMemoryHolds()
    guard = SlotGuard(backend, holds, clock=lambda: T0)
    mine, _ = await guard.create(draft("mine", 0, 60, owner="x"))
    over = draft("over", 30, 60, owner="y", conflict_policy=ConflictPolicy.ALLOW_OVERLAP)
    await guard.create(over)
    update = UpdateEvent(backend, guard)
    x = Caller("x")
    for changes in (EventChanges(summary="renamed"), EventChanges(private={"k": "v"})):
        edit = EventUpdate(calendar_id=CAL, event_id=mine.event_id, changes=changes)
        await update.execute(edit, x)
    same = EventMove(calendar_id=CAL, event_id=mine.event_id, start=mine.start, end=mine.end)
    await MoveEvent(update).execute(same, x)
    inside = EventMove(
        calendar_id=CAL, event_id=mine.event_id, start=mine.start,
        end=mine.start + timedelta(minutes=30),
    )  # fmt: skip
    await MoveEvent(update).execute(inside, x)  # within the time it took
    later = T0 + timedelta(minutes=45)
    time = EventTime(start=later, end=later + timedelta(minutes=30))
    edit = EventUpdate(calendar_id=CAL, event_id=mine.event_id, changes=EventChanges(time=time))
    with pytest.raises(SlotTakenError):  # time it did not take, over y's: refused as ever
        await update.execute(edit, x)
    assert (await backend.get_event(CAL, mine.event_id)).summary == "renamed"
