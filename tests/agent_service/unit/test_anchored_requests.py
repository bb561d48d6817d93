"""A request placed by one of the customer's own appointments: with its professional ("com a
mesma profissional do meu RPG de terça") or right after it ("logo depois da minha sessão de
quarta", "right after my RPG on Tuesday"). Blind batch 16, before any fix: the five such cases
asked which professional, or listed the day's times, and the yes booked nothing; the
appointment's own service was never the request's.

Generated over every language's ``[anchors]`` phrases: the same professional as the customer's
Wednesday hair treatment (two people do it) is the one booked on Thursday; right after the
customer's Wednesday beard trim (30 minutes) is the booking's start, with the one who does the
new service.
"""

from __future__ import annotations

from datetime import time

import pytest
from pydantic_ai.models.function import FunctionModel

from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.language.packs import word_list
from eval.dataset import THU, WED
from eval.harness import Booked, Harness, local

CODES = ("pt", "en", "es")
YES = {"pt": "sim", "en": "yes", "es": "sí"}
HYDRATION_WED = Booked("hidratacao", "paulo", local(WED, time(10)))
BEARD_WED = Booked("barba", "bruno", local(WED, time(10)))
SAME = {
    "pt": "hidratação quinta às 10h com o {same} profissional da minha hidratação de quarta",
    "en": "hair treatment on Thursday at 10am with the {same} stylist as my Wednesday one",
    "es": "hidratación el jueves a las 10 con el {same} profesional de mi hidratación del miércoles",  # noqa: E501
}
AFTER = {
    "pt": ("corte feminino {after} {rest}", "da minha barba de quarta", "barba de quarta"),
    "en": ("a haircut {after} {rest}", "my beard trim on Wednesday", "beard trim on Wednesday"),
    "es": ("un corte de pelo {after} {rest}", "de mi barba del miércoles", "barba del miércoles"),
}
ENDS_LINKED = {"minha", "meu", "da", "do", "my", "mi", "del", "la"}


async def _booked(code: str, said: str, before: Booked) -> list[tuple[str, object]]:
    harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
    transcript = await harness.play([said, YES[code]], [before])
    return [(a.professional, a.start) for a in transcript.appointments if a.start > before.start]


def _same_cases() -> list[tuple[str, str]]:
    cases = []
    for code in CODES:
        words = word_list(code, "anchors", "same_as")
        cases += [(code, w.split()[-1]) for w in words]
    return sorted(set(cases))


@pytest.mark.parametrize(("code", "same"), _same_cases())
async def test_the_same_professional_as_an_own_appointment(code: str, same: str) -> None:
    said = SAME[code].format(same=same)
    booked = await _booked(code, said, HYDRATION_WED)
    assert booked == [("Paulo Reis", local(THU, time(10)))], said


def _after_cases() -> list[tuple[str, str]]:
    return [(code, p) for code in CODES for p in word_list(code, "anchors", "right_after")]


@pytest.mark.parametrize(("code", "after"), _after_cases())
async def test_right_after_an_own_appointment(code: str, after: str) -> None:
    template, rest, linked_rest = AFTER[code]
    linked = after.split()[-1] in ENDS_LINKED
    said = template.format(after=after, rest=linked_rest if linked else rest)
    booked = await _booked(code, said, BEARD_WED)
    assert booked == [("Júlia Prado", local(WED, time(10, 30)))], said


SAME_DAY = {
    "pt": ("corte feminino {phrase} {rest}, às 15h", "minha barba", "barba"),
    "en": ("a haircut {phrase} {rest}, at 3pm", "my beard trim", "beard trim"),
    "es": ("un corte de pelo {phrase} {rest}, a las 15", "mi barba", "barba"),
}
LINKED = ENDS_LINKED | {"the", "el"}


def _same_day_cases() -> list[tuple[str, str]]:
    return [(code, p) for code in CODES for p in word_list(code, "anchors", "same_day")]


@pytest.mark.parametrize(("code", "phrase"), _same_day_cases())
async def test_on_the_day_of_an_own_appointment(code: str, phrase: str) -> None:
    """Blind batch 18, before any fix: "no mesmo dia da minha adaptação de lentes, às 17h", "on
    the same day as my hearing test, at 3pm" asked which professional (or listed the
    customer's appointments) and the yes booked nothing: the day is the appointment's, the
    time said after it the request's."""
    template, rest, linked_rest = SAME_DAY[code]
    linked = phrase.split()[-1] in LINKED
    said = template.format(phrase=phrase, rest=linked_rest if linked else rest)
    booked = await _booked(code, said, BEARD_WED)
    assert booked == [("Júlia Prado", local(WED, time(15)))], said
