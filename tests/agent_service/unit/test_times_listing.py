"""The offline model's listing of free times reads as one sentence in every template and
language: the hint for more times is a clause of it, never a stray period ("horário..")."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent.listings import SMALL_TAIL, page
from agent_service.infrastructure.agent.offline.availability_flow import SHOWN, listing
from agent_service.infrastructure.agent.offline.replies import say

TIMES = [f"{9 + n // 4:02d}:{15 * (n % 4):02d}" for n in range(SHOWN + SMALL_TAIL + 4)]


@pytest.mark.parametrize("language", ["pt", "en", "es"])
@pytest.mark.parametrize("template", ["times", "times_part", "windows"])
@pytest.mark.parametrize("count", range(1, SHOWN + SMALL_TAIL + 3))
def test_a_listing_is_punctuated_once_whatever_its_length(
    language: str, template: str, count: int
) -> None:
    text = say(
        template, language, professional="Ana", day="07/12", times=listing(TIMES[:count], language)
    )
    hint = say("more_times", language).rstrip(".")
    assert ".." not in text and " ." not in text and text.rstrip().endswith((".", "?")), text
    # a page leaves out more than a small tail, or nothing (session 40)
    assert (hint[1:] in text) == (count > SHOWN + SMALL_TAIL), text
    assert text.count(TIMES[0]) == 1


@pytest.mark.parametrize("size", [3, 5, 12])
@pytest.mark.parametrize("count", range(0, 20))
def test_a_page_leaves_out_more_than_a_small_tail_or_nothing(size: int, count: int) -> None:
    times = TIMES_DAY[:count]
    left_out = count - len(page(times, size))
    assert left_out == 0 or left_out > SMALL_TAIL
    assert page(times, size) == times[: len(page(times, size))]


TIMES_DAY = [f"{9 + n // 2:02d}:{30 * (n % 2):02d}" for n in range(20)]
