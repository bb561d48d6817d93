"""Issue 11's proof across processes: TWO agent processes and TWO calendar processes sharing
one database — property 1 (many customers racing for one slot) and property 4 (SIGKILL at
every saga step) rerun there, with the gateway redelivering each killed confirmation to the
OTHER agent: the claim's lease expires, the redelivery resumes the same booking and answers the
truth; no claim stays stuck, no orphan event, nothing pending."""

from __future__ import annotations

import asyncio
import json
import signal
import time
import uuid
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import grpc
import pytest

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda_kit.mongo import make_client
from agent_service.application.book_appointment import FAILPOINT_STEPS
from tests import figures
from tests.agent_service.integration.agent_fixtures import (
    AUTH,
    Customer,
    agent_stub,
    booking_request_text,
    channel_to,
    seed_demo_salon,
)
from tests.e2e.processes import ServiceProcess, free_port
from tests.reliability.processes import Cluster
from tests.reliability.scale import size
from tests.reliability.stacks import working_days

pytest_plugins = ["tests.kit.mongo_fixtures"]
pytestmark = pytest.mark.reliability

RACERS = size(24, 200)
ROUNDS = size(1, 20)
KILLS_PER_STEP = size(1, 10)
TIMES = ("09:00", "10:00", "11:00", "13:00", "14:00", "15:00", "16:00", "17:00")


async def stored(cluster: Cluster, collection: str, query: dict[str, Any]) -> list[Any]:
    client = make_client(cluster.mongo_uri)
    try:
        return await client[cluster.agent_database][collection].find(query).to_list(None)
    finally:
        await client.close()


@pytest.mark.timeout(3600)
async def test_racing_customers_across_two_agents_and_two_calendars(cluster: Cluster) -> None:
    second_calendar = free_port()
    calendars = [cluster.spawn_calendar(), cluster.spawn_calendar(second_calendar)]
    # The race floods one tenant on purpose: its per-tenant limits (turns at once and
    # messages per minute, across replicas) would refuse most of it before any booking races.
    agents = [
        cluster.spawn_agent(
            AGENT_TENANT_MAX_CONCURRENT_TURNS="1000", AGENT_TENANT_MESSAGES_PER_MINUTE="0"
        ),
        cluster.spawn_agent(
            calendar_port=second_calendar,
            AGENT_TENANT_MAX_CONCURRENT_TURNS="1000",
            AGENT_TENANT_MESSAGES_PER_MINUTE="0",
        ),
    ]
    cluster.wait_serving(*calendars, *agents)
    async with channel_to(agents[0].port) as first, channel_to(agents[1].port) as second:
        tenant_id = await seed_demo_salon(first)
        stubs = [agent_stub(first), agent_stub(second)]
        days = working_days(ROUNDS)
        started = time.perf_counter()
        rounds = []
        for day in days:
            customers = [Customer(stubs[n % 2], tenant_id) for n in range(RACERS)]
            asking = asyncio.Semaphore(16)  # the questions need not race; the "sim"s do
            asked = await asyncio.gather(*(ask(c, day, asking) for c in customers))
            assert all("Confirma" in a for a in asked), Counter(asked)
            answered = await asyncio.gather(*(confirm(c) for c in customers))
            rounds.append(Counter(_outcome(a.reply) for a in answered))
        elapsed = time.perf_counter() - started
    state = await cluster.check_invariant(tenant_id, days[0], days[-1])
    assert all(r == Counter(booked=1, taken=RACERS - 1) for r in rounds), rounds
    assert state["confirmed"] == state["events"] == ROUNDS and state["orphans"] == 0
    print(f"\n{ROUNDS} x {RACERS}-way race over 2 agents + 2 calendars in {elapsed:.1f}s: {rounds}")
    figures.record(
        "saga",
        {
            "2 agents + 2 calendars: racing customers per slot": RACERS,
            "2 agents + 2 calendars: rounds": ROUNDS,
            "2 agents + 2 calendars: confirmed per slot": 1,
            "2 agents + 2 calendars: orphans / overlaps": (
                f"{state['orphans']} / {state['overlapping_pairs']}"
            ),
        },
    )


async def ask(customer: Customer, day: date, gate: asyncio.Semaphore) -> str:
    async with gate:
        return (await customer.say(booking_request_text(day, "10:00"))).reply


def says_booked(reply: str) -> bool:
    """The reply tells the customer it is booked ("Pronto! ... ✅ Agendado: ...")."""
    return "Agendado" in reply


async def confirm(customer: Customer) -> pb.SendMessageResponse:
    """The "sim", with room for a 200-way race on a loaded 2-CPU machine."""
    reply: pb.SendMessageResponse = await customer.stub.SendMessage(
        customer.request("sim"), metadata=AUTH, timeout=600
    )
    return reply


_LOCALES = Path(__file__).parents[2] / "agent_service/infrastructure/agent/locales"
TAKEN = (
    "just taken",
    "not free",
    "no longer free",
    *(
        json.loads(path.read_text())["system"]["reason_slot_taken"]
        for path in sorted(_LOCALES.glob("*.json"))
    ),
)
"""How a reply says the time was taken: the model's words, or the system receipt's reason in
any of its languages (a confirmation runs in code and answers with that receipt)."""


def _outcome(reply: str) -> str:
    if says_booked(reply):
        return "booked"
    if any(words in reply for words in TAKEN):
        return "taken"
    return reply


@pytest.mark.timeout(3600)
async def test_sigkill_at_every_step_then_redelivery_to_the_other_agent(
    cluster: Cluster,
) -> None:
    """Agent A (calendar process 1) dies at a saga step while confirming; the gateway
    redelivers the same "sim" to agent B (calendar process 2)."""
    started = time.perf_counter()
    second_calendar = free_port()
    calendars = [cluster.spawn_calendar(), cluster.spawn_calendar(second_calendar)]
    survivor = cluster.spawn_agent(
        calendar_port=second_calendar,
        AGENT_TURN_LEASE_SECONDS="2",
        AGENT_RECONCILE_GRACE_SECONDS="0",
        AGENT_RECONCILE_INTERVAL_SECONDS="3600",
    )
    plan = [step for step in FAILPOINT_STEPS for _ in range(KILLS_PER_STEP)]
    # The agents that will die start up side by side, a batch at a time (the first batch
    # with the calendars and the survivor): none reconciles (the default grace outlives a
    # batch, and no second pass), so the survivor alone resumes each killed booking.
    batches = [
        plan[n : n + len(FAILPOINT_STEPS)] for n in range(0, len(plan), len(FAILPOINT_STEPS))
    ]
    first_batch = [dying_agent(cluster, step) for step in batches[0]]
    cluster.wait_serving(*calendars, survivor, *first_batch)
    days = working_days(len(plan) // len(TIMES) + 1)
    slots = [(day, t) for day in days for t in TIMES][: len(plan)]
    tenant_id = ""
    replies: list[tuple[str, str, str]] = []
    async with channel_to(survivor.port) as to_survivor:
        survivor_stub = agent_stub(to_survivor)
        tenant_id = await seed_demo_salon(to_survivor)
        open_slots = iter(slots)
        for number, steps in enumerate(batches):
            batch = [dying_agent(cluster, step) for step in steps] if number else first_batch
            cluster.wait_serving(*batch)
            for step, dying in zip(steps, batch, strict=True):
                await kill_then_redeliver(
                    dying, step, next(open_slots), tenant_id, survivor_stub, replies
                )
    # A last agent reconciles whatever is left (nothing should be).
    cluster.start_agent(AGENT_RECONCILE_GRACE_SECONDS="0")
    stuck_claims = len(await stored(cluster, "processed_turns", {"result": None}))
    pending = len(await stored(cluster, "appointments", {"status": "pending"}))
    state = await cluster.check_invariant(tenant_id, slots[0][0], slots[-1][0])
    customers = {c["external_id"]: c["_id"] for c in await stored(cluster, "customers", {})}
    confirmed = Counter(
        a["customer_id"] for a in await stored(cluster, "appointments", {"status": "confirmed"})
    )
    wrong = [
        (step, reply)
        for step, external_id, reply in replies
        if says_booked(reply) != (confirmed[customers[external_id]] == 1)
    ]
    told = Counter((step, _outcome(reply)) for step, _, reply in replies)
    elapsed = time.perf_counter() - started
    assert stuck_claims == 0 and pending == 0
    assert not wrong, wrong
    assert state["orphans"] == 0 and state["confirmed"] == state["events"]
    print(f"\nSIGKILL + redelivery: {dict(told)} in {elapsed:.1f}s; {state}")
    figures.record(
        "saga",
        {
            "SIGKILL then redelivery to the other agent: kills": len(plan),
            "SIGKILL: stuck claims": stuck_claims,
            "SIGKILL: wrong replies": len(wrong),
            "SIGKILL: booked on redelivery": sum(n for (_, o), n in told.items() if o == "booked"),
            "SIGKILL: orphans / pending after": f"{state['orphans']} / {pending}",
        },
    )


def dying_agent(cluster: Cluster, step: str) -> ServiceProcess:
    """An agent that SIGKILLs itself at ``step`` of a confirmation, not waited for."""
    return cluster.spawn_agent(
        AGENDA_FAILPOINTS=f"{step}=kill",
        AGENT_TURN_LEASE_SECONDS="2",
        AGENT_RECONCILE_INTERVAL_SECONDS="3600",
    )


async def kill_then_redeliver(
    dying: ServiceProcess,
    step: str,
    slot: tuple[date, str],
    tenant_id: str,
    survivor: Any,
    replies: list[tuple[str, str, str]],
) -> None:
    """A customer asks ``dying`` for ``slot`` and says "sim": the agent dies at ``step``; the
    same "sim" (same message id) redelivered to ``survivor``; its reply kept in ``replies``."""
    day, at = slot
    async with channel_to(dying.port) as to_dying:
        customer = Customer(agent_stub(to_dying), tenant_id)
        asked = await customer.say(booking_request_text(day, at))
        assert "Confirma" in asked.reply, asked.reply
        message_id = uuid.uuid4().hex
        with pytest.raises(grpc.aio.AioRpcError) as died:
            await customer.say("sim", message_id)
        assert died.value.code() is grpc.StatusCode.UNAVAILABLE
    assert dying.process.wait(timeout=10) == -signal.SIGKILL
    redelivered = await customer.say("sim", message_id, stub=survivor)
    replies.append((step, customer.external_id, redelivered.reply))
