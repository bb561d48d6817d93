"""Create-if-free (``SlotGuard``) over a raw backend that only writes, with the fake hold
store: the rules of docs/calendar-service.md#conflict-policy, one per test, and a property
over random concurrent writers. The hold store on MongoDB: integration/test_mongo_holds.py."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenda_kit.calendar.errors import (
    CalendarUnavailableError,
    InvalidCalendarRequestError,
    SlotTakenError,
)
from agenda_kit.calendar.port import (
    CalendarEvent,
    ConflictPolicy,
    EventDraft,
    Interval,
    Transparency,
)
from calendar_service.application.guard import SlotGuard
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.fakes.in_memory_holds import InMemoryHolds
from tests.reliability.scale import size

T0 = datetime(2031, 6, 2, 9, 0, tzinfo=UTC)
CAL = "room-1"
PROPERTIES = settings(
    max_examples=size(25, 300),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


class RawBackend(InMemoryCalendar):
    """A backend as Google or MongoDB is: it writes whatever it is asked to (no check of its
    own), so every refusal seen here is the guard's."""

    def _refuse_overlap(self, calendar_id: str, start: datetime, end: datetime, but: str) -> None:
        return None

    def live(self) -> list[CalendarEvent]:
        return [e for e in self.events.values() if e.is_busy]


def draft(
    key: str, start: float, minutes: int = 30, owner: str = "a", **extra: object
) -> EventDraft:
    at = T0 + timedelta(minutes=start)
    return replace(
        EventDraft(
            calendar_id=CAL,
            summary="s",
            description="",
            start=at,
            end=at + timedelta(minutes=minutes),
            idempotency_key=key,
            owner=owner,
        ),
        **extra,  # type: ignore[arg-type]
    )


@pytest.fixture
def world() -> tuple[RawBackend, InMemoryHolds, SlotGuard]:
    backend, holds = RawBackend(), InMemoryHolds()
    return backend, holds, SlotGuard(backend, holds, clock=lambda: T0)


async def test_a_taken_time_is_refused_with_the_conflicting_range_and_no_id(
    world: tuple[RawBackend, InMemoryHolds, SlotGuard],
) -> None:
    backend, _, guard = world
    first, _ = await guard.create(draft("k1", 0, 60, owner="a"))
    with pytest.raises(SlotTakenError) as refused:
        await guard.create(draft("k1", 30, 60, owner="b"))  # same key, another owner
    assert refused.value.reason == "SLOT_TAKEN"
    assert refused.value.metadata == {
        "conflictStart": "2031-06-02T09:30:00Z",
        "conflictEnd": "2031-06-02T10:00:00Z",
        "heldBy": "event",
    }
    assert first.event_id not in str(refused.value)
    assert len(backend.live()) == 1


async def test_touching_times_are_free_and_an_overlap_needs_asking(
    world: tuple[RawBackend, InMemoryHolds, SlotGuard],
) -> None:
    backend, _, guard = world
    await guard.create(draft("a", 0, 30))
    await guard.create(draft("b", 30, 30))  # touches: free
    allowed = draft("c", 15, 30, conflict_policy=ConflictPolicy.ALLOW_OVERLAP)
    await guard.create(allowed)
    await guard.create(draft("d", 0, 60, transparency=Transparency.TRANSPARENT))
    assert len(backend.events) == 4


async def test_events_written_directly_in_the_provider_are_honoured(
    world: tuple[RawBackend, InMemoryHolds, SlotGuard],
) -> None:
    backend, holds, guard = world
    await backend.insert_event(draft("by-hand", 10, 20, owner=""))  # no holds: Google's UI
    with pytest.raises(SlotTakenError):
        await guard.create(draft("k", 0, 60))
    assert holds.holds == []  # the refused write gave its units back
    assert backend.fresh_free_busy_calls == 1


async def test_a_retry_of_a_create_that_succeeded_is_a_replay_not_a_conflict(
    world: tuple[RawBackend, InMemoryHolds, SlotGuard],
) -> None:
    backend, _, guard = world
    first, created = await guard.create(draft("k", 0, 60))
    again, created_again = await guard.create(draft("k", 0, 60))
    assert (created, created_again, again.event_id) == (True, False, first.event_id)
    assert len(backend.events) == 1


async def test_an_ambiguous_write_keeps_the_time_until_the_sweep_asks_the_provider(
    world: tuple[RawBackend, InMemoryHolds, SlotGuard],
) -> None:
    backend, holds, guard = world
    original = backend.insert_event

    async def unanswered(item: EventDraft) -> tuple[CalendarEvent, bool]:
        raise CalendarUnavailableError()

    backend.insert_event = unanswered  # type: ignore[method-assign,assignment]
    with pytest.raises(CalendarUnavailableError):
        await guard.create(draft("lost", 0, 30))
    backend.insert_event = original  # type: ignore[method-assign]
    with pytest.raises(SlotTakenError) as refused:
        await guard.create(draft("other", 0, 30, owner="b"))
    assert refused.value.metadata["heldBy"] == "write"
    report = await guard.sweep(now=T0 + timedelta(hours=1))  # the lease has passed
    assert (report.released, report.settled) == (1, 0)
    await guard.create(draft("other", 0, 30, owner="b"))
    assert [h.event_id for h in holds.holds] != [] and not any(h.writing for h in holds.holds)


@pytest.mark.parametrize("moving", [False, True], ids=["create", "move"])
async def test_a_check_that_fails_gives_the_time_back_at_once(
    world: tuple[RawBackend, InMemoryHolds, SlotGuard], moving: bool
) -> None:
    """The provider unreachable for the fresh read: nothing was written, so no hold waits
    for the sweeper and another writer gets the time as soon as the provider answers."""
    backend, holds, guard = world
    mine, _ = await guard.create(draft("mine", 0, 30))
    backend.fail_with = CalendarUnavailableError()
    later = Interval(T0 + timedelta(hours=2), T0 + timedelta(hours=3))
    attempt = (
        guard.rewrite(
            mine, later, ConflictPolicy.REJECT, lambda: backend.get_event(CAL, mine.event_id)
        )
        if moving
        else guard.create(draft("unchecked", 120, 60))
    )
    with pytest.raises(CalendarUnavailableError):
        await attempt
    backend.fail_with = None
    assert [(h.event_id, h.writing) for h in holds.holds] == [(mine.event_id, False)]
    await guard.create(draft("other", 120, 60, owner="b"))


async def test_a_write_that_landed_before_its_answer_was_lost_is_settled_by_the_sweep(
    world: tuple[RawBackend, InMemoryHolds, SlotGuard],
) -> None:
    backend, holds, guard = world
    original = backend.insert_event

    async def stored_then_lost(item: EventDraft) -> tuple[CalendarEvent, bool]:
        await original(item)
        raise CalendarUnavailableError()

    backend.insert_event = stored_then_lost  # type: ignore[method-assign,assignment]
    with pytest.raises(CalendarUnavailableError):
        await guard.create(draft("landed", 0, 30))
    backend.insert_event = original  # type: ignore[method-assign]
    assert (await guard.sweep(now=T0 + timedelta(hours=1))).settled == 1
    assert all(not hold.writing for hold in holds.holds)
    with pytest.raises(SlotTakenError):
        await guard.create(draft("other", 10, 30, owner="b"))


async def test_a_refused_write_gives_its_time_back(
    world: tuple[RawBackend, InMemoryHolds, SlotGuard],
) -> None:
    backend, holds, guard = world
    backend.fail_with = InvalidCalendarRequestError("bad")
    with pytest.raises(InvalidCalendarRequestError):
        await guard.create(draft("k", 0, 30))
    assert holds.holds == []


async def test_holds_of_an_event_deleted_in_the_provider_are_given_back_on_conflict(
    world: tuple[RawBackend, InMemoryHolds, SlotGuard],
) -> None:
    backend, holds, guard = world
    gone, _ = await guard.create(draft("gone", 0, 60))
    del backend.events[gone.event_id]  # deleted directly in Google: the service never knew
    await guard.create(draft("next", 0, 60, owner="b"))
    assert gone.event_id not in {hold.event_id for hold in holds.holds}


async def test_moves_hold_their_new_time_and_ignore_their_own(
    world: tuple[RawBackend, InMemoryHolds, SlotGuard],
) -> None:
    backend, holds, guard = world
    mine, _ = await guard.create(draft("mine", 0, 60))
    other, _ = await guard.create(draft("other", 120, 60, owner="b"))

    async def move_to(start: float) -> CalendarEvent:
        later = T0 + timedelta(minutes=start)
        return await backend.move_event(CAL, mine.event_id, later, later + timedelta(hours=1))

    span = Interval(T0 + timedelta(minutes=30), T0 + timedelta(minutes=90))
    moved = await guard.rewrite(mine, span, ConflictPolicy.REJECT, lambda: move_to(30))
    assert moved.start == span.start  # onto a time overlapping itself
    assert [(h.start, h.end) for h in holds.holds if h.event_id == mine.event_id] == [
        (span.start, span.end)
    ]
    into_other = Interval(T0 + timedelta(minutes=100), T0 + timedelta(minutes=160))
    with pytest.raises(SlotTakenError):
        await guard.rewrite(moved, into_other, ConflictPolicy.REJECT, lambda: move_to(100))
    assert (await backend.get_event(CAL, mine.event_id)).start == span.start
    await guard.cancelled(CAL, other.event_id)
    assert all(h.event_id == mine.event_id for h in holds.holds)


@PROPERTIES
@given(
    st.lists(
        st.tuples(st.integers(0, 40), st.integers(1, 12), st.sampled_from("abc")),
        min_size=2,
        max_size=12,
    )
)
async def test_concurrent_writers_never_overlap_and_only_real_overlaps_are_refused(
    asks: list[tuple[int, int, str]],
) -> None:
    """Any number of writers (three owners) racing for random times: the written events
    never overlap; a refused time overlaps one that was written or another writer in
    flight; of writers asking for the very same time, exactly one gets it."""
    backend, holds = RawBackend(), InMemoryHolds()
    guard = SlotGuard(backend, holds, clock=lambda: T0)
    drafts = [
        draft(f"k{i}", 5 * start, 5 * units, owner) for i, (start, units, owner) in enumerate(asks)
    ]
    outcomes = await asyncio.gather(*(guard.create(d) for d in drafts), return_exceptions=True)
    written = sorted(backend.live(), key=lambda e: e.start)
    assert all(a.end <= b.start for a, b in itertools.pairwise(written))
    for item, outcome in zip(drafts, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            assert isinstance(outcome, SlotTakenError), outcome
            rivals = [d for d in drafts if d is not item]
            assert any(d.start < item.end and item.start < d.end for d in rivals)
    for span in {(item.start, item.end) for item in drafts}:
        same = [o for d, o in zip(drafts, outcomes, strict=True) if (d.start, d.end) == span]
        others = [d for d in drafts if (d.start, d.end) != span]
        if not any(d.start < span[1] and span[0] < d.end for d in others):
            assert sum(not isinstance(o, BaseException) for o in same) == 1
    held = {hold.event_id for hold in holds.holds}
    assert held == {e.event_id for e in written}
