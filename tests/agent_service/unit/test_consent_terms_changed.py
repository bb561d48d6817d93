"""A yes confirms the terms the customer was shown, never terms changed since (session 44,
blind attacker review, HIGH: the back office changed the price between the question and the
tap, and the booking ran at "R$ 999,00"; the same for a service's length, a renamed service or
professional). When the terms the write would run on are not the ones the question showed,
nothing is written: the question is asked again with the current terms, and the next yes
books them. Generated over each term of a booking the catalog can change."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from agent_service.application.repositories import Repositories
from agent_service.domain.conversations import ActionKind, DecisionResult
from tests.agent_service.conversation_fixtures import Assistant, Salon, seed_salon

Change = Callable[[Repositories, Salon], Awaitable[str]]


async def _price(repos: Repositories, salon: Salon) -> str:
    await repos.services.update(salon.beard.model_copy(update={"price_minor": 99900}))
    return "999,00"


async def _length(repos: Repositories, salon: Salon) -> str:
    await repos.services.update(salon.beard.model_copy(update={"duration_minutes": 120}))
    return ""


async def _service_name(repos: Repositories, salon: Salon) -> str:
    await repos.services.update(salon.beard.model_copy(update={"name": "Barba Premium"}))
    return "Barba Premium"


async def _professional_name(repos: Repositories, salon: Salon) -> str:
    await repos.professionals.update(salon.bruno.model_copy(update={"name": "Bruno Costa"}))
    return "Bruno Costa"


CHANGES = {
    "price": _price,
    "length": _length,
    "service name": _service_name,
    "professional name": _professional_name,
}


@pytest.mark.parametrize("change", sorted(CHANGES))
async def test_a_yes_after_the_terms_changed_writes_nothing_and_asks_again(change: str) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    asked = await assistant.say(salon.tenant.id, "Quero agendar barba com o Bruno amanhã às 10h")
    first = asked.result.pending
    assert first is not None, asked.result.reply
    shown = await CHANGES[change](assistant.repos, salon)
    answered = await assistant.say(salon.tenant.id, "sim")
    kinds = [action.kind for action in answered.result.actions]
    assert ActionKind.APPOINTMENT_BOOKED not in kinds, answered.result.reply
    again = answered.result.pending
    assert again is not None and again.id != first.id, answered.result.reply
    assert answered.result.reply.endswith(again.question), answered.result.reply
    assert shown in again.question
    assert answered.result.decision is DecisionResult.NONE  # nothing was confirmed
    booked = await assistant.say(salon.tenant.id, "sim")
    assert [a.kind for a in booked.result.actions] == [ActionKind.APPOINTMENT_BOOKED]


async def _service_gone(repos: Repositories, salon: Salon) -> None:
    await repos.services.delete(salon.tenant.id, salon.beard.id)


async def _professional_gone(repos: Repositories, salon: Salon) -> None:
    await repos.professionals.delete(salon.tenant.id, salon.bruno.id)


GONE = {"service deleted": _service_gone, "professional deleted": _professional_gone}


@pytest.mark.parametrize("gone", sorted(GONE))
async def test_a_yes_to_what_no_longer_exists_is_told_not_done(gone: str) -> None:
    """Nothing can run (the attacker review: the response said CONFIRMED with no action and
    the reply "Desculpe, não entendi"): the outcome is a failed change, told as such."""
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    asked = await assistant.say(salon.tenant.id, "Quero agendar barba com o Bruno amanhã às 10h")
    assert asked.result.pending is not None, asked.result.reply
    await GONE[gone](assistant.repos, salon)
    answered = await assistant.say(salon.tenant.id, "sim")
    kinds = [action.kind for action in answered.result.actions]
    assert kinds == [ActionKind.CHANGE_FAILED], answered.result.reply
    assert "Barba" in answered.result.reply and "10:00" in answered.result.reply
    assert answered.result.pending is None


async def _booked(assistant: Assistant) -> tuple[Salon, Any]:
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, "Quero agendar barba com o Bruno amanhã às 10h")
    booked = await assistant.say(salon.tenant.id, "sim")
    assert booked.result.actions, booked.result.reply
    return salon, booked.result.actions[0].appointment_id


async def test_a_yes_to_cancel_what_the_business_cancelled_meanwhile_is_told_already_done() -> None:
    """The second consent review: the customer read "cancel?", the business cancelled it, the
    customer said yes and read "not done (not possible now)" — and thought it still stood."""
    assistant = Assistant()
    salon, appointment = await _booked(assistant)
    asked = await assistant.say(salon.tenant.id, "quero cancelar meu agendamento")
    assert asked.result.pending is not None, asked.result.reply
    await assistant.booking.cancel.execute(
        salon.tenant.id, appointment, reason="by the business", enforce_window=False
    )
    yes = await assistant.say(salon.tenant.id, "sim")
    assert yes.result.decision is DecisionResult.ALREADY_DONE, yes.result.reply
    assert "Já está cancelado" in yes.result.reply, yes.result.reply


async def test_a_yes_to_move_where_the_business_moved_it_meanwhile_is_told_already_done() -> None:
    assistant = Assistant()
    salon, appointment = await _booked(assistant)
    asked = await assistant.say(salon.tenant.id, "quero remarcar meu agendamento para as 11h")
    pending = asked.result.pending
    assert pending is not None and pending.new_start is not None, asked.result.reply
    customer = (await assistant.repos.appointments.get(salon.tenant.id, appointment)).customer_id
    await assistant.booking.reschedule.execute(
        salon.tenant.id, customer, appointment, pending.new_start
    )
    yes = await assistant.say(salon.tenant.id, "sim")
    assert yes.result.decision is DecisionResult.ALREADY_DONE, yes.result.reply
    assert "Já está remarcado" in yes.result.reply, yes.result.reply
