"""The booking guarantee belongs to the calendar service (issue 22, proof 1): two products (two
calendar-client principals) and the agent's booking saga race for the same slots through two
calendar-service replicas, on each backend (Google: the emulator; the built-in calendar: one
MongoDB, which also holds the holds), while busy time appears that holds nothing: events
people write directly in Google, or (built-in calendar) events a third caller writes with
``CONFLICT_POLICY_ALLOW_OVERLAP``. Afterwards, and after a sweep:

- every contested slot has exactly one live event (the holdless ones: only theirs);
- a product's create and its retry, in flight at once on both replicas, get one answer;
- no two live opaque events overlap;
- every hold is a live event's, at its time (0 orphans);
- the agent's appointments tell the truth: confirmed ↔ its event exists, failed ↔ none.

Reduced size in ``make test``; ``RELIABILITY_SCALE=full`` races 48 slots with faults."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest

from agenda_kit.auth.directory import token_hash
from agenda_kit.calendar.errors import CalendarError, SlotTakenError
from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.calendar.port import CalendarEvent, ConflictPolicy, EventDraft
from agenda_kit.mongo import EmbeddedMongo
from agenda_kit.settings import SharedSettings
from agent_service.application.ports import AppointmentFilter
from agent_service.bootstrap import wire_booking
from agent_service.domain.appointments import AppointmentStatus
from agent_service.domain.errors import AgendaError
from calendar_service.application.holds import Hold
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.settings import Backend
from tests.agent_service.conversation_fixtures import NOW, seed_salon
from tests.calendar_service.integration.backends import service_settings
from tests.fakes.agent_repositories import in_memory_repositories
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import ServiceAccount
from tests.reliability.scale import FULL, size

pytest_plugins = ["tests.kit.mongo_fixtures"]
pytestmark = pytest.mark.slow
WHO = ("product-a", "product-b", "agent", "overlapper")
TOKENS = {who: f"token-of-{who}-0123456789" for who in WHO}
TUESDAY = datetime.fromisoformat("2026-12-01T09:00:00-03:00")
SLOTS = size(8, 48)
DIRECT_EVERY = 4
AFTER_EVERY_LEASE = datetime(9999, 1, 1, tzinfo=UTC)
"""Every fourth slot gets a holdless busy event first: nobody may take it."""


def _principals(path: Path) -> Path:
    path.write_text(
        "".join(
            f'[[principal]]\nname = "{who}"\nrole = "calendar-client"\n'
            f'token_sha256 = ["{token_hash(token)}"]\n'
            'calendars = [{ pattern = "*", write = true }]\n'
            for who, token in TOKENS.items()
        )
    )
    return path


def slot_start(n: int) -> datetime:
    """Slot ``n``: one hour inside Ana's working hours (09:00–18:00, Tuesday on)."""
    day, hour = divmod(n, 8)
    return TUESDAY + timedelta(days=day, hours=hour)


@pytest.fixture(params=[Backend.GOOGLE, Backend.LOCAL], ids=["google", "local"])
def backend(request: pytest.FixtureRequest) -> Backend:
    return Backend(request.param)


@pytest.fixture
async def replicas(
    backend: Backend,
    emulator: Emulator,
    service_account: ServiceAccount,
    embedded_mongo: EmbeddedMongo,
    tmp_path: Path,
    database_name: str,
) -> AsyncIterator[list[CalendarApp]]:
    shared = SharedSettings(
        AGENDA_DATA_DIR=tmp_path,
        MONGODB_URI=embedded_mongo.uri,
        AGENDA_PRINCIPALS_FILE=_principals(tmp_path / "principals.toml"),
    )
    apps = []
    for _ in range(2):
        settings = service_settings(
            backend,
            emulator,
            service_account,
            database=database_name,
            hold_sweep_interval_seconds=0,
        )
        app = await bootstrap(settings, shared)
        await app.start()
        apps.append(app)
    yield apps
    for app in apps:
        await app.stop(0)


def client(apps: list[CalendarApp], who: str) -> GrpcCalendarAdapter:
    targets = [f"127.0.0.1:{app.port}" for app in apps]
    return GrpcCalendarAdapter.connect(targets, token=TOKENS[who], timeout=20.0, cache_ttl=0)


async def test_two_products_and_the_agent_racing_get_one_event_per_slot(
    replicas: list[CalendarApp], emulator: Emulator, backend: Backend
) -> None:
    repos = in_memory_repositories(clock=lambda: NOW)
    salon = await seed_salon(repos)
    calendar_id = salon.ana.calendar_id
    emulator.state.add_calendar(calendar_id, "America/Sao_Paulo")
    if FULL and backend is Backend.GOOGLE:
        emulator.faults.fail_randomly("*", 0.2, seed=22, faults=(Fault.store_then_drop(),))
    direct = {n for n in range(SLOTS) if n % DIRECT_EVERY == 1}
    products = {who: client(replicas, who) for who in WHO}
    for n in direct:  # no holds, only busy time
        await _holdless(backend, emulator, products["overlapper"], calendar_id, n)
    booking = wire_booking(repos, products["agent"], lambda: NOW)
    duration = timedelta(minutes=salon.cut.duration_minutes)

    split: list[tuple[str, int, list[str]]] = []

    async def create(who: str, n: int) -> str:
        start = slot_start(n)
        try:
            await products[who].create_event(
                calendar_id, "Visit", "", start, start + duration, idempotency_key=f"{who}-{n}"
            )
        except SlotTakenError:
            return "taken"
        return "written"

    async def product(who: str, n: int) -> str:
        """A create and its retry in flight at once (round robin: on both replicas): one
        booking, never taken by itself — both answers agree."""
        answers = list(await asyncio.gather(create(who, n), create(who, n)))
        if len(set(answers)) != 1:
            split.append((who, n, answers))
        return answers[0]

    async def agent(n: int) -> str:
        try:
            await booking.book.execute(
                salon.tenant.id, uuid4(), salon.ana.id, salon.cut.id, slot_start(n)
            )
        except (AgendaError, CalendarError):
            return "taken"
        return "written"

    try:
        races = [
            asyncio.gather(product("product-a", n), product("product-b", n), agent(n))
            for n in range(SLOTS)
        ]
        outcomes = await asyncio.gather(*races)
        for app in replicas:
            await app.guard.sweep(now=AFTER_EVERY_LEASE)
        stored = (
            stored_events(emulator, calendar_id)
            if backend is Backend.GOOGLE
            else await built_in_events(replicas[0], calendar_id)
        )
        live = [e for e in stored if e.is_busy]
    finally:
        for each in products.values():
            await each.close()
    figures = _figures(outcomes, live, direct, duration)
    print(f"\n{backend.value}: {SLOTS} slots × 3 writers over 2 replicas: {figures}")
    assert figures["overlaps"] == 0
    assert split == []
    assert figures["slots_with_one_event"] == SLOTS
    assert all(wins == 0 for n, wins in enumerate(figures["wins"]) if n in direct)
    assert all(wins == 1 for n, wins in enumerate(figures["wins"]) if n not in direct)
    holds = await replicas[0].holds.of_calendar(calendar_id)
    by_id = {e.event_id: e for e in live}
    orphans = [h for h in holds if h.writing or not _covers(by_id.get(h.event_id), h)]
    assert orphans == []
    appointments, _ = await repos.appointments.list(
        salon.tenant.id, AppointmentFilter(), page_size=500, page_token=None
    )
    for appointment in appointments:
        assert appointment.status in (AppointmentStatus.CONFIRMED, AppointmentStatus.FAILED)
        has_event = appointment.external_event_id in by_id
        assert has_event is (appointment.status is AppointmentStatus.CONFIRMED)


async def _holdless(
    backend: Backend, emulator: Emulator, overlapper: GrpcCalendarAdapter, calendar_id: str, n: int
) -> None:
    """A busy half hour inside slot ``n`` that takes no hold: written by a person in Google
    Calendar, or (built-in calendar) by a caller that allows overlaps."""
    start = slot_start(n) + timedelta(minutes=15)
    if backend is Backend.GOOGLE:
        emulator.state.insert(calendar_id, _google_event(start))
        return
    await overlapper.insert_event(
        EventDraft(
            calendar_id=calendar_id,
            summary="Dentist (overlap allowed)",
            description="",
            start=start,
            end=start + timedelta(minutes=30),
            idempotency_key=f"direct-{n}",
            conflict_policy=ConflictPolicy.ALLOW_OVERLAP,
        )
    )


async def built_in_events(app: CalendarApp, calendar_id: str) -> list[CalendarEvent]:
    """Every event of the built-in calendar as its store holds it (all owners)."""
    page = await app.backend.list_events(
        calendar_id, TUESDAY - timedelta(days=1), TUESDAY + timedelta(days=30), page_size=1000
    )
    assert page.next_page_token is None
    return list(page.events)


def _google_event(start: datetime) -> dict[str, Any]:
    return {
        "summary": "Dentist (written in Google)",
        "start": {"dateTime": start.isoformat(), "timeZone": "America/Sao_Paulo"},
        "end": {"dateTime": (start + timedelta(minutes=30)).isoformat()},
    }


def stored_events(emulator: Emulator, calendar_id: str) -> list[CalendarEvent]:
    """Every event of the calendar as Google stores it (each principal sees only its own)."""
    return [
        CalendarEvent(
            event_id=stored.data["id"],
            calendar_id=calendar_id,
            summary=str(stored.data.get("summary", "")),
            description="",
            start=stored.start,
            end=stored.end,
            status=str(stored.data.get("status", "confirmed")),
        )
        for stored in emulator.state.events(calendar_id)
    ]


def _figures(
    outcomes: list[tuple[str, str, str]],
    live: list[CalendarEvent],
    direct: set[int],
    duration: timedelta,
) -> dict[str, Any]:
    ordered = sorted(live, key=lambda e: e.start)
    overlaps = sum(1 for a, b in itertools.pairwise(ordered) if b.start < a.end)
    per_slot = []
    for n in range(SLOTS):
        start = slot_start(n)
        per_slot.append(sum(1 for e in live if e.start < start + duration and start < e.end))
    return {
        "wins": [outcome.count("written") for outcome in outcomes],
        "slots_with_one_event": sum(1 for count in per_slot if count == 1),
        "direct_slots": len(direct),
        "overlaps": overlaps,
        "events": len(live),
    }


def _covers(event: CalendarEvent | None, hold: Hold) -> bool:
    """The hold is its event's time exactly (stored instants keep milliseconds)."""
    return event is not None and (hold.start, hold.end) == (event.start, event.end)
