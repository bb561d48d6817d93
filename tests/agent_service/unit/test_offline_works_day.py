"""Whether a professional works a given weekday is answered with that professional's week
(session 44: blind batches 8 and 9 asked "a dra helena atende terça?", "o Rodrigo trabalha
segunda?", "¿Vanessa trabaja los lunes?" and got "which service?" — a weekday alone was read
as a booking request — or, routed to the FAQ, an entry sharing a word, "Vocês atendem cães
bravos?"). Rules: a question whose only date is a weekday asks about the business, not for a
time; an FAQ search that names no topic of the FAQ and names one of the team answers with
that professional's services and week. Generated: every weekday in every language, each
professional, several ways to ask."""

from __future__ import annotations

import pytest

from agent_service.domain.catalog import FaqEntry
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

WEEKDAYS = {
    "pt": ["segunda", "terça", "quarta", "quinta", "sexta", "sábado", "domingo"],
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "es": ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
}
ASKED = {
    "pt": ["a {who} atende {day}?", "o {who} trabalha na {day}?", "{who} vem {day}?"],
    "en": ["does {who} work on {day}?", "is {who} in on {day}?"],
    "es": ["¿{who} trabaja el {day}?", "¿{who} atiende los {day}?"],
}
SATURDAY = {"pt": "sábado", "en": "Saturday", "es": "sábado"}
CASES = [(language, form) for language, forms in ASKED.items() for form in forms]


@pytest.mark.parametrize(("language", "form"), CASES)
async def test_whether_a_professional_works_a_weekday_gets_their_week(
    language: str, form: str
) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    await assistant.repos.tenants.update(salon.tenant.model_copy(update={"language": language}))
    await assistant.repos.faq.add(  # an entry that shares a word with the question
        FaqEntry(
            tenant_id=salon.tenant.id,
            question="Vocês atendem crianças? Do you work with kids? ¿Trabajan con niños?",
            answer="Sim, a partir de 3 anos.",
            tags=("crianças",),
        )
    )
    for professional in (salon.ana, salon.bruno):
        first = professional.name.split()[0]
        for day in WEEKDAYS[language]:
            asked = form.format(who=first, day=day)
            handled = await assistant.say(salon.tenant.id, asked, customer=f"{first}{day}")
            reply = handled.result.reply
            assert professional.name in reply and SATURDAY[language] in reply, (asked, reply)
            assert "a partir de 3 anos" not in reply, (asked, reply)
