"""Phrasings from the sixth WhatsApp-style batch (``eval/whatsapp_batch6.py``), by category:
clock times in words ("às duas e meia", "dez e meia", "half four"), a day/month date whose
two readings both exist in English ("12/3": ask, never guess), and moves "to the same time
next week"."""

from __future__ import annotations

from datetime import date, datetime, time
from uuid import UUID, uuid4
from zoneinfo import ZoneInfo

import pytest

from agent_service.domain.catalog import Professional, WorkingHours
from agent_service.infrastructure.agent.offline.appointments_flow import (
    choose,
    move_parts,
    new_time,
)
from agent_service.infrastructure.agent.offline.availability_flow import part_of_day
from agent_service.infrastructure.agent.offline.catalog import appointments
from agent_service.infrastructure.agent.offline.corrections import affirmed
from agent_service.infrastructure.agent.offline.intents import (
    cancels_in_other_words,
    classify_intent,
)
from agent_service.infrastructure.agent.offline.nlu import parse_when
from agent_service.infrastructure.agent.offline.refusals import refusal_text
from agent_service.infrastructure.agent.offline.when import two_readings
from agent_service.infrastructure.agent.tools.refusals import day_off_cover
from tests.agent_service.offline_results import appointment, listed, refused

SP = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=SP)  # Monday
TUE, WED, THU, SAT = date(2026, 12, 1), date(2026, 12, 2), date(2026, 12, 3), date(2026, 12, 5)


@pytest.mark.parametrize(
    ("text", "day", "at"),
    [
        ("barba amanha as duas e meia da tarde", TUE, time(14, 30)),
        ("corte com o lucas sabado dez e meia", SAT, time(10, 30)),
        ("na quinta feira umas tres horas da tarde se tiver", THU, time(15)),
        ("barba às cinco da tarde de sábado", SAT, time(17)),
        ("amanha às duas e quinze", TUE, time(14, 15)),
        ("quarta as onze", WED, time(11)),
        ("sabado 10 e meia", SAT, time(10, 30)),
        ("haircut on Saturday at half four", SAT, time(16, 30)),
        ("at four on wednesday", WED, time(16)),
        ("around nine tomorrow", TUE, time(9)),
        ("corte com o pedro amanha la pras duas", TUE, time(14)),
        ("marca um corte quarta umas dez hora", WED, time(10)),
        ("barba quinta por volta das 11", THU, time(11)),
        ("corte amanha perto das tres", TUE, time(15)),
    ],
)
def test_clock_times_in_words(text: str, day: date, at: time) -> None:
    when = parse_when(text, NOW)
    assert (when.day, when.at) == (day, at)


@pytest.mark.parametrize(
    "text",
    [
        "quero duas escovas amanha",
        "as duas opções de amanha",
        "demora uma hora?",
        "tenho dez anos",
        "half an hour later",
        "one haircut please",
        "duas horas e meia de duração",
        "umas 3 pessoas amanha",
        "pras duas opções de quarta",
    ],
)
def test_number_words_without_a_clock_mark_are_not_times(text: str) -> None:
    assert parse_when(text, NOW).at is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("gel nails with Fernanda 12/3 at 10am", None),  # Dec 3 or 12 March: ask
        ("can I book 1/5 please", None),
        ("book 25/12 please", date(2026, 12, 25)),  # only one reading exists
        ("on 12/12 at 10am", date(2026, 12, 12)),  # both readings agree
        ("unha dia 3/12 as 10h", THU),  # Portuguese is day/month
    ],
)
def test_a_slash_date_with_two_readings_in_english_is_asked(text: str, day: date | None) -> None:
    assert parse_when(text, NOW).day == day


LISTED = listed(
    appointment(1, "Corte social", "Lucas Almeida", datetime(2026, 12, 1, 10, tzinfo=SP),
                ("corte", "haircut")),
    appointment(2, "Massagem relaxante", "Rodrigo Lima", datetime(2026, 12, 2, 15, tzinfo=SP),
                ("massagem", "massage")),
)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "chosen", "to"),
    [
        ("can you move my haircut to the same time next week?", 0,
         (date(2026, 12, 8), time(10))),
        ("quero passar minha massagem pra semana que vem no mesmo horario", 1,
         (date(2026, 12, 9), time(15))),
        ("move my massage to a week later, same time", 1, (date(2026, 12, 9), time(15))),
        ("move my haircut to next week", 0, (None, None)),  # which day? ask
    ],
)  # fmt: skip
def test_a_move_to_the_same_time_next_week(
    text: str, chosen: int, to: tuple[date | None, time | None]
) -> None:
    found = appointments(LISTED)
    picked = choose([text], found, NOW, moving=True)
    assert picked == found[chosen]
    assert new_time(text, picked, NOW) == to
    assert move_parts(text)[0]  # the appointment is described before "to"/"pra"


# -- a professional who is off on a day the business is open --------------------------------

_TENANT = uuid4()
_CUT = uuid4()


def _pro(name: str, days: range, services: tuple[UUID, ...] = (_CUT,)) -> Professional:
    return Professional(
        tenant_id=_TENANT,
        name=name,
        calendar_id=name,
        service_ids=services,
        weekly_hours=tuple(WorkingHours(day_of_week=d, start=time(9), end=time(18)) for d in days),
    )


def test_who_works_a_day_another_professional_is_off() -> None:
    lucas, pedro, nails = (
        _pro("Lucas", range(2, 7)),
        _pro("Pedro", range(1, 7)),
        _pro("Fernanda", range(1, 7), ()),
    )
    team = [lucas, pedro, nails]
    monday = date(2026, 11, 30)
    assert day_off_cover(team, lucas, _CUT, monday, SP) == (True, ["Pedro"])
    assert day_off_cover([lucas, nails], lucas, _CUT, monday, SP) == (True, [])
    assert day_off_cover(team, lucas, _CUT, date(2026, 12, 6), SP) == (False, [])  # Sunday


def test_a_day_off_says_who_works_that_day_without_booking_them() -> None:
    result = refused("day_off", working_that_day=["Pedro Santos"])
    en, pt = refusal_text(result, "en"), refusal_text(result, "pt")
    assert en is not None and "closed" not in en and "Pedro Santos" in en
    assert pt is not None and "fechad" not in pt and "Pedro Santos" in pt
    said = refusal_text(refused("day_off"), "en")
    assert said is not None and "closed" not in said and "Pedro" not in said


# -- "the last one I booked": booking order is not the listing's order ------------------------


@pytest.mark.parametrize(
    "text",
    [
        "cancel the last one I booked",
        "cancela o ultimo que eu marquei",
        "cancela o último que marquei",
        "cancel the one I booked last",
        "cancel my most recent booking",
        "desmarca o que eu agendei por ultimo",
    ],
)
def test_the_last_one_booked_is_asked_among_several(text: str) -> None:
    found = appointments(LISTED)
    assert choose([text], found, NOW) is None  # the list is by date, not by booking time
    assert choose([text], found[:1], NOW) == found[0]  # only one: that one


def test_the_last_one_in_the_list_is_still_an_ordinal() -> None:
    found = appointments(LISTED)
    assert choose(["o último"], found, NOW) == found[1]
    assert choose(["the last one"], found, NOW) == found[1]


# -- cancelling in negative words ("não quero mais o meu corte de terça") -------------------


@pytest.mark.parametrize(
    ("text", "cancels"),
    [
        ("não quero mais o meu corte de terça", True),
        ("nao vou mais poder ir no meu corte de terça", True),
        ("não vou conseguir ir na minha massagem de quarta", True),
        ("nao preciso mais da minha massagem", True),
        ("I can't make it to my haircut on Tuesday", True),
        ("I won't be able to make my massage", True),
        ("I don't need my haircut anymore", True),
        # Without "my": may decline what was just proposed, so it stays a decline.
        ("não quero mais o corte", False),
        ("I don't need the haircut anymore", False),
        ("não quero mais", False),  # a plain decline of what was just proposed
        ("never mind", False),
        ("não quero mais esperar, marca corte amanhã 10h", False),
    ],
)
def test_cancelling_in_negative_words(text: str, cancels: bool) -> None:
    assert (classify_intent(text)[0] == "appointments") is cancels
    assert bool(cancels_in_other_words(text)) is cancels


# -- English contractions negate like "não" ("I don't need the haircut anymore") ---------------


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("I don't need the haircut anymore", ""),
        ("i dont want the beard anymore", ""),
        ("I can't do 10am, 11am please", "11am please"),
        ("won't work with Pedro, Lucas please", "Lucas please"),
        ("não preciso mais do corte", ""),
    ],
)
def test_english_contractions_negate_their_clause(text: str, kept: str) -> None:
    assert affirmed(text) == kept


def test_an_ambiguous_slash_date_names_both_readings() -> None:
    assert two_readings("gel nails with Fernanda 12/3 at 10am", NOW) == (
        "12/3",
        date(2026, 12, 3),
        date(2027, 3, 12),
    )
    assert two_readings("book 25/12 please", NOW) is None  # one reading only
    assert two_readings("unha dia 3/12 as 10h", NOW) is None  # Portuguese: day/month
    assert two_readings("haircut tomorrow at 10", NOW) is None


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("barba com o lucas sexta de tardezinha", "afternoon"),
        ("brows with Juliana on Wednesday after lunch", "afternoon"),
        ("beard trim tomorrow arvo", "afternoon"),
        ("corte quinta depois do almoço", "afternoon"),
        ("corte no fim da tarde", "afternoon"),
        ("haircut first thing in the morning on Thursday", "morning"),
        ("sobrancelha de manhãzinha", "morning"),
        ("bom dia, corte amanhã", None),
    ],
)
def test_parts_of_the_day_in_colloquial_words(text: str, part: str | None) -> None:
    assert part_of_day([text]) == part
