"""A question about when one professional works is answered with that professional's own week
(session 40's blind batch: "que dias o Rafael trabalha?" got "not in our FAQ" and "which days
does Rafael work?" got "which day would you like?"), and a question for free times that names
no day lists the coming days instead of asking for one."""

from __future__ import annotations

import re
from datetime import time
from uuid import uuid4

from hypothesis import given
from hypothesis import strategies as st

from agent_service.domain.catalog import Professional, WorkingHours
from agent_service.infrastructure.agent.tools.faq import named_professional
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

TENANT = uuid4()


async def _salon_with_carla(assistant: Assistant) -> object:
    salon = await seed_salon(assistant.repos)
    afternoons = tuple(
        WorkingHours(day_of_week=d, start=time(13), end=time(20)) for d in range(2, 6)
    )  # Tuesday to Friday, 13:00-20:00: unlike the business (Monday to Saturday, 9-18)
    await assistant.repos.professionals.add(
        Professional(
            tenant_id=salon.tenant.id,
            name="Carla Dias",
            specialty="Barbeira",
            calendar_id=f"carla-{salon.tenant.id}",
            weekly_hours=afternoons,
            service_ids=(salon.beard.id,),
        )
    )
    return salon


async def test_when_a_professional_works_is_their_own_week_in_the_customers_language() -> None:
    for question, works, off in (
        ("que dias a Carla trabalha?", "terça-feira a sexta-feira, das 13:00 às 20:00",
         "Não atende: segunda-feira, sábado, domingo."),
        ("¿qué días trabaja Carla?", "martes a viernes, de 13:00 a 20:00",
         "No atiende: lunes, sábado, domingo."),
    ):  # fmt: skip
        assistant = Assistant()
        salon = await _salon_with_carla(assistant)
        handled = await assistant.say(salon.tenant.id, question)  # type: ignore[attr-defined]
        reply = handled.result.reply
        assert works in reply and off in reply, reply
        assert "09:00" not in reply and "Carla Dias" in reply, reply


async def test_a_times_question_that_names_no_day_lists_the_coming_days() -> None:
    assistant = Assistant()
    salon = await _salon_with_carla(assistant)
    handled = await assistant.say(
        salon.tenant.id,  # type: ignore[attr-defined]
        "which days does Carla have free for a beard trim?",
    )
    reply = handled.result.reply
    days = re.findall(r"\b2026-12-0\d\b", reply)
    assert len(days) >= 3, reply  # Tuesday to Friday of the coming week, not "which day?"
    assert "13:00" in reply and "09:00" not in reply, reply


NAMES = ["Ana Souza", "Bruno Lima", "Carla Dias", "Júlia Prado", "Rafael Nunes", "Paulo Reis"]


def _team(names: list[str]) -> list[Professional]:
    return [Professional(tenant_id=TENANT, name=n, calendar_id=n) for n in names]


@given(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True), st.data())
def test_one_professional_named_by_full_or_first_name(
    names: list[str], data: st.DataObject
) -> None:
    team = _team(names)
    chosen = data.draw(st.sampled_from(team))
    said = data.draw(st.sampled_from([chosen.name, chosen.name.split()[0], chosen.name.upper()]))
    found = named_professional(f"quando {said} trabalha?", team, "pt")
    assert found is not None and found.name == chosen.name


@given(st.lists(st.sampled_from(NAMES), min_size=2, max_size=4, unique=True))
def test_two_professionals_named_or_none_name_no_one(names: list[str]) -> None:
    team = _team(names)
    first, second = (n.split()[0] for n in names[:2])
    assert named_professional(f"{first} ou {second} trabalham sábado?", team, "pt") is None
    assert named_professional("quem trabalha sábado? Carlaxyz", team, "pt") is None


async def test_a_price_asked_by_the_professionals_name_gets_their_services_and_week() -> None:
    """Session 40's fourth batch: "quanto o Rafael cobra?" got Rafael's week alone."""
    assistant = Assistant()
    salon = await _salon_with_carla(assistant)
    handled = await assistant.say(salon.tenant.id, "quanto a Carla cobra?")  # type: ignore[attr-defined]
    reply = handled.result.reply
    assert "Carla Dias faz:" in reply and "Barba" in reply and "R$ 40,00" in reply, reply
    assert "Corte feminino" not in reply and "terça-feira a sexta-feira" in reply, reply


async def test_a_move_naming_only_a_time_keeps_the_appointments_day() -> None:
    """Session 40's fourth batch: "pode mudar minha barba pras 15h?" was asked "for when?"."""
    for _language, book, yes, move, new in (
        ("pt", "Quero agendar barba com o Bruno quinta às 10h", "sim",
         "pode mudar minha barba pras 15h?", "03/12/2026 15:00"),
        ("en", "Book a beard trim with Bruno on Thursday at 10am", "yes",
         "can you change my beard trim to 3pm?", "2026-12-03 15:00"),
    ):  # fmt: skip
        assistant = Assistant()
        salon = await seed_salon(assistant.repos)
        await assistant.say(salon.tenant.id, book)
        assert (await assistant.say(salon.tenant.id, yes)).result.actions
        asked = await assistant.say(salon.tenant.id, move)
        assert asked.result.pending is not None, asked.result.reply
        assert new in asked.result.reply, asked.result.reply
