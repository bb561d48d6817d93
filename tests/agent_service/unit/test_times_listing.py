"""The offline model's listing of free times reads as one sentence in every template and
language: the hint for more times is a clause of it, never a stray period ("horário..")."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent.offline.availability_flow import SHOWN, listing
from agent_service.infrastructure.agent.offline.replies import say

TIMES = [f"{9 + n // 4:02d}:{15 * (n % 4):02d}" for n in range(SHOWN + 4)]


@pytest.mark.parametrize("language", ["pt", "en", "es"])
@pytest.mark.parametrize("template", ["times", "times_part", "windows"])
@pytest.mark.parametrize("count", range(1, SHOWN + 3))
def test_a_listing_is_punctuated_once_whatever_its_length(
    language: str, template: str, count: int
) -> None:
    text = say(
        template, language, professional="Ana", day="07/12", times=listing(TIMES[:count], language)
    )
    hint = say("more_times", language).rstrip(".")
    assert ".." not in text and " ." not in text and text.rstrip().endswith((".", "?")), text
    assert (hint[1:] in text) == (count > SHOWN), text
    assert text.count(TIMES[0]) == 1
