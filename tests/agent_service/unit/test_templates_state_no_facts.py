"""The system's own sentences state no fact of their own.

Every message template of every language (``locales/<code>.json``: the offline model's
replies, outcomes, listings, notices), with its placeholders filled by values the records hold,
is grounded by the truth check: a fixed time, price, date or name in a template ("for example:
Friday at 3pm, with Ana") is a fact no tool returned — for a business that has no Ana, an
invention — and the judge refuses it, so the reply is sent back to the model or replaced. Facts
reach a reply only through a placeholder, filled from a structured result."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from agent_service.application.grounding import Grounding
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.language.rules import fact_reader, language_rules

CODES = tuple(messages.LOCALE_FILES)
TODAY = date(2026, 11, 30)
FILLED = "Xyz"
"""What every placeholder holds: a value of the records."""
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def templates() -> list[tuple[str, str, str]]:
    """Every sentence of every part (``system``, ``outcomes``, ``listings``, ``offline``...)."""
    return [
        (code, f"{part}.{key}", template)
        for code, parts in messages.LOCALE_FILES.items()
        for part, entries in parts.items()
        for key, template in entries.items()
        if isinstance(template, str)
    ]


@pytest.mark.parametrize(("code", "key", "template"), templates())
def test_a_template_states_nothing_but_its_placeholders(code: str, key: str, template: str) -> None:
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",))
    window = (TODAY, TODAY + timedelta(days=60))
    grounding = Grounding(reader, [FILLED], [], language_rules().common_words(), window, [])
    text = PLACEHOLDER.sub(f" {FILLED} ", template)
    assert [(u.kind.value, u.text) for u in grounding.ungrounded(text)] == [], (code, key)
