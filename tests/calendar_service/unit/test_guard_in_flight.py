"""A write in flight keeps its time against every other path (session 43, an adversarial
review acting as another product with valid credentials found two double bookings):

- settling an event (after a description update, a replayed create, or a stale hold found by
  another writer) replaced every range of that event, the "writing" range of its own move in
  flight included, so another product booked the move's new time and both were confirmed;
- cancelling an id that does not exist yet (ids derive from the owner's name and key, so
  another product can compute one) cancelled it by that id with no owner condition and
  released every hold of it: the owner's create in flight lost its hold (another product
  booked the time) or its event once it landed.

The rule: a range in flight is removed only by its own claim (its write refused, settled or
its lease passed); nothing answers an absent id by cancelling it. Writes are held open on an
``asyncio.Event`` (the test waits on the event itself, no timing)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta

import pytest

from agenda_kit.calendar.errors import (
    CalendarUnavailableError,
    EventNotFoundError,
    SlotTakenError,
)
from agenda_kit.calendar.port import (
    CalendarEvent,
    ConflictPolicy,
    EventChanges,
    EventDraft,
    Interval,
    Transparency,
)
from agenda_kit.calendar.status import CALENDAR_ERROR_RULES
from agenda_kit.errors import ErrorTable
from calendar_service.application.event_writes import (
    CancelEvent,
    EventMove,
    EventUpdate,
    MoveEvent,
    UpdateEvent,
)
from calendar_service.application.guard import WRITE_RETRY_SECONDS, SlotGuard, slot_taken
from calendar_service.application.use_cases import Caller
from tests.calendar_service.unit.test_guard import CAL, T0, RawBackend, draft
from tests.fakes.in_memory_holds import InMemoryHolds


class HeldBackend(RawBackend):
    """A backend whose next insert waits on ``gate`` once ``entered`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.gate: asyncio.Event | None = None
        self.entered = asyncio.Event()

    async def insert_event(self, d: EventDraft) -> tuple[CalendarEvent, bool]:
        gate, self.gate = self.gate, None
        if gate is not None:
            self.entered.set()
            await gate.wait()
        return await super().insert_event(d)


def overlapping(backend: RawBackend) -> list[tuple[str, str]]:
    live = backend.live()
    return [
        (a.event_id, b.event_id)
        for i, a in enumerate(live)
        for b in live[i + 1 :]
        if a.start < b.end and b.start < a.end
    ]


async def _held(
    write: Callable[[], Awaitable[CalendarEvent]], gate: asyncio.Event
) -> CalendarEvent:
    await gate.wait()
    return await write()


@pytest.fixture
def world() -> tuple[HeldBackend, InMemoryHolds, SlotGuard]:
    backend, holds = HeldBackend(), InMemoryHolds()
    return backend, holds, SlotGuard(backend, holds, clock=lambda: T0)


async def _move_in_flight(
    backend: HeldBackend, guard: SlotGuard, event: CalendarEvent, minutes: float
) -> tuple[asyncio.Task[CalendarEvent], asyncio.Event, Interval]:
    """A move of ``event`` to ``minutes`` after T0 whose provider write waits on a gate; it
    returns once the move holds its new time."""
    at = T0 + timedelta(minutes=minutes)
    span = Interval(at, at + (event.end - event.start))
    gate, started = asyncio.Event(), asyncio.Event()

    async def write() -> CalendarEvent:
        started.set()
        await gate.wait()
        return await backend.move_event(CAL, event.event_id, span.start, span.end)

    task = asyncio.create_task(guard.rewrite(event, span, ConflictPolicy.REJECT, write))
    await started.wait()  # claimed and checked: the provider write is under way
    return task, gate, span


async def _moved_now(
    backend: RawBackend, guard: SlotGuard, event_id: str, minutes: float, length: timedelta
) -> CalendarEvent:
    """The event moved through the guard to ``minutes`` after T0, landing at once."""
    current = await backend.get_event(CAL, event_id)
    at = T0 + timedelta(minutes=minutes)
    return await guard.rewrite(
        current, Interval(at, at + length), ConflictPolicy.REJECT,
        lambda: backend.move_event(CAL, event_id, at, at + length),
    )  # fmt: skip


def _hold_listing(backend: HeldBackend) -> tuple[asyncio.Event, asyncio.Event]:
    """The backend's next listing waits on the first event returned; the second is set once
    it has started. Later listings run as usual."""
    gate, started = asyncio.Event(), asyncio.Event()
    original = backend.list_events

    async def held(*args: object, **kwargs: object) -> object:
        backend.list_events = original  # type: ignore[method-assign]
        started.set()
        await gate.wait()
        return await original(*args, **kwargs)  # type: ignore[arg-type]

    backend.list_events = held  # type: ignore[method-assign,assignment]
    return gate, started


async def _unchanged_time(backend: RawBackend, event: CalendarEvent) -> CalendarEvent:
    return await backend.update_event(CAL, event.event_id, EventChanges(description="note"))


@pytest.mark.parametrize("meanwhile", ["description update", "replayed create"])
async def test_a_write_of_the_same_event_keeps_its_move_in_flight(
    world: tuple[HeldBackend, InMemoryHolds, SlotGuard], meanwhile: str
) -> None:
    backend, _, guard = world
    first = draft("mine", 0, 30, owner="x")
    mine, _ = await guard.create(first)
    move, gate, _ = await _move_in_flight(backend, guard, mine, 300)
    if meanwhile == "description update":
        now = Interval(mine.start, mine.end)
        await guard.rewrite(
            mine, now, ConflictPolicy.REJECT, lambda: _unchanged_time(backend, mine)
        )
    else:
        await guard.create(first)  # the same key and body: a replay
    with pytest.raises(SlotTakenError):
        await guard.create(draft("theirs", 300, 30, owner="y"))
    gate.set()
    await move
    assert overlapping(backend) == []


async def test_a_stale_hold_settled_by_another_writer_keeps_the_move_in_flight(
    world: tuple[HeldBackend, InMemoryHolds, SlotGuard],
) -> None:
    backend, _, guard = world
    mine, _ = await guard.create(draft("mine", 0, 30, owner="x"))
    moved = T0 + timedelta(minutes=60)  # moved in the provider itself: its hold is stale
    mine = await backend.move_event(CAL, mine.event_id, moved, moved + timedelta(minutes=30))
    move, gate, _ = await _move_in_flight(backend, guard, mine, 180)
    await guard.create(draft("old-time", 0, 30, owner="y"))  # settles mine at 60
    with pytest.raises(SlotTakenError):
        await guard.create(draft("new-time", 180, 30, owner="y"))
    gate.set()
    await move
    assert overlapping(backend) == []


async def test_cancelling_an_id_not_created_yet_neither_frees_nor_cancels_its_create(
    world: tuple[HeldBackend, InMemoryHolds, SlotGuard],
) -> None:
    backend, _, guard = world
    gate = asyncio.Event()
    backend.gate = gate
    first = draft("booking-4711", 0, 30, owner="x")
    create = asyncio.create_task(guard.create(first))
    await backend.entered.wait()  # x holds the time; its insert is under way
    computed = backend.event_id_for(CAL, "x", "booking-4711")
    cancel = CancelEvent(backend, guard)
    with pytest.raises(EventNotFoundError):  # as for any id never created
        await cancel.execute(CAL, computed, Caller("y"))
    with pytest.raises(SlotTakenError):
        await guard.create(draft("theirs", 10, 30, owner="y"))
    gate.set()
    event, created = await create
    assert created and (await backend.get_event(CAL, event.event_id)).status == "confirmed"
    assert overlapping(backend) == []


class LandsAfterRead(HeldBackend):
    """A backend where the owner's create lands right after another caller read its id as
    absent (``landing``: what to await once that read answered)."""

    landing: Callable[[], Awaitable[object]] | None = None

    async def get_event(self, calendar_id: str, event_id: str) -> CalendarEvent:
        try:
            return await super().get_event(calendar_id, event_id)
        except EventNotFoundError:
            landing, self.landing = self.landing, None
            if landing is not None:
                await landing()
            raise


async def test_an_id_read_as_absent_is_not_cancelled_when_its_create_lands_meanwhile() -> None:
    backend, holds = LandsAfterRead(), InMemoryHolds()
    guard = SlotGuard(backend, holds, clock=lambda: T0)
    gate = asyncio.Event()
    backend.gate = gate
    create = asyncio.create_task(guard.create(draft("booking-4711", 0, 30, owner="x")))
    await backend.entered.wait()

    async def land() -> object:
        gate.set()
        return await create

    backend.landing = land
    computed = backend.event_id_for(CAL, "x", "booking-4711")
    with pytest.raises(EventNotFoundError):
        await CancelEvent(backend, guard).execute(CAL, computed, Caller("y"))
    event, created = await create
    assert created and (await backend.get_event(CAL, event.event_id)).status == "confirmed"
    with pytest.raises(SlotTakenError):
        await guard.create(draft("theirs", 10, 30, owner="y"))


# Found by a second review of the fixes above (session 43), failing first:
async def test_a_move_within_its_own_time_read_stale_still_holds_that_time() -> None:
    """A move within the time the event took when read claims it too: the event may have
    moved meanwhile (another move of it landed), and another caller must not book that time
    under the stale move (which then lands on top of it)."""
    backend, holds = HeldBackend(), InMemoryHolds()
    guard = SlotGuard(backend, holds, clock=lambda: T0)
    mine, _ = await guard.create(draft("mine", 0, 120, owner="x"))
    gate, started = asyncio.Event(), asyncio.Event()
    original = backend.update_event

    async def held_update(calendar_id: str, event_id: str, changes: EventChanges) -> CalendarEvent:
        started.set()
        await gate.wait()
        return await original(calendar_id, event_id, changes)

    backend.update_event = held_update  # type: ignore[method-assign]
    shorter = EventMove(
        calendar_id=CAL, event_id=mine.event_id, start=mine.start,
        end=mine.start + timedelta(minutes=60),
    )  # fmt: skip
    stale = asyncio.create_task(
        MoveEvent(UpdateEvent(backend, guard)).execute(shorter, Caller("x"))
    )
    await started.wait()
    backend.update_event = original  # type: ignore[method-assign]
    await _moved_now(backend, guard, mine.event_id, 300, timedelta(hours=2))
    with pytest.raises(SlotTakenError):
        await guard.create(draft("theirs", 0, 60, owner="y"))
    gate.set()
    await stale
    assert overlapping(backend) == []


async def test_a_create_retried_after_an_unknown_outcome_leaves_no_hold_once_cancelled() -> None:
    """The first attempt's hold (its answer lost, the event written) is the retry's event: once
    the retry settled it, cancelling the event frees the time at once, not after the lease."""
    backend, holds = HeldBackend(), InMemoryHolds()
    guard = SlotGuard(backend, holds, clock=lambda: T0)
    original = backend.insert_event

    async def written_unanswered(d: EventDraft) -> tuple[CalendarEvent, bool]:
        await original(d)
        raise CalendarUnavailableError()

    backend.insert_event = written_unanswered  # type: ignore[method-assign]
    with pytest.raises(CalendarUnavailableError):
        await guard.create(draft("lost", 0, 60, owner="x"))
    backend.insert_event = original  # type: ignore[method-assign]
    event, created = await guard.create(draft("lost", 0, 60, owner="x"))  # the retry
    assert not created
    await CancelEvent(backend, guard).execute(CAL, event.event_id, Caller("x"))
    await guard.create(draft("theirs", 0, 60, owner="y"))  # free now
    assert overlapping(backend) == []


async def test_a_write_is_stopped_within_its_lease_and_its_time_kept_until_the_sweep() -> None:
    """A write may not outlive its hold's lease (a second review: a move whose provider calls
    each retried up to their own budget ran past the lease; the sweeper gave its time away and
    the move landed on the new booking). Past half the lease it stops with UNAVAILABLE, its
    outcome unknown: the time stays held ("writing") until the sweeper asks the provider. The
    insert here never answers, and the limit is a timer that expires once the insert is under
    way (no wall clock)."""
    backend, holds = HeldBackend(), InMemoryHolds()
    limits: list[timedelta] = []

    @asynccontextmanager
    async def expires_once_writing(limit: timedelta) -> AsyncIterator[None]:
        limits.append(limit)
        async with asyncio.timeout(None) as timer:

            async def expire() -> None:
                await backend.entered.wait()
                timer.reschedule(0)  # a deadline already past: expires at once

            expiring = asyncio.create_task(expire())
            try:
                yield
            finally:
                expiring.cancel()

    lease = timedelta(seconds=120)
    guard = SlotGuard(backend, holds, lease=lease, clock=lambda: T0, limit=expires_once_writing)
    backend.gate = asyncio.Event()  # never set
    with pytest.raises(CalendarUnavailableError):
        await guard.create(draft("slow", 0, 30, owner="x"))
    assert limits == [lease / 2]
    assert [h.writing for h in holds.holds] == [True]
    with pytest.raises(SlotTakenError):
        await guard.create(draft("theirs", 0, 30, owner="y"))
    await guard.sweep(now=T0 + timedelta(minutes=5))  # the lease passed: nothing was written
    await guard.create(draft("theirs", 0, 30, owner="y"))


# Found by a third review (session 43), failing first:
async def test_a_move_landing_at_the_range_of_another_move_in_flight_keeps_that_one() -> None:
    """A settle drops another claim's range over the very range it settles only for a create
    (whose late insert is a no-op); a late move is not: two moves of one event to the same
    time (a retry after a deadline), the second landing, then a third moving it on, left the
    first's time unheld while it was still to land."""
    backend, holds = HeldBackend(), InMemoryHolds()
    guard = SlotGuard(backend, holds, clock=lambda: T0)
    mine, _ = await guard.create(draft("mine", 0, 30, owner="x"))
    first, gate, span = await _move_in_flight(backend, guard, mine, 300)
    await _moved_now(backend, guard, mine.event_id, 300, span.end - span.start)
    await _moved_now(backend, guard, mine.event_id, 400, timedelta(minutes=30))
    with pytest.raises(SlotTakenError):
        await guard.create(draft("theirs", 300, 30, owner="y"))
    gate.set()
    await first
    assert overlapping(backend) == []


async def test_the_time_a_move_already_took_is_read_fresh() -> None:
    """A move skips, in its check, only events over time the event takes now (read in the same
    listing), not as it was read before the move: moved away meanwhile, its old time may hold
    an event written directly in the provider."""
    backend, holds = HeldBackend(), InMemoryHolds()
    guard = SlotGuard(backend, holds, clock=lambda: T0)
    mine, _ = await guard.create(draft("mine", 0, 60, owner="x"))
    gate, listing = _hold_listing(backend)
    within = Interval(mine.start, mine.start + timedelta(minutes=30))
    stale = asyncio.create_task(
        guard.rewrite(
            mine, within, ConflictPolicy.REJECT,
            lambda: backend.move_event(CAL, mine.event_id, within.start, within.end),
        )
    )  # fmt: skip
    await listing.wait()
    away = T0 + timedelta(minutes=300)
    await backend.move_event(CAL, mine.event_id, away, away + timedelta(minutes=60))
    await backend.insert_event(draft("by-hand", 0, 60, owner=""))  # no hold: the provider's UI
    gate.set()
    with pytest.raises(SlotTakenError):
        await stale
    assert overlapping(backend) == []


# Found by a fourth review (session 43), failing first:
async def test_an_update_decided_on_a_stale_read_is_decided_again() -> None:
    """An update decides what to hold and check from the event as read; written blind, it
    landed on what the event had become meanwhile: made opaque after the (transparent) event
    was moved onto a time another product then booked. The write is conditioned on the
    version read (the caller gave none): changed meanwhile, the update reads and decides again
    (and is refused: the time is taken now)."""
    backend, holds = HeldBackend(), InMemoryHolds()
    guard = SlotGuard(backend, holds, clock=lambda: T0)
    free = draft("mine", 0, 60, owner="x", transparency=Transparency.TRANSPARENT)
    mine, _ = await guard.create(free)
    gate, listing = _hold_listing(backend)
    busy = EventUpdate(
        calendar_id=CAL, event_id=mine.event_id,
        changes=EventChanges(transparency=Transparency.OPAQUE),
    )  # fmt: skip
    stale = asyncio.create_task(UpdateEvent(backend, guard).execute(busy, Caller("x")))
    await listing.wait()
    away = T0 + timedelta(minutes=300)
    await backend.move_event(CAL, mine.event_id, away, away + timedelta(minutes=60))
    await guard.create(draft("theirs", 300, 60, owner="y"))
    gate.set()
    with pytest.raises(SlotTakenError):
        await stale
    assert overlapping(backend) == []


def test_a_time_held_by_a_write_in_flight_says_when_to_ask_again() -> None:
    """``heldBy=write`` tells the caller that asking again shortly may work (the docs say so):
    the refusal carries ``RetryInfo`` (a fourth review found none); a time an event takes
    carries none (pick another time)."""
    table = ErrorTable(CALENDAR_ERROR_RULES)
    in_flight = table.map(slot_taken(T0, T0 + timedelta(minutes=30), "write"))
    taken = table.map(slot_taken(T0, T0 + timedelta(minutes=30), "event"))
    assert in_flight is not None and in_flight.retry_after == WRITE_RETRY_SECONDS
    assert taken is not None and taken.retry_after is None
