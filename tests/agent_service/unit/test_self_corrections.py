"""A self-correction inside one message replaces what it corrects (blind batch 10: "whitening
Wednesday at 3pm — sorry, I meant 4pm" proposed 15:00, and the customer's yes to it booked
it; "restauração quinta as 10h, nao pera, sexta as 10h"; "el miércoles a las 11, perdón, a las
11 y media"). Generated over every language's ``[corrections].corrects`` words, days and
times: the corrected value is read, what the correction does not say again is kept."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from agent_service.infrastructure.agent.offline.corrections import affirmed
from agent_service.infrastructure.language.grammar import parse_when
from agent_service.infrastructure.language.grammar.vocabulary import Vocabulary

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))  # a Monday
DAYS = {  # Wednesday 2 and Friday 4 December
    "pt": ("quarta", "sexta"),
    "en": ("Wednesday", "Friday"),
    "es": ("el miércoles", "el viernes"),
}
AT = {"pt": "às {h}h", "en": "at {h}", "es": "a las {h}"}
SERVICE = {"pt": "limpeza", "en": "a cleaning", "es": "una limpieza"}
SEPARATORS = (", ", " — ", ". ", "... ")


def _corrects(language: str) -> list[str]:
    words = list(Vocabulary(language).words("corrections", "corrects"))
    assert words, f"{language} names no self-correction words"
    return words


@pytest.mark.parametrize("language", sorted(DAYS))
def test_a_corrected_time_replaces_the_time_and_keeps_the_day(language: str) -> None:
    wednesday, _ = DAYS[language]
    for marker in _corrects(language):
        for separator in SEPARATORS:
            for first, second in ((15, 16), (10, 11), (16, 14)):
                said = (
                    f"{SERVICE[language]} {wednesday} {AT[language].format(h=first)}"
                    f"{separator}{marker}, {AT[language].format(h=second)}"
                )
                when = parse_when(affirmed(said, language), NOW)
                assert (when.day, when.at) == (date(2026, 12, 2), time(second)), said
                assert SERVICE[language] in affirmed(said, language), said


@pytest.mark.parametrize("language", sorted(DAYS))
def test_a_corrected_day_replaces_the_day(language: str) -> None:
    wednesday, friday = DAYS[language]
    at = AT[language].format(h=10)
    for marker in _corrects(language):
        said = f"{SERVICE[language]} {wednesday} {at}, {marker}, {friday} {at}"
        when = parse_when(affirmed(said, language), NOW)
        assert (when.day, when.at) == (date(2026, 12, 4), time(10)), said


@pytest.mark.parametrize("language", sorted(DAYS))
def test_a_message_without_a_correction_is_read_whole(language: str) -> None:
    wednesday, _ = DAYS[language]
    said = f"{SERVICE[language]} {wednesday} {AT[language].format(h=15)}"
    assert affirmed(said, language) == said
    for marker in _corrects(language):  # a correction word opening the message corrects nothing
        opening = f"{marker}, {said}"
        assert parse_when(affirmed(opening, language), NOW).at == time(15), opening


ASIDES = {
    "pt": "{service} {day} {at}, {marker}, vocês abrem {other}?",
    "en": "{service} {day} {at}. {marker}, are you open {other}?",
    "es": "{service} {day} {at}, {marker}, ¿abren {other}?",
}
CHANGE_ASKED = {
    "pt": "{service} {day} {at}, {marker}, pode ser {other} {at2}?",
    "en": "{service} {day} {at}. {marker}, can we do {other} {at2}?",
    "es": "{service} {day} {at}, {marker}, ¿mejor {other} {at2}?",
}


def _each_marker(language: str, template: str) -> list[tuple[str, date | None, time | None]]:
    """``template`` said with every correction word of ``language`` (Wednesday at 10, then
    Friday at 11): each text and the day and time read from it."""
    wednesday, friday = DAYS[language]
    found = []
    for marker in _corrects(language):
        said = template.format(
            service=SERVICE[language],
            day=wednesday,
            at=AT[language].format(h=10),
            marker=marker,
            other=friday,
            at2=AT[language].format(h=11),
        )
        when = parse_when(affirmed(said, language), NOW)
        found.append((said, when.day, when.at))
    return found


@pytest.mark.parametrize("language", sorted(DAYS))
def test_a_question_after_a_correction_word_corrects_nothing(language: str) -> None:
    """Review of the rule: "Friday at 10am. Wait, are you open Saturday?" proposed Saturday;
    "sexta às 10h, espera, sábado vocês abrem?" too. A question is asked, not a correction."""
    for said, day, at in _each_marker(language, ASIDES[language]):
        assert (day, at) == (date(2026, 12, 2), time(10)), said


@pytest.mark.parametrize("language", sorted(DAYS))
def test_a_question_that_asks_for_the_change_is_a_correction(language: str) -> None:
    """Second review: after the rule above, "Wait, can we do Saturday at 11am?" and "espera,
    pode ser sábado às 11h?" proposed the day the customer took back. A question with a word
    of change ([intents].change) is the correction."""
    for said, day, at in _each_marker(language, CHANGE_ASKED[language]):
        assert (day, at) == (date(2026, 12, 4), time(11)), said
