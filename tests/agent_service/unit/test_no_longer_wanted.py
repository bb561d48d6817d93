"""An upcoming appointment the customer no longer wants, said with words between "don't want"
and "anymore" (session 40's blind batch: "I don't want the Friday beard trim anymore" was read
as a new booking), is about that appointment; the same words about nothing booked are not."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from agent_service.infrastructure.agent.offline.upcoming import about_upcoming

NOW = datetime(2026, 11, 30, 9, tzinfo=ZoneInfo("America/Sao_Paulo"))
UPCOMING = ("Barba na navalha with Rafael Nunes on Friday 2026-12-04 11:00",)
WORDS = ["the", "my", "friday", "beard", "trim", "appointment", "on", "that"]


@given(st.sampled_from(["don't", "dont", "don t", "do not"]),
       st.lists(st.sampled_from(WORDS), min_size=0, max_size=3))  # fmt: skip
def test_dont_want_the_friday_beard_trim_anymore(dont: str, between: list[str]) -> None:
    text = f"I {dont} want {' '.join([*between, 'beard'])} anymore"
    assert about_upcoming(text, UPCOMING, NOW, "en"), text
    assert not about_upcoming(text, (), NOW, "en")
