"""Issue 4, property 5: the calendar service goes down for a while — the agent keeps replying
within the caller's deadline with the "temporarily unavailable" message, its circuit breaker
keeps the calls upstream to a handful, and it closes once the service is back."""

from __future__ import annotations

import asyncio
import time
from datetime import date
from pathlib import Path

import grpc
import pytest

from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.mongo import EmbeddedMongo
from agenda_kit.resilience import BreakerState, CircuitBreaker
from tests.agent_service.integration.agent_fixtures import (
    AUTH,
    CALENDAR_TOKEN,
    Customer,
    agent_stub,
    booking_request_text,
    channel_to,
)
from tests.figures import record
from tests.reliability.scale import size
from tests.reliability.stacks import running_stack, working_days

pytest_plugins = ["tests.kit.mongo_fixtures"]
pytestmark = pytest.mark.reliability

DEADLINE = 5.0
OUTAGE_MESSAGES = size(12, 60)
FAILURE_THRESHOLD = 5
RESET_TIMEOUT = 1.0
UNAVAILABLE = "indisponível"
RECOVERY = 20.0


async def say_within(customer: Customer, text: str) -> tuple[str, float]:
    """Send with the gateway's deadline; the reply and how long it took."""
    started = time.perf_counter()
    reply = await customer.stub.SendMessage(customer.request(text), metadata=AUTH, timeout=DEADLINE)
    customer.conversation_id = reply.conversation_id
    return reply.reply, time.perf_counter() - started


async def test_outage_replies_in_time_and_the_breaker_limits_upstream_calls(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    clients: list[GrpcCalendarAdapter] = []

    def agent_calendar(address: str) -> GrpcCalendarAdapter:
        breaker = CircuitBreaker(failure_threshold=FAILURE_THRESHOLD, reset_timeout=RESET_TIMEOUT)
        clients.append(
            GrpcCalendarAdapter.connect(
                address, token=CALENDAR_TOKEN, timeout=2.0, breaker=breaker, cache_ttl=0
            )
        )
        return clients[0]

    async with (
        running_stack(embedded_mongo, tmp_path, agent_calendar=agent_calendar) as stack,
        channel_to(stack.agent.port) as channel,
    ):
        (client,) = clients
        days = working_days(20)  # within the salon's 60-day horizon, reused in turn
        customer = Customer(agent_stub(channel), str(stack.salon.tenant_id))
        assert "Confirma" in (await say_within(customer, booking_request_text(days[0])))[0]

        await stack.calendar.stop(0)
        attempts_before = client.stats.attempts
        outage_started = time.perf_counter()
        slowest = 0.0
        for i in range(OUTAGE_MESSAGES):
            day = days[1 + i % (len(days) - 2)]
            reply, seconds = await say_within(
                Customer(customer.stub, customer.tenant_id), booking_request_text(day)
            )
            assert UNAVAILABLE in reply, reply
            slowest = max(slowest, seconds)
        outage = time.perf_counter() - outage_started
        upstream = client.stats.attempts - attempts_before
        refused = client.stats.rejected_by_breaker
        assert client.breaker_state is BreakerState.OPEN
        # The threshold's failures, then one half-open trial per reset timeout at most.
        allowed = FAILURE_THRESHOLD + int(outage / RESET_TIMEOUT) + 2
        assert upstream <= allowed, (upstream, allowed)

        await stack.restart_calendar()
        recovered_after = await until_booking_works(customer, days[-1])
        assert client.breaker.state.value == BreakerState.CLOSED.value
    print(
        f"\nproperty 5: {OUTAGE_MESSAGES} messages during a {outage:.1f}s outage, slowest reply "
        f"{slowest:.2f}s (deadline {DEADLINE}s), {upstream} calendar calls sent upstream, "
        f"{refused} refused by the open breaker; booking works again {recovered_after:.1f}s "
        "after the restart, breaker closed"
    )
    record(
        "properties",
        {
            "05 calendar outage: messages during the outage": OUTAGE_MESSAGES,
            "05 calendar outage: outage seconds": round(outage, 1),
            "05 calendar outage: slowest reply (s)": round(slowest, 2),
            "05 calendar outage: reply deadline (s)": DEADLINE,
            "05 calendar outage: calls sent upstream": upstream,
            "05 calendar outage: refused by the open breaker": refused,
            "05 calendar outage: booking works again after restart (s)": round(recovered_after, 1),
        },
    )


async def until_booking_works(customer: Customer, day: date) -> float:
    """Seconds until a booking request reaches the calendar again (at most RECOVERY)."""
    started = time.perf_counter()
    while True:
        try:
            reply, _ = await say_within(
                Customer(customer.stub, customer.tenant_id),
                booking_request_text(day),
            )
        except grpc.aio.AioRpcError:
            reply = ""
        if "Confirma" in reply:
            return time.perf_counter() - started
        assert time.perf_counter() - started < RECOVERY, reply
        await asyncio.sleep(0.25)
