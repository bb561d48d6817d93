"""A booking of a service the customer already has coming up is asked about as one more
appointment: the confirmation question names the one they hold (``booking._also_held``),
whichever model proposed it; another service's booking says nothing of it."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent import messages
from tests.agent_service.conversation_fixtures import NOW, Assistant, seed_salon
from tests.fakes.agent_repositories import in_memory_repositories

ASKED = {
    "pt": ("Quero agendar um corte feminino com a Ana amanhã às 10h",
           "Quero agendar um corte feminino com a Ana quinta às 15h",
           "Quero agendar barba com o Bruno quinta às 15h", "sim"),
    "en": ("Book a women's haircut with Ana tomorrow at 10am",
           "Book a women's haircut with Ana on Thursday at 3pm",
           "Book a beard trim with Bruno on Thursday at 3pm", "yes"),
}  # fmt: skip


def _lead(language: str) -> str:
    """The sentence's words before the held appointment."""
    return messages.text("also_held", language, appointments="\0").split("\0")[0].strip()


@pytest.mark.parametrize("language", sorted(ASKED))
async def test_a_second_booking_of_a_held_service_names_the_held_one(language: str) -> None:
    first, same, other, yes = ASKED[language]
    assistant = Assistant(repos=in_memory_repositories(clock=lambda: NOW))
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, first)
    booked = await assistant.say(salon.tenant.id, yes)
    assert booked.result.actions, booked.result.reply
    asked = (await assistant.say(salon.tenant.id, same)).result.reply
    assert _lead(language) in asked and "10:00" in asked and "15:00" in asked, asked
    elsewhere = (await assistant.say(salon.tenant.id, other)).result.reply
    assert _lead(language) not in elsewhere and "15:00" in elsewhere, elsewhere
