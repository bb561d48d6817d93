"""A moment counted from now ("daqui a 3 horas", "in half an hour", "dentro de 90 minutos",
"2 hours from now"; never sooner than half an hour) is that day and time
(``grammar/times.ahead_of``), and its words ask nothing else: its "hours" is no opening-hours
question, its amount no time of day. Session 41's blind batch found "daqui a 3 horas" read as
15:00 and "in 3 hours" answered with the opening hours. Generated from every language's
``[dates].ahead_prefix``/``from_now``, ``[times].hour_units``/ ``minute_units``/``half_amount``
and ``[numbers].cardinals``, never written here.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.infrastructure.agent.offline.intents import classify_intent
from agent_service.infrastructure.language.grammar import parse_when
from agent_service.infrastructure.language.grammar.times import AHEAD_MINUTES
from agent_service.infrastructure.language.grammar.vocabulary import Vocabulary
from tests.scale import size

ZONE = ZoneInfo("America/Sao_Paulo")
LANGUAGES = ("pt", "en", "es")
EXAMPLES = settings(max_examples=size(60, 600), deadline=None)


def _words(language: str, table: str, key: str) -> list[str]:
    return list(Vocabulary(language).words(table, key))


@st.composite
def _ahead(draw: st.DrawFn) -> tuple[str, str, int]:
    """(language, phrase, minutes ahead)."""
    language = draw(st.sampled_from(LANGUAGES))
    hours = draw(st.booleans())
    units = _words(language, "times", "hour_units" if hours else "minute_units")
    unit = draw(st.sampled_from([u for u in units if len(u) > 1]))
    cardinals = dict(Vocabulary(language).values("numbers", "cardinals"))
    low, high = (2, 12) if hours else (AHEAD_MINUTES, 90)
    small = {word: n for word, n in cardinals.items() if low <= n <= high}
    if draw(st.booleans()) or not small:
        count = draw(st.integers(low, high))
        amount = str(count)
    else:
        amount = draw(st.sampled_from(sorted(small)))
        count = small[amount]
    minutes = count * (60 if hours else 1)
    if draw(st.booleans()) or not _words(language, "dates", "from_now"):
        prefix = draw(st.sampled_from(_words(language, "dates", "ahead_prefix")))
        return language, f"{prefix} {amount} {unit}", minutes
    after = draw(st.sampled_from(_words(language, "dates", "from_now")))
    return language, f"{amount} {unit} {after}", minutes


@EXAMPLES
@given(_ahead(), st.integers(0, 23), st.sampled_from([0, 7, 30, 59]))
def test_a_moment_ahead_is_now_plus_its_amount(
    ahead: tuple[str, str, int], hour: int, minute: int
) -> None:
    _, phrase, minutes = ahead
    now = datetime(2026, 11, 30, hour, minute, tzinfo=ZONE)
    when = parse_when(phrase, now)
    moment = now + timedelta(minutes=minutes)
    assert (when.day, when.at) == (moment.date(), moment.time()), (phrase, when)
    assert when.day_text.casefold() == phrase.casefold()


@EXAMPLES
@given(_ahead())
def test_its_words_ask_for_no_opening_hours(ahead: tuple[str, str, int]) -> None:
    language, phrase, _ = ahead
    intent, _ = classify_intent(phrase, language)
    assert intent == "booking", (phrase, intent)


def test_a_time_of_day_or_another_date_wins_and_a_one_letter_unit_is_a_time() -> None:
    now = datetime(2026, 11, 30, 9, tzinfo=ZONE)
    assert parse_when("em 15h", now).at is not None and parse_when("em 15h", now).day is None
    tomorrow = parse_when("amanhã, daqui a 3 horas", now)
    assert tomorrow.day == now.date() + timedelta(days=1) and tomorrow.at is None
    at_five = parse_when("in 3 hours at 5pm", now)
    assert at_five.at is not None and at_five.at.hour == 17
    assert parse_when("cancelamento até 2 horas antes", now).day is None
    half = {"daqui a uma hora e meia": 90, "in 2 hours and a half": 150,
            "dentro de una hora y media": 90}  # fmt: skip
    for said, minutes in half.items():
        moment = now + timedelta(minutes=minutes)
        assert (parse_when(said, now).day, parse_when(said, now).at) == (
            moment.date(),
            moment.time(),
        ), said
    # sooner than AHEAD_MINUTES, or "em"/"en" (a length: "faz em 1 hora?"), is no moment
    for said in ("in a minute", "chego daqui a 10 minutos", "dá pra fazer em 1 hora?",
                 "¿me la hacen en media hora?"):  # fmt: skip
        assert parse_when(said, now).day is None, said
