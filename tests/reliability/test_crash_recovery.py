"""Issue 4, property 4: the agent process SIGKILLed at each step of the booking saga
(``AGENDA_FAILPOINTS``) — after a restart, whose reconciler runs at start-up, the booking
invariant holds (docs/architecture.md#the-booking-invariant): no orphan event, no confirmed
appointment without its event, no stuck holds."""

from __future__ import annotations

import signal
import time
from collections import Counter

import grpc
import pytest

from agenda_kit.mongo import make_client
from agent_service.application.book_appointment import FAILPOINT_STEPS
from tests.agent_service.integration.agent_fixtures import (
    Customer,
    agent_stub,
    booking_request_text,
    channel_to,
    seed_demo_salon,
)
from tests.e2e.processes import ServiceProcess
from tests.figures import record
from tests.reliability.processes import Cluster
from tests.reliability.scale import size
from tests.reliability.stacks import working_days
from tests.waiting import until_checked

pytest_plugins = ["tests.kit.mongo_fixtures"]
pytestmark = pytest.mark.reliability

KILLS_PER_STEP = size(1, 20)  # make test: every step once
TIMES = ("09:00", "10:00", "11:00", "13:00", "14:00", "15:00", "16:00", "17:00")


async def pending_count(cluster: Cluster) -> int:
    client = make_client(cluster.mongo_uri)
    try:
        return await client[cluster.agent_database]["appointments"].count_documents(
            {"status": "pending"}
        )
    finally:
        await client.close()


async def book_until_killed(port: int, tenant_id: str, text: str) -> None:
    async with channel_to(port) as channel:
        customer = Customer(agent_stub(channel), tenant_id)
        asked = await customer.say(text)
        assert "Confirma" in asked.reply, asked.reply
        with pytest.raises(grpc.aio.AioRpcError) as died:
            await customer.say("sim")
        assert died.value.code() is grpc.StatusCode.UNAVAILABLE


@pytest.mark.timeout(size(300, 1800))  # 80 agent start-ups at full size
async def test_sigkill_at_every_saga_step_then_reconcile(cluster: Cluster) -> None:
    started = time.perf_counter()
    calendar = cluster.spawn_calendar()
    plan = [step for step in FAILPOINT_STEPS for _ in range(KILLS_PER_STEP)]
    slots = [(day, at) for day in working_days(len(plan) // len(TIMES) + 1) for at in TIMES]
    tenant_id = ""
    kills: Counter[str] = Counter()
    # The agents that will die start up side by side, a batch at a time (the first with the
    # calendar); none reconciles (the default grace outlives a batch, no second pass): the
    # restarted agent below finds every killed booking pending.
    size_of_batch = len(FAILPOINT_STEPS)
    for first in range(0, len(plan), size_of_batch):
        steps = plan[first : first + size_of_batch]
        batch = [dying_agent(cluster, step) for step in steps]
        cluster.wait_serving(*([calendar] if not first else []), *batch)
        for (day, at), step, agent in zip(slots[first:], steps, batch, strict=False):
            if not tenant_id:
                async with channel_to(agent.port) as channel:
                    tenant_id = await seed_demo_salon(channel)
            await book_until_killed(agent.port, tenant_id, booking_request_text(day, at))
            assert agent.process.wait(timeout=10) == -signal.SIGKILL
            kills[step] += 1

    cluster.start_agent(AGENT_RECONCILE_GRACE_SECONDS="0")

    async def reconciled() -> bool:
        return await pending_count(cluster) == 0

    await until_checked(reconciled, what="the restarted agent reconciled every pending booking")
    figures = await cluster.check_invariant(tenant_id, slots[0][0], slots[len(plan) - 1][0])
    elapsed = time.perf_counter() - started
    assert sum(kills.values()) == len(plan)
    assert figures["confirmed"] == kills["after_event"] + kills["before_confirm"]
    print(
        f"\nproperty 4: {dict(kills)} SIGKILLs, reconciled on restart in {elapsed:.1f}s total; "
        f"{figures}"
    )
    record(
        "properties",
        {
            "04 SIGKILL at each saga step: kills per step": dict(kills),
            "04 SIGKILL at each saga step: after restart + reconciler": figures,
            "04 SIGKILL at each saga step: seconds": round(elapsed, 1),
        },
    )


def dying_agent(cluster: Cluster, step: str) -> ServiceProcess:
    """An agent that SIGKILLs itself at ``step`` of a confirmation, not waited for."""
    return cluster.spawn_agent(
        AGENDA_FAILPOINTS=f"{step}=kill",
        AGENT_RECONCILE_INTERVAL_SECONDS="3600",
        # Each killed turn holds its tenant turn slot until the lease ends: short, so
        # more than the tenant's limit of kills in one lease is not refused.
        AGENT_TENANT_SLOT_LEASE_SECONDS="3",
    )
