"""The words of an earliest or latest phrase name no part of the day (review of session 45:
"o mais tarde possível" and "lo más tarde posible" read "tarde" as the afternoon and proposed
17:30 when 19:00 was the day's last time). Every phrase of every language, alone and in a
request."""

from __future__ import annotations

from agent_service.application.text import normalize
from agent_service.infrastructure.language.grammar.ranges import (
    part_of_day,
    wants_earliest,
    wants_latest,
)
from agent_service.infrastructure.language.packs import spoken_languages, word_list


def test_an_earliest_or_latest_phrase_is_no_part_of_the_day() -> None:
    checked = 0
    for code in spoken_languages():
        for key, wants in (("earliest", wants_earliest), ("latest", wants_latest)):
            for phrase in word_list(code, "ranges", key):
                said = normalize(f"quero {phrase} na quarta")
                assert wants(said), (code, phrase)
                assert part_of_day(said) is None, (code, phrase)
                checked += 1
    assert checked > 20
