"""A turn owns its budget (``AGENT_TURN_BUDGET_SECONDS``) and never stores a false answer:
it runs under its own deadline even when its caller's has passed, a duplicate waits within
its caller's time and then says "in progress", a turn that fails stores a retryable failure
(never a reply), and a message id reused for other text runs nothing."""

from __future__ import annotations

import asyncio
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenda_kit import deadline
from agent_service.application.conversation import HandleMessage, IncomingMessage
from agent_service.application.engine import ProgressSink, TurnInput, TurnOutput
from agent_service.domain.errors import (
    MessageIdReusedError,
    MessageInProgressError,
    ModelUnavailableError,
    StoredTurnFailureError,
    TurnBudgetExceededError,
)
from tests.agent_service.conversation_fixtures import seed_salon
from tests.fakes.agent_repositories import in_memory_repositories

BUDGET = 120.0


class Engine:
    """Records the deadline each turn runs under; a turn waits for ``go`` when it is held;
    ``fail_with`` makes the next turn raise."""

    def __init__(self) -> None:
        self.deadlines: list[float | None] = []
        self.texts: list[str] = []
        self.began = asyncio.Event()
        self.go = asyncio.Event()
        self.go.set()
        self.fail_with: Exception | None = None

    async def run_turn(self, turn: TurnInput, progress: ProgressSink | None = None) -> TurnOutput:
        self.deadlines.append(deadline.remaining())
        self.texts.append(turn.text)
        self.began.set()
        await self.go.wait()
        error, self.fail_with = self.fail_with, None
        if error is not None:
            raise error
        return TurnOutput(reply=f"re: {turn.text}", specialist="test")


def message(tenant: UUID, message_id: str, text: str = "oi") -> IncomingMessage:
    return IncomingMessage(
        tenant_id=tenant,
        channel="whatsapp",
        external_id="5511999990000",
        display_name="",
        conversation_id=None,
        message_id=message_id,
        text=text,
    )


async def until_waiting(handle: HandleMessage, key: tuple[UUID, str, str], deliveries: int) -> None:
    """Until that many deliveries of ``key`` wait in this process (a peek behind the use case:
    the state the test waits for, not a time)."""
    expecting = handle._waiters._expecting
    while expecting.get(key, 0) < deliveries:  # noqa: ASYNC110 - in-process state
        await asyncio.sleep(0)


async def setup(budget: float = BUDGET) -> tuple[HandleMessage, Engine, UUID]:
    repos = in_memory_repositories()
    tenant = (await seed_salon(repos)).tenant.id
    engine = Engine()
    return HandleMessage(repos, engine, turn_budget=budget), engine, tenant


async def test_a_turn_runs_under_its_own_budget_not_its_callers_passed_deadline() -> None:
    handle, engine, tenant = await setup()
    with deadline.deadline_after(0.0):  # the caller's deadline has passed
        assert deadline.expired()
        handled = await handle.execute(message(tenant, "m1"))
    (seen,) = engine.deadlines
    assert seen is not None and BUDGET / 2 < seen <= BUDGET
    assert handled.result.reply == "re: oi"


async def test_a_turn_outliving_its_caller_answers_the_retry_with_the_real_reply() -> None:
    handle, engine, tenant = await setup()
    engine.go.clear()
    caller = asyncio.create_task(handle.execute(message(tenant, "m1")))
    await engine.began.wait()
    caller.cancel()  # the gateway's deadline passed: it went away
    with pytest.raises(asyncio.CancelledError):
        await caller
    with deadline.deadline_after(0.3), pytest.raises(MessageInProgressError) as busy:
        await handle.execute(message(tenant, "m1"))  # its retry, while the turn runs
    assert busy.value.retry_after_seconds > 0
    engine.go.set()
    again = await handle.execute(message(tenant, "m1"))
    assert again.duplicate and again.result.reply == "re: oi"
    assert engine.texts == ["oi"]  # ran once


async def test_a_turn_over_its_budget_stores_a_retryable_failure_and_the_retry_runs() -> None:
    handle, engine, tenant = await setup(budget=0.2)
    engine.go.clear()
    with pytest.raises(TurnBudgetExceededError):
        await handle.execute(message(tenant, "m1"))
    stored = await handle._repos.turns.stored(tenant, "whatsapp", "m1")
    assert stored is not None and stored.result is None and stored.failure is not None
    assert stored.failure.reason == "TURN_BUDGET_EXCEEDED"
    engine.go.set()
    retried = await handle.execute(message(tenant, "m1"))
    assert not retried.duplicate and retried.result.reply == "re: oi"


async def test_a_duplicate_waiting_for_a_failed_turn_gets_the_failure() -> None:
    handle, engine, tenant = await setup()
    engine.go.clear()
    engine.fail_with = ModelUnavailableError("down", retry_after_seconds=5, cause="connection")
    first = asyncio.create_task(handle.execute(message(tenant, "m1")))
    await engine.began.wait()
    duplicate = asyncio.create_task(handle.execute(message(tenant, "m1")))
    await until_waiting(handle, (tenant, "whatsapp", "m1"), deliveries=2)
    engine.go.set()
    with pytest.raises(ModelUnavailableError):
        await first
    with pytest.raises(StoredTurnFailureError) as failed:
        await duplicate
    assert failed.value.reason == "MODEL_UNAVAILABLE" and failed.value.cause == "connection"
    assert failed.value.retry_after_seconds == 5
    assert not (await handle.execute(message(tenant, "m1"))).duplicate  # the retry runs


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=st.text(min_size=1, max_size=40).filter(str.strip), second=st.text(max_size=40))
async def test_a_message_id_reused_for_other_text_runs_nothing(first: str, second: str) -> None:
    handle, engine, tenant = await setup()
    handled = await handle.execute(message(tenant, "m1", first))
    if second == first:
        assert (await handle.execute(message(tenant, "m1", second))).duplicate
    elif second.strip():
        with pytest.raises(MessageIdReusedError):
            await handle.execute(message(tenant, "m1", second))
    assert engine.texts == [first]
    assert (await handle.execute(message(tenant, "m1", first))).result == handled.result


async def test_a_message_id_reused_while_its_turn_runs_is_refused_at_once() -> None:
    handle, engine, tenant = await setup()
    engine.go.clear()
    first = asyncio.create_task(handle.execute(message(tenant, "m1", "quero agendar")))
    await engine.began.wait()
    with pytest.raises(MessageIdReusedError):
        await handle.execute(message(tenant, "m1", "quero cancelar"))
    engine.go.set()
    assert (await first).result.reply == "re: quero agendar"
    assert engine.texts == ["quero agendar"]
