"""After a listing of times, an hour said with words that only agree or are polite ("eleven
works", "as 11 pode ser", "a las once está bien", "11 então, por favor") is that hour, in
digits or in the language's number words up to twelve (blind batch 14: "eleven works" got the
listing again, and the yes after it the menu).

Generated over every language's ``[numbers].cardinals`` up to twelve and digits, beside every
``[consent]`` yes and filler phrase of that language, before and after the number.
"""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent.offline.matching import bare_number
from agent_service.infrastructure.language.packs import word_list


def _hours(code: str) -> list[tuple[str, int]]:
    said = []
    for entry in word_list(code, "numbers", "cardinals"):
        word, _, value = entry.rpartition(" ")
        if 1 <= int(value) <= 12:
            said += [(word, int(value)), (value, int(value))]
    return said


@pytest.mark.parametrize("code", ["pt", "en", "es"])
def test_an_hour_beside_words_that_only_agree_is_that_hour(code: str) -> None:
    numbers = {word for word, _ in _hours(code)}
    phrases = [
        p
        for key in ("yes", "filler")
        for p in word_list(code, "consent", key)
        if not numbers.intersection(p.split())  # "that one": a number of its own
    ]
    wrong = [
        (said, read)
        for word, hour in _hours(code)
        for phrase in phrases
        for said in (f"{word} {phrase}", f"{phrase}, {word}")
        if (read := bare_number(said, code)) != hour
    ]
    assert not wrong, wrong[:20]
