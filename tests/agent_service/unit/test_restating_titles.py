"""A yes may say the proposal's professional back with a title ("sim, com o professor Carlos",
"yes, with Dr. Nunes", "sí, con la doctora Costa": review 15's blind "nick" yeses were all
asked again): ``[consent].titles`` before a word of the proposal's own professional's name, or
the whole name. A title alone, or before any other name, says no one back: no yes.

Generated over every language's titles, each word of the proposal's professional's name and
the whole of it, and other professionals' names (the proposal is with Rafael Nunes).
"""

from __future__ import annotations

from datetime import datetime

import pytest

from agent_service.application.consent_policy import Answer
from agent_service.infrastructure.language.packs import word_list
from tests.agent_service.unit.test_restating_yes import YES, ZONE, _read

CODES = ("pt", "en", "es")
WITH = {"pt": "com o", "en": "with", "es": "con el"}
OWN = ("Rafael", "Nunes", "Rafael Nunes")
OTHERS = ("Carla", "Mendes", "Paulo Reis", "Marina")


def _cases() -> list[tuple[str, str]]:
    return [(code, title) for code in CODES for title in word_list(code, "consent", "titles")]


@pytest.mark.parametrize(("code", "title"), _cases())
def test_a_title_before_the_proposals_professional_says_them_back(code: str, title: str) -> None:
    start = datetime(2026, 12, 2, 15, tzinfo=ZONE)
    yes = YES[code][0]
    for name in OWN:
        said = f"{yes}, {WITH[code]} {title} {name}"
        assert _read(code, start, said) is Answer.YES, said
    for name in OTHERS:
        said = f"{yes}, {WITH[code]} {title} {name}"
        assert _read(code, start, said) is not Answer.YES, said
    assert _read(code, start, f"{yes}, {WITH[code]} {title}") is not Answer.YES
