"""A number said in words asks for a change as a number in digits does ("is eleven ok?" after a
proposal, as "is 11 ok?": review 11 left it read as an aside, and the yes after it booked the
old time). Generated over every cardinal word from two to twelve of each language (one is an
article too: "um", "one", "una").
"""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent.consent import asks_for_a_change
from agent_service.infrastructure.language.packs import word_list

FRAMES = {"pt": "pode ser {n}?", "en": "is {n} ok?", "es": "¿puede ser a las {n}?"}


@pytest.mark.parametrize("code", sorted(FRAMES))
def test_a_number_in_words_asks_for_a_change(code: str) -> None:
    words = [
        word
        for entry in word_list(code, "numbers", "cardinals")
        for word, _, n in [entry.rpartition(" ")]
        if 2 <= int(n) <= 12
    ]
    assert words
    wrong = [w for w in words if not asks_for_a_change(FRAMES[code].format(n=w))]
    assert not wrong, wrong
