"""Per-tenant concurrency: a flooding tenant is refused beyond its limit; others are not."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID, uuid4

import pytest

from agent_service.application.conversation import HandleMessage, IncomingMessage
from agent_service.application.engine import ProgressSink, TurnInput, TurnOutput
from agent_service.application.tenant_gate import TenantGate
from agent_service.domain.errors import CapacityExceededError
from tests.agent_service.conversation_fixtures import seed_salon
from tests.fakes.agent_repositories import in_memory_repositories
from tests.waiting import until

LIMIT = 8


class BlockingEngine:
    """Holds every turn of ``blocked`` tenants until ``release`` is set; others answer at once."""

    def __init__(self) -> None:
        self.blocked: set[UUID] = set()
        self.release = asyncio.Event()
        self.held = 0  # turns waiting for ``release`` (or released)

    async def run_turn(self, turn: TurnInput, progress: ProgressSink | None = None) -> TurnOutput:
        if turn.tenant.id in self.blocked:
            self.held += 1
            await self.release.wait()
        return TurnOutput(reply=f"ok {turn.text}", specialist="test")


def result_reads(repos: Any) -> list[int]:
    """From now on, ``[n]``: how many times a stored turn result was read (a duplicate
    delivery waiting for the first one's outcome reads it)."""
    reads = [0]
    stored = repos.turns.stored

    async def counted(*key: Any) -> Any:
        reads[0] += 1
        return await stored(*key)

    repos.turns.stored = counted
    return reads


def message(tenant_id: UUID, text: str = "oi", message_id: str | None = None) -> IncomingMessage:
    return IncomingMessage(
        tenant_id=tenant_id,
        channel="whatsapp",
        external_id=uuid4().hex,
        display_name="Maria",
        conversation_id=None,
        message_id=message_id or uuid4().hex,
        text=text,
    )


async def test_the_gate_counts_per_tenant() -> None:
    gate, a, b = TenantGate(2), uuid4(), uuid4()
    async with gate.admit(a), gate.admit(a):
        with pytest.raises(CapacityExceededError, match="limit 2") as refused:
            async with gate.admit(a):
                pass
        assert refused.value.retry_after_seconds > 0
        async with gate.admit(b):
            assert (gate.in_flight(a), gate.in_flight(b)) == (2, 1)
    assert (gate.in_flight(a), gate.in_flight(b)) == (0, 0)
    with pytest.raises(ValueError, match="limit"):
        TenantGate(0)


async def test_a_flood_of_tenant_a_is_capped_and_does_not_delay_tenant_b() -> None:
    repos = in_memory_repositories()
    a = (await seed_salon(repos, "A")).tenant.id
    b = (await seed_salon(repos, "B")).tenant.id
    engine = BlockingEngine()
    engine.blocked.add(a)
    handle = HandleMessage(repos, engine, gate=TenantGate(LIMIT))

    flood = [asyncio.create_task(handle.execute(message(a))) for _ in range(LIMIT * 5)]
    await until(  # every flood message decided: LIMIT held in their turn, the rest refused
        lambda: engine.held == LIMIT and sum(t.done() for t in flood) == LIMIT * 4,
        what="the flood admitted up to the limit",
    )
    replies = await asyncio.gather(*(handle.execute(message(b, f"b{i}")) for i in range(20)))
    assert [r.result.reply for r in replies] == [f"ok b{i}" for i in range(20)]
    # Not delayed: B was answered in full while every admitted turn of A is still held.
    assert sum(t.done() for t in flood) == LIMIT * 4 and not engine.release.is_set()

    engine.release.set()
    outcomes = await asyncio.gather(*flood, return_exceptions=True)
    refused = [o for o in outcomes if isinstance(o, CapacityExceededError)]
    assert len(refused) == LIMIT * 4
    assert len(outcomes) - len(refused) == LIMIT


async def test_a_refused_message_can_be_delivered_again_and_duplicates_take_no_place() -> None:
    repos = in_memory_repositories()
    a = (await seed_salon(repos)).tenant.id
    engine = BlockingEngine()
    engine.blocked.add(a)
    handle = HandleMessage(repos, engine, gate=TenantGate(1))
    first = message(a, "first")
    running = asyncio.create_task(handle.execute(first))
    await until(lambda: engine.held == 1, what="the first message holds the tenant's place")
    refused = message(a, "second")
    with pytest.raises(CapacityExceededError):
        await handle.execute(refused)
    reads = result_reads(repos)
    duplicate = asyncio.create_task(handle.execute(first))
    await until(lambda: reads[0] > 0, what="the duplicate waits for the first one's outcome")
    engine.release.set()
    assert (await running).result.reply == (await duplicate).result.reply == "ok first"
    assert (await handle.execute(refused)).result.reply == "ok second"
