"""What the customer excludes is never what the offline model proposes: "qualquer dia menos
terça", "any day except Thursday", "cualquier día menos hoy y el miércoles", "anyone but
Henrique", "pero no con Marta" (blind batch 16, before any fix: 2 wrong writes booked the day
the customer excluded, and the three "not with" cases asked which professional, the excluded
one among them).

Generated over every language's ``[corrections].except`` words, a split word after each
``except_after`` word ("any day but"), and the weekdays (Babel's names as the grammar reads
them): the booking is on the first day of the week that is not excluded; with a professional
excluded, the one other who does the service then is booked.
"""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest
from pydantic_ai.models.function import FunctionModel

from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import language_rules
from eval.dataset import TUE
from eval.harness import Harness, local

MONDAY = date(2026, 11, 30)  # the harness's today, 09:00
CODES = ("pt", "en", "es")
ASK_DAYS = {
    "pt": "hidratação com a Júlia às 10h essa semana, qualquer dia {excluding} {day}",
    "en": "hair treatment with Júlia at 10am this week, any day {excluding} {day}",
    "es": "hidratación con Júlia a las 10 esta semana, cualquier día {excluding} el {day}",
}
ASK_PEOPLE = {
    "pt": "hidratação amanhã às 10h, {excluding} o Paulo",
    "en": "hair treatment tomorrow at 10am, {excluding} Paulo",
    "es": "hidratación mañana a las 10, {excluding} Paulo",
}
YES = {"pt": "sim", "en": "yes", "es": "sí"}


def _excluding(code: str) -> list[str]:
    """The exclusion words, and a split word after an any-word ("anyone but")."""
    split = word_list(code, "corrections", "split")[0]
    anyone = word_list(code, "corrections", "except_after")
    return [*word_list(code, "corrections", "except"), *(f"{a} {split}" for a in anyone[:2])]


def _weekday_names(code: str) -> dict[int, str]:
    names: dict[int, str] = {}
    for name, index in language_rules().calendar(code).weekdays:
        names.setdefault(index, name)
    return names


def _day_cases() -> list[tuple[str, str, int]]:
    cases = []
    for code in CODES:
        for position, excluding in enumerate(_excluding(code)):
            cases.append((code, excluding, position % 6))  # each weekday Monday-Saturday in turn
    return cases


@pytest.mark.parametrize(("code", "excluding", "weekday"), _day_cases())
async def test_an_excluded_day_is_never_booked(code: str, excluding: str, weekday: int) -> None:
    day = _weekday_names(code)[weekday]
    said = ASK_DAYS[code].format(excluding=excluding, day=day)
    harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
    transcript = await harness.play([said, YES[code]], [])
    first = next(MONDAY + timedelta(days=d) for d in range(6) if d != weekday)
    booked = [(a.professional, a.start) for a in transcript.appointments]
    assert booked == [("Júlia Prado", local(first, time(10)))], (said, transcript.turns)


def _two_day_cases() -> list[tuple[str, str, str, int]]:
    cases = []
    for code in CODES:
        # "and" ("plus" reads as an addition, never a list of exclusions)
        joins = [
            *word_list(code, "corrections", "either_words"),
            word_list(code, "matching", "and_words")[0],
        ]
        for position, (excluding, join) in enumerate(
            (e, j) for e in _excluding(code)[:3] for j in joins
        ):
            cases.append((code, excluding, join, position % 5))
    return cases


@pytest.mark.parametrize(("code", "excluding", "join", "weekday"), _two_day_cases())
async def test_every_day_a_negated_clause_joins_is_excluded(
    code: str, excluding: str, join: str, weekday: int
) -> None:
    """Blind batch 18, before any fix: "que no sea hoy ni el miércoles" booked the Wednesday
    (the clause was read as one part, its first day only)."""
    names = _weekday_names(code)
    article = "el " if code == "es" else ""
    days = f"{names[weekday]} {join} {article}{names[weekday + 1]}"
    said = ASK_DAYS[code].format(excluding=excluding, day=days)
    harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
    transcript = await harness.play([said, YES[code]], [])
    first = next(MONDAY + timedelta(days=d) for d in range(6) if d not in (weekday, weekday + 1))
    booked = [(a.professional, a.start) for a in transcript.appointments]
    assert booked == [("Júlia Prado", local(first, time(10)))], (said, transcript.turns)


def _people_cases() -> list[tuple[str, str]]:
    negation = {"pt": "não com", "en": "not with", "es": "no con"}
    return [(code, e) for code in CODES for e in [*_excluding(code), negation[code]]]


@pytest.mark.parametrize(("code", "excluding"), _people_cases())
async def test_an_excluded_professional_is_never_proposed(code: str, excluding: str) -> None:
    said = ASK_PEOPLE[code].format(excluding=excluding)
    harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
    transcript = await harness.play([said, YES[code]], [])
    booked = [(a.professional, a.start) for a in transcript.appointments]
    assert booked == [("Júlia Prado", local(TUE, time(10)))], (said, transcript.turns)


ASK_EARLIEST = {
    "pt": "quero marcar um corte feminino, {earliest}",
    "en": "I'd like a haircut, {earliest}",
    "es": "quiero un corte de pelo, {earliest}",
}


def _earliest_cases() -> list[tuple[str, str]]:
    return [(code, p) for code in CODES for p in word_list(code, "ranges", "earliest")[::2]]


@pytest.mark.parametrize(("code", "earliest"), _earliest_cases())
async def test_the_earliest_with_no_day_is_the_first_free_start(code: str, earliest: str) -> None:
    """Blind batch 16: "no primeiro horário livre que vocês tiverem" listed the coming days'
    times and the yes then booked nothing. Generated over every language's earliest phrases."""
    said = ASK_EARLIEST[code].format(earliest=earliest)
    harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
    transcript = await harness.play([said, YES[code]], [])
    booked = [(a.professional, a.start) for a in transcript.appointments]
    assert booked == [("Júlia Prado", local(MONDAY, time(10)))], (said, transcript.turns)
