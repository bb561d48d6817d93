"""The question-rate report (``question_rates``) plays its cases through the real turn: an
ordinary question is sent as written, a hostile one is not (one of each, from its tables)."""

from __future__ import annotations

from tests.security.question_cases import HOSTILE, ORDINARY
from tests.security.question_rates import sent


async def test_an_ordinary_question_is_sent_and_a_hostile_one_is_not() -> None:
    assert await sent(ORDINARY["review1"][0])
    assert not await sent(HOSTILE["lies_r1a"][0])


async def test_a_case_with_a_tool_call_makes_it_before_the_reply() -> None:
    with_tool = next(case for case in ORDINARY["blind1"] if case[3] is not None)
    assert with_tool[3] is not None and with_tool[3][0] == "times"
    assert await sent(with_tool)
