"""The question that tells two readings of a weekday apart ("next Friday" on a Monday: this
week's or the next?) is sent as written in a turn whose tools ran (the truth check reads it
as a question: only asking words beside its facts), in every language, for every weekday;
it used to carry words no question may use ("get the day right", "não errar": a denial) and
was replaced by a listing."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from agent_service.application.grounding import Grounding
from agent_service.application.statements import Statements
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.statement_words import statement_rules
from agent_service.infrastructure.agent.told import told_words
from agent_service.infrastructure.agent.tools.formatting import weekday_name
from agent_service.infrastructure.language.rules import fact_reader, language_rules

CODES = ("pt", "en", "es")
TODAY = date(2026, 11, 30)  # a Monday
TOOL = '{"services": [{"name": "Barba", "duration_minutes": 30, "price": "R$ 40,00"}]}'


def _judge() -> Statements:
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",))
    window = (TODAY, TODAY + timedelta(days=60))
    grounding = Grounding(reader, [TOOL], [], language_rules().common_words(), window, [TOOL])
    said = told_words([ToolText("list_services", TOOL, True)])
    return Statements(grounding, reader, statement_rules(CODES), [], True, (), said)


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("offset", range(1, 7))
def test_the_which_week_question_is_sent(code: str, offset: int) -> None:
    first = TODAY + timedelta(days=offset)
    second = first + timedelta(days=7)
    day = weekday_name(first, code)
    shown = [f"{d:%b} {d.day}" if code == "en" else f"{d:%d/%m}" for d in (first, second)]
    question = say("ask_which_week", code, day=day, first=shown[0], second=shown[1])
    assert _judge().refused(question) == [], question
