"""Repository contract tests, run on Beanie (embedded MongoDB) and on the in-memory fakes."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import pytest

from agent_service.application.ports import AppointmentFilter
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.catalog import (
    Customer,
    FaqEntry,
    LocalizedFaq,
    Professional,
    Service,
    Tenant,
)
from agent_service.domain.conversations import (
    Conversation,
    ConversationStatus,
    Message,
    Role,
    TurnResult,
)
from agent_service.domain.errors import (
    ConflictError,
    InvalidInputError,
    NotFoundError,
)
from agent_service.domain.outbox import OutboxKind, OutboxMessage
from tests.agent_service.integration.repository_fixtures import expire_leases, repos

pytest_plugins = ["tests.kit.mongo_fixtures"]
__all__ = ["repos"]

DAY = datetime(2031, 3, 10, tzinfo=UTC)


def at(hour: float) -> datetime:
    return DAY + timedelta(hours=hour)


def booking(
    tenant_id: UUID, professional_id: UUID, start: float, minutes: int, **changes: object
) -> Appointment:
    fields: dict[str, object] = {
        "tenant_id": tenant_id,
        "customer_id": uuid4(),
        "professional_id": professional_id,
        "service_id": uuid4(),
        "calendar_id": f"cal-{professional_id}",
        "start": at(start),
        "end": at(start) + timedelta(minutes=minutes),
    }
    return Appointment.model_validate(fields | changes)


async def two_tenants(repos: Repositories) -> tuple[Tenant, Tenant]:
    first = await repos.tenants.add(Tenant(name="Salão A", time_zone="America/Sao_Paulo"))
    second = await repos.tenants.add(Tenant(name="Clínica B"))
    return first, second


async def test_tenants_are_idempotent_updatable_and_paged(repos: Repositories) -> None:
    tenant = Tenant(name="Salão", created_at=DAY + timedelta(microseconds=123_456))
    stored = await repos.tenants.add(tenant)
    assert stored.created_at == DAY + timedelta(microseconds=123_000)  # milliseconds, as BSON
    assert await repos.tenants.add(tenant.model_copy(update={"name": "Outro"})) == stored
    renamed = await repos.tenants.update(stored.model_copy(update={"name": "Salão Novo"}))
    assert (await repos.tenants.get(tenant.id)).name == renamed.name == "Salão Novo"
    with pytest.raises(NotFoundError):
        await repos.tenants.update(Tenant(name="ghost"))
    for index in range(4):
        await repos.tenants.add(
            Tenant(name=f"T{index}", created_at=DAY + timedelta(hours=index + 1))
        )
    first, token = await repos.tenants.list(page_size=3, page_token=None)
    second, end = await repos.tenants.list(page_size=3, page_token=token)
    assert [t.name for t in first + second] == ["Salão Novo", "T0", "T1", "T2", "T3"]
    assert token is not None and end is None
    with pytest.raises(InvalidInputError) as bad:
        await repos.tenants.list(page_size=3, page_token="not-a-token")
    assert bad.value.field == "page_token"


async def test_another_tenants_ids_are_not_found(repos: Repositories) -> None:
    mine, other = await two_tenants(repos)
    service = await repos.services.add(
        Service(tenant_id=mine.id, name="Corte", duration_minutes=30)
    )
    professional = await repos.professionals.add(
        Professional(tenant_id=mine.id, name="Ana", calendar_id="ana", service_ids=(service.id,))
    )
    entry = await repos.faq.add(FaqEntry(tenant_id=mine.id, question="Horário?", answer="9h"))
    with pytest.raises(NotFoundError):
        await repos.services.get(other.id, service.id)
    with pytest.raises(NotFoundError):
        await repos.professionals.get(other.id, professional.id)
    with pytest.raises(NotFoundError):
        await repos.faq.get(other.id, entry.id)
    with pytest.raises(NotFoundError):
        await repos.services.update(service.model_copy(update={"tenant_id": other.id}))
    assert not await repos.services.delete(other.id, service.id)
    assert await repos.services.list(other.id) == []
    assert await repos.professionals.list(other.id) == []
    with pytest.raises(ConflictError):  # an id taken by another tenant is never overwritten
        await repos.services.add(service.model_copy(update={"tenant_id": other.id}))
    assert await repos.services.get(mine.id, service.id) == service


async def test_catalog_add_is_idempotent_and_lists_by_name(repos: Repositories) -> None:
    tenant, _ = await two_tenants(repos)
    corte = Service(tenant_id=tenant.id, name="Corte", duration_minutes=30, price_minor=5000)
    assert await repos.services.add(corte) == corte
    assert await repos.services.add(corte.model_copy(update={"name": "X"})) == corte
    barba = await repos.services.add(
        Service(tenant_id=tenant.id, name="Barba", duration_minutes=15)
    )
    assert [s.name for s in await repos.services.list(tenant.id)] == ["Barba", "Corte"]
    ana = await repos.professionals.add(
        Professional(tenant_id=tenant.id, name="Ana", calendar_id="a", service_ids=(corte.id,))
    )
    await repos.professionals.add(Professional(tenant_id=tenant.id, name="Bia", calendar_id="b"))
    assert await repos.professionals.list(tenant.id, service_id=corte.id) == [ana]
    assert await repos.professionals.list(tenant.id, service_id=barba.id) == []
    assert await repos.services.delete(tenant.id, barba.id)
    assert not await repos.services.delete(tenant.id, barba.id)


async def test_faq_search_ignores_accents_case_and_stopwords(repos: Repositories) -> None:
    tenant, other = await two_tenants(repos)
    parking = FaqEntry(
        tenant_id=tenant.id,
        question="Vocês têm estacionamento?",
        answer="Sim, gratuito.",
        tags=("carro",),
    )
    hours = FaqEntry(tenant_id=tenant.id, question="Qual o horário?", answer="Das 9h às 18h.")
    payment = FaqEntry(tenant_id=tenant.id, question="Aceitam cartão?", answer="Crédito e Pix.")
    for entry in (parking, hours, payment):
        await repos.faq.add(entry)
    await repos.faq.add(FaqEntry(tenant_id=other.id, question="Estacionamento?", answer="Não"))
    assert await repos.faq.search(tenant.id, "onde ESTACIONO o carro?") == [parking]
    assert await repos.faq.search(tenant.id, "horario de funcionamento") == [hours]
    assert await repos.faq.search(tenant.id, "cartao de credito, pix?") == [payment]
    assert await repos.faq.search(tenant.id, "o que é isso?") == []
    assert len(await repos.faq.list(tenant.id)) == 3


async def test_faq_search_finds_an_entry_by_its_localized_question(repos: Repositories) -> None:
    """Only the English version says "parking": the stored search terms include it, and the
    versions come back as they were stored."""
    tenant, _ = await two_tenants(repos)
    english = LocalizedFaq(language="en", question="Is there parking?", answer="Yes, next door.")
    entry = FaqEntry(
        tenant_id=tenant.id,
        question="Tem onde deixar o carro?",
        answer="Sim, vagas ao lado.",
        localized=(english,),
    )
    await repos.faq.add(entry)
    assert await repos.faq.search(tenant.id, "parking") == [entry]
    assert (await repos.faq.get(tenant.id, entry.id)).localized == (english,)


async def test_customers_upsert_by_identity_even_concurrently(repos: Repositories) -> None:
    tenant, other = await two_tenants(repos)
    new = [Customer(tenant_id=tenant.id, channel="whatsapp", external_id="5511") for _ in range(8)]
    results = await asyncio.gather(*(repos.customers.upsert(c) for c in new))
    assert sum(created for _, created in results) == 1
    assert len({customer.id for customer, _ in results}) == 1
    named, created = await repos.customers.upsert(new[0].model_copy(update={"name": "Maria"}))
    again, _ = await repos.customers.upsert(new[1])
    assert not created and named.name == again.name == "Maria"  # empty fields never erase
    elsewhere, created = await repos.customers.upsert(
        Customer(tenant_id=other.id, channel="whatsapp", external_id="5511")
    )
    assert created and elsewhere.id != named.id
    with pytest.raises(NotFoundError):
        await repos.customers.get(other.id, named.id)
    for index in range(4):
        await repos.customers.upsert(
            Customer(tenant_id=tenant.id, channel="web", external_id=f"w{index}")
        )
    page, token = await repos.customers.list(tenant.id, page_size=3, page_token=None)
    rest, end = await repos.customers.list(tenant.id, page_size=3, page_token=token)
    assert len({c.id for c in page + rest}) == 5 and end is None


async def test_a_customer_upsert_that_tries_creating_first_still_merges_a_known_one(
    repos: Repositories,
) -> None:
    tenant, _ = await two_tenants(repos)
    first, created = await repos.customers.upsert(
        Customer(tenant_id=tenant.id, channel="whatsapp", external_id="5512"), likely_new=True
    )
    assert created
    racing = [
        Customer(tenant_id=tenant.id, channel="whatsapp", external_id="5512", name="Maria")
        for _ in range(4)
    ]
    results = await asyncio.gather(*(repos.customers.upsert(c, likely_new=True) for c in racing))
    assert not any(created for _, created in results)
    assert {(c.id, c.name) for c, _ in results} == {(first.id, "Maria")}


async def test_concurrent_reservations_of_one_request_store_one_appointment(
    repos: Repositories,
) -> None:
    """A redelivered request races itself: one reservation is stored, every other finds it.
    Overlapping appointments are all stored: whether a time is free is the calendar
    service's create-if-free (tests/calendar_service/integration/test_guard_*)."""
    tenant, _ = await two_tenants(repos)
    professional = uuid4()
    same = booking(tenant.id, professional, 10, 60)
    outcomes = await asyncio.gather(*(repos.appointments.reserve(same) for _ in range(10)))
    assert sum(outcome is None for outcome in outcomes) == 1
    assert {o.id for o in outcomes if o is not None} == {same.id}
    overlapping = [booking(tenant.id, professional, 10 + i * 0.25, 60) for i in range(4)]
    assert [await repos.appointments.reserve(a) for a in overlapping] == [None] * 4


async def test_a_retried_reservation_finds_the_stored_one_and_stale_saves_conflict(
    repos: Repositories,
) -> None:
    tenant, _ = await two_tenants(repos)
    ana = uuid4()
    first = booking(tenant.id, ana, 14, 60)
    assert await repos.appointments.reserve(first) is None  # stored now
    again = await repos.appointments.reserve(first)  # a retry: nothing written, the stored one
    assert again is not None and (again.id, again.status) == (first.id, AppointmentStatus.PENDING)
    confirmed = await repos.appointments.save(
        first.moved_to(AppointmentStatus.CONFIRMED, external_event_id="ev1")
    )
    assert (await repos.appointments.get(tenant.id, first.id)).external_event_id == "ev1"
    with pytest.raises(ConflictError):  # it is confirmed: a stale "failed" must not win
        await repos.appointments.save(first.moved_to(AppointmentStatus.FAILED))
    await repos.appointments.save(confirmed.moved_to(AppointmentStatus.CANCELLED))
    await repos.appointments.reserve(booking(tenant.id, ana, 14.5, 60))
    with pytest.raises(NotFoundError):
        await repos.appointments.save(booking(tenant.id, ana, 20, 30))


async def test_appointments_list_filters_pages_and_due_pending(repos: Repositories) -> None:
    tenant, other = await two_tenants(repos)
    ana, bia = uuid4(), uuid4()
    old = datetime(2020, 1, 1, tzinfo=UTC)
    for hour in range(5):
        await repos.appointments.reserve(booking(tenant.id, ana, hour, 30, updated_at=old))
    await repos.appointments.reserve(booking(tenant.id, bia, 1, 30))
    await repos.appointments.reserve(booking(other.id, ana, 8, 30, updated_at=old))
    everything = AppointmentFilter()
    first, token = await repos.appointments.list(
        tenant.id, everything, page_size=4, page_token=None
    )
    rest, end = await repos.appointments.list(tenant.id, everything, page_size=4, page_token=token)
    starts = [a.start for a in first + rest]
    assert starts == sorted(starts) and len(starts) == 6 and end is None
    only_ana = AppointmentFilter(professional_id=ana, start_after=at(1), start_before=at(3))
    listed, _ = await repos.appointments.list(tenant.id, only_ana, page_size=10, page_token=None)
    assert [a.start for a in listed] == [at(1), at(2)]
    confirmed = AppointmentFilter(statuses=(AppointmentStatus.CONFIRMED,))
    assert (await repos.appointments.list(tenant.id, confirmed, page_size=10, page_token=None))[
        0
    ] == []
    # The store stamps updated_at with its own clock (the callers' ``old`` is not kept).
    due = await repos.appointments.due_pending(timedelta(0), limit=10)
    assert len(due) == 7 and {a.tenant_id for a in due} == {tenant.id, other.id}
    assert len(await repos.appointments.due_pending(timedelta(0), limit=2)) == 2
    assert await repos.appointments.due_pending(timedelta(days=1), limit=10) == []
    await repos.appointments.defer(due[0], timedelta(hours=1))
    later = await repos.appointments.due_pending(timedelta(0), limit=10)
    assert len(later) == 6 and due[0].id not in {a.id for a in later}


async def test_conversation_versions_detect_concurrent_writes(repos: Repositories) -> None:
    tenant, other = await two_tenants(repos)
    customer = uuid4()
    started = await repos.conversations.add(
        Conversation(tenant_id=tenant.id, customer_id=customer, channel="whatsapp")
    )
    assert await repos.conversations.find_open(tenant.id, customer, "whatsapp") == started
    assert await repos.conversations.find_open(other.id, customer, "whatsapp") is None
    said = started.with_message(Message(role=Role.CUSTOMER, text="Oi", message_id="m1"))
    saved = await repos.conversations.save(said)
    assert saved.version == started.version + 1
    assert (await repos.conversations.get(tenant.id, started.id)).messages[0].text == "Oi"
    with pytest.raises(ConflictError):
        await repos.conversations.save(started.model_copy(update={"summary": "stale"}))
    racing = await asyncio.gather(
        repos.conversations.save(saved.with_message(Message(role=Role.ASSISTANT, text="a"))),
        repos.conversations.save(saved.with_message(Message(role=Role.ASSISTANT, text="b"))),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in racing) == ["ConflictError", "Conversation"]
    current = await repos.conversations.get(tenant.id, started.id)
    await repos.conversations.save(current.ended())
    assert await repos.conversations.find_open(tenant.id, customer, "whatsapp") is None
    with pytest.raises(NotFoundError):
        await repos.conversations.get(other.id, started.id)


async def test_a_conversations_first_save_creates_it(repos: Repositories) -> None:
    tenant, other = await two_tenants(repos)
    new = Conversation(tenant_id=tenant.id, customer_id=uuid4(), channel="whatsapp")
    said = new.with_message(Message(role=Role.CUSTOMER, text="Oi", message_id="m1"))
    racing = await asyncio.gather(
        repos.conversations.save(said), repos.conversations.save(said), return_exceptions=True
    )
    assert sorted(type(r).__name__ for r in racing) == ["ConflictError", "Conversation"]
    stored = await repos.conversations.get(tenant.id, new.id)
    assert (stored.version, [m.text for m in stored.messages]) == (1, ["Oi"])
    foreign = new.model_copy(update={"tenant_id": other.id})
    with pytest.raises(ConflictError):  # another tenant's id is never taken over
        await repos.conversations.save(foreign)
    assert (await repos.conversations.get(tenant.id, new.id)).version == 1


async def test_one_claim_per_channel_message(repos: Repositories) -> None:
    tenant, other = await two_tenants(repos)
    claims = await asyncio.gather(
        *(repos.turns.claim(tenant.id, "whatsapp", "m1") for _ in range(10))
    )
    assert sorted(claims) == [False] * 9 + [True]
    assert await repos.turns.claim(other.id, "whatsapp", "m1")  # another tenant's message
    assert await repos.turns.result(tenant.id, "whatsapp", "m1") is None  # still in progress
    await repos.turns.release(tenant.id, "whatsapp", "m1")
    assert await repos.turns.claim(tenant.id, "whatsapp", "m1")
    result = TurnResult(
        conversation_id=uuid4(), reply="Agendado!", status=ConversationStatus.ACTIVE
    )
    await repos.turns.complete(tenant.id, "whatsapp", "m1", result)
    await repos.turns.release(tenant.id, "whatsapp", "m1")  # a completed turn is kept
    assert await repos.turns.result(tenant.id, "whatsapp", "m1") == result
    assert not await repos.turns.claim(tenant.id, "whatsapp", "m1")


async def test_one_of_concurrent_moves_wins_and_the_id_is_kept(repos: Repositories) -> None:
    tenant, _ = await two_tenants(repos)
    ana = uuid4()
    first = booking(tenant.id, ana, 10, 60)
    await repos.appointments.reserve(first)
    confirmed = await repos.appointments.save(
        first.moved_to(AppointmentStatus.CONFIRMED, external_event_id="ev1")
    )
    moves = await asyncio.gather(
        *(repos.appointments.begin_move(confirmed, at(10.5)) for _ in range(10)),
        return_exceptions=True,
    )
    winners = [m for m in moves if isinstance(m, Appointment)]
    assert len(winners) == 1, moves
    assert all(isinstance(m, ConflictError) for m in moves if m not in winners)
    moved = await repos.appointments.finish_move(winners[0])
    assert (moved.id, moved.start, moved.previous_starts) == (first.id, at(10.5), (at(10),))
    with pytest.raises(ConflictError):
        await repos.appointments.begin_move(confirmed, at(14))  # stale: it moved meanwhile
    again = await repos.appointments.begin_move(moved, at(14))
    aborted = await repos.appointments.abort_move(again)
    assert (aborted.start, aborted.moving_to) == (at(10.5), None)


async def test_orphan_events_and_notices_are_recorded_and_cleared(repos: Repositories) -> None:
    tenant, _ = await two_tenants(repos)
    first = booking(tenant.id, uuid4(), 10, 60)
    await repos.appointments.reserve(first)
    failed = await repos.appointments.save(
        first.moved_to(AppointmentStatus.FAILED, event_check_due=True).model_copy(
            update={"awaiting_notice": True}
        )
    )
    assert [a.id for a in await repos.appointments.due_event_checks(timedelta(0), 10)] == [
        failed.id
    ]
    assert await repos.appointments.due_event_checks(timedelta(days=1), 10) == []
    await repos.appointments.clear_event_check(tenant.id, first.id)
    assert await repos.appointments.due_event_checks(timedelta(0), 10) == []
    await repos.appointments.set_orphan_event(tenant.id, first.id, "ev9")
    (orphan,) = await repos.appointments.with_orphan_events(10)
    assert orphan.orphan_event_id == "ev9"
    await repos.appointments.set_orphan_event(tenant.id, first.id, None)
    assert await repos.appointments.with_orphan_events(10) == []
    assert [a.id for a in await repos.appointments.settled_awaiting_notice(10)] == [failed.id]
    await repos.appointments.clear_awaiting_notice(tenant.id, first.id)
    assert await repos.appointments.settled_awaiting_notice(10) == []


async def test_outbox_is_idempotent_scoped_ordered_and_acked(repos: Repositories) -> None:
    tenant, other = await two_tenants(repos)
    base = DAY - timedelta(days=4000)  # long due, whatever the database's clock says
    messages = [
        OutboxMessage(
            id=uuid4(),
            tenant_id=tenant.id,
            kind=OutboxKind.BOOKING_CONFIRMED,
            customer_id=uuid4(),
            channel="whatsapp",
            external_id=f"55119{n}",
            text=f"message {n}",
            deliver_at=base + timedelta(minutes=n % 3),
            created_at=base,
        )
        for n in range(6)
    ]
    for message in messages:
        assert await repos.outbox.add(message)
    assert not await repos.outbox.add(messages[0])  # same id: one message
    assert await repos.outbox.add(
        messages[0].model_copy(update={"id": uuid4(), "tenant_id": other.id})
    )
    first = await repos.outbox.due(tenant.id, None, 4)
    assert len(first) == 4
    cursor = first[-1].cursor
    rest = await repos.outbox.due(tenant.id, cursor, 10)
    ordered = first + rest
    assert [(m.deliver_at, m.id) for m in ordered] == sorted((m.deliver_at, m.id) for m in messages)
    assert await repos.outbox.ack(tenant.id, [m.id for m in first]) == 4
    assert await repos.outbox.ack(tenant.id, [first[0].id]) == 0  # already acked
    assert await repos.outbox.ack(other.id, [rest[0].id]) == 0  # not that tenant's
    assert [m.id for m in await repos.outbox.due(tenant.id, None, 10)] == [m.id for m in rest]
    scheduled = messages[0].model_copy(
        update={"id": uuid4(), "deliver_at": DAY + timedelta(days=3650)}
    )
    await repos.outbox.add(scheduled)  # a reminder due in ten years is not streamed yet
    assert scheduled.id not in {m.id for m in await repos.outbox.due(tenant.id, None, 10)}


async def test_an_expired_claim_is_taken_over_and_a_live_one_is_not(repos: Repositories) -> None:
    tenant, _ = await two_tenants(repos)
    turns = repos.turns
    assert await turns.claim(tenant.id, "whatsapp", "m1")
    assert not await turns.claim(tenant.id, "whatsapp", "m1")  # held (lease 60 s)
    await expire_leases(repos)
    assert await turns.claim(tenant.id, "whatsapp", "m1")  # the holder died: taken over
    assert not await turns.claim(tenant.id, "whatsapp", "m1")
    result = TurnResult(conversation_id=uuid4(), reply="ok", status=ConversationStatus.ACTIVE)
    await turns.complete(tenant.id, "whatsapp", "m1", result)
    await expire_leases(repos)
    assert not await turns.claim(tenant.id, "whatsapp", "m1")  # completed: never again
    assert await turns.result(tenant.id, "whatsapp", "m1") == result
