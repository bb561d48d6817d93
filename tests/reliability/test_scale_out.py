"""Issue 14's proof on one machine: three agent processes and two calendar processes on one
database, every client balancing ``round_robin`` over all of them (``tests.reliability.replicas``).

1. The same-slot race through SendMessage, spread over every replica: one confirmed booking
   per round, the booking invariant (docs/architecture.md#the-booking-invariant) after all rounds.
2. A rolling restart (each replica of both services SIGTERMed in turn, after its replacement is
   SERVING) under concurrent conversations: no failed turn, every message stored and answered
   once, the client's redeliveries (UNAVAILABLE → next replica, same message id) answered once.
3. SIGKILL of a replica in the middle of a booking turn: its turn slot's lease is the only
   thing left, it ends one lease after its last renewal (checked at the stored instant, not on
   the wall clock); the channel's redelivery of the killed message is taken over by another
   replica once the message claim's lease expired and answered once; the conversation goes on
   and no orphan event is left.
4. A tenant limit of 8 across three replicas: the turns of one tenant that hold a calendar read
   at once (counted by a proxy the test runs in front of the calendars) never exceed 8; the
   excess is refused RESOURCE_EXHAUSTED with a ``retry-after-ms`` hint, and retrying after it
   gets every message answered.

Reduced sizes in ``make test``; the issue's sizes with ``RELIABILITY_SCALE=full``.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from uuid import UUID

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda.agent.v1 import types_pb2 as types_pb
from agenda_kit.agent_client import AgentClient, RetryPolicy
from agenda_kit.errors import RETRY_AFTER_KEY
from agenda_kit.mongo import EmbeddedMongo, make_client
from agent_service.bootstrap import CALENDAR_COMPONENT
from tests import figures
from tests.agent_service.integration.agent_fixtures import (
    AGENT_TOKEN,
    AUTH,
    Customer,
    booking_request_text,
    channel_to,
    seed_demo_salon,
)
from tests.e2e.processes import free_port, wait_serving
from tests.ops.health_probe import SERVING, wait_status
from tests.reliability.replicas import (
    FAST_RECONNECT,
    CalendarProxy,
    Replica,
    ScaledCluster,
    balanced_channel,
    pool,
)
from tests.reliability.scale import size
from tests.reliability.stacks import working_days

pytest_plugins = ["tests.kit.mongo_fixtures"]
pytestmark = [pytest.mark.reliability, pytest.mark.timeout(size(300, 3600))]

AGENTS, CALENDARS = 3, 2
RACERS = size(24, 200)
ROUNDS = size(1, 20)
CONVERSATIONS = size(12, 50)
RESTARTS = size(1, 3)
"""Replicas of each service replaced one after the other (reduced: one agent, one calendar)."""
LIMIT = 8
FLOOD = size(24, 32)
"""Customers of one tenant asking at once, each for a different day within the booking horizon."""
CALL_TIMEOUT = size(60, 600)
"""Per call: the full-size race runs hundreds of turns at once on a shared 2-core machine."""
SLOT_LEASE_SECONDS = 3
SUITE = "scale_out"
WIDE = {  # the race needs far more than 8 turns of one tenant at once
    "AGENT_TENANT_MAX_CONCURRENT_TURNS": "1000",
    "AGENT_TENANT_MESSAGES_PER_MINUTE": "600000",
    "AGENT_TENANT_MESSAGE_BURST": "100000",
    "AGENT_TENANT_SLOT_LEASE_SECONDS": str(SLOT_LEASE_SECONDS),
    "AGENT_RECONCILE_GRACE_SECONDS": "10",
    "AGENT_RECONCILE_INTERVAL_SECONDS": "1",
    "AGENT_SHUTDOWN_GRACE_SECONDS": "15",
    "AGENT_TURN_LEASE_SECONDS": "3",  # a dead replica's message claim is taken over after it
}
DAYS = working_days(ROUNDS + 2)
RACE_DAYS, KILL_DAY, CHAT_DAY = DAYS[:ROUNDS], DAYS[ROUNDS], DAYS[ROUNDS + 1]
FLOOD_DAYS = working_days(FLOOD)  # read only: may share days with the bookings above


@dataclass
class Spares:
    """Processes started with the cluster, outside the balanced pools: the replica to SIGKILL
    (a crash failpoint) and the limit-8 generation whose calendar is the counting proxy."""

    victim: Replica
    limited: list[Replica]
    proxy_port: int


@pytest.fixture(scope="module")
def cluster(
    embedded_mongo: EmbeddedMongo, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ScaledCluster]:
    """2 calendars, 3 agents and the spares (``Spares``), all started in parallel; the pools
    leave room for replacements."""
    cluster = ScaledCluster(
        embedded_mongo.uri,
        tmp_path_factory.mktemp("scale_out"),
        agent_pool=pool(2 * AGENTS),
        calendar_pool=pool(2 * CALENDARS),
        agent_settings=dict(WIDE),
    )
    proxy_port = free_port()
    try:
        calendars = [
            cluster.spawn("calendar_service", p) for p in cluster.calendar_pool[:CALENDARS]
        ]
        agents = [cluster.spawn("agent_service", p) for p in cluster.agent_pool[:AGENTS]]
        victim = cluster.spawn("agent_service", free_port(), AGENDA_FAILPOINTS="after_reserve=kill")
        limited = [
            cluster.spawn(
                "agent_service",
                free_port(),
                AGENT_TENANT_MAX_CONCURRENT_TURNS=str(LIMIT),
                AGENT_CALENDAR_ADDR=f"127.0.0.1:{proxy_port}",
            )
            for _ in range(AGENTS)
        ]
        wait_all([*calendars, *agents, victim, *limited])
        for replica in [*calendars, *agents]:
            cluster.live[replica.port] = replica
        cluster.spares = Spares(victim, limited, proxy_port)
        yield cluster
    finally:
        cluster.stop_all()


def wait_all(replicas: list[Replica]) -> None:
    with ThreadPoolExecutor(len(replicas)) as threads:
        waits = [
            threads.submit(
                wait_serving, r.service.address, r.service.process, r.service.log_path, 240
            )
            for r in replicas
        ]
        for wait in waits:
            wait.result()


def spares_of(cluster: ScaledCluster) -> Spares:
    spares = getattr(cluster, "spares", None)
    assert isinstance(spares, Spares)
    return spares


async def seed(cluster: ScaledCluster) -> str:
    async with channel_to(cluster.agents()[0].port) as channel:
        return await seed_demo_salon(channel)


def spread(replicas: list[Replica], method: str, before: dict[int, int]) -> list[int]:
    return [r.rpc_counts(method) - before.get(r.port, 0) for r in replicas]


def counts(replicas: list[Replica], method: str) -> dict[int, int]:
    return {r.port: r.rpc_counts(method) for r in replicas}


async def wait_no_pending(cluster: ScaledCluster, tenant_id: str, within: float = 90) -> None:
    client = make_client(cluster.mongo_uri)
    try:
        appointments = client[cluster.agent_database]["appointments"]
        for _ in range(int(within * 4)):
            query = {"tenant_id": UUID(tenant_id), "status": "pending"}
            if await appointments.count_documents(query) == 0:
                return
            await asyncio.sleep(0.25)
    finally:
        await client.close()
    raise AssertionError("bookings left pending")


async def say(customer: Customer, text: str) -> pb.SendMessageResponse:
    """``Customer.say`` with this module's deadline."""
    reply: pb.SendMessageResponse = await customer.stub.SendMessage(
        customer.request(text), metadata=AUTH, timeout=CALL_TIMEOUT
    )
    customer.conversation_id = reply.conversation_id
    return reply


async def warm_up(channel: grpc.aio.Channel) -> None:
    """Let round_robin connect to every live replica before a burst (a burst sent while only
    one subchannel is READY all goes to that one)."""
    health = health_pb2_grpc.HealthStub(channel)
    for _ in range(4 * AGENTS):
        await health.Check(health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT)
        await asyncio.sleep(0.05)


def booked(reply: pb.SendMessageResponse) -> bool:
    return any(a.kind == types_pb.ACTION_KIND_APPOINTMENT_BOOKED for a in reply.actions)


async def test_same_slot_race_spread_over_every_replica(cluster: ScaledCluster) -> None:
    tenant_id = await seed(cluster)
    before = counts(cluster.agents(), "SendMessage")
    cal_before = counts(cluster.calendars(), "CreateEvent")
    started = time.perf_counter()
    confirmed_per_round = []
    unavailable = 0
    async with balanced_channel(cluster.agent_pool) as channel:
        stub = pb_grpc.AgentServiceStub(channel)
        await warm_up(channel)
        for day in RACE_DAYS:
            customers = [Customer(stub, tenant_id) for _ in range(RACERS)]
            asked = await asyncio.gather(
                *(say(c, booking_request_text(day, "10:00")) for c in customers)
            )
            ready = [c for c, a in zip(customers, asked, strict=True) if "Confirma" in a.reply]
            # Overloaded (full size, shared machine), a calendar read may miss its deadline: the
            # customer is told the calendar is unavailable, and takes no part in the race.
            busy = [a.reply for a in asked if "Confirma" not in a.reply]
            assert all("indisponível" in reply for reply in busy), Counter(busy)
            unavailable += len(busy)
            answers = await asyncio.gather(*(say(c, "sim") for c in ready))
            confirmed_per_round.append(sum(booked(a) for a in answers))
    elapsed = time.perf_counter() - started
    per_agent = spread(cluster.agents(), "SendMessage", before)
    # Every "sim" books through the calendar's create-if-free (the winner and the SLOT_TAKEN
    # ones alike), so the writes show the spread; free-slot reads are mostly cached.
    per_calendar = spread(cluster.calendars(), "CreateEvent", cal_before)
    state = await cluster.check_invariant(tenant_id, RACE_DAYS[0], RACE_DAYS[-1])
    assert confirmed_per_round == [1] * ROUNDS
    assert state["confirmed"] == ROUNDS and state["orphans"] == 0
    assert len(per_agent) == AGENTS and min(per_agent) > 0, per_agent
    assert len(per_calendar) == CALENDARS and min(per_calendar) > 0, per_calendar
    figures.record(
        SUITE,
        {
            "race: rounds x customers": f"{ROUNDS} x {RACERS}",
            "race: confirmed per round": 1,
            "race: told 'calendar temporarily unavailable' (overload, not racing)": unavailable,
            "race: orphan events": state["orphans"],
            "race: SendMessage per agent replica": "/".join(map(str, per_agent)),
            "race: CreateEvent per calendar replica": "/".join(map(str, per_calendar)),
            "race: seconds": round(elapsed, 1),
        },
    )


CHAT = ("Olá!", "Quais serviços vocês têm?", f"Quais horários a Ana tem dia {CHAT_DAY:%d/%m}?")


answered_after_retry = [0]


async def chatter(
    client: AgentClient, tenant_id: str, sent: list[str], stop: asyncio.Event
) -> tuple[int, int]:
    """One customer: the three messages in a loop until ``stop``, and at least once through
    (however fast the restarts went); every call must succeed. Every third message is
    delivered again (as a channel redelivers): it must come back as the stored reply
    (``duplicate``), whichever replica gets it. Returns (turns, redelivered)."""
    external_id = f"55119{uuid.uuid4().int % 10**8:08d}"
    conversation_id, turns, redelivered = "", 0, 0
    while not stop.is_set() or turns < len(CHAT):
        message_id = uuid.uuid4().hex
        sent.append(message_id)
        deliveries = 2 if turns % 3 == 2 else 1
        replies = [
            await client.send_message(
                tenant_id,
                channel="whatsapp",
                external_id=external_id,
                text=CHAT[turns % len(CHAT)],
                message_id=message_id,
                conversation_id=conversation_id,
            )
            for _ in range(deliveries)
        ]
        assert replies[0].reply, replies[0]
        # A first delivery is answered from storage (``duplicate``) only when the client's
        # retry followed an attempt that was handled but whose answer was lost (SIGTERM).
        if replies[0].duplicate:
            answered_after_retry[0] += 1
        if deliveries == 2:
            assert replies[1].duplicate and replies[1].reply == replies[0].reply, replies
            redelivered += 1
        conversation_id = replies[0].conversation_id
        turns += 1
    return turns, redelivered


async def stored_transcripts(
    cluster: ScaledCluster, tenant_id: str, sent: set[str]
) -> tuple[Counter[str], int, int]:
    """In the conversations holding ``sent`` messages: how often each customer message id is
    stored, and the customer and assistant messages."""
    client = make_client(cluster.mongo_uri)
    try:
        conversations = client[cluster.agent_database]["conversations"]
        ids: Counter[str] = Counter()
        customer = assistant = 0
        async for doc in conversations.find({"tenant_id": UUID(tenant_id)}):
            if not any(m["message_id"] in sent for m in doc["messages"]):
                continue
            for message in doc["messages"]:
                if message["role"] == "customer":
                    customer += 1
                    ids[message["message_id"]] += 1
                else:
                    assistant += 1
        return ids, customer, assistant
    finally:
        await client.close()


async def test_rolling_restart_under_concurrent_conversations(cluster: ScaledCluster) -> None:
    tenant_id = await seed(cluster)
    sent: list[str] = []
    stop = asyncio.Event()
    retry = RetryPolicy(max_attempts=8, backoff_base=0.05, backoff_cap=0.5)
    restarted = 0
    async with AgentClient.connect(
        [f"127.0.0.1:{p}" for p in cluster.agent_pool],
        token=AGENT_TOKEN,
        retry=retry,
        timeout=60,
        channel_options=FAST_RECONNECT,
    ) as client:
        talking = [
            asyncio.create_task(chatter(client, tenant_id, sent, stop))
            for _ in range(CONVERSATIONS)
        ]
        await asyncio.sleep(1)
        for module, replicas, free in (
            ("agent_service", cluster.agents, cluster.agent_pool),
            ("calendar_service", cluster.calendars, cluster.calendar_pool),
        ):
            for old in [r.port for r in replicas()][:RESTARTS]:
                spare = next(p for p in free if p not in cluster.live and p not in (old,))
                await cluster.launch(module, spare)  # the replacement first, then SIGTERM
                assert await cluster.terminate(old) == 0
                restarted += 1
        await asyncio.sleep(1)
        stop.set()
        outcomes = await asyncio.gather(*talking)
        retried = client.stats.retries
    turns = [t for t, _ in outcomes]
    redelivered = sum(r for _, r in outcomes)
    ids, customer, assistant = await stored_transcripts(cluster, tenant_id, set(sent))
    assert sum(turns) == len(sent)  # every call returned a reply: no failed turn
    assert set(ids) == set(sent) and max(ids.values()) == 1  # each message stored once
    assert customer == assistant == len(sent)  # and answered once
    assert redelivered > 0
    figures.record(
        SUITE,
        {
            "rolling restart: replicas replaced (agent + calendar)": restarted,
            "rolling restart: concurrent conversations": CONVERSATIONS,
            "rolling restart: turns": len(sent),
            "rolling restart: failed turns": 0,
            "rolling restart: messages redelivered by the channel (answered from storage)": (
                redelivered
            ),
            "rolling restart: calls retried on another replica (UNAVAILABLE, or CANCELLED"
            " by a stopping replica)": retried,
            "rolling restart: retried calls answered from storage (handled, answer lost)": (
                answered_after_retry[0]
            ),
            "rolling restart: messages answered more than once": 0,
        },
    )


async def test_sigkill_mid_turn_frees_the_slot_within_its_lease(cluster: ScaledCluster) -> None:
    tenant_id = await seed(cluster)
    victim = spares_of(cluster).victim
    cluster.live[victim.port] = victim
    async with channel_to(victim.port) as direct, balanced_channel(cluster.agent_pool) as balanced:
        customer = Customer(pb_grpc.AgentServiceStub(balanced), tenant_id)
        asked = await customer.say(booking_request_text(KILL_DAY, "15:00"))
        assert "Confirma" in asked.reply
        before = {(d["_id"], d["holder"]) for d in await slot_documents(cluster, tenant_id)}
        killed_message = uuid.uuid4().hex
        with pytest.raises(grpc.aio.AioRpcError) as died:  # "sim" on the victim
            await customer.say("sim", killed_message, stub=pb_grpc.AgentServiceStub(direct))
        assert died.value.code() is grpc.StatusCode.UNAVAILABLE
        assert await cluster.terminate(victim.port, "KILL") != 0
        left = [
            d
            for d in await slot_documents(cluster, tenant_id)
            if (d["_id"], d["holder"]) not in before  # earlier tests' leftovers (expired)
        ]
        assert len(left) == 1, left  # the dead turn's slot: nobody released it
        expires = left[0]["expires_at"]
        assert await live_slots(cluster, tenant_id, expires - timedelta(milliseconds=1)) == 1
        assert await live_slots(cluster, tenant_id, expires) == 0  # free one lease after renewal
        # The channel redelivers the killed message: once its claim's lease has expired,
        # another replica takes it over and answers it, once.
        redelivered = await customer.say("sim", killed_message)
        assert redelivered.reply and not redelivered.duplicate, redelivered
        again = await customer.say("sim", killed_message)
        assert again.duplicate and again.reply == redelivered.reply
        later = await customer.say("Quais serviços vocês têm?")  # another replica answers
        assert later.conversation_id == customer.conversation_id and later.reply
    await wait_no_pending(cluster, tenant_id)
    state = await cluster.check_invariant(tenant_id, KILL_DAY, KILL_DAY)
    assert state["orphans"] == 0
    figures.record(
        SUITE,
        {
            "SIGKILL mid-turn: slots left by the dead replica": len(left),
            "SIGKILL mid-turn: slot lease (s)": SLOT_LEASE_SECONDS,
            "SIGKILL mid-turn: conversation continued on another replica": "yes",
            "SIGKILL mid-turn: killed message redelivered, answered once by another replica": (
                "yes"
            ),
            "SIGKILL mid-turn: orphan events after reconcile": state["orphans"],
        },
    )


async def live_slots(cluster: ScaledCluster, tenant_id: str, now: datetime) -> int:
    """The tenant's held slots as the service sees them at the instant ``now`` (slots are
    kept on the message claims: ``claim_slots``)."""
    return sum(1 for d in await slot_documents(cluster, tenant_id) if d["expires_at"] > now)


async def slot_documents(cluster: ScaledCluster, tenant_id: str) -> list[dict[str, Any]]:
    """The tenant's claims holding a turn slot, with the slot's lease as ``expires_at``."""
    client = make_client(cluster.mongo_uri)
    try:
        claims = client[cluster.agent_database]["processed_turns"]
        found = claims.find({"tenant_id": UUID(tenant_id), "slot": {"$exists": True}})
        return [doc | {"expires_at": doc["slot_until"]} async for doc in found]
    finally:
        await client.close()


async def test_tenant_limit_of_8_holds_across_three_replicas(cluster: ScaledCluster) -> None:
    """Three more agents with the production limit (8) whose calendar is the counting proxy."""
    spares = spares_of(cluster)
    limited = spares.limited
    ports = [r.port for r in limited]
    proxy = CalendarProxy(cluster.calendar_pool, delay=0.3, port=spares.proxy_port)
    await proxy.start()
    try:
        for port in ports:  # each agent's calendar channel has reached the proxy
            async with channel_to(port) as channel:
                await wait_status(channel, CALENDAR_COMPONENT, SERVING, within=60)
        async with channel_to(ports[0]) as channel:
            tenant_id = await seed_demo_salon(channel)
        outcomes: Counter[str] = Counter()
        hints: list[int] = []
        async with balanced_channel(ports) as channel:
            stub = pb_grpc.AgentServiceStub(channel)

            async def ask(day: date) -> None:
                customer = Customer(stub, tenant_id)
                message_id = uuid.uuid4().hex
                while True:
                    try:
                        await customer.say(
                            f"Quais horários a Ana tem dia {day:%d/%m} para corte feminino?",
                            message_id,
                        )
                        outcomes["answered"] += 1
                        return
                    except grpc.aio.AioRpcError as error:
                        if error.code() is not grpc.StatusCode.RESOURCE_EXHAUSTED:
                            raise
                        outcomes["refused"] += 1
                        hint = int(dict(error.trailing_metadata() or ())[RETRY_AFTER_KEY])
                        hints.append(hint)
                        await asyncio.sleep(hint / 1000)

            per_agent_before = {r.port: r.rpc_counts("SendMessage") for r in limited}
            await asyncio.gather(*(ask(day) for day in FLOOD_DAYS))
            per_agent = [r.rpc_counts("SendMessage") - per_agent_before[r.port] for r in limited]
    finally:
        for replica in limited:
            replica.service.process.terminate()
        await proxy.stop()
    assert outcomes["answered"] == FLOOD
    assert outcomes["refused"] > 0 and min(hints) > 0
    assert proxy.reads >= FLOOD and 1 <= proxy.peak <= LIMIT, (proxy.peak, proxy.reads)
    assert min(per_agent) > 0, per_agent
    figures.record(
        SUITE,
        {
            "tenant limit: limit across 3 replicas": LIMIT,
            "tenant limit: concurrent customers": FLOOD,
            "tenant limit: most turns of the tenant at once (counted)": proxy.peak,
            "tenant limit: refused RESOURCE_EXHAUSTED (then retried after the hint)": outcomes[
                "refused"
            ],
            "tenant limit: answered in the end": outcomes["answered"],
        },
    )
