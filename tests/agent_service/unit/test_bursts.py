"""Bursts (``application/bursts``): a customer's messages arriving while a turn of theirs runs
are answered by ONE next turn, in arrival order; every message id gets an outcome; a turn
that changed something stands. In-memory repositories and a scripted engine whose turns wait
on events, so every ordering is set by the test, never by timing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from uuid import UUID, uuid4

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.bursts import (
    MAX_BURST_MESSAGES,
    MAX_SUPERSEDES,
    QueuedMessage,
    next_batch,
)
from agent_service.application.consent_policy import StructuredDecision
from agent_service.application.conversation import HandleMessage, IncomingMessage
from agent_service.application.engine import ProgressSink, TurnInput, TurnOutput
from agent_service.application.incoming import HandledMessage
from agent_service.domain.conversations import (
    MAX_MESSAGE_CHARS,
    ActionKind,
    ReplyChoice,
    Role,
    TurnAction,
)
from tests.agent_service.conversation_fixtures import seed_salon
from tests.fakes.agent_repositories import in_memory_repositories


class HeldEngine:
    """Answers "re: <text>"; each turn first waits for the test to let it go, and says it
    started (``started``: the texts of the turns so far, in order)."""

    def __init__(self, acts: Callable[[str], bool] = lambda text: False) -> None:
        self.started: list[str] = []
        self.turn_began = asyncio.Event()
        self.go = asyncio.Event()
        self.acts = acts

    async def run_turn(self, turn: TurnInput, progress: ProgressSink | None = None) -> TurnOutput:
        self.started.append(turn.text)
        self.turn_began.set()
        await self.go.wait()
        actions = (
            (TurnAction(kind=ActionKind.APPOINTMENT_BOOKED, appointment_id=uuid4()),)
            if self.acts(turn.text)
            else ()
        )
        return TurnOutput(reply=f"re: {turn.text}", specialist="test", actions=actions)


def message(
    tenant: UUID, message_id: str, text: str, customer: str = "5511999990000"
) -> IncomingMessage:
    return IncomingMessage(
        tenant_id=tenant,
        channel="whatsapp",
        external_id=customer,
        display_name="Maria",
        conversation_id=None,
        message_id=message_id,
        text=text,
    )


async def until(condition: Callable[[], Awaitable[bool]]) -> None:
    """Wait for ``condition`` (a state the test is waiting for, not a time)."""
    while not await condition():  # noqa: ASYNC110 - a state of the in-memory store
        await asyncio.sleep(0)


async def waiting_count(handle: HandleMessage, tenant: UUID, count: int) -> None:
    repos = handle._repos

    async def queued() -> bool:
        claims = repos.turns.claims  # type: ignore[attr-defined]
        return sum(1 for (t, _, _), c in claims.items() if t == tenant and c.queued) >= count

    await until(queued)


async def test_a_burst_while_a_turn_runs_is_answered_by_one_turn_in_order() -> None:
    repos = in_memory_repositories()
    tenant = (await seed_salon(repos)).tenant.id
    engine = HeldEngine()
    handle = HandleMessage(repos, engine)
    first = asyncio.create_task(handle.execute(message(tenant, "m1", "Quero agendar")))
    await engine.turn_began.wait()
    second = asyncio.create_task(handle.execute(message(tenant, "m2", "corte feminino")))
    third = asyncio.create_task(handle.execute(message(tenant, "m3", "com a Ana às 16h")))
    await waiting_count(handle, tenant, 3)
    engine.go.set()
    one, two, three = await asyncio.gather(first, second, third)
    # The first turn changed nothing: it was started again with the whole burst.
    burst = "Quero agendar\ncorte feminino\ncom a Ana às 16h"
    assert engine.started == ["Quero agendar", burst]
    assert three.result.reply == f"re: {burst}"
    assert three.result.answers == ("m1", "m2", "m3")
    for covered in (one, two):
        assert covered.result.reply == "" and covered.result.covered_by == "m3"
        assert covered.result.conversation_id == three.result.conversation_id
    conversation = await repos.conversations.get(tenant, three.result.conversation_id)
    said = [(m.role, m.message_id or m.text) for m in conversation.messages]
    assert said == [
        (Role.CUSTOMER, "m1"),
        (Role.CUSTOMER, "m2"),
        (Role.CUSTOMER, "m3"),
        (Role.ASSISTANT, f"re: {burst}"),
    ]
    # Every id keeps its outcome: a redelivery of a covered message says who answered it.
    again = await handle.execute(message(tenant, "m2", "corte feminino"))
    assert again.duplicate and again.result.covered_by == "m3"


async def test_a_turn_that_changed_something_stands_and_the_burst_is_the_next_turn() -> None:
    repos = in_memory_repositories()
    tenant = (await seed_salon(repos)).tenant.id
    engine = HeldEngine(acts=lambda text: text == "sim")
    handle = HandleMessage(repos, engine)
    first = asyncio.create_task(handle.execute(message(tenant, "m1", "sim")))
    await engine.turn_began.wait()
    later = [
        asyncio.create_task(handle.execute(message(tenant, f"m{n}", f"e {n}"))) for n in (2, 3)
    ]
    await waiting_count(handle, tenant, 3)
    engine.go.set()
    booked, two, three = await asyncio.gather(first, *later)
    assert engine.started == ["sim", "e 2\ne 3"]  # in arrival order, the booking first
    assert booked.result.reply == "re: sim" and booked.result.actions
    assert three.result.reply == "re: e 2\ne 3" and two.result.covered_by == "m3"


async def test_other_customers_are_not_held_by_a_burst() -> None:
    repos = in_memory_repositories()
    tenant = (await seed_salon(repos)).tenant.id
    engine = HeldEngine()
    handle = HandleMessage(repos, engine)
    first = asyncio.create_task(handle.execute(message(tenant, "m1", "oi")))
    await engine.turn_began.wait()
    other = asyncio.create_task(handle.execute(message(tenant, "o1", "olá", customer="5521")))
    await until(lambda: _at_least(engine.started, 2))
    engine.go.set()
    assert (await first).result.reply == "re: oi"
    assert (await other).result.reply == "re: olá"


async def _at_least(items: list[str], count: int) -> bool:
    return len(items) >= count


class TypingEngine:
    """A customer who sends another message during every turn (up to ``messages``)."""

    def __init__(self, handle: Callable[[], HandleMessage], tenant: UUID, messages: int) -> None:
        self.handle = handle
        self.tenant = tenant
        self.left = messages
        self.started: list[str] = []
        self.sent: list[asyncio.Task[HandledMessage]] = []

    async def run_turn(self, turn: TurnInput, progress: ProgressSink | None = None) -> TurnOutput:
        self.started.append(turn.text)
        if self.left:
            self.left -= 1
            n = len(self.sent) + 1
            sent = message(self.tenant, f"m{n}", f"t{n}")
            self.sent.append(asyncio.create_task(self.handle().execute(sent)))
            await waiting_count(self.handle(), self.tenant, n + 1)
        return TurnOutput(reply=f"re: {turn.text}", specialist="test")


async def test_a_customer_who_never_stops_typing_still_gets_answers() -> None:
    """Superseding is bounded: after ``MAX_SUPERSEDES`` restarts the turn stands, and the
    messages that kept arriving are the next turns."""
    repos = in_memory_repositories()
    tenant = (await seed_salon(repos)).tenant.id
    engine = TypingEngine(lambda: handle, tenant, messages=MAX_SUPERSEDES + 2)
    handle = HandleMessage(repos, engine)
    first = await handle.execute(message(tenant, "m0", "t0"))
    rest = await asyncio.gather(*engine.sent)
    outcomes = [first, *rest]
    replies = [o for o in outcomes if o.result.reply]
    assert all(o.result.reply or o.result.covered_by for o in outcomes)
    # the first reply answers the first MAX_SUPERSEDES + 1 messages, in order
    answered = replies[0].result.answers
    assert answered == tuple(f"m{n}" for n in range(MAX_SUPERSEDES + 1))
    assert engine.started[MAX_SUPERSEDES] == "\n".join(f"t{n}" for n in range(MAX_SUPERSEDES + 1))
    assert sum(len(o.result.answers) or 1 for o in replies) == len(outcomes)


QUEUED = st.builds(
    QueuedMessage,
    message_id=st.sampled_from([f"m{n}" for n in range(8)]),
    text=st.text(min_size=1, max_size=1500),
    external_id=st.just("5511"),
    conversation_id=st.sampled_from([None, UUID(int=1)]),
    decision=st.sampled_from([None, None, None, StructuredDecision(ReplyChoice.CONFIRM, "p1")]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(QUEUED, min_size=1, max_size=15))
def test_a_batch_is_the_head_of_the_queue_within_its_limits(queue: list[QueuedMessage]) -> None:
    batch = next_batch(queue)
    assert batch[0] == queue[0]
    ids = [m.message_id for m in batch]
    assert len(ids) == len(set(ids)) <= MAX_BURST_MESSAGES
    assert all(m.conversation_id == queue[0].conversation_id for m in batch)
    assert len("\n".join(m.text for m in batch)) <= MAX_MESSAGE_CHARS
    # in queue order: each message of the batch is the first of its id in the queue
    positions = [
        next(i for i, q in enumerate(queue) if q.message_id == m.message_id) for m in batch
    ]
    assert positions == sorted(positions)
    assert all(queue[p] == m for p, m in zip(positions, batch, strict=True))
    # a tapped decision is a turn of its own, never joined to typed messages
    assert len(batch) == 1 or all(m.decision is None for m in batch)
