"""Per-task history: a specialist is sent its own open task's messages, plus a summary of
earlier tasks built in code — not the whole conversation."""

from __future__ import annotations

from uuid import uuid4

from agent_service.application.conversation import HandledMessage
from agent_service.domain.conversations import Conversation
from tests.agent_service.conversation_fixtures import Assistant, seed_salon


async def _conversation(assistant: Assistant, handled: HandledMessage) -> Conversation:
    (tenant,), _ = await assistant.repos.tenants.list(page_size=1, page_token=None)
    return await assistant.repos.conversations.get(tenant.id, handled.result.conversation_id)


async def test_only_the_open_task_keeps_its_messages_and_a_done_task_leaves_a_summary() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    faq = await assistant.say(salon.tenant.id, "Qual é o endereço de vocês?")
    assert set((await _conversation(assistant, faq)).engine_state["histories"]) == {"faq"}

    asked = await assistant.say(
        salon.tenant.id, "Quero agendar um corte feminino com a Ana amanhã às 10h"
    )
    state = (await _conversation(assistant, asked)).engine_state
    assert set(state["histories"]) == {"booking"}  # the FAQ task's messages are gone

    booked = await assistant.say(salon.tenant.id, "sim")
    assert "Agendado" in booked.result.reply, booked.result.reply
    state = (await _conversation(assistant, booked)).engine_state
    assert state["histories"] == {}  # the task is done: nothing of it is sent again
    (done,) = state["memory"]["done"]
    assert done.startswith("appointment booked: "), done


async def test_a_service_asked_about_in_an_unfinished_task_reaches_the_next_specialist() -> None:
    """A price question answered by discovery, then "book me one with Bruno ...": the booking
    specialist starts its own task, but the conversation's text of the unfinished one (the
    service asked about) is handed over to it, never its tool traffic."""
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    lucas = {"id": uuid4(), "name": "Lucas Alves", "calendar_id": "lucas"}
    await assistant.repos.professionals.add(
        salon.ana.model_copy(update=lucas | {"service_ids": (salon.cut.id, salon.beard.id)})
    )
    await assistant.say(salon.tenant.id, "how much is the Barba?")

    asked = await assistant.say(salon.tenant.id, "ok book me one with Lucas on Wednesday at 10am")
    state = (await _conversation(assistant, asked)).engine_state
    assert state["pending_action"] is not None, asked.result.reply
    assert state["pending_action"]["details"]["service"] == "Barba"
    (booking,) = state["histories"].values()
    parts = [part for message in booking for part in message["parts"]]
    tools = {part["tool_name"] for part in parts if part["part_kind"] == "tool-return"}
    assert "how much is the Barba?" in [p.get("content") for p in parts]
    assert tools <= {
        "list_services",
        "list_professionals",
        "check_availability",
        "book_appointment",
    }  # the discovery task's own tool results stay behind

    booked = await assistant.say(salon.tenant.id, "yes")
    assert booked.result.actions, booked.result.reply
