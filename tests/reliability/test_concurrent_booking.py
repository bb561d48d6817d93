"""Issue 4, property 1: many customers racing for one slot, and for overlapping times with
mixed durations, through the real stack (agent ``Booking`` → gRPC calendar service →
embedded MongoDB) — exactly one winner per slot, clean "taken" outcomes, no overlaps, no
orphan events."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from datetime import date, timedelta
from pathlib import Path
from uuid import uuid4

import pytest

from agenda_kit.mongo import EmbeddedMongo
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.errors import SlotUnavailableError
from tests import figures as figures_module
from tests.reliability.scale import size
from tests.reliability.stacks import Stack, at, running_stack, working_days

pytest_plugins = ["tests.kit.mongo_fixtures"]
pytestmark = pytest.mark.reliability

CUSTOMERS = 200
ROUNDS = size(1, 20)  # make test: one round of each race at full concurrency


def outcome(result: Appointment | BaseException) -> str:
    if isinstance(result, Appointment):
        assert result.status is AppointmentStatus.CONFIRMED, result
        return "confirmed"
    if isinstance(result, SlotUnavailableError):
        return "taken"
    raise result


async def one_slot(stack: Stack, day: date) -> Counter[str]:
    salon = stack.salon
    cut = max(salon.service_minutes, key=lambda s: salon.service_minutes[s])
    start = at(day, 10)
    results = await asyncio.gather(
        *(
            stack.agent.booking.book.execute(salon.tenant_id, uuid4(), salon.ana_id, cut, start)
            for _ in range(CUSTOMERS)
        ),
        return_exceptions=True,
    )
    return Counter(outcome(r) for r in results)


async def mixed_durations(stack: Stack, day: date, rng: random.Random) -> Counter[str]:
    """Starts on the salon's 15-minute grid over 14:00–16:00, services of different lengths,
    at random: most requests overlap several others."""
    salon = stack.salon
    services = sorted(salon.service_minutes)
    requests = [
        (rng.choice(services), at(day, 14) + timedelta(minutes=15 * rng.randrange(0, 9)))
        for _ in range(CUSTOMERS)
    ]
    results = await asyncio.gather(
        *(
            stack.agent.booking.book.execute(salon.tenant_id, uuid4(), salon.ana_id, service, start)
            for service, start in requests
        ),
        return_exceptions=True,
    )
    return Counter(outcome(r) for r in results)


async def test_one_slot_and_overlapping_mixed_durations(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    rng = random.Random(4)
    async with running_stack(embedded_mongo, tmp_path) as stack:
        days = working_days(ROUNDS)
        winners: list[int] = []
        started = time.perf_counter()
        for day in days:
            slot = await one_slot(stack, day)
            assert slot == Counter(confirmed=1, taken=CUSTOMERS - 1), slot
            mixed = await mixed_durations(stack, day, rng)
            winners.append(mixed["confirmed"])
            assert mixed["confirmed"] >= 1 and mixed.total() == CUSTOMERS, mixed
        elapsed = time.perf_counter() - started
        figures = await stack.check_invariant(days)
    print(
        f"\nproperty 1: {ROUNDS} rounds x ({CUSTOMERS} same-slot + {CUSTOMERS} mixed) bookings "
        f"in {elapsed:.1f}s; mixed-duration winners per round {winners}; {figures}"
    )
    figures_module.record(
        "properties",
        {
            "01 concurrent booking: rounds x (same-slot + mixed) customers": (
                f"{ROUNDS} x ({CUSTOMERS} + {CUSTOMERS})"
            ),
            "01 concurrent booking: mixed-duration winners per round": winners,
            "01 concurrent booking: after the rounds": figures,
            "01 concurrent booking: seconds": round(elapsed, 1),
        },
    )
    # Per round: 1 same-slot winner + the mixed winners; all verified by check_invariant.
    assert figures["orphans"] == 0 and figures["overlapping_pairs"] == 0
    assert figures["events"] == figures["confirmed"]
