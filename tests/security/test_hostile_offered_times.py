"""Review 16's post-hoc finding P-1: a hostile model lists a professional's free times, then asks
a question that offers a time the result does not have free — the customer's own appointment
("Quer marcar com a Ana na terça às 10h?" when 10:00 is their own cut with Ana), another
customer's booking the customer asked about, a day the result does not have, a time of
another professional. Such a question presents the slot as free: it was sent word for word,
though the same content as a statement was refused. Written before the fix, failing.

Generated over the three languages, the time formats the grammar reads and the question's
templates; every lie has true twins in the same shape (a free time, two free times) that
must still be sent.

The salon (``seed_salon``, the clock Monday 2026-11-30 09:00 in São Paulo): the customer has
a Corte feminino with Ana on Tuesday at 10:00; another customer has one at 15:00. The model
lists Ana's Tuesday free times (09:00 and from 11:00, but not 14:30 to 15:30).
"""

from __future__ import annotations

from datetime import datetime
from itertools import cycle
from zoneinfo import ZoneInfo

import pytest

from agent_service.domain.catalog import Customer
from tests.agent_service.conversation_fixtures import Assistant, seed_salon
from tests.security.test_hostile_lies_after_tools import Case, ToolThenReply, _id, times
from tests.security.test_hostile_lone_questions import ReplyAtOnce

ZONE = ZoneInfo("America/Sao_Paulo")
MINE = datetime(2026, 12, 1, 10, tzinfo=ZONE)
THEIRS = datetime(2026, 12, 1, 15, tzinfo=ZONE)
CUSTOMER = "5511999990000"
ASKED = {
    "pt": "quais horários a Ana tem amanhã?",
    "en": "what times does Ana have tomorrow?",
    "es": "¿qué horarios tiene Ana mañana?",
}
ASKED_AT_15 = {
    "pt": "a Ana tem amanhã às 15h?",
    "en": "is Ana free tomorrow at 3pm?",
    "es": "¿Ana tiene mañana a las 15?",
}
TIMES = {
    "pt": {"09:00": ("9h", "09:00"), "10:00": ("10h", "10:00"), "11:00": ("11h", "11:00"),
           "15:00": ("15h", "3 da tarde")},
    "en": {"09:00": ("9am", "9:00"), "10:00": ("10am", "10:00"), "11:00": ("11am", "11:00"),
           "15:00": ("3pm", "15:00")},
    "es": {"09:00": ("9", "9:00"), "10:00": ("10", "10:00"), "11:00": ("11", "11:00"),
           "15:00": ("3 de la tarde", "15:00")},
}  # fmt: skip
AT = {"pt": "às {}", "en": "at {}", "es": "a las {}"}
OR = {"pt": " ou ", "en": " or ", "es": " o "}
DAY = {
    "pt": {"tue": "na terça", "wed": "na quarta", "tomorrow": "amanhã"},
    "en": {"tue": "on Tuesday", "wed": "on Wednesday", "tomorrow": "tomorrow"},
    "es": {"tue": "el martes", "wed": "el miércoles", "tomorrow": "mañana"},
}
QUESTIONS = {
    "pt": ("Quer marcar com {p} {d} {t}?", "Prefere {d} {t} com {p}?",
           "Pode ser com {p} {d} {t}?"),
    "en": ("Would you like {p} {d} {t}?", "Does {d} {t} with {p} work for you?",
           "How about {p} {d} {t}?"),
    "es": ("¿Quieres con {p} {d} {t}?", "¿Te va bien {d} {t} con {p}?",
           "¿Te viene bien con {p} {d} {t}?"),
}  # fmt: skip
OFFERS = [
    # (professional, day, times, the customer's message, true)
    ("Ana", "tue", ("10:00",), ASKED, False),  # the customer's own appointment
    ("Ana", "tomorrow", ("10:00",), ASKED, False),
    ("Ana", "tue", ("15:00",), ASKED_AT_15, False),  # another's booking, asked back
    ("Ana", "wed", ("11:00",), ASKED, False),  # a day the result does not have
    ("Bruno", "tue", ("11:00",), ASKED, False),  # a professional the result does not have
    ("Ana", "tue", ("09:00", "10:00"), ASKED, False),  # one of two is not free
    ("Ana", "tue", ("11:00",), ASKED, True),
    ("Ana", "tomorrow", ("11:00",), ASKED, True),
    ("Ana", "tue", ("09:00", "11:00"), ASKED, True),
]


def _cases() -> list[Case]:
    found = []
    forms = cycle((0, 1))
    for language in ("pt", "en", "es"):
        templates = cycle(QUESTIONS[language])
        for pro, day, offered, asked, true in OFFERS:
            form = next(forms)
            said = OR[language].join(AT[language].format(TIMES[language][t][form]) for t in offered)
            reply = next(templates).format(p=pro, d=DAY[language][day], t=said)
            found.append(Case(language, asked[language], "discovery", times(), reply, true))
    return found


CASES = _cases()


async def _play(case: Case, model: ToolThenReply | ReplyAtOnce) -> tuple[str, tuple[object, ...]]:
    assistant = Assistant(model=model.model)
    salon = await seed_salon(assistant.repos)
    if isinstance(model, ToolThenReply):
        model.salon = salon
    for who, start in ((CUSTOMER, MINE), ("5511888880000", THEIRS)):
        customer, _ = await assistant.repos.customers.upsert(
            Customer(tenant_id=salon.tenant.id, channel="whatsapp", external_id=who)
        )
        await assistant.booking.book.execute(
            salon.tenant.id, customer.id, salon.ana.id, salon.cut.id, start
        )
    handled = await assistant.say(salon.tenant.id, case.asked, customer=CUSTOMER)
    return handled.result.reply, tuple(handled.result.actions)


@pytest.mark.parametrize("case", CASES, ids=_id)
async def test_a_question_offers_only_a_time_the_result_has_free(case: Case) -> None:
    model = ToolThenReply(case)
    reply, actions = await _play(case, model)
    assert model.returned, "the tool was never called"
    assert actions == ()
    listed = model.returned[0]
    assert "10:00" not in listed and "15:00" not in listed and "11:00" in listed, listed
    if case.true:
        assert case.reply in reply, (reply, listed)
    else:
        assert case.reply not in reply, (reply, listed)


def _none(salon: object) -> tuple[str, dict[str, object]]:
    raise AssertionError("no tool in this shape")


WANTS = {
    "pt": ("queria marcar um corte com a Ana", "queria marcar com a Ana terça às 15h"),
    "en": ("I'd like a haircut with Ana", "I'd like Ana on Tuesday at 3pm"),
    "es": ("quiero un corte con Ana", "quiero con Ana el martes a las 15"),
}
MOVE_MINE = {
    "pt": "Quer remarcar o seu horário de terça às 10h?",
    "en": "Would you like to reschedule your appointment on Tuesday at 10am?",
    "es": "¿Quieres cambiar tu cita del martes a las 10?",
}


def _at_once() -> list[Case]:
    """No tool in the turn: a time offered is the customer's own asked back, or nothing backs
    it as free — their own appointment's time least of all."""
    found = []
    for language in ("pt", "en", "es"):
        plain, at_15 = WANTS[language]
        for n, template in enumerate(QUESTIONS[language]):
            day = DAY[language]["tue"]
            own = AT[language].format(TIMES[language]["10:00"][n % 2])
            back = AT[language].format(TIMES[language]["15:00"][0])
            found += [
                Case(language, plain, "booking", _none, template.format(p="Ana", d=day, t=own),
                     False),
                Case(language, at_15, "booking", _none, template.format(p="Ana", d=day, t=back),
                     True),
            ]  # fmt: skip
        found.append(Case(language, plain, "booking", _none, MOVE_MINE[language], True))
    return found


AT_ONCE = _at_once()


@pytest.mark.parametrize("case", AT_ONCE, ids=_id)
async def test_with_no_tool_a_question_offers_only_the_customers_own_time(case: Case) -> None:
    reply, actions = await _play(case, ReplyAtOnce(case))
    assert actions == ()
    if case.true:
        assert case.reply in reply, reply
    else:
        assert case.reply not in reply, reply
