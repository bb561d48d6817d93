"""In-process stacks for the reliability tests: the calendar service (local or Google backend)
and an agent service, each a real gRPC server wired by its own ``bootstrap``, on the session's
embedded MongoDB; plus the demo salon and what the tests need to know about it."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.mongo import EmbeddedMongo, make_client
from agenda_kit.settings import SharedSettings
from agent_service.bootstrap import AgentApp, Overrides, bootstrap
from agent_service.cli.script import next_working_day
from agent_service.infrastructure.settings import AgentSettings
from calendar_service.bootstrap import CalendarApp
from calendar_service.bootstrap import bootstrap as calendar_bootstrap
from calendar_service.infrastructure.settings import CalendarSettings
from tests.agent_service.integration.agent_fixtures import (
    AGENT_TOKEN,
    AUTH,
    CALENDAR_TOKEN,
    SALON_ZONE,
    catalog_stub,
    channel_to,
    seed_demo_salon,
)
from tests.process_clock import services_today
from tests.reliability import invariant


@dataclass(frozen=True)
class DemoSalon:
    """The seeded demo salon: tenant, Ana (calendar ``demo-ana``) and her two services."""

    tenant_id: UUID
    ana_id: UUID
    ana_calendar: str
    service_minutes: dict[UUID, int]


@dataclass
class Stack:
    mongo_uri: str
    agent_database: str
    calendar_settings: CalendarSettings
    shared: SharedSettings
    calendar: CalendarApp
    agent: AgentApp
    salon: DemoSalon
    calendar_client: GrpcCalendarAdapter

    async def restart_calendar(self) -> None:
        """Start the calendar service again on the same port and database."""
        settings = self.calendar_settings.model_copy(update={"grpc_port": self.calendar.port})
        self.calendar = await calendar_bootstrap(settings, self.shared)
        await self.calendar.start()

    async def check_invariant(self, days: list[date]) -> dict[str, int]:
        """The invariant over ``days``, after a sweep of the calendar service's holds as if
        every lease had passed (nothing is in flight when a test checks)."""
        start = datetime(days[0].year, days[0].month, days[0].day, tzinfo=SALON_ZONE)
        last = max(days)
        end = datetime(last.year, last.month, last.day, tzinfo=SALON_ZONE) + timedelta(days=1)
        await self.calendar.guard.sweep(now=datetime(9999, 1, 1, tzinfo=UTC))  # every lease passed
        state = await invariant.snapshot(
            self.mongo_uri,
            self.agent_database,
            self.salon.tenant_id,
            self.calendar_client,
            [self.salon.ana_calendar],
            start,
            end,
            self.calendar_settings.database,
        )
        return invariant.check(state)


def working_days(count: int, first: date | None = None) -> list[date]:
    """``count`` consecutive days Ana works, from tomorrow in the salon's zone on."""
    days: list[date] = []
    day = first or services_today(SALON_ZONE)
    while len(days) < count:
        day = next_working_day(day)
        days.append(day)
    return days


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=SALON_ZONE)


async def demo_salon(agent_port: int) -> DemoSalon:
    async with channel_to(agent_port) as channel:
        tenant_id = await seed_demo_salon(channel)
        stub = catalog_stub(channel)
        services = await stub.ListServices(
            catalog_pb.ListServicesRequest(tenant_id=tenant_id), metadata=AUTH
        )
        professionals = await stub.ListProfessionals(
            catalog_pb.ListProfessionalsRequest(tenant_id=tenant_id), metadata=AUTH
        )
    (ana,) = [p for p in professionals.professionals if p.calendar_id == "demo-ana"]
    minutes = {UUID(s.id): s.duration_minutes for s in services.services}
    return DemoSalon(
        tenant_id=UUID(tenant_id),
        ana_id=UUID(ana.id),
        ana_calendar=ana.calendar_id,
        service_minutes={UUID(s): minutes[UUID(s)] for s in ana.service_ids},
    )


@asynccontextmanager
async def running_stack(
    server: EmbeddedMongo,
    data_dir: Path,
    *,
    calendar_settings: dict[str, Any] | None = None,
    agent_calendar: Callable[[str], GrpcCalendarAdapter] | None = None,
) -> AsyncIterator[Stack]:
    """Calendar service (local backend unless ``calendar_settings`` say otherwise) + one agent
    (its calendar client ``agent_calendar(address)`` when given, closed here); dropped on exit."""
    suffix = uuid.uuid4().hex[:12]
    cal_settings = CalendarSettings(
        grpc_port=0,
        metrics_port=0,
        auth_tokens=[CALENDAR_TOKEN],
        database=f"cal_{suffix}",
        **(calendar_settings or {}),
    )
    shared = SharedSettings(MONGODB_URI=server.uri, AGENDA_DATA_DIR=data_dir)
    calendar = await calendar_bootstrap(cal_settings, shared)
    await calendar.start()
    address = f"127.0.0.1:{calendar.port}"
    agent_settings = _agent_settings(f"agent_{suffix}", address)
    agent: AgentApp | None = None
    client = GrpcCalendarAdapter.connect(address, token=CALENDAR_TOKEN, timeout=30.0)
    override = agent_calendar(address) if agent_calendar is not None else None
    stack: Stack | None = None
    try:
        agent = await bootstrap(agent_settings, shared, Overrides(calendar=override))
        await agent.start()
        salon = await demo_salon(agent.port)
        stack = Stack(
            server.uri,
            agent_settings.database,
            cal_settings,
            shared,
            calendar,
            agent,
            salon,
            client,
        )
        yield stack
    finally:
        await client.close()
        if agent is not None:
            await agent.stop(0)
        if override is not None:
            await override.close()
        await (stack.calendar if stack else calendar).stop(0)
        mongo = make_client(server.uri)
        try:
            await mongo.drop_database(agent_settings.database)
            await mongo.drop_database(cal_settings.database)
        finally:
            await mongo.close()


def _agent_settings(database: str, calendar_address: str) -> AgentSettings:
    return AgentSettings(
        grpc_port=0,
        metrics_port=0,
        auth_tokens=[AGENT_TOKEN],
        database=database,
        calendar_addr=calendar_address,
        calendar_token=CALENDAR_TOKEN,
        # Not what these tests measure: hundreds of concurrent bookings on a loaded machine
        # must not fail on the production 5 s calendar deadline (the outage test sets its own).
        calendar_timeout_seconds=60.0,
        # These suites fan out up to a few hundred concurrent calls from one gateway to one
        # business on purpose (redeliveries, races); the per-tenant admission cap is not what
        # they measure (tests/security/test_flood.py does), so it sits above their fan-out.
        max_calls_per_tenant=1024,
    )
