"""``grounded.judge`` keeps a turn's verdicts by everything each is a function of (the output
validator and the engine's final reply judge the same reply): a kept verdict is never another
than a fresh judge would give. Exhaustive over a few states, one change to the turn (a tool
result, a receipt, a customer message, a proposal) and every reply: the memoising turn's
verdicts equal a fresh turn's in the same state."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from agent_service.domain.conversations import ActionKind, TurnAction
from agent_service.infrastructure.agent.deps import AgentDeps, ToolText
from agent_service.infrastructure.agent.grounded import Verdict, judge
from tests.agent_service.unit.test_consent_rules import deps

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
CORTE = {"services": [{"name": "Corte", "price": "R$ 80,00"}]}
TIMES = {"professional": "Ana", "times": ["10:00", "11:00"]}
BARBA = {"services": [{"name": "Barba", "price": "R$ 40,00"}]}
RESULTS = (
    ToolText("list_services", json.dumps(CORTE), True),
    ToolText("check_availability", json.dumps(TIMES), True),
    ToolText("list_services", json.dumps(BARBA), False),
)
REPLIES = (
    "Temos Corte por R$ 80,00.",
    "Temos Corte por R$ 95,00.",
    "A Ana tem horário às 10:00 e às 11:00.",
    "A Ana tem horário às 15:00.",
    "Pronto, seu horário está marcado!",
    "Quer marcar às 10:00?",
    "Barba sai por R$ 40,00 com a Ana.",
    "Seu horário foi cancelado.",
    "Remarquei para as 15:00.",
    "Anotei o telefone (11) 98888-7777.",
)
RECEIPTS = {
    "booked": ActionKind.APPOINTMENT_BOOKED,
    "cancelled": ActionKind.APPOINTMENT_CANCELLED,
    "moved": ActionKind.APPOINTMENT_RESCHEDULED,
}
SAID = {
    "said phone": "meu telefone é (11) 98888-7777",
    "said 95": "custa R$ 95,00?",
    "said hi": "oi",
}
CHANGES = (*RECEIPTS, *SAID, "proposal", "none")


def state_of(d: AgentDeps, changes: list[str]) -> None:
    """Apply ``changes`` to a turn: what tools and the customer add as a turn goes on."""
    for change in changes:
        if change in RECEIPTS:
            d.turn.actions.append(TurnAction(kind=RECEIPTS[change], detail="Corte"))
        elif change in SAID:
            d.turn.customer_texts.append(SAID[change])
        elif change == "proposal":
            d.turn.proposed = True


PREFIXES: tuple[list[str], ...] = (
    [],
    ["booked"],
    ["said phone"],
    ["proposal"],
    ["booked", "said 95"],
    ["moved"],
)


@pytest.mark.parametrize("prefix", PREFIXES, ids=" + ".join)
async def test_a_kept_verdict_is_the_one_a_fresh_turn_gives(prefix: list[str]) -> None:
    """Exhaustive over one change between two judgements of every reply: each reply judged in
    a state (kept), the turn changed, every reply judged again — equal to a fresh turn's."""
    for change, shown in itertools.product(CHANGES, range(len(RESULTS) + 1)):
        texts = RESULTS[:shown]
        kept = deps(now=NOW)
        state_of(kept, prefix)
        before = [await judge(kept, reply, texts) for reply in REPLIES]
        again = [await judge(kept, reply, texts) for reply in REPLIES]
        assert all(a is b for a, b in zip(before, again, strict=True))  # kept, not judged again
        state_of(kept, [change])
        for reply in REPLIES:
            assert await judge(kept, reply, texts) == await fresh_verdict(
                kept, [*prefix, change], reply, texts
            ), (prefix, change, reply, shown)


async def fresh_verdict(
    like: AgentDeps, changes: list[str], reply: str, texts: tuple[ToolText, ...]
) -> Verdict:
    """The verdict of a turn that has judged nothing yet, in the state ``changes`` make."""
    fresh = replace(deps(now=NOW), tenant=like.tenant, tenant_id=like.tenant_id)
    state_of(fresh, changes)
    return await judge(fresh, reply, texts)
