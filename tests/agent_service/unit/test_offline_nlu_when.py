"""parse_when: a table of pt/en date and time mentions resolved against fixed local clocks."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from agent_service.infrastructure.agent.offline.nlu import When, parse_when

SP = ZoneInfo("America/Sao_Paulo")
MON = datetime(2026, 11, 30, 9, 15, tzinfo=SP)  # Monday
SUN = datetime(2026, 11, 29, 10, 0, tzinfo=SP)  # Sunday
DEC31 = datetime(2026, 12, 31, 18, 0, tzinfo=SP)  # Thursday, last day of the year
JAN31 = datetime(2027, 1, 31, 8, 0, tzinfo=SP)  # Sunday, next month is February
NOWS = {"mon": MON, "sun": SUN, "dec31": DEC31, "jan31": JAN31}

D = date
T = time


def case(
    name: str, text: str, day: date | None, at: time | None, now: str = "mon"
) -> pytest.ParameterSet:
    return pytest.param(text, now, day, at, id=name)


RELATIVE = [
    case("pt-hoje", "hoje", D(2026, 11, 30), None),
    case("pt-hoje-a-tarde", "hoje à tarde", D(2026, 11, 30), None),
    case("pt-amanha", "amanhã", D(2026, 12, 1), None),
    case("pt-amanha-no-accent", "amanha", D(2026, 12, 1), None),
    case("pt-amanha-caps", "AMANHÃ", D(2026, 12, 1), None),
    case("pt-depois-de-amanha", "depois de amanhã", D(2026, 12, 2), None),
    case("pt-amanha-as-10h", "amanhã às 10h", D(2026, 12, 1), T(10)),
    case("pt-amanha-de-manha-9", "amanhã 9 da manhã", D(2026, 12, 1), T(9)),
    case("en-today", "today", D(2026, 11, 30), None),
    case("en-tonight-at-8", "tonight at 8", D(2026, 11, 30), T(20)),
    case("en-tomorrow", "Tomorrow", D(2026, 12, 1), None),
    case("en-day-after", "the day after tomorrow", D(2026, 12, 2), None),
    case("en-day-after-no-the", "day after tomorrow at 11am", D(2026, 12, 2), T(11)),
    case("en-tomorrow-3pm", "tomorrow at 3pm", D(2026, 12, 1), T(15)),
    case("pt-amanha-dec31", "amanhã", D(2027, 1, 1), None, "dec31"),
    case("en-day-after-dec31", "the day after tomorrow", D(2027, 1, 2), None, "dec31"),
]

WEEKDAYS = [
    case("pt-segunda-today", "segunda", D(2026, 11, 30), None),
    case("pt-segunda-time-ahead", "segunda às 10h", D(2026, 11, 30), T(10)),
    case("pt-segunda-time-past", "segunda às 8h", D(2026, 12, 7), T(8)),
    case("pt-segunda-same-minute", "segunda 9:15", D(2026, 12, 7), T(9, 15)),
    case("pt-segunda-feira", "segunda-feira", D(2026, 11, 30), None),
    case("pt-proxima-segunda", "próxima segunda", D(2026, 12, 7), None),
    case("pt-segunda-que-vem", "segunda que vem", D(2026, 12, 7), None),
    case("pt-terca", "terça", D(2026, 12, 1), None),
    case("pt-terca-feira", "terça-feira", D(2026, 12, 1), None),
    case("pt-terca-feira-spaced", "terca feira 14h", D(2026, 12, 1), T(14)),
    case("pt-proxima-terca", "próxima terça", D(2026, 12, 1), None),
    case("pt-proxima-terca-noaccent", "proxima terca as 15", D(2026, 12, 1), T(15)),
    case("pt-na-quarta", "na quarta", D(2026, 12, 2), None),
    case("pt-nesta-quinta", "nesta quinta às 16h", D(2026, 12, 3), T(16)),
    case("pt-essa-sexta", "essa sexta", D(2026, 12, 4), None),
    case("pt-sabado", "sábado", D(2026, 12, 5), None),
    case("pt-sabado-no-accent", "no sabado 10h", D(2026, 12, 5), T(10)),
    case("pt-domingo", "domingo", D(2026, 12, 6), None),
    case("pt-domingo-on-sunday", "domingo", D(2026, 11, 29), None, "sun"),
    case("pt-proximo-domingo-on-sunday", "próximo domingo", D(2026, 12, 6), None, "sun"),
    case("pt-proxima-segunda-on-sunday", "próxima segunda", D(2026, 11, 30), None, "sun"),
    case("pt-segunda-on-sunday", "segunda", D(2026, 11, 30), None, "sun"),
    case("en-monday-today", "monday", D(2026, 11, 30), None),
    case("en-monday-past-time", "Monday at 9am", D(2026, 12, 7), T(9)),
    case("en-monday-ahead-time", "Monday at 10am", D(2026, 11, 30), T(10)),
    case("en-next-monday", "next Monday", D(2026, 12, 7), None),
    case("en-next-tuesday", "next Tuesday", D(2026, 12, 1), None),
    case("en-this-tuesday", "this tuesday", D(2026, 12, 1), None),
    case("en-on-friday", "on friday", D(2026, 12, 4), None),
    case("en-saturday-3pm", "Saturday 3pm", D(2026, 12, 5), T(15)),
    case("en-next-monday-on-sunday", "next monday", D(2026, 11, 30), None, "sun"),
    case("en-sunday-on-sunday", "sunday", D(2026, 11, 29), None, "sun"),
    case("en-monday-next-week", "monday next week", D(2026, 12, 7), None),
    case("en-friday-dec31", "friday", D(2027, 1, 1), None, "dec31"),
    case("pt-sab-abbrev", "sáb 10h", D(2026, 12, 5), T(10)),
    case("en-fri-abbrev", "Fri 2pm", D(2026, 12, 4), T(14)),
    case("pt-ter-is-a-verb", "quero ter o cabelo curto", None, None),
]

NUMERIC = [
    case("pt-dia-5", "dia 5", D(2026, 12, 5), None),
    case("pt-dia-30-today", "dia 30", D(2026, 11, 30), None),
    case("pt-dia-29-past", "dia 29", D(2026, 12, 29), None),
    case("pt-dia-1-past", "no dia 1", D(2026, 12, 1), None),
    case("pt-dia-31-missing-this-month", "dia 31", D(2026, 12, 31), None),
    case("pt-dia-5-dec31-rollover", "dia 5", D(2027, 1, 5), None, "dec31"),
    case("pt-dia-31-dec31", "dia 31", D(2026, 12, 31), None, "dec31"),
    case("pt-dia-30-jan31-feb-has-none", "dia 30", None, None, "jan31"),
    case("pt-dia-28-jan31", "dia 28", D(2027, 2, 28), None, "jan31"),
    case("pt-dia-32-invalid", "dia 32", None, None),
    case("pt-dia-0-invalid", "dia 0", None, None),
    case("pt-dia-05-12", "dia 05/12", D(2026, 12, 5), None),
    case("pt-5-12", "5/12", D(2026, 12, 5), None),
    case("pt-05-12-2026", "05/12/2026", D(2026, 12, 5), None),
    case("pt-05-12-26", "05/12/26", D(2026, 12, 5), None),
    case("pt-5-1-rollover", "5/1", D(2027, 1, 5), None),
    case("pt-30-11-today", "30/11", D(2026, 11, 30), None),
    # A recently passed date is that date (refused as past), never silently next year.
    case("pt-29-11-recent-past", "29/11", D(2026, 11, 29), None),
    case("pt-31-02-invalid", "31/02", None, None),
    case("pt-29-02-no-leap", "29/02", None, None),
    case("pt-13-13-invalid", "13/13", None, None),
    case("pt-explicit-past-year", "05/12/2025", D(2025, 12, 5), None),
    case("pt-future-year", "10/03/2028", D(2028, 3, 10), None),
    case("pt-5-12-as-15h", "5/12 às 15h", D(2026, 12, 5), T(15)),
    case("pt-25-12-swapped-en", "25/12", D(2026, 12, 25), None),
    case("en-12-5-two-readings-asked", "on 12/5 at 10am", None, T(10)),
    case("en-1-5-two-readings-asked", "can I book 1/5 please", None, None),
    case("en-12-12-one-reading", "on 12/12 at 10am", D(2026, 12, 12), T(10)),
    case("en-25-12-day-first-fallback", "book 25/12 please", D(2026, 12, 25), None),
    case("en-on-the-5th", "on the 5th", D(2026, 12, 5), None),
    case("en-the-1st", "the 1st at noon", D(2026, 12, 1), T(12)),
    case("en-the-30th-today", "the 30th", D(2026, 11, 30), None),
]

MONTH_NAMES = [
    case("pt-5-de-dezembro", "5 de dezembro", D(2026, 12, 5), None),
    case("pt-dia-5-de-dezembro", "dia 5 de dezembro às 14h", D(2026, 12, 5), T(14)),
    case("pt-1-de-marco", "1º de março", D(2027, 3, 1), None),
    case("pt-15-de-janeiro-2027", "15 de janeiro de 2027", D(2027, 1, 15), None),
    case("pt-10-de-novembro-past", "10 de novembro", D(2026, 11, 10), None),
    case("pt-10-de-agosto-long-past", "10 de agosto", D(2027, 8, 10), None),
    case("pt-31-de-fevereiro", "31 de fevereiro", None, None),
    case("pt-abbrev-dez", "5 de dez", D(2026, 12, 5), None),
    case("en-dec-5", "Dec 5", D(2026, 12, 5), None),
    case("en-dec-dot-5", "dec. 5 at 4pm", D(2026, 12, 5), T(16)),
    case("en-december-5th", "December 5th", D(2026, 12, 5), None),
    case("en-5-december", "5 December", D(2026, 12, 5), None),
    case("en-5th-of-december", "the 5th of December", D(2026, 12, 5), None),
    case("en-jan-3-rollover", "January 3rd", D(2027, 1, 3), None),
    case("en-may-2", "May 2", D(2027, 5, 2), None),
    case("en-december-5-2026", "December 5, 2026", D(2026, 12, 5), None),
    case("en-feb-30", "Feb 30", None, None),
]

TIMES = [
    case("pt-as-10h", "às 10h", None, T(10)),
    case("pt-10h", "10h", None, T(10)),
    case("pt-10h30", "10h30", None, T(10, 30)),
    case("pt-10h-30-spaced", "10h 30", None, T(10, 30)),
    case("pt-10-30-colon", "10:30", None, T(10, 30)),
    case("pt-as-15", "às 15", None, T(15)),
    case("pt-as-15-no-accent", "as 15", None, T(15)),
    case("pt-as-3-heuristic", "às 3", None, T(15)),
    case("pt-as-7-heuristic", "às 7", None, T(19)),
    case("pt-as-8-as-written", "às 8", None, T(8)),
    case("pt-as-07h-leading-zero", "às 07h", None, T(7)),
    case("pt-as-3-horas", "às 3 horas", None, T(15)),
    case("pt-3-horas-da-tarde", "3 horas da tarde", None, T(15)),
    case("pt-14hrs", "14hrs", None, T(14)),
    case("pt-3-da-tarde", "3 da tarde", None, T(15)),
    case("pt-9-da-manha", "9 da manhã", None, T(9)),
    case("pt-8-da-noite", "8 da noite", None, T(20)),
    case("pt-as-4-da-tarde", "às 4 da tarde", None, T(16)),
    case("pt-meio-dia", "meio-dia", None, T(12)),
    case("pt-meio-dia-spaced", "meio dia", None, T(12)),
    case("pt-meio-dia-e-meia", "meio dia e meia", None, T(12, 30)),
    case("pt-10-e-meia", "às 10 e meia", None, T(10, 30)),
    case("pt-pelas-11", "lá pelas 11", None, T(11)),
    # "a partir das 14" is where the times start (When.window), not a time to book.
    case("pt-a-partir-das-14", "a partir das 14", None, None),
    case("pt-25h-invalid", "25h", None, None),
    case("pt-10h75-invalid", "10h75", None, None),
    case("pt-as-24-invalid", "às 24", None, None),
    case("pt-0h", "0h", None, T(0)),
    case("pt-23-59", "23:59", None, T(23, 59)),
    case("en-at-10", "at 10", None, T(10)),
    case("en-at-3-heuristic", "at 3", None, T(15)),
    case("en-10am", "10am", None, T(10)),
    case("en-10-am", "10 am", None, T(10)),
    case("en-10-a-m", "10 a.m.", None, T(10)),
    case("en-3pm", "3pm", None, T(15)),
    case("en-3-30-pm", "3:30 pm", None, T(15, 30)),
    case("en-3-30-heuristic", "3:30", None, T(15, 30)),
    case("en-12pm", "12pm", None, T(12)),
    case("en-12am", "12am", None, T(0)),
    case("en-13pm-invalid", "13pm", None, None),
    case("en-15-00", "15:00", None, T(15)),
    case("en-noon", "noon", None, T(12)),
    case("en-midnight", "midnight", None, T(0)),
    case("en-7-in-the-evening", "7 in the evening", None, T(19)),
    case("en-9-in-the-morning", "9 in the morning", None, T(9)),
    case("en-at-sign", "@ 4pm", None, T(16)),
]

NOT_TIMES = [
    case("price-reais", "R$ 50", None, None),
    case("price-reais-cents", "custa R$ 50,00?", None, None),
    case("price-dollars", "is it $30", None, None),
    case("count-people", "2 pessoas", None, None),
    case("count-cuts", "quero 3 cortes", None, None),
    case("count-people-en", "for 2 people", None, None),
    case("as-2-opcoes", "quais as 2 opções?", None, None),
    case("at-3-people", "a table at 3 people", None, None),
    case("bare-number", "10", None, None),
    case("bare-number-sentence", "tenho 30 anos", None, None),
    case("percent", "desconto de 10%", None, None),
    case("duration-horas", "demora 2 horas?", None, None),
    case("duration-hora", "leva 1 hora", None, None),
    case("phone", "meu telefone 11 99999-0000", None, None),
    case("greeting-bom-dia", "bom dia", None, None),
    case("greeting-boa-tarde", "boa tarde", None, None),
    case("segunda-opcao-ordinal", "a segunda opção", None, None),
    case("empty", "", None, None),
    case("may-verb", "may I book?", None, None),
]

COMBINED = [
    case(
        "pt-full-sentence", "Quero marcar um corte amanhã às 15h com a Ana", D(2026, 12, 1), T(15)
    ),
    case("pt-price-and-time", "R$ 50 às 10h amanhã", D(2026, 12, 1), T(10)),
    case("pt-people-and-date", "2 pessoas dia 5 às 9", D(2026, 12, 5), T(9)),
    case("pt-time-before-date", "10h na sexta", D(2026, 12, 4), T(10)),
    case("pt-dia-5-de-manha", "dia 5 de manhã", D(2026, 12, 5), None),
    case(
        "en-full-sentence", "Can I book a haircut next Friday at 2:30pm?", D(2026, 12, 4), T(14, 30)
    ),
    case("en-date-and-noon", "December 5th at noon", D(2026, 12, 5), T(12)),
    case("pt-first-date-wins", "amanhã ou sexta", D(2026, 12, 1), None),
]

ALL = RELATIVE + WEEKDAYS + NUMERIC + MONTH_NAMES + TIMES + NOT_TIMES + COMBINED


@pytest.mark.parametrize(("text", "now", "day", "at"), ALL)
def test_parse_when(text: str, now: str, day: date | None, at: time | None) -> None:
    result = parse_when(text, NOWS[now])
    assert (result.day, result.at) == (day, at)


@pytest.mark.parametrize(
    ("text", "day_text"),
    [
        ("quero amanhã às 10h", "amanhã"),
        ("pode ser na próxima terça-feira?", "próxima terça-feira"),
        ("dia 05/12 às 9", "dia 05/12"),
        ("Depois de Amanhã", "Depois de Amanhã"),
        ("next Tuesday at 3pm", "next Tuesday"),
        ("on the 5th please", "on the 5th"),
        ("5 de dezembro", "5 de dezembro"),
        ("às 10h", ""),
    ],
)
def test_day_text_echoes_the_customers_words(text: str, day_text: str) -> None:
    assert parse_when(text, MON).day_text == day_text


def test_invalid_date_still_reports_what_was_said() -> None:
    assert parse_when("31/02 às 10h", MON) == When(day=None, at=T(10), day_text="31/02")


def test_when_is_frozen_value() -> None:
    assert When(day=None, at=None) == When(day=None, at=None, day_text="")
    with pytest.raises(AttributeError):
        When(day=None, at=None).day_text = "x"  # type: ignore[misc]


def test_other_zone_uses_local_date() -> None:
    tokyo = datetime(2026, 12, 1, 0, 30, tzinfo=ZoneInfo("Asia/Tokyo"))
    assert parse_when("amanhã", tokyo).day == D(2026, 12, 2)


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("hoje à noite às 8", T(20)),
        ("amanhã à tarde às 2h", T(14)),
        ("this evening at 6:30", T(18, 30)),
        ("tonight at 10am", T(10)),
        ("amanhã de manhã às 8", T(8)),
        ("amanhã à tarde às 15h", T(15)),
    ],
)
def test_afternoon_words_move_morning_hours(text: str, at: time) -> None:
    assert parse_when(text, MON).at == at


@pytest.mark.parametrize("hour", range(9, 21))
@pytest.mark.parametrize("form", ["el de las {}", "quiero el de las {} del viernes", "o das {}",
                                  "pode ser o das {} na sexta"])  # fmt: skip
def test_the_hours_article_after_de_is_a_clock_time(form: str, hour: int) -> None:
    """ "el de las 16" (Spanish) and "o das 14" (Portuguese): the one at that hour."""
    assert parse_when(form.format(hour), MON).at == time(hour)
