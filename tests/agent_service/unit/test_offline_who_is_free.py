"""A booking request that names a day (and a time) but nobody: who is free then decides
(blind batches 9 and 10: "tem limpeza terça as 9h?" when only one of the two who do it works
on Tuesday got "Com qual profissional?" with both names, and a "sim" looped on it). Rules:
everyone who offers the service is checked that day; one free at the asked time is proposed
(the question names them); several free are asked which, among those free only; none free
gets the team's times. Generated over the week's days, times and two languages."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest

from agent_service.domain.catalog import Professional, WorkingHours
from tests.agent_service.conversation_fixtures import NOW, Assistant, Salon, seed_salon

ASKED = {
    "pt": "quero um corte feminino {day} às {at}h",
    "en": "can I get a corte feminino on {day} at {at}:00?",
}
DAYS = {
    "pt": {2: "terça", 3: "quarta", 4: "quinta"},
    "en": {2: "Tuesday", 3: "Wednesday", 4: "Thursday"},
}


@pytest.mark.parametrize("language", sorted(ASKED))
async def test_who_is_free_at_the_asked_time_decides_the_professional(language: str) -> None:
    # Ana: Monday-Saturday 09-18 (the fixture); Carla: Tuesday and Thursday 13-20 only.
    assistant, salon, carla = await _salon_with_carla(language, (2, 4), 13)
    monday = NOW.date() + timedelta(days=(7 - NOW.weekday()) % 7 or 7)
    for weekday, day in DAYS[language].items():
        when = monday + timedelta(days=weekday - 1)
        assert when.isoweekday() == weekday and when > date(2026, 11, 30)
        for at in (10, 15, 19):
            free = [
                p
                for p, hours in ((salon.ana, (9, 18)), (carla, (13, 20)))
                if _works(p.name, weekday, at, hours)
            ]
            asked = ASKED[language].format(day=day, at=at)
            handled = await assistant.say(salon.tenant.id, asked, customer=f"c{weekday}{at}")
            reply, pending = handled.result.reply, handled.result.pending
            if len(free) == 1:
                assert pending is not None and free[0].name in reply, (asked, reply)
                assert f"{at:02d}:00" in reply, (asked, reply)
            elif len(free) == 2:
                assert pending is None, (asked, reply)
                assert salon.ana.name in reply and carla.name in reply, (asked, reply)
            else:
                assert pending is None and salon.ana.name in reply, (asked, reply)


async def _salon_with_carla(
    language: str, days: tuple[int, ...], opens: int
) -> tuple[Assistant, Salon, Professional]:
    """The fixture's salon in ``language`` with a second hairdresser for its cut, Carla,
    working ``days`` (ISO weekdays) from ``opens`` to 20:00."""
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    await assistant.repos.tenants.update(salon.tenant.model_copy(update={"language": language}))
    carla = await assistant.repos.professionals.add(
        Professional(
            tenant_id=salon.tenant.id,
            name="Carla Dias",
            specialty="Cabeleireira",
            calendar_id=f"carla-{salon.tenant.id}",
            weekly_hours=tuple(
                WorkingHours(day_of_week=d, start=time(opens), end=time(20)) for d in days
            ),
            service_ids=(salon.cut.id,),
        )
    )
    return assistant, salon, carla


def _works(name: str, weekday: int, at: int, hours: tuple[int, int]) -> bool:
    days = range(1, 7) if name.startswith("Ana") else (2, 4)
    return weekday in days and hours[0] <= at < hours[1]


CLASHES = {  # a weekday and a day of the month that are different days (the 4th is a Friday)
    "pt": ["quero um corte feminino sábado dia 4 às 14h", "corte feminino sexta dia 5 às 10h"],
    "en": ["a corte feminino on Saturday the 4th at 2pm", "corte feminino Friday the 5th at 10"],
}


@pytest.mark.parametrize("language", sorted(CLASHES))
async def test_a_weekday_and_a_date_that_differ_are_asked_whoever_is_named(language: str) -> None:
    """Review of the team rule: with nobody named, "sábado dia 4" proposed Friday the 4th
    (the team was checked before the clash was), and after "sexta dia 5" a next message "Ana"
    proposed Saturday the 5th (the clash was read in that message only)."""
    # two offer the service: nobody named, a team (Carla: Friday and Saturday 09-20)
    assistant, salon, _ = await _salon_with_carla(language, (5, 6), 9)
    for number, asked in enumerate(CLASHES[language]):
        first = await assistant.say(salon.tenant.id, asked, customer=f"alone{number}")
        assert first.result.pending is None, (asked, first.result.reply)
        then = await assistant.say(salon.tenant.id, "Ana", customer=f"named{number}")
        del then  # a fresh customer naming only Ana: asked what and when, nothing proposed
        said = await assistant.say(salon.tenant.id, asked, customer=f"two{number}")
        named = await assistant.say(salon.tenant.id, "com a Ana", customer=f"two{number}")
        assert said.result.pending is None and named.result.pending is None, (
            asked,
            said.result.reply,
            named.result.reply,
        )
