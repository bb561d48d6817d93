"""The offline model through the whole graph, in Portuguese and English."""

from __future__ import annotations

from datetime import datetime, timedelta

from agent_service.application.conversation import HandleMessage
from agent_service.domain.appointments import AppointmentStatus
from agent_service.domain.conversations import ActionKind
from tests.agent_service.conversation_fixtures import Assistant, seed_salon


async def test_books_after_confirmation_in_portuguese() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    first = await assistant.say(
        salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h"
    )
    assert "Confirma" in first.result.reply, first.result.reply
    assert first.result.actions == ()
    assert assistant.calendar.events == {}
    second = await assistant.say(salon.tenant.id, "sim")
    assert "Agendado" in second.result.reply, second.result.reply
    (action,) = second.result.actions
    assert action.kind is ActionKind.APPOINTMENT_BOOKED
    assert action.appointment_id is not None
    appointment = await assistant.repos.appointments.get(salon.tenant.id, action.appointment_id)
    assert appointment.status is AppointmentStatus.CONFIRMED
    assert appointment.start == datetime.fromisoformat("2026-12-01T10:00:00-03:00")
    assert len(assistant.calendar.events) == 1


async def test_books_in_english() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    first = await assistant.say(
        salon.tenant.id, "I'd like to book a Barba with Bruno next Tuesday at 3pm"
    )
    # On a Monday, "next Tuesday" is tomorrow or a week later: asked, never guessed.
    assert "Tuesday Dec 1 or Tuesday Dec 8" in first.result.reply, first.result.reply
    first = await assistant.say(salon.tenant.id, "the 1st")
    assert "confirm" in first.result.reply.lower(), first.result.reply
    second = await assistant.say(salon.tenant.id, "yes")
    assert "Booked" in second.result.reply, second.result.reply
    assert len(assistant.calendar.events) == 1


async def test_no_means_nothing_is_booked() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    reply = await assistant.say(salon.tenant.id, "não")
    assert assistant.calendar.events == {}
    assert "Nada foi agendado" in reply.result.reply, reply.result.reply
    assert [a.kind.value for a in reply.result.actions] == ["change_declined"]


async def test_faq_cites_the_entry_and_unknown_is_honest() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    reply = await assistant.say(salon.tenant.id, "Qual é o endereço de vocês?")
    assert "Rua das Flores" in reply.result.reply
    assert "[faq:" not in reply.result.reply  # the citation is structured, never a raw tag
    assert [c.question for c in reply.result.citations] == ["Qual é o endereço?"]
    unknown = await assistant.say(salon.tenant.id, "xyzzy plugh", customer="other")
    assert (
        "não entendi" in unknown.result.reply.lower()
        or "not understand" in unknown.result.reply.lower()
    )


async def _book(assistant: Assistant, tenant_id: object, text: str) -> None:
    await assistant.say(tenant_id, text)  # type: ignore[arg-type]
    done = await assistant.say(tenant_id, "sim")  # type: ignore[arg-type]
    assert done.result.actions, done.result.reply


async def test_cancel_and_reschedule_after_confirmation() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    await _book(
        assistant, salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h"
    )
    listing = await assistant.say(salon.tenant.id, "Quais são meus agendamentos?")
    assert "Corte feminino" in listing.result.reply, listing.result.reply
    ask = await assistant.say(salon.tenant.id, "Quero remarcar para quinta às 15h")
    assert "Confirma a remarcação" in ask.result.reply, ask.result.reply
    moved = await assistant.say(salon.tenant.id, "pode sim")
    assert moved.result.actions[0].kind is ActionKind.APPOINTMENT_RESCHEDULED, moved.result.reply
    new_id = moved.result.actions[0].appointment_id
    assert new_id is not None
    new = await assistant.repos.appointments.get(salon.tenant.id, new_id)
    assert new.start == datetime.fromisoformat("2026-12-03T15:00:00-03:00")
    ask_cancel = await assistant.say(salon.tenant.id, "Na verdade quero cancelar meu horário")
    assert "cancelamento" in ask_cancel.result.reply, ask_cancel.result.reply
    cancelled = await assistant.say(salon.tenant.id, "sim")
    assert cancelled.result.actions[0].kind is ActionKind.APPOINTMENT_CANCELLED
    live = [e for e in assistant.calendar.events.values() if e.status != "cancelled"]
    assert live == []


async def test_escape_rule_sends_out_of_domain_requests_back_to_the_router() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    first = await assistant.say(salon.tenant.id, "Quero agendar um corte feminino")
    assert first.result.specialist == "booking"
    faq = await assistant.say(salon.tenant.id, "Qual é o endereço?")
    assert faq.result.specialist == "faq"
    assert "Rua das Flores" in faq.result.reply


async def test_handoff_stops_the_bot_until_handed_back() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    handed = await assistant.say(salon.tenant.id, "Quero falar com um atendente humano")
    assert handed.result.actions[0].kind is ActionKind.HANDED_OFF
    quiet = await assistant.say(salon.tenant.id, "Olá? alguém aí?")
    assert quiet.result.reply == ""
    assert quiet.result.specialist == "human"


async def test_redelivered_message_gets_the_same_reply_and_books_once() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h")
    first = await assistant.say(salon.tenant.id, "sim", message_id="wamid-1")
    again = await assistant.say(salon.tenant.id, "sim", message_id="wamid-1")
    assert again.duplicate and not first.duplicate
    assert again.result == first.result
    assert len(assistant.calendar.events) == 1


async def test_disabled_booking_never_books() -> None:
    assistant = Assistant(flags={"enable_booking": False, "enable_cancellation": False})
    salon = await seed_salon(assistant.repos)
    reply = await assistant.say(
        salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h"
    )
    assert reply.result.specialist != "booking"
    await assistant.say(salon.tenant.id, "sim")
    assert assistant.calendar.events == {}


async def test_greeting_and_services_in_english() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    hello = await assistant.say(salon.tenant.id, "Hello!")
    assert "assistant" in hello.result.reply
    services = await assistant.say(salon.tenant.id, "What services do you have and how much?")
    assert "Corte feminino" in services.result.reply and "R$ 80,00" in services.result.reply


async def test_a_handoff_returns_to_the_assistant_after_the_timeout() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    handed = await assistant.say(salon.tenant.id, "Quero falar com um atendente humano")
    conversation = await assistant.repos.conversations.get(
        salon.tenant.id, handed.result.conversation_id
    )
    assert conversation.handed_off_at is not None
    taken = conversation.handed_off_at
    clock = [taken + timedelta(seconds=599)]
    assistant.handle = HandleMessage(
        assistant.repos, assistant.engine, handoff_timeout=600, clock=lambda: clock[0]
    )
    quiet = await assistant.say(salon.tenant.id, "Olá? alguém aí?")
    assert quiet.result.reply == "" and quiet.result.specialist == "human"
    clock[0] = taken + timedelta(seconds=600)
    back = await assistant.say(salon.tenant.id, "Quais serviços vocês têm?")
    assert back.result.specialist != "human" and "Corte feminino" in back.result.reply
