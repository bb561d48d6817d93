"""The offline model on phrasings the WhatsApp eval set (eval/whatsapp.py) showed it missed:
each category as a table, written failing before the fix.

Categories: WhatsApp abbreviations and English clock phrases; corrections that negate an
earlier value ("com o lucas não, com o pedro", "sexta não, sábado", "not Pedro, Lucas");
"any barber"; which of several appointments the customer means (by service alias,
professional, day — and ambiguity asks instead of guessing); a move's old day vs its new one.
"""

from __future__ import annotations

from datetime import date, datetime, time
from uuid import uuid4
from zoneinfo import ZoneInfo

import pytest

from agent_service.application.faq_ranking import rank
from agent_service.domain.catalog import FaqEntry
from agent_service.infrastructure.agent.offline.appointments_flow import (
    choose,
    move_parts,
    new_time,
)
from agent_service.infrastructure.agent.offline.availability_flow import date_range, wants_anyone
from agent_service.infrastructure.agent.offline.booking_flow import is_aside
from agent_service.infrastructure.agent.offline.catalog import AppointmentInfo, appointments
from agent_service.infrastructure.agent.offline.corrections import affirmed
from agent_service.infrastructure.agent.offline.intents import classify_intent
from agent_service.infrastructure.agent.offline.nlu import parse_when
from agent_service.infrastructure.agent.offline.when import loose_time, shift
from tests.agent_service.offline_results import appointment, listed

SP = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=SP)  # Monday
MON, TUE, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in (1, 3, 4, 5)))


@pytest.mark.parametrize(
    ("text", "day", "at"),
    [
        ("consigo um corte hj 14:30", MON, time(14, 30)),
        ("hj as 3", MON, time(15)),
        ("beard on Friday at half past two", FRI, time(14, 30)),
        ("half past ten am tomorrow", TUE, time(10, 30)),
        ("quarter past 4 on thursday", THU, time(16, 15)),
        ("quarter to 11 tmrw", TUE, time(10, 45)),
    ],
)
def test_whatsapp_abbreviations_and_english_clock_phrases(text: str, day: date, at: time) -> None:
    when = parse_when(text, NOW)
    assert (when.day, when.at) == (day, at)


@pytest.mark.parametrize(
    ("text", "kept", "dropped"),
    [
        ("com o lucas nao, com o pedro", "pedro", "lucas"),
        ("com o Lucas não, com o Pedro", "Pedro", "Lucas"),
        ("not Pedro, Lucas please", "Lucas", "Pedro"),
        ("pera, sexta nao, sabado", "sabado", "sexta"),
        ("não é sexta, é sábado", "sábado", "sexta"),
        ("sexta não dá, pode ser sábado?", "sábado", "sexta"),
        ("no, not friday - saturday", "saturday", "friday"),
        ("nao, melhor as 15h", "15h", "nao"),
        ("no wait, 5pm is better", "5pm", "wait"),
    ],
)
def test_a_correction_keeps_the_new_value_and_drops_the_negated_one(
    text: str, kept: str, dropped: str
) -> None:
    left = affirmed(text)
    assert kept in left and dropped not in left, left


def test_a_correction_moves_the_day_it_names() -> None:
    assert parse_when(affirmed("pera, sexta nao, sabado"), NOW).day == SAT
    assert parse_when(affirmed("nao, melhor as 15h"), NOW).at == time(15)


def test_text_without_a_negation_is_kept_whole() -> None:
    for text in ("marca barba com o lucas quinta 11h", "any barber is fine", "sim"):
        assert affirmed(text) == text


@pytest.mark.parametrize(
    ("text", "anyone"),
    [
        ("quero um corte hoje as 15h, qualquer barbeiro", True),
        ("qualquer barbeira serve", True),
        ("any barber is fine, haircut today at 3pm", True),
        ("any stylist", True),
        ("tanto faz o barbeiro", True),
        ("qualquer horario serve", False),
        ("any time tomorrow", False),
        ("qualquer dia da semana", False),
    ],
)
def test_any_professional_in_the_trades_words(text: str, anyone: bool) -> None:
    assert wants_anyone([text]) is anyone


_ID = "00000000-0000-0000-0000-0000000000{:02d}"


LISTED = listed(
    appointment(1, "Corte social", "Lucas Almeida", datetime(2026, 12, 1, 10, tzinfo=SP),
                ("corte", "haircut", "cabelo")),
    appointment(2, "Corte social", "Pedro Santos", datetime(2026, 12, 5, 11, tzinfo=SP),
                ("corte", "haircut", "cabelo")),
    appointment(3, "Esmaltação em gel", "Fernanda Oliveira", datetime(2026, 12, 3, 15, tzinfo=SP),
                ("unha em gel", "gel nails")),
)  # fmt: skip


def test_the_appointment_line_reads_back_with_the_service_aliases() -> None:
    found = appointments(LISTED)
    assert [a.service for a in found] == ["Corte social", "Corte social", "Esmaltação em gel"]
    assert found[2].aliases == ("unha em gel", "gel nails")
    assert found[0].day == TUE


@pytest.mark.parametrize(
    ("texts", "chosen"),
    [
        (["quero cancelar o corte de sabado"], 1),
        (["o de sabado", "quero cancelar meu corte"], 1),
        (["cancela o horario com a fernanda"], 2),
        (["remarca minha unha"], 2),
        (["cancel my nails appointment"], 2),
        (["can you move my saturday haircut"], 1),
        (["o corte com o lucas"], 0),
        (["o segundo"], 1),
        (["cancela meu corte"], None),  # two cuts: ask which, never guess
        (["cancel my appointment"], None),
        (["cancela a barba"], None),  # no beard appointment: ask, never another one
    ],
)
def test_which_of_several_appointments(texts: list[str], chosen: int | None) -> None:
    found = appointments(LISTED)
    picked = choose(texts, found, NOW)
    assert (found.index(picked) if picked else None) == chosen


def test_a_single_appointment_is_chosen_unless_the_words_describe_another() -> None:
    one: list[AppointmentInfo] = appointments(LISTED)[:1]
    assert choose(["quero cancelar"], one, NOW) == one[0]
    assert choose(["cancela o de sabado"], one, NOW) is None  # it is on Tuesday


@pytest.mark.parametrize(
    ("text", "old_day", "new_day", "new_at"),
    [
        ("da pra passar meu corte de terca pra quinta as 16h?", TUE, THU, time(16)),
        ("can you move my saturday haircut to friday at 11am?", SAT, FRI, time(11)),
        ("preciso remarcar meu corte para sexta as 16h", None, FRI, time(16)),
        ("remarca minha unha pra sexta 10h", None, FRI, time(10)),
        ("quinta as 17h", None, THU, time(17)),
    ],
)
def test_a_move_names_the_old_day_before_the_new_one(
    text: str, old_day: date | None, new_day: date, new_at: time
) -> None:
    old, new = move_parts(text)
    assert parse_when(old, NOW).day == old_day
    when = parse_when(new, NOW)
    assert (when.day, when.at) == (new_day, new_at)


@pytest.mark.parametrize(
    "text",
    [
        "da pra passar meu corte de terca pra quinta as 16h?",
        "quero mudar meu corte pra sexta",
        "can you move my saturday haircut to friday at 11am?",
        "consigo passar a manicure de quinta pra sexta 11h?",
    ],
)
def test_moving_an_existing_appointment_is_an_appointments_request(text: str) -> None:
    assert classify_intent(text)[0] == "appointments"


def test_passing_by_to_book_is_still_a_booking() -> None:
    assert classify_intent("consigo passar ai amanha pra fazer a barba?")[0] == "booking"


@pytest.mark.parametrize(
    ("text", "aside"),
    [
        ("nossa ta calor hj ne", True),
        ("amanha tenho prova mas tudo bem", True),
        ("e hoje?", False),  # a question: it is meant
        ("pode ser hoje a tarde entao", False),  # a word of change
        ("hoje as 15h entao pode ser", False),  # a time
        ("quinta de manha por favor obrigado", False),  # a weekday is always meant
    ],
)
def test_today_or_tomorrow_said_in_passing_does_not_move_a_request(text: str, aside: bool) -> None:
    assert is_aside(text) is aside


FAQ = [
    ("Onde fica a barbearia?", "Av. Brasil, 900.", ("endereço", "address", "where", "onde")),
    ("Tem estacionamento?", "Zona azul na rua.", ("estacionamento", "parking", "park")),
    ("Qual o horário?", "9h às 19h.", ("horário", "hours", "open")),
]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("where are you guys?", "Onde fica a barbearia?"),
        ("onde vcs ficam?", "Onde fica a barbearia?"),
        ("Where can I park?", "Tem estacionamento?"),  # "where" alone only when nothing else
        ("onde eu estaciono?", "Tem estacionamento?"),
    ],
)
def test_a_where_question_with_no_other_word_finds_the_address(question: str, answer: str) -> None:
    entries = [FaqEntry(tenant_id=uuid4(), question=q, answer=a, tags=t) for q, a, t in FAQ]
    assert [e.question for e in rank(question, entries, 1)] == [answer]


@pytest.mark.parametrize(
    ("text", "day", "alternative"),
    [
        ("terça que vem às 16h", TUE, date(2026, 12, 8)),
        ("next Friday at 11am", FRI, date(2026, 12, 11)),
        ("na proxima sexta", FRI, date(2026, 12, 11)),
        ("próxima segunda", date(2026, 12, 7), None),  # today is Monday: only one reading
        ("sexta", FRI, None),
        ("terça da semana que vem", date(2026, 12, 8), None),
        ("friday next week", date(2026, 12, 11), None),
    ],
)
def test_next_weekday_within_the_week_has_another_reading(
    text: str, day: date, alternative: date | None
) -> None:
    when = parse_when(text, NOW)
    assert (when.day, when.alternative) == (day, alternative)


async def test_availability_without_a_service_asks_only_when_lengths_differ() -> None:
    """check_availability with no service: a professional whose services differ in length
    gets ASK SERVICE (never the shortest silently); equal lengths answer at once."""
    from types import SimpleNamespace
    from typing import Any, cast

    from agent_service.bootstrap import wire_booking
    from agent_service.infrastructure.agent.deps import TurnState
    from agent_service.infrastructure.agent.tools.discovery import check_availability
    from agent_service.infrastructure.agent.tools.results import AskService, FreeTimes
    from eval.harness import NOW as EVAL_NOW
    from eval.harness import seed_salon
    from tests.fakes.agent_repositories import in_memory_repositories
    from tests.fakes.in_memory_calendar import InMemoryCalendar

    repos = in_memory_repositories()
    calendar = InMemoryCalendar(clock=lambda: EVAL_NOW)
    salon = await seed_salon(repos)
    deps = SimpleNamespace(
        tenant_id=salon.tenant.id,
        tenant=salon.tenant,
        professional_repository=repos.professionals,
        service_repository=repos.services,
        booking=wire_booking(repos, calendar, lambda: EVAL_NOW),
        turn=TurnState(now=EVAL_NOW, language="en"),
    )
    ctx = cast(Any, SimpleNamespace(deps=deps))
    julia, paulo = salon.professionals["ana"], salon.professionals["paulo"]  # 60+30 / 30 min
    asked = await check_availability(ctx, julia.id, FRI)
    assert isinstance(asked, AskService) and asked.professional == "Júlia Prado", asked
    assert {(o.name, o.minutes) for o in asked.options} == {
        ("Corte e escova", 60),
        ("Hidratação capilar", 30),
    }
    answered = await check_availability(ctx, paulo.id, FRI)
    assert isinstance(answered, FreeTimes) and answered.days[0].professional == "Paulo Reis"
    assert "09:00" in answered.days[0].times
    chosen = await check_availability(ctx, julia.id, FRI, salon.services["corte"].id)
    assert isinstance(chosen, FreeTimes) and chosen.days[0].service == "Corte e escova"
    assert (chosen.days[0].minutes, chosen.days[0].times[0]) == (60, "09:00")


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("quais horarios a Ana tem semana que vem?", (date(2026, 12, 7), date(2026, 12, 12))),
        ("any times next week?", (date(2026, 12, 7), date(2026, 12, 12))),
        ("tem horario na proxima semana?", (date(2026, 12, 7), date(2026, 12, 12))),
        ("e no fim de semana?", (SAT, date(2026, 12, 6))),
        ("anything this weekend?", (SAT, date(2026, 12, 6))),
        ("tem algo ate sexta?", (MON, FRI)),
        ("free slots until Thursday?", (MON, THU)),
        ("between Monday and Wednesday", (date(2026, 11, 30), date(2026, 12, 2))),
        ("nos proximos dias", (MON, date(2026, 12, 3))),
        ("in the next few days", (MON, date(2026, 12, 3))),
        ("essa semana", (MON, SAT)),
        ("terça da semana que vem", None),  # one day, not a range
        ("sexta", None),
    ],
)
def test_date_ranges_in_customer_words(text: str, span: tuple[date, date] | None) -> None:
    assert date_range(text, MON) == span


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("tem como ser 10 e meia?", time(10, 30)),
        ("hmm make it 11 instead", time(11)),
        ("make it 3", time(15)),
        ("pode ser 9?", time(9)),
        ("2 pessoas", None),
        ("dia 5", None),
        ("R$ 50", None),
        ("5/12", None),
        ("the 12th", None),
    ],
)
def test_a_bare_number_in_a_correction_is_a_time(text: str, at: time | None) -> None:
    assert loose_time(text) == at


def test_vcs_abrem_domingo_finds_the_opening_hours() -> None:
    entries = [
        FaqEntry(tenant_id=uuid4(), question=q, answer=a, tags=t)
        for q, a, t in (
            ("Qual o horário de funcionamento?", "Segunda a sábado, das 9h às 19h.",
             ("horário", "funcionamento", "abre", "fecha", "hours", "open", "close")),
            ("Onde fica?", "Av. Brasil, 900.", ("endereço", "onde")),
        )
    ]  # fmt: skip
    assert [e.question for e in rank("vcs abrem domingo?", entries, 1)] == [
        "Qual o horário de funcionamento?"
    ]


@pytest.mark.parametrize(
    ("text", "day", "at"),
    [
        ("quero remarcar minha barba pra quinta no mesmo horario", THU, time(10)),
        ("reschedule my 10am to 2pm same day", TUE, time(14)),
        ("move it to friday at the same time", FRI, time(10)),
        ("remarca pra sexta", FRI, None),  # no time: asked
    ],
)
def test_same_time_or_same_day_keeps_the_appointments_own(
    text: str, day: date, at: time | None
) -> None:
    chosen = appointments(LISTED)[0]  # Tuesday 10:00
    assert new_time(text, chosen, NOW) == (day, at)


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("pode ser 1 hora mais tarde?", 60),
        ("meia hora mais cedo", -30),
        ("an hour later please", 60),
        ("half an hour earlier", -30),
        ("2h depois", 120),
        ("30 min later", 30),
        ("amanha as 10", None),
        ("demora 1 hora?", None),
    ],
)
def test_a_relative_change_of_the_time(text: str, minutes: int | None) -> None:
    moved = shift(text)
    assert (moved.total_seconds() // 60 if moved is not None else None) == minutes


def test_batch5_phrasings() -> None:
    from agent_service.infrastructure.agent.offline.intents import is_affirmative
    from agent_service.infrastructure.agent.offline.matching import best_match_group

    assert is_affirmative("fechou") and is_affirmative("demorou")
    assert classify_intent("quero falar c alguem da recepcao")[0] == "handoff"
    groups = [("Corte social", "corte"), ("Barba completa", "barba"), ("Depilação de pernas",)]
    assert best_match_group("quero cortar com o pedro", groups) == 0
    assert best_match_group("quero depilar", groups) == 2
    assert best_match_group("quero marcar", groups) is None
    assert parse_when("beard trim w Lucas sat 11am", NOW).day == SAT
    assert parse_when("I sat there for hours", NOW).day is None


def test_after_a_time_is_where_the_times_start() -> None:
    def start(text: str) -> time | None:
        when = parse_when(text, NOW)
        assert when.window is None or when.at is None  # a window edge is no time to book
        return when.window.start if when.window else None

    assert start("qualquer horario depois das 16h na quarta") == time(16)
    assert start("anything after 3pm on friday?") == time(15)
    assert start("a partir das 10h30") == time(10, 30)
    assert start("corte amanha as 16h") is None
