"""A yes that says the proposal's hour with its clock unit and no marker ("sim, quinta onze
horas", "sí, 3 horas"; review 14's voice-to-text yeses were all asked again) says it back:
``[times].clock_hours`` make a whole hour a time of day in a restatement, the afternoon's
too. Generated over every proposal hour, in digits and in the language's number words,
against every other hour; English has no such unit ("yes, eleven hours" restates nothing)."""

from __future__ import annotations

from datetime import datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from agent_service.application.consent_policy import Answer
from agent_service.infrastructure.language.packs import word_list
from tests.agent_service.unit.test_restating_yes import EXAMPLES, YES, ZONE, _read, starts
from tests.security.test_hours_after_markers import _words

UNITS = {code: word_list(code, "times", "clock_hours") for code in ("pt", "en", "es")}


on_the_hour = starts.map(lambda start: start.replace(minute=0))


@EXAMPLES
@given(language=st.sampled_from(["pt", "es"]), start=on_the_hour, spoken=st.booleans(),
       twelve=st.booleans(), other=st.integers(1, 5))  # fmt: skip
def test_an_hour_with_its_clock_unit_is_the_proposals_or_no_yes(
    language: str, start: datetime, spoken: bool, twelve: bool, other: int
) -> None:
    hour = start.astimezone(ZONE).hour
    said_hour = hour % 12 or 12 if twelve else hour
    words = _words(language)
    number = words[said_hour] if spoken and said_hour in words else str(said_hour)
    unit = UNITS[language][0]
    yes = YES[language][0]
    assert _read(language, start, f"{yes}, {number} {unit}") is Answer.YES
    moved = start + timedelta(hours=other)
    assert _read(language, moved, f"{yes}, {number} {unit}") is not Answer.YES


@EXAMPLES
@given(start=on_the_hour)
def test_english_hours_are_a_length_never_the_time(start: datetime) -> None:
    hour = start.astimezone(ZONE).hour
    assert not UNITS["en"]
    assert _read("en", start, f"yes, {hour} hours") is not Answer.YES


AGREE = {"pt": "tá ótimo", "en": "perfect", "es": "está bien"}


@EXAMPLES
@given(language=st.sampled_from(["pt", "en", "es"]), start=on_the_hour, marker=st.data(),
       other=st.integers(1, 5))  # fmt: skip
def test_an_hour_in_words_before_a_yes_word_is_the_proposals_or_no_yes(
    language: str, start: datetime, marker: st.DataObject, other: int
) -> None:
    """Review 14: "sí, el martes a las tres está bien" was asked again: the date grammar read
    the hour, no clock fact read "tres" before "está", and a number word was never a bare
    number. Now the hour's number word is, where the date grammar read the proposal's time."""
    hour = start.astimezone(ZONE).hour % 12 or 12
    words = _words(language)
    if hour not in words or len(words[hour]) <= 2:
        return  # "um", "un": an article as much as a number, never read as the hour
    lead = marker.draw(st.sampled_from(word_list(language, "times", "word_markers")))
    text = f"{YES[language][0]}, {lead} {words[hour]} {AGREE[language]}"
    assert _read(language, start, text) is Answer.YES, text
    assert _read(language, start + timedelta(hours=other), text) is not Answer.YES, text
