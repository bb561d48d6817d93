"""Every question the offline model asks (each question sentence of its message templates, in
every language) is sent as written in a turn whose tools ran: the truth check reads its words
as asking words beside their facts. Placeholders hold a value a tool of the turn returned.

The exceptions ask *whether or when to change* something ("what would you like to change",
"when would you like to move it to?"): a question about a change is one only the system asks
(``[truth]`` consent and outcome questions), whatever model writes it."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from agent_service.application.grounding import Grounding, question_sentences
from agent_service.application.statements import Statements
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.statement_words import statement_rules
from agent_service.infrastructure.agent.told import told_words
from agent_service.infrastructure.language.rules import fact_reader, language_rules

CODES = tuple(messages.LOCALE_FILES)
TODAY = date(2026, 11, 30)
TOOL = '{"services": [{"name": "Barba", "duration_minutes": 30}]}'
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
ASKS_A_CHANGE = frozenset({"ask_what_change", "ask_new_time"})


def _questions() -> list[tuple[str, str, str]]:
    return [
        (code, key, question.strip())
        for code, parts in messages.LOCALE_FILES.items()
        for key, template in parts["offline"].items()
        if isinstance(template, str) and key not in ASKS_A_CHANGE
        for question in question_sentences(PLACEHOLDER.sub("Barba", template))
    ]


@pytest.mark.parametrize(("code", "key", "question"), _questions())
def test_an_offline_question_is_sent(code: str, key: str, question: str) -> None:
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",))
    window = (TODAY, TODAY + timedelta(days=60))
    grounding = Grounding(reader, [TOOL], [], language_rules().common_words(), window, [TOOL])
    said = told_words([ToolText("list_services", TOOL, True)])
    judge = Statements(grounding, reader, statement_rules(CODES), [], True, (), said)
    assert judge.refused(question) == [], (code, key)
