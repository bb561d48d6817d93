"""A free time stated in a natural shape (``application/statements``: ``[truth].free_frame``
and ``.first_free``) is sent exactly when one free-times item of this turn holds its
professional, day and time together, and "the first" only of that item's first time.

Blind review 17 refused true statements after a real ``check_availability`` result ("Na
quarta dia 16 a Ana pode às 14h30.", "Ana tiene un hueco libre el miércoles 16/12 a las
10:00.", "O primeiro horário livre da Ana na quarta é às 9h."): their verb ("pode", "hueco",
"opening", "está") or their "first" was in no frame. The properties generate such
statements in the three languages over random days of free times of several professionals:
true ones are sent; a time not free, another professional's, another day's or a "first" that
is not the first are refused.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.grounding import Grounding
from agent_service.application.text import normalize
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.told import no_change_statements
from agent_service.infrastructure.agent.tools.results import DayTimes, FreeTimes
from agent_service.infrastructure.language.rules import fact_reader, language_rules
from tests.scale import size

CODES = ("pt", "en", "es")
TODAY = date(2026, 12, 8)
READER = fact_reader(CODES, "America/Sao_Paulo", ("BRL",), TODAY)
WINDOW = (TODAY, TODAY + timedelta(days=60))
PROS = {"Ana Souza": "a", "Bruno Lima": "o", "Carla Dias": "a"}
DAYS = (date(2026, 12, 15), date(2026, 12, 16), date(2026, 12, 17))  # Tuesday to Thursday
WEEKDAYS = {
    "pt": ("segunda", "terça", "quarta", "quinta", "sexta", "sábado", "domingo"),
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
}
TIMES = ("09:00", "09:30", "10:00", "11:00", "14:30", "15:00", "17:00")
FREE = {
    "pt": (
        "Na {wd} dia {d} {art} {pro} pode às {t}.",
        "{Art} {pro} está livre na {wd}, {dm}, às {t}.",
        "{Art} {pro} tem horário livre às {t} na {wd}, {dm}.",
    ),
    "en": (
        "{pro} has an opening at {t} on {wd} the {d}th.",
        "{pro} has a free slot {wd} {dm} at {t}.",
    ),
    "es": (
        "El {wd} {dm} {pro} puede a las {t}.",
        "{pro} tiene un hueco libre el {wd} {dm} a las {t}.",
        "{pro} está libre el {wd} {dm} a las {t}.",
    ),
}
FIRST = {
    "pt": ("O primeiro horário livre d{art} {pro} na {wd}, {dm}, é às {t}.",),
    "en": ("The earliest slot {pro} has on {wd} the {d}th is at {t}.",),
    "es": ("El primer hueco libre de {pro} el {wd} {dm} es a las {t}.",),
}
EXAMPLES = settings(max_examples=size(60, 600), deadline=None)
Free = dict[tuple[str, date], list[str]]


def _texts(free: Free) -> list[ToolText]:
    days = [
        DayTimes(day=f"{day:%Y-%m-%d}", weekday=WEEKDAYS["pt"][day.weekday()] + "-feira",
                 professional=pro, professional_id=f"p{list(PROS).index(pro)}",
                 service="Corte feminino", minutes=30, times=times, utc_offset="-03:00")
        for (pro, day), times in free.items()
    ]  # fmt: skip
    result = FreeTimes(time_zone="America/Sao_Paulo", days=days)
    return [ToolText("check_availability", result.model_dump_json(), True)]


def _sent(texts: list[ToolText], sentence: str) -> bool:
    this_turn = [t.text for t in texts]
    grounding = Grounding(READER, this_turn, [], language_rules().common_words(), WINDOW, this_turn)
    entities = frozenset(w for n in (*PROS, "Corte feminino") for w in normalize(n).split())
    statements = no_change_statements(grounding, READER, CODES, texts, [], False, entities)
    return statements.refused(sentence) == []


def _said(template: str, code: str, pro: str, day: date, time: str) -> str:
    art = PROS[pro]
    return template.format(
        wd=WEEKDAYS[code][day.weekday()], d=day.day, dm=f"{day:%d/%m}", t=time, pro=pro,
        art=art, Art=art.upper(),
    )  # fmt: skip


@st.composite
def days_free(draw: st.DrawFn) -> Free:
    pros = draw(st.lists(st.sampled_from(list(PROS)), min_size=2, max_size=3, unique=True))
    days = draw(st.lists(st.sampled_from(DAYS), min_size=1, max_size=3, unique=True))
    return {
        (pro, day): sorted(draw(st.lists(st.sampled_from(TIMES), min_size=1, max_size=4,
                                         unique=True)))
        for pro in pros
        for day in days
    }  # fmt: skip


@EXAMPLES
@given(free=days_free(), data=st.data())
def test_a_free_time_in_any_shape_is_sent_exactly_when_its_item_holds_it(
    free: Free, data: st.DataObject
) -> None:
    code = data.draw(st.sampled_from(CODES))
    template = data.draw(st.sampled_from(FREE[code]))
    pro, day = data.draw(st.sampled_from(sorted(free)))
    time = data.draw(st.sampled_from(TIMES))
    sentence = _said(template, code, pro, day, time)
    assert _sent(_texts(free), sentence) == (time in free[pro, day]), sentence


@EXAMPLES
@given(free=days_free(), data=st.data())
def test_the_first_free_time_is_sent_only_when_it_is_the_first_of_its_item(
    free: Free, data: st.DataObject
) -> None:
    code = data.draw(st.sampled_from(CODES))
    template = data.draw(st.sampled_from(FIRST[code]))
    pro, day = data.draw(st.sampled_from(sorted(free)))
    time = data.draw(st.sampled_from(TIMES))
    sentence = _said(template, code, pro, day, time)
    assert _sent(_texts(free), sentence) == (time == free[pro, day][0]), sentence


ANA_16 = {("Ana Souza", date(2026, 12, 16)): ["09:00", "10:00", "14:30"]}
BRUNO_17 = {("Bruno Lima", date(2026, 12, 17)): ["09:00", "15:00"]}
TWO_DAYS = {
    ("Ana Souza", date(2026, 12, 15)): ["09:00"],
    ("Ana Souza", date(2026, 12, 16)): ["10:00"],
}


@pytest.mark.parametrize(
    ("free", "sentence", "sent"),
    [
        # blind review 17: true, refused before ("pode", "opening", "hueco", "está", "primeiro")
        (ANA_16, "Na quarta dia 16 a Ana pode às 14h30.", True),
        (ANA_16, "O primeiro horário livre da Ana na quarta é às 9h.", True),
        (ANA_16, "Ana has an opening at 2:30 pm on Wednesday the 16th.", True),
        (ANA_16, "Ana tiene un hueco libre el miércoles 16/12 a las 10:00.", True),
        (ANA_16, "El miércoles 16 Ana puede a las 14:30.", True),
        (BRUNO_17, "O Bruno está livre na quinta, 17/12, às 15h.", True),
        (BRUNO_17, "Bruno está libre el jueves 17 a las 15:00.", True),
        # the same shapes, false
        # a weekday and a date beside a name split from the time (Tuesday 15 of Ana's, 10:00
        # of her Wednesday): sent before, in the shape the review found sent
        (TWO_DAYS, "A Ana tem horário livre às 10h na terça, 15/12.", False),
        (TWO_DAYS, "Na terça dia 15 a Ana tem horário livre às 10h.", False),
        (TWO_DAYS, "A Ana tem horário livre às 10h na quarta, 16/12.", True),
        (ANA_16, "Na quarta dia 16 a Ana pode às 15h.", False),
        (ANA_16, "O primeiro horário livre da Ana na quarta é às 10h.", False),
        (ANA_16, "O primeiro horário livre da Ana é às 9h.", False),  # of no day named
        (ANA_16, "Ana has an opening at 2:30 pm on Thursday the 17th.", False),
        (ANA_16, "Bruno tiene un hueco libre el miércoles 16/12 a las 10:00.", False),
        (BRUNO_17, "O Bruno está livre na quinta, 17/12, às 10h.", False),
        (ANA_16, "A Ana pode cancelar às 14h30.", False),  # a state no result told
        (ANA_16, "A Ana pode ficar mais cedo às 14h30.", False),
        (ANA_16, "A Barba custa mais cedo.", False),
    ],
)
def test_free_times_said_in_natural_shapes(free: Free, sentence: str, sent: bool) -> None:
    assert _sent(_texts(free), sentence) == sent, sentence
