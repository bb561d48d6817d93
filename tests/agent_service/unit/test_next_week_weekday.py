"""A weekday said in the same message as "next week" is that day of next calendar week,
wherever the week is said (session 44, blind batch 9: "semana q vem na terça as 9h" and "la
semana que viene, el viernes a las 12" booked this week's day, two wrong writes; only "terça da
semana que vem", the week right after the day, was read). Generated: every weekday, every
language, the week said before the day, after it with other words between, or right after it,
on every day of a week as "today"."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from agent_service.infrastructure.language.grammar import parse_when

ZONE = ZoneInfo("America/Sao_Paulo")
WEEKDAYS = {
    "pt": ["segunda", "terça", "quarta", "quinta", "sexta", "sábado", "domingo"],
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "es": ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
}
SAID = {
    "pt": [
        "pilates semana que vem na {weekday} às 9h",
        "semana q vem, {weekday} 9h pode ser?",
        "quero marcar na próxima semana, {weekday} às 9h",
        "{weekday} às 9h da semana que vem",
    ],
    "en": [
        "pilates next week on {weekday} at 9am",
        "next week, {weekday} at 9am please",
        "can I come {weekday} next week at 9am?",
    ],
    "es": [
        "pilates la semana que viene, el {weekday} a las 9",
        "la próxima semana el {weekday} a las 9",
        "el {weekday} de la semana que viene a las 9",
    ],
}
CASES = [(language, form) for language, forms in SAID.items() for form in forms]


def _next_week(today: date, weekday: int) -> date:
    monday = today + timedelta(days=7 - today.weekday())
    return monday + timedelta(days=weekday)


@pytest.mark.parametrize(("language", "form"), CASES)
def test_a_weekday_with_next_week_anywhere_is_next_weeks(language: str, form: str) -> None:
    for offset in range(7):  # every day of a week as today
        now = datetime(2026, 11, 30, 8, 0, tzinfo=ZONE) + timedelta(days=offset)
        for index, weekday in enumerate(WEEKDAYS[language]):
            said = form.format(weekday=weekday)
            assert parse_when(said, now).day == _next_week(now.date(), index), (said, now)


@pytest.mark.parametrize("language", sorted(WEEKDAYS))
def test_a_weekday_alone_is_still_its_next_occurrence(language: str) -> None:
    """The week rule adds nothing to a message that does not say the week."""
    now = datetime(2026, 11, 30, 8, 0, tzinfo=ZONE)  # a Monday
    for index, weekday in enumerate(WEEKDAYS[language]):
        assert parse_when(f"{weekday} 9h", now).day == now.date() + timedelta(days=index)
