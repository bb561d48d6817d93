"""``MongoTurnContextReader`` on the embedded MongoDB: the customer, their conversation, their
next confirmed appointments and their pending ones, in one aggregate, matching what the
repositories answer one query at a time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest

from agenda_kit.mongo import EmbeddedMongo
from agent_service.application.ports import AppointmentFilter
from agent_service.application.repositories import Repositories
from agent_service.application.turn_context import PENDING_READ
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.catalog import Customer, Tenant
from tests.agent_service.integration.repository_fixtures import beanie_repositories

pytest_plugins = ["tests.kit.mongo_fixtures"]

DAY = datetime(2031, 3, 10, 12, tzinfo=UTC)


@pytest.fixture
async def repos(embedded_mongo: EmbeddedMongo) -> AsyncIterator[Repositories]:
    async for repositories in beanie_repositories(embedded_mongo):
        yield repositories


def appointment(tenant: Tenant, customer: Customer, hours: int) -> Appointment:
    return Appointment.model_validate(
        {
            "tenant_id": tenant.id,
            "customer_id": customer.id,
            "professional_id": uuid4(),
            "service_id": uuid4(),
            "calendar_id": f"cal-{uuid4()}",
            "start": DAY + timedelta(hours=hours),
            "end": DAY + timedelta(hours=hours, minutes=30),
        }
    )


async def test_pending_bookings_come_with_the_turns_read_like_the_repository_lists_them(
    repos: Repositories,
) -> None:
    tenant = await repos.tenants.add(Tenant(name="Salão"))
    maria, _ = await repos.customers.upsert(
        Customer(tenant_id=tenant.id, channel="whatsapp", external_id="+5511999990000")
    )
    other, _ = await repos.customers.upsert(
        Customer(tenant_id=tenant.id, channel="whatsapp", external_id="+5511999990001")
    )
    hers = [appointment(tenant, maria, hours) for hours in (30, 2, 50, 4, 6, 8, 10)]
    for booked in hers:
        await repos.appointments.reserve(booked)  # stored pending (the saga's first step)
    confirmed = hers[0].moved_to(AppointmentStatus.CONFIRMED, external_event_id="evt-1")
    await repos.appointments.save(confirmed)
    await repos.appointments.reserve(appointment(tenant, other, 3))  # someone else's
    assert repos.turn_context is not None
    read = await repos.turn_context.read(tenant.id, "whatsapp", maria.external_id, None, DAY)
    assert read.upcoming is not None and read.upcoming.pending is not None
    listed, _ = await repos.appointments.list(
        tenant.id,
        AppointmentFilter(customer_id=maria.id, statuses=(AppointmentStatus.PENDING,)),
        page_size=PENDING_READ,
        page_token=None,
    )
    assert [a.id for a in read.upcoming.pending] == [a.id for a in listed]
    assert len(listed) == PENDING_READ  # six pending: the first five by start time
    assert [a.id for a in read.upcoming.appointments] == [confirmed.id]
