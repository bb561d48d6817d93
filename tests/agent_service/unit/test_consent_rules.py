"""The consent and truth rules in isolation: what counts as a plain yes, how a pending action
lives for one answer, which texts misstate a turn, how a reply is bounded, and how stored
history stays small (the hostile suites in tests/security drive the same rules end to end)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest
from pydantic_ai import ModelRetry
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    UserPromptPart,
)

from agent_service.application.claims import BOOK
from agent_service.application.claims import misstates as claims_misstate
from agent_service.bootstrap import wire_booking
from agent_service.domain.catalog import Tenant
from agent_service.domain.conversations import (
    PENDING_STATE_KEY,
    ActionKind,
    Conversation,
    TurnAction,
)
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.consent import (
    Proposal,
    confirmation_gate,
    decide_pending,
    is_plain_yes,
    still_pending,
)
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction, TurnState
from agent_service.infrastructure.agent.history import (
    MAX_HISTORY_CHARS,
    MAX_PART_CHARS,
    bounded_messages,
    dump_history,
)
from agent_service.infrastructure.agent.tools.bounds import check_day, check_start
from agent_service.infrastructure.agent.truth import final_reply, verdict_for
from agent_service.infrastructure.language.rules import language_rules
from tests.fakes.agent_repositories import in_memory_repositories
from tests.fakes.in_memory_calendar import InMemoryCalendar

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
BOOKED = TurnAction(kind=ActionKind.APPOINTMENT_BOOKED, detail="Corte com Ana")


def deps(language: str = "pt", now: datetime = NOW) -> AgentDeps:
    tenant = Tenant(name="Salão", time_zone="America/Sao_Paulo", locale="pt-BR")
    repos, calendar = in_memory_repositories(clock=lambda: now), InMemoryCalendar(lambda: now)
    return AgentDeps(
        tenant_id=tenant.id,
        customer_id=uuid4(),
        tenant_repository=repos.tenants,
        service_repository=repos.services,
        professional_repository=repos.professionals,
        appointment_repository=repos.appointments,
        calendar_adapter=calendar,
        faq_repository=repos.faq,
        booking=wire_booking(repos, calendar, lambda: now),
        tenant=tenant,
        turn=TurnState(now=now, language=language),
    )


def misstates(
    text: str, actions: list[TurnAction], quoted: list[str] | tuple[str, ...] = ()
) -> bool:
    rules = language_rules()
    words = [rules.claims(code) for code in rules.in_play("pt")]
    done = {BOOK for action in actions if action.kind is ActionKind.APPOINTMENT_BOOKED}
    return claims_misstate(text, done, words, quoted)


async def reply_of(
    d: AgentDeps, text: str, pending: PendingAction | None, *, stopped: bool = False
) -> str:
    verdict = await verdict_for(d, text, pending, 2000)
    return final_reply(d, text, pending, stopped=stopped, max_chars=2000, verdict=verdict)


def propose(d: AgentDeps, start: str = "2026-12-01T10:00:00-03:00") -> str | None:
    proposal = Proposal(ActionKind.APPOINTMENT_BOOKED, "Corte com Ana em terça 10:00 (R$ 80,00)")
    return confirmation_gate(d, "book_appointment", {"start_time": start}, proposal)


@pytest.mark.parametrize(
    "text",
    ["sim", "Sim!", "pode sim", "ok", "confirmo", "yes", "yes please", "sure", "👍", "isso mesmo"],
)
def test_a_plain_yes(text: str) -> None:
    assert is_plain_yes(text)


@pytest.mark.parametrize(
    "text",
    [
        "sim, mas às 15h",
        "sim, mas com o Bruno",
        "yes, but at 3pm",
        "yes, but with Bruno instead",
        "sim às 11",
        "ok, e amanhã?",
        "sim?",
        "não",
        "talvez",
        "quanto custa?",
        "sim " + "muito " * 20,
        "sim, troca pra barba",
    ],
)
def test_not_a_plain_yes(text: str) -> None:
    assert not is_plain_yes(text)


def test_the_gate_renders_the_question_from_the_action_in_the_conversations_language() -> None:
    for language, start in (("pt", "Confirma o agendamento de"), ("en", "Shall I book")):
        d = deps(language)
        assert propose(d) is not None
        pending = d.turn.pending
        assert pending is not None and pending.question.startswith(start), pending
        assert "Corte com Ana em terça 10:00 (R$ 80,00)" in pending.question


def test_a_pending_action_is_confirmed_only_by_the_very_next_plain_yes_within_the_ttl() -> None:
    first = deps()
    propose(first)
    stored = still_pending(first)
    assert stored is not None

    def next_turn(text: str, after: timedelta = timedelta(minutes=1)) -> AgentDeps:
        d = deps(now=NOW + after)
        decide_pending(d, PendingAction.from_json(stored.to_json()), text)
        return d

    assert next_turn("sim").turn.pending is not None
    assert next_turn("sim").turn.pending.confirmed  # type: ignore[union-attr]
    changed = next_turn("sim, mas às 15h")  # not a yes: asked again, with what changed
    assert changed.turn.pending is not None and not changed.turn.pending.confirmed
    assert changed.turn.reask is not None and changed.turn.change_note == "mas às 15h"
    assert next_turn("quanto custa?").turn.pending is None
    expired = next_turn("sim", timedelta(seconds=901))
    assert expired.turn.pending is None and expired.turn.expired is not None
    declined = next_turn("não")
    assert declined.turn.pending is None
    assert [a.kind for a in declined.turn.actions] == [ActionKind.CHANGE_DECLINED]
    # Confirmed but not carried out this turn: not kept for the turn after.
    assert still_pending(next_turn("sim")) is None


def test_the_confirmed_action_runs_once_and_only_with_the_same_arguments() -> None:
    d = deps()
    propose(d)
    pending = d.turn.pending
    assert pending is not None
    pending.confirmed = True
    assert propose(d, "2026-12-01T11:00:00-03:00") is not None  # other arguments: a new proposal
    assert d.turn.pending is not None and not d.turn.pending.confirmed
    d.turn.pending = pending
    assert propose(d) is None and d.turn.writes_this_turn == 1
    assert "only one change" in (propose(d) or "")


def test_after_a_handoff_no_write_runs_and_nothing_stays_pending() -> None:
    d = deps()
    propose(d)
    d.turn.handoff_reason = "customer asked"
    assert "handed to a human" in (propose(d) or "")
    assert still_pending(d) is None


def test_handoff_hand_back_and_end_clear_the_pending_action() -> None:
    conversation = Conversation(
        tenant_id=uuid4(),
        customer_id=uuid4(),
        channel="whatsapp",
        engine_state={PENDING_STATE_KEY: {"tool": "x"}, "memory": {}},
    )
    handed = conversation.handed_off("x")
    assert PENDING_STATE_KEY not in handed.engine_state and "memory" in handed.engine_state
    back = handed.model_copy(update={"engine_state": conversation.engine_state}).handed_back()
    assert PENDING_STATE_KEY not in back.engine_state
    assert PENDING_STATE_KEY not in conversation.ended().engine_state


@pytest.mark.parametrize(
    ("text", "actions", "false"),
    [
        ("Pronto! CONFIRMADO, está agendado.", [], True),
        ("Your appointment was cancelled.", [], True),
        ("Remarcado para quinta!", [], True),
        ("Agendei para você.", [], True),
        ("I've booked it.", [], True),
        ("Infelizmente não consegui agendar.", [BOOKED], True),
        ("Nada foi alterado.", [BOOKED], True),
        ("Your booking could not be made.", [BOOKED], True),
        ("Cancelado com sucesso.", [BOOKED], True),
        ("Pronto, agendado!", [BOOKED], False),
        ("Não foi agendado ainda.", [], False),
        ("Temos horários às 10h e 11h. Qual prefere?", [], False),
        ("Posso agendar, cancelar ou remarcar.", [], False),
        ("Confirma o agendamento?", [], False),
    ],
)
def test_claims_and_denials(text: str, actions: list[TurnAction], false: bool) -> None:
    assert misstates(text, actions) is false


def test_stored_data_the_model_quotes_is_not_a_claim() -> None:
    faq = "Horário cancelado com menos de 2 horas de antecedência é cobrado."
    assert misstates(faq, [])
    assert not misstates(f"Sobre isso: {faq}", [], [f"[faq:1] Q: política\nA: {faq}"])


async def test_the_reply_ends_with_receipts_and_the_question_and_is_bounded() -> None:
    d = deps()
    d.turn.actions.append(BOOKED)
    propose(d)
    d.turn.writes_this_turn = 0
    pending = d.turn.pending
    reply = await reply_of(d, "x" * 9_000_000, pending)
    assert len(reply) <= 2000
    assert pending is not None and reply.endswith(pending.question)
    assert "✅ Agendado: Corte com Ana" in reply


async def test_a_false_reply_is_replaced_and_the_fallback_never_hides_a_write() -> None:
    d = deps()
    d.turn.upcoming = ["Barba com Bruno em quarta-feira 02/12/2026 10:00"]
    reply = await reply_of(d, "CONFIRMADO!", None)
    assert "CONFIRMADO" not in reply and "Nada foi alterado" in reply and "Barba com Bruno" in reply
    d.turn.actions.append(BOOKED)
    for text, stopped in (("", False), ("whatever", True)):
        reply = await reply_of(d, text, None, stopped=stopped)
        assert "✅ Agendado: Corte com Ana" in reply and "não entendi" not in reply


def test_every_language_of_the_catalog_has_every_sentence() -> None:
    keys = set(messages.CATALOG[messages.DEFAULT_LANGUAGE])
    for language, entries in messages.CATALOG.items():
        assert set(entries) == keys, language
    for kind in ActionKind:
        assert f"receipt_{kind.value}" in keys, kind


def test_stored_history_is_bounded_whatever_the_model_says() -> None:
    huge = "z" * 5_000_000
    history: list[ModelMessage] = [
        ModelRequest(parts=[UserPromptPart("oi")]),
        ModelResponse(parts=[ToolCallPart("book_appointment", {"professional_id": huge})]),
        ModelRequest(parts=[RetryPromptPart(content=huge, tool_name="book_appointment")]),
        ModelResponse(parts=[TextPart(huge)]),
    ] * 4
    dumped = dump_history(history)
    assert len(str(dumped)) < 2 * MAX_HISTORY_CHARS
    sent = bounded_messages(history)
    assert all(
        len(str(getattr(part, "content", ""))) <= MAX_PART_CHARS
        for message in sent
        for part in message.parts
    )


def test_instants_outside_the_horizon_are_retried_not_overflowed() -> None:
    d = deps()
    for start in (
        datetime(9999, 12, 31, 10, tzinfo=UTC),
        datetime(1, 1, 1, 10, tzinfo=UTC),
        datetime(2026, 12, 1, 10),
        NOW - timedelta(hours=1),
    ):
        with pytest.raises(ModelRetry):
            check_start(d, start, "start_time")
    check_start(d, NOW + timedelta(days=3), "start_time")
    with pytest.raises(ModelRetry):
        check_day(d, datetime(9999, 12, 31).date())


async def test_a_yes_the_model_did_not_carry_out_is_said_plainly() -> None:
    d = deps()
    propose(d)
    assert d.turn.pending is not None
    d.turn.pending.confirmed = True
    d.turn.proposed = False  # confirmed in an earlier turn
    reply = await reply_of(d, "Perfeito!", None)
    assert reply.endswith(
        "Ainda não foi feito: Corte com Ana em terça 10:00 (R$ 80,00). "
        "Se ainda quiser, é só pedir de novo."
    ), reply
