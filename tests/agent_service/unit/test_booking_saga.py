"""Issue 11, with fakes: every ambiguous path of the saga tells the truth, and the customer hears
the outcome later through the outbox. Each test reproduces one reported defect."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

import pytest

from agenda_kit import deadline
from agenda_kit.calendar.errors import (
    CalendarQuotaError,
    CalendarUnavailableError,
    EventNotFoundError,
)
from agenda_kit.calendar.port import CalendarEvent, EventDraft
from agent_service.application.booking import Booking
from agent_service.application.reconciler import Reconciler
from agent_service.application.repositories import Repositories
from agent_service.bootstrap import wire_booking
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.conversations import ActionKind
from agent_service.domain.errors import (
    BookingPendingError,
    ConflictError,
    DeadlineExceededError,
    InvalidStateError,
    PolicyViolationError,
    SlotUnavailableError,
)
from agent_service.domain.outbox import OutboxKind
from tests.agent_service.conversation_fixtures import NOW, Assistant, Salon, seed_salon
from tests.fakes.agent_repositories import in_memory_repositories
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.waiting import until

TUESDAY_10 = datetime.fromisoformat("2026-12-01T10:00:00-03:00")
PENDING_RECEIPT_PT = "⏳ Em andamento: Corte feminino com Ana Souza"


def told_pending(reply: str) -> bool:
    """The system's receipt says in progress (a confirmation runs in code: no model words)."""
    return reply.startswith(PENDING_RECEIPT_PT) and "NOT BOOKED" not in reply


async def setup() -> tuple[Booking, Salon, InMemoryCalendar, Repositories]:
    repos = in_memory_repositories(clock=lambda: NOW)
    calendar = InMemoryCalendar(clock=lambda: NOW)
    salon = await seed_salon(repos)
    return wire_booking(repos, calendar, lambda: NOW), salon, calendar, repos


def reconciler(repos: Repositories, calendar: InMemoryCalendar) -> Reconciler:
    return Reconciler(repos, calendar, grace=timedelta(0))


def live(calendar: InMemoryCalendar) -> list[CalendarEvent]:
    return [e for e in calendar.events.values() if e.status != "cancelled"]


def quota_on_every_write(calendar: InMemoryCalendar, *, store: bool) -> None:
    """Google's RESOURCE_EXHAUSTED on ``events.insert`` (after storing it, when ``store``)."""
    original = calendar.insert_event

    async def quota(draft: EventDraft) -> tuple[CalendarEvent, bool]:
        if store:
            await original(draft)
        raise CalendarQuotaError("Google quota exceeded")

    calendar.insert_event = quota  # type: ignore[method-assign]


# §1 — pending means pending


async def test_a_quota_error_on_the_write_is_told_as_pending_then_one_outbox_message() -> None:
    """Reproduces §1: the customer was told "Não foi possível: Google quota exceeded" while
    the reconciler later confirmed the booking."""
    assistant = Assistant(repos=in_memory_repositories(clock=lambda: NOW))
    salon = await seed_salon(assistant.repos)
    quota_on_every_write(assistant.calendar, store=True)
    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    answered = await assistant.say(salon.tenant.id, "sim")
    assert told_pending(answered.result.reply)
    (action,) = answered.result.actions
    assert action.kind is ActionKind.APPOINTMENT_PENDING and action.appointment_id is not None
    stored = await assistant.repos.appointments.get(salon.tenant.id, action.appointment_id)
    assert stored.status is AppointmentStatus.PENDING and stored.awaiting_notice

    first = await reconciler(assistant.repos, assistant.calendar).run_once()
    again = await reconciler(assistant.repos, assistant.calendar).run_once()
    assert (first.confirmed, first.notices, again.notices) == (1, 1, 0)
    (message,) = await assistant.repos.outbox.due(salon.tenant.id, None, 10)
    assert message.kind is OutboxKind.BOOKING_CONFIRMED
    assert message.appointment_id == action.appointment_id
    assert (message.channel, message.external_id) == ("whatsapp", "5511999990000")
    assert message.text.startswith("Confirmado com a agenda: Corte feminino com Ana Souza")
    assert message.conversation_id == answered.result.conversation_id


async def test_a_timeout_with_nothing_stored_ends_failed_and_the_customer_hears_it() -> None:
    service, salon, calendar, repos = await setup()
    quota_on_every_write(calendar, store=False)
    with pytest.raises(BookingPendingError):
        await service.book.execute(salon.tenant.id, uuid4(), salon.ana.id, salon.cut.id, TUESDAY_10)
    customer_id = (await repos.appointments.due_pending(timedelta(0), 1))[0].customer_id
    await _customer(repos, salon, customer_id)
    report = await reconciler(repos, calendar).run_once()
    assert (report.released, report.notices) == (1, 1)
    (message,) = await repos.outbox.due(salon.tenant.id, None, 10)
    assert message.kind is OutboxKind.BOOKING_FAILED and "não foi reservado" in message.text


async def _customer(repos: Repositories, salon: Salon, customer_id: Any) -> None:
    from agent_service.domain.catalog import Customer

    await repos.customers.upsert(
        Customer(id=customer_id, tenant_id=salon.tenant.id, channel="whatsapp", external_id="551")
    )


async def test_while_one_is_pending_a_new_booking_is_asked_about_not_silently_added() -> None:
    assistant = Assistant(repos=in_memory_repositories(clock=lambda: NOW))
    salon = await seed_salon(assistant.repos)
    original = assistant.calendar.insert_event
    quota_on_every_write(assistant.calendar, store=False)
    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    assert told_pending((await assistant.say(salon.tenant.id, "sim")).result.reply)
    assistant.calendar.insert_event = original  # type: ignore[method-assign]
    asked = await assistant.say(
        salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 15h"
    )
    assert "ainda estou confirmando com a agenda" in asked.result.reply
    assert asked.result.actions == ()


async def test_pending_bookings_read_with_the_turn_serve_the_question_until_the_turn_writes() -> (
    None
):
    from agent_service.application.turn_context import Upcoming
    from agent_service.infrastructure.agent.deps import AgentDeps, TurnState
    from agent_service.infrastructure.agent.tools.booking import _pending_bookings

    assistant = Assistant(repos=in_memory_repositories(clock=lambda: NOW))
    salon = await seed_salon(assistant.repos)
    quota_on_every_write(assistant.calendar, store=False)
    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    assert told_pending((await assistant.say(salon.tenant.id, "sim")).result.reply)
    (pending,) = await assistant.repos.appointments.due_pending(timedelta(0), 5)
    store = assistant.repos.appointments
    listed: list[object] = []

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        async def list(self, *args: Any, **kwargs: Any) -> Any:
            listed.append(args)
            return await store.list(*args, **kwargs)

    turn = TurnState(now=NOW, language="pt", upcoming_read=Upcoming(NOW, 3, (), pending=()))
    deps = AgentDeps(
        tenant_id=salon.tenant.id,
        customer_id=pending.customer_id,
        tenant_repository=assistant.repos.tenants,
        service_repository=assistant.repos.services,
        professional_repository=assistant.repos.professionals,
        appointment_repository=Counting(),
        calendar_adapter=assistant.calendar,
        faq_repository=assistant.repos.faq,
        booking=assistant.booking,
        tenant=salon.tenant,
        turn=turn,
    )
    turn.upcoming_read = Upcoming(NOW, 3, (), pending=(pending,))
    assert await _pending_bookings(deps) == (pending,) and listed == []  # read with the turn
    turn.upcoming_read = Upcoming(NOW, 3, ())  # the turn's read did not bring them: ask
    assert [a.id for a in await _pending_bookings(deps)] == [pending.id] and len(listed) == 1
    turn.upcoming_read = Upcoming(NOW, 3, (), pending=())
    turn.writes_this_turn = 1  # this turn wrote: what it read before may be out of date
    assert [a.id for a in await _pending_bookings(deps)] == [pending.id] and len(listed) == 2


# §3 — the saga shielded from the caller's cancellation


async def test_a_confirmation_cancelled_by_the_callers_deadline_gets_its_true_outcome() -> None:
    """Reproduces §3: the cancelled turn released its claim; the redelivered "sim" found its
    own hold and answered "taken" — then the reconciler confirmed."""
    assistant, salon, held = await assistant_with_held_event_writes()
    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    first = asyncio.ensure_future(assistant.say(salon.tenant.id, "sim", message_id="m-yes"))
    await until(lambda: held.writing == 1, what="the confirmation's event write started")
    first.cancel()  # the gateway's deadline passed while the event was being written
    with pytest.raises(asyncio.CancelledError):
        await first
    reads = held.result_reads
    redelivered = asyncio.ensure_future(assistant.say(salon.tenant.id, "sim", message_id="m-yes"))
    await until(lambda: held.result_reads > reads, what="the redelivery waits for the outcome")
    held.release.set()
    outcome = await redelivered
    assert outcome.duplicate and "✅ Agendado: Corte feminino" in outcome.result.reply
    assert len(live(assistant.calendar)) == 1


async def test_a_redelivery_after_the_handler_died_resumes_the_same_booking() -> None:
    """The first delivery wrote the event and died (no reply, claim lease expired): the
    redelivery resumes the appointment of that message, confirms it — never "taken"."""
    service, salon, calendar, repos = await setup()
    customer = uuid4()
    args = (salon.tenant.id, customer, salon.ana.id, salon.cut.id, TUESDAY_10)

    def die_after_event(step: str) -> None:
        if step == "after_event":
            raise asyncio.CancelledError  # stands for SIGKILL: nothing after this step runs

    dying = wire_booking(repos, calendar, lambda: NOW, die_after_event)
    with pytest.raises(asyncio.CancelledError):
        await dying.book.execute(*args, request_key="whatsapp:m1")
    resumed = await service.book.execute(*args, request_key="whatsapp:m1")
    assert resumed.status is AppointmentStatus.CONFIRMED
    assert [e.event_id for e in live(calendar)] == [resumed.external_event_id]
    again = await service.book.execute(*args, request_key="whatsapp:m1")
    assert again.id == resumed.id
    with pytest.raises(SlotUnavailableError):  # another message for that time: taken
        await service.book.execute(*args, request_key="whatsapp:m2")


async def test_a_redelivery_too_late_to_book_anew_still_resumes_its_booking() -> None:
    """The reservation is tried first (no read before it); a redelivery past the booking
    notice cannot reserve anew but still finishes what its first delivery began."""
    _service, salon, calendar, repos = await setup()
    args = (salon.tenant.id, uuid4(), salon.ana.id, salon.cut.id, TUESDAY_10)

    def die_after_event(step: str) -> None:
        if step == "after_event":
            raise asyncio.CancelledError  # stands for SIGKILL

    dying = wire_booking(repos, calendar, lambda: NOW, die_after_event)
    with pytest.raises(asyncio.CancelledError):
        await dying.book.execute(*args, request_key="whatsapp:m1")
    late = wire_booking(repos, calendar, lambda: TUESDAY_10 + timedelta(hours=1))
    resumed = await late.book.execute(*args, request_key="whatsapp:m1")
    assert resumed.status is AppointmentStatus.CONFIRMED
    assert [e.event_id for e in live(calendar)] == [resumed.external_event_id]
    with pytest.raises(PolicyViolationError):  # a new request at that time: too late
        await late.book.execute(*args, request_key="whatsapp:m2")


# §2 — claims with a lease


async def test_a_claim_whose_holder_died_expires_and_the_redelivery_handles_it() -> None:
    """Reproduces §2: the claim never expired; every redelivery waited 30 s and got "still
    being handled"."""
    clock = [NOW]
    assistant = Assistant(repos=in_memory_repositories(clock=lambda: clock[0]))
    salon = await seed_salon(assistant.repos)
    assert await assistant.repos.turns.claim(salon.tenant.id, "whatsapp", "m-died")
    clock[0] = NOW + timedelta(seconds=61)  # the lease (60 s) passed; nobody renewed it
    handled = await assistant.say(salon.tenant.id, "Oi", message_id="m-died")
    assert not handled.duplicate and handled.result.reply


# §4 — orphan events


async def test_an_event_left_by_a_failed_withdrawal_is_swept_until_cancelled() -> None:
    """Reproduces §4: the reconciler failed the appointment while its write was in flight and
    cancelling that event failed — the event stayed forever."""
    service, salon, calendar, repos = await setup()
    sweeper = reconciler(repos, calendar)
    original_insert, original_cancel = calendar.insert_event, calendar.cancel_event

    async def reconciled_meanwhile(draft: EventDraft) -> tuple[CalendarEvent, bool]:
        assert (await sweeper.run_once()).released == 1
        return await original_insert(draft)

    async def cancel_fails(calendar_id: str, event_id: str, **_: Any) -> bool:
        raise CalendarUnavailableError("calendar down")

    calendar.insert_event = reconciled_meanwhile  # type: ignore[method-assign]
    calendar.cancel_event = cancel_fails  # type: ignore[method-assign]
    with pytest.raises(SlotUnavailableError):
        await service.book.execute(salon.tenant.id, uuid4(), salon.ana.id, salon.cut.id, TUESDAY_10)
    calendar.insert_event = original_insert  # type: ignore[method-assign]
    assert len(live(calendar)) == 1  # the orphan
    assert (await sweeper.run_once()).orphans_cancelled == 0  # still failing: kept, retried
    calendar.cancel_event = original_cancel  # type: ignore[method-assign]
    assert (await sweeper.run_once()).orphans_cancelled == 1
    assert live(calendar) == [] and await repos.appointments.with_orphan_events(10) == []


# §5 — reschedule as one operation


async def booked(service: Booking, salon: Salon, start: datetime = TUESDAY_10) -> Appointment:
    return await service.book.execute(salon.tenant.id, uuid4(), salon.ana.id, salon.cut.id, start)


async def test_a_reschedule_onto_a_time_overlapping_itself_works() -> None:
    """Reproduces §5: moving 10:00 → 10:30 failed on its own hold."""
    service, salon, calendar, _ = await setup()
    old = await booked(service, salon)
    moved = await service.reschedule.execute(
        salon.tenant.id, old.customer_id, old.id, TUESDAY_10 + timedelta(minutes=30)
    )
    assert (moved.id, moved.external_event_id) == (old.id, old.external_event_id)
    (event,) = live(calendar)
    assert event.start == TUESDAY_10 + timedelta(minutes=30)


async def test_concurrent_reschedules_of_one_appointment_one_wins() -> None:
    """Reproduces §5: two concurrent reschedules both succeeded."""
    service, salon, calendar, repos = await setup()
    old = await booked(service, salon)
    targets = [TUESDAY_10 + timedelta(hours=h) for h in (2, 3, 4, 5, 6)] * 4
    outcomes = await asyncio.gather(
        *(
            service.reschedule.execute(
                salon.tenant.id, old.customer_id, old.id, t, expected_start=old.start
            )
            for t in targets
        ),
        return_exceptions=True,
    )
    winners = [o for o in outcomes if isinstance(o, Appointment)]
    assert len(winners) == 1, outcomes
    assert all(
        isinstance(o, ConflictError | SlotUnavailableError) for o in outcomes if o not in winners
    )
    (event,) = live(calendar)
    stored = await repos.appointments.get(salon.tenant.id, old.id)
    assert event.start == stored.start == winners[0].start and stored.moving_to is None


async def test_a_failed_move_leaves_no_residue_and_the_old_time_stands() -> None:
    """Reproduces §5: "NOT RESCHEDULED" with two confirmed appointments."""
    service, salon, calendar, repos = await setup()
    old = await booked(service, salon)

    async def gone(*args: Any, **kwargs: Any) -> CalendarEvent:
        raise EventNotFoundError("deleted by a person")

    calendar.move_event = gone  # type: ignore[method-assign]
    with pytest.raises(EventNotFoundError):
        await service.reschedule.execute(
            salon.tenant.id, old.customer_id, old.id, TUESDAY_10 + timedelta(hours=3)
        )
    stored = await repos.appointments.get(salon.tenant.id, old.id)
    assert (stored.start, stored.moving_to, stored.status) == (old.start, None, old.status)
    other = await booked(service, salon, TUESDAY_10 + timedelta(hours=3))  # no hold left behind
    assert other.status is AppointmentStatus.CONFIRMED


async def test_an_ambiguous_move_is_undone_or_settled_by_the_reconciler() -> None:
    service, salon, calendar, repos = await setup()
    old = await booked(service, salon)
    original = calendar.move_event

    async def down(*args: Any, **kwargs: Any) -> CalendarEvent:
        raise CalendarUnavailableError("timeout")

    calendar.move_event = down  # type: ignore[method-assign]
    new_start = TUESDAY_10 + timedelta(hours=3)
    with pytest.raises(BookingPendingError):
        await service.reschedule.execute(salon.tenant.id, old.customer_id, old.id, new_start)
    calendar.move_event = original  # type: ignore[method-assign]
    await _customer(repos, salon, old.customer_id)
    report = await reconciler(repos, calendar).run_once()
    assert report.moves_settled == 1
    stored = await repos.appointments.get(salon.tenant.id, old.id)
    (event,) = live(calendar)
    assert stored.moving_to is None and event.start == stored.start == old.start
    (message,) = await repos.outbox.due(salon.tenant.id, None, 10)
    assert message.kind is OutboxKind.RESCHEDULE_FAILED


# §6 — the pre-write re-check reads fresh


async def test_the_saga_reads_no_busy_time_itself_the_calendar_decides() -> None:
    """One booking guarantee: the calendar's create-if-free (its fresh busy read is the
    calendar service's, tests/calendar_service/…/test_guard*); the agent makes none."""
    service, salon, calendar, _ = await setup()
    await booked(service, salon)
    assert (calendar.free_busy_calls, calendar.fresh_free_busy_calls) == (0, 0)


# §8 — one clock, and nothing starves


async def test_a_reconciler_on_a_clock_five_minutes_fast_fails_nothing_in_flight() -> None:
    """Reproduces §8: grace compared the booking replica's ``updated_at`` with the
    reconciler's clock. Here the store stamps and judges with ONE clock."""
    _, salon, calendar, repos = await setup()
    fast = wire_booking(repos, calendar, lambda: NOW + timedelta(minutes=5))
    in_flight = asyncio.Event()
    release = asyncio.Event()
    original = calendar.insert_event

    async def slow(draft: EventDraft) -> tuple[CalendarEvent, bool]:
        in_flight.set()
        await release.wait()
        return await original(draft)

    calendar.insert_event = slow  # type: ignore[method-assign]
    booking = asyncio.ensure_future(
        fast.book.execute(salon.tenant.id, uuid4(), salon.ana.id, salon.cut.id, TUESDAY_10)
    )
    await in_flight.wait()

    report = await Reconciler(repos, calendar).run_once()  # the default grace: 2 min
    assert report == type(report)()  # nothing was due: grace runs on the store's clock
    release.set()
    assert (await booking).status is AppointmentStatus.CONFIRMED


@pytest.mark.parametrize("stuck_calendars", [1, 500])
async def test_deferred_appointments_do_not_starve_the_others(stuck_calendars: int) -> None:
    """Reproduces §8: each pass took the 200 oldest pending and deferred ones kept their
    timestamp: 200 stuck ones blocked everybody's pending bookings."""
    clock = [NOW]
    repos = in_memory_repositories(clock=lambda: clock[0])
    calendar = InMemoryCalendar(clock=lambda: NOW)
    salon = await seed_salon(repos)
    stuck = [
        _pending(
            salon, TUESDAY_10 + timedelta(days=n // 8, hours=n % 8), f"stuck-{n % stuck_calendars}"
        )
        for n in range(500)
    ]
    for appointment in stuck:
        await repos.appointments.reserve(appointment)
    original = calendar.list_events

    async def stuck_unreachable(calendar_id: str, *args: Any, **kwargs: Any) -> Any:
        if calendar_id.startswith("stuck-"):
            raise CalendarUnavailableError("unreachable")
        return await original(calendar_id, *args, **kwargs)

    calendar.list_events = stuck_unreachable  # type: ignore[method-assign]
    sweeper = reconciler(repos, calendar)
    for _ in range(3):  # every stuck one has been tried and deferred at least once
        await sweeper.run_once()
    attempts = [(await repos.appointments.get(salon.tenant.id, a.id)).attempts for a in stuck]
    assert min(attempts) >= 1
    clock[0] = NOW + timedelta(hours=1)  # all 500 are due again, and older than the others
    clock[0] += timedelta(seconds=1)
    others = [
        _pending(salon, TUESDAY_10 + timedelta(hours=h), salon.ana.calendar_id) for h in range(5)
    ]
    for appointment in others:
        await repos.appointments.reserve(appointment)
    passes = [await sweeper.run_once() for _ in range(2)]
    assert sum(p.released for p in passes) == 5, passes


def _pending(salon: Salon, start: datetime, calendar_id: str) -> Appointment:
    return Appointment(
        tenant_id=salon.tenant.id,
        customer_id=uuid4(),
        professional_id=salon.ana.id,
        service_id=salon.cut.id,
        calendar_id=calendar_id,
        start=start,
        end=start + timedelta(minutes=30),
    )


# §9 — "today" in the tenant's time zone


async def test_today_is_judged_in_the_tenants_time_zone() -> None:
    """Reproduces §9: at 22:00 in São Paulo (01:00 UTC the next day), "today" was refused."""
    evening = datetime.fromisoformat("2026-11-30T22:00:00-03:00")
    assistant = Assistant(now=evening, repos=in_memory_repositories(clock=lambda: evening))
    salon = await seed_salon(assistant.repos)
    from pydantic_ai import RunContext  # noqa: F401 — the tool only reads ``ctx.deps``

    from agent_service.infrastructure.agent.deps import AgentDeps, TurnState
    from agent_service.infrastructure.agent.tools.discovery import check_availability
    from agent_service.infrastructure.agent.tools.results import FreeTimes

    deps = AgentDeps(
        tenant_id=salon.tenant.id,
        customer_id=uuid4(),
        tenant_repository=assistant.repos.tenants,
        service_repository=assistant.repos.services,
        professional_repository=assistant.repos.professionals,
        appointment_repository=assistant.repos.appointments,
        calendar_adapter=assistant.calendar,
        faq_repository=assistant.repos.faq,
        booking=assistant.booking,
        tenant=salon.tenant,
        turn=TurnState(now=evening.astimezone(UTC), language="pt"),  # the engine's clock is UTC
    )

    class Ctx:
        def __init__(self) -> None:
            self.deps = deps

    answer = await check_availability(Ctx(), salon.ana.id, evening.date(), salon.cut.id)  # type: ignore[arg-type]
    assert isinstance(answer, FreeTimes)
    assert (answer.days[0].professional, answer.days[0].day) == ("Ana Souza", "2026-11-30")


async def test_a_deadline_that_passed_before_the_write_fails_cleanly_even_when_shielded() -> None:
    service, salon, calendar, _ = await setup()
    with deadline.deadline_after(0.0), pytest.raises(DeadlineExceededError):
        await booked(service, salon)
    assert calendar.events == {}


async def test_an_orphan_already_gone_from_the_calendar_is_cleared_not_retried_forever() -> None:
    service, salon, calendar, repos = await setup()
    appointment = await booked(service, salon)
    await repos.appointments.set_orphan_event(salon.tenant.id, appointment.id, "never-existed")
    assert (await reconciler(repos, calendar).run_once()).orphans_cancelled == 1
    assert await repos.appointments.with_orphan_events(10) == []


async def test_a_request_key_of_a_cancelled_booking_is_not_reported_booked() -> None:
    service, salon, _, _ = await setup()
    customer = uuid4()
    args = (salon.tenant.id, customer, salon.ana.id, salon.cut.id, TUESDAY_10)
    first = await service.book.execute(*args, request_key="whatsapp:m1")
    await service.cancel.execute(salon.tenant.id, first.id, reason="x", enforce_window=False)
    with pytest.raises(InvalidStateError):
        await service.book.execute(*args, request_key="whatsapp:m1")


async def test_an_event_landing_after_the_reconciler_failed_its_booking_is_swept() -> None:
    """Reproduces §4's category: the reconciler failed the appointment (no event yet), the
    in-flight write landed afterwards and its booking process died before withdrawing it."""
    _, salon, calendar, repos = await setup()
    pending = _pending(salon, TUESDAY_10, salon.ana.calendar_id)
    await repos.appointments.reserve(pending)
    sweeper = reconciler(repos, calendar)
    assert (await sweeper.run_once()).released == 1
    await calendar.create_event(  # the dead booking's write, stored late
        pending.calendar_id, "s", "", pending.start, pending.end, idempotency_key=str(pending.id)
    )
    report = await sweeper.run_once()
    assert report.orphans_cancelled == 1 and live(calendar) == []
    assert (await sweeper.run_once()).orphans_cancelled == 0


async def test_shutdown_drain_waits_for_a_turn_whose_caller_left() -> None:
    """A shielded turn outlives its cancelled caller; ``drain`` (run by bootstrap before
    storage closes) waits for it, so its outcome is stored, not lost on a closed client."""
    assistant, salon, held = await assistant_with_held_event_writes()
    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    first = asyncio.ensure_future(assistant.say(salon.tenant.id, "sim", message_id="m-drain"))
    await until(lambda: held.writing == 1, what="the confirmation's event write started")
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    draining = asyncio.ensure_future(assistant.handle.drain(grace_seconds=30))
    await asyncio.sleep(0)  # drain runs up to its wait; the write is held, so it cannot end
    assert not draining.done()  # the detached turn is still writing the event
    held.release.set()
    await draining
    stored = await assistant.repos.turns.result(salon.tenant.id, "whatsapp", "m-drain")
    assert stored is not None and "✅ Agendado: Corte feminino" in stored.reply


class HeldWrites:
    """Calendar writes wait for ``release``; ``writing`` counts the writes waiting or done,
    ``result_reads`` the reads of stored turns (a redelivery waiting for an outcome)."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.writing = 0
        self.result_reads = 0


async def assistant_with_held_event_writes() -> tuple[Assistant, Any, HeldWrites]:
    """An assistant whose calendar writes wait until ``HeldWrites.release`` is set."""
    assistant = Assistant(repos=in_memory_repositories(clock=lambda: NOW))
    salon = await seed_salon(assistant.repos)
    original = assistant.calendar.insert_event
    held = HeldWrites()

    async def slow_write(draft: EventDraft) -> tuple[CalendarEvent, bool]:
        held.writing += 1
        await held.release.wait()
        return await original(draft)

    stored = assistant.repos.turns.stored

    async def counted_result(*key: Any) -> Any:
        held.result_reads += 1
        return await stored(*key)

    assistant.calendar.insert_event = slow_write  # type: ignore[method-assign]
    assistant.repos.turns.stored = counted_result  # type: ignore[method-assign,assignment]
    return assistant, salon, held
