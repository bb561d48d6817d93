"""A yes that says the proposal back (``consent_policy.read_restating``), as properties over
generated proposals and answers (session 39's blind batch found "sim, amanhã às 10h" booked
nothing):

* a yes with the proposal's own day and time, said the ways the language says them, is a yes;
* the same answer with another day, hour or minute, with any word of a change, a condition,
  a hesitation, a "later", an "or", a length, a random word, or as a question, is never a yes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from agent_service.application.consent_policy import Answer
from agent_service.infrastructure.agent import consent
from agent_service.infrastructure.agent.deps import PendingAction
from agent_service.infrastructure.language.packs import word_list
from tests.scale import size

ZONE = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)  # Monday 09:00 in São Paulo
TODAY = NOW.astimezone(ZONE).date()
EXAMPLES = settings(max_examples=size(40, 600), deadline=None)
YES = {"pt": ["sim", "pode", "ok", "sim, pode"], "en": ["yes", "ok", "sure"],
       "es": ["sí", "vale", "ok"]}  # fmt: skip
WEEKDAYS = {
    "pt": ["segunda", "terça", "quarta", "quinta", "sexta", "sábado"],
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
    "es": ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado"],
}
TOMORROW = {"pt": "amanhã", "en": "tomorrow", "es": "mañana"}
WITH = {"pt": "com o Rafael", "en": "with Rafael", "es": "con Rafael"}
EXTRA = {
    "pt": ["mais tarde", "ou", "seguinte", "1 hora", "se", "talvez", "mas", "outro", "depois",
           "cedo", "não", "prefiro", "em vez", "xyz", "3 pessoas"],
    "en": ["later", "or", "next", "an hour", "if", "maybe", "but", "another", "instead", "not",
           "earlier", "rather", "xyz", "2 people"],
    "es": ["más tarde", "o", "siguiente", "una hora", "si es", "quizás", "pero", "otro", "no",
           "antes", "prefiero", "en vez", "xyz", "2 personas"],
}  # fmt: skip


@dataclass
class _Turn:
    language: str
    now: datetime = NOW


@dataclass
class _Tenant:
    time_zone: str = "America/Sao_Paulo"
    zone: ZoneInfo = field(default_factory=lambda: ZONE)


@dataclass
class _Deps:
    turn: _Turn
    tenant: _Tenant = field(default_factory=_Tenant)


def _proposal(start: datetime) -> PendingAction:
    return PendingAction(
        "book_appointment",
        {"start_time": start.isoformat()},
        "Barba",
        kind="appointment_booked",
        details={
            "service": "Barba na navalha",
            "professional": "Rafael Nunes",
            "start": start.isoformat(),
        },
        proposed_at=NOW.isoformat(),
        id="p1",
    )


def _said(language: str, start: datetime, form: int) -> str:
    local = start.astimezone(ZONE)
    day = local.date()
    days: list[str] = [WEEKDAYS[language][day.weekday()]]
    if language != "en":  # "01/12" is January 12 in English
        days.append(f"{day:%d/%m}")
    if day == TODAY + timedelta(days=1):
        days.append(TOMORROW[language])
    hour, minute = local.hour, local.minute
    clock = {
        "pt": [f"às {hour}h" + (f"{minute:02d}" if minute else ""), f"às {hour}:{minute:02d}"],
        "en": [f"at {hour}:{minute:02d}"]
        + ([f"at {hour % 12 or 12}{'am' if hour < 12 else 'pm'}"] if not minute else []),
        "es": [f"a las {hour}:{minute:02d}"] + ([f"a las {hour}"] if not minute else []),
    }[language]
    return f"{days[form % len(days)]} {clock[form % len(clock)]}"


starts = st.builds(
    lambda offset, hour, half: datetime.combine(
        TODAY + timedelta(days=offset), time(hour, 30 if half else 0), ZONE
    ),
    st.integers(1, 6),
    st.integers(9, 17),
    st.booleans(),
).filter(lambda start: start.weekday() < 6)


def _read(language: str, start: datetime, text: str) -> Answer:
    deps = _Deps(_Turn(language))
    return consent.read(deps, text, "appointment_booked", _proposal(start)).answer  # type: ignore[arg-type]


@EXAMPLES
@given(language=st.sampled_from(["pt", "en", "es"]), start=starts, form=st.integers(0, 5),
       yes=st.integers(0, 3), named=st.booleans())  # fmt: skip
def test_a_yes_saying_the_proposal_back_is_a_yes(
    language: str, start: datetime, form: int, yes: int, named: bool
) -> None:
    words = YES[language][yes % len(YES[language])]
    said = _said(language, start, form) + (f" {WITH[language]}" if named else "")
    assert _read(language, start, f"{words}, {said}") is Answer.YES, said


@EXAMPLES
@given(language=st.sampled_from(["pt", "en", "es"]), start=starts, form=st.integers(0, 5),
       days=st.integers(-3, 3), minutes=st.sampled_from([-60, -30, 0, 30, 60, 120]))  # fmt: skip
def test_another_day_or_time_said_is_never_a_yes(
    language: str, start: datetime, form: int, days: int, minutes: int
) -> None:
    assume(days or minutes)
    other = start + timedelta(days=days, minutes=minutes)
    assume(other.astimezone(ZONE).weekday() < 6 and 8 <= other.astimezone(ZONE).hour <= 19)
    text = f"{YES[language][0]}, {_said(language, other, form)}"
    assert _read(language, start, text) is not Answer.YES, text


@EXAMPLES
@given(language=st.sampled_from(["pt", "en", "es"]), start=starts, form=st.integers(0, 5),
       extra=st.data(), where=st.integers(0, 2), asked=st.booleans())  # fmt: skip
def test_anything_else_beside_the_restated_proposal_is_never_a_yes(
    language: str, start: datetime, form: int, extra: st.DataObject, where: int, asked: bool
) -> None:
    word = extra.draw(
        st.one_of(
            st.sampled_from(EXTRA[language]),
            st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=3, max_size=8),
        )
    )
    parts = [YES[language][0] + ",", _said(language, start, form)]
    parts.insert(where, word)
    text = " ".join(parts) + ("?" if asked else "")
    assert _read(language, start, text) is not Answer.YES, text


def test_the_yes_alone_is_still_a_yes_and_a_bare_restatement_is_no_yes() -> None:
    start = datetime.combine(date(2026, 12, 1), time(10), ZONE)
    assert _read("pt", start, "sim") is Answer.YES
    assert _read("pt", start, "amanhã às 10h") is not Answer.YES  # no yes word: no consent
    # pointing back at the proposal instead of saying it
    assert _read("pt", start, "sim, o horário que você falou") is Answer.YES
    assert _read("en", start, "yes, the one you said") is Answer.YES
    assert _read("es", start, "sí, la hora que dijiste") is Answer.YES
    assert _read("pt", start, "sim, depois do horário que você falou") is not Answer.YES


PARTS = {
    "pt": ["à tarde", "de noite", "à noite", "de manhã"],
    "en": ["in the afternoon", "tonight", "in the evening", "in the morning"],
    "es": ["por la tarde", "por la noche", "esta noche", "por la mañana"],
}
AND = {"pt": "e", "en": "and", "es": "y"}
MONTHS = {"pt": "janeiro", "en": "January", "es": "enero"}


@EXAMPLES
@given(language=st.sampled_from(["pt", "en", "es"]), start=starts, form=st.integers(0, 5),
       pick=st.integers(0, 3), which=st.integers(0, 3))  # fmt: skip
def test_a_part_of_the_day_another_number_or_a_month_is_never_a_yes(
    language: str, start: datetime, form: int, pick: int, which: int
) -> None:
    """Found by review (session 39): "sim, amanhã à tarde", "sim, às 10 e 12" (12 is the
    proposal's month), "sim, em janeiro" read as yeses."""
    local = start.astimezone(ZONE)
    said = _said(language, start, form)
    yes = YES[language][0]
    extra = [
        f"{yes}, {said} {PARTS[language][pick]}",
        f"{yes}, {said} {AND[language]} {local.month}",
        f"{yes}, {said} {AND[language]} {local.day}",
        f"{yes}, {MONTHS[language]}",
    ][which]
    assert _read(language, start, extra) is not Answer.YES, extra


def test_a_word_of_a_name_alone_is_no_restatement() -> None:
    """ "sim, sem o Rafael" to "Corte sem lavagem" with Rafael: a name is its whole or its
    first word, never a word of its middle."""
    start = datetime.combine(date(2026, 12, 1), time(10), ZONE)
    stored = _proposal(start)
    stored.details["service"] = "Corte sem lavagem"
    deps = _Deps(_Turn("pt"))
    for text in ("sim, sem o Rafael", "sim, com lavagem", "sim, sem"):
        reading = consent.read(deps, text, "appointment_booked", stored)  # type: ignore[arg-type]
        assert reading.answer is not Answer.YES, text
    for text in ("sim, com o Rafael", "sim, corte com o Rafael", "sim, corte sem lavagem"):
        reading = consent.read(deps, text, "appointment_booked", stored)  # type: ignore[arg-type]
        assert reading.answer is Answer.YES, text


def test_a_proposal_with_no_instant_is_restated_by_nothing() -> None:
    start = datetime.combine(date(2026, 12, 1), time(10), ZONE)
    deps: Any = _Deps(_Turn("pt"))
    for broken in ("", "not a time", "2026-12-01T10:00:00"):  # the last one is naive
        stored = _proposal(start)
        stored.details["start"] = broken
        reading = consent.read(deps, "sim, amanhã às 10h", "appointment_booked", stored)
        assert reading.answer is not Answer.YES
        assert consent.read(deps, "sim", "appointment_booked", stored).answer is Answer.YES


SECOND_REVIEW = [  # (language, proposal hour, kind, message): found by a second review
    ("en", 10, "book", "yes, tomorrow pm"),
    ("en", 10, "book", "yes, tomorrow at 10, pm"),
    ("en", 10, "book", "yes, tomorrow at 10 noon"),
    ("en", 14, "book", "yes, tomorrow am"),
    ("pt", 10, "book", "sim, amanhã às 10 meio-dia"),
    ("es", 10, "book", "sí, mañana a las 10 medianoche"),
    ("es", 14, "book", "sí, la mañana"),
    ("es", 14, "book", "sí, para la mañana"),
    ("es", 14, "book", "sí, mañana de mañana"),
    ("es", 14, "book", "sí, el martes de mañana"),
    ("pt", 10, "book", "sim, depois de ama\u200dnhã às 10h"),
    ("pt", 10, "book", "sim, ho\u200dje às 10h"),
    ("en", 14, "move", "yes, the same time on Wednesday"),
    ("en", 14, "move", "yes, same day at 2pm"),
    ("es", 14, "move", "sí, el mismo día a las 2"),
    ("pt", 14, "move", "sim, mesmo horário na quarta"),
    ("es", 10, "book", "si mañana a las 10"),  # "if tomorrow at 10"
]


def test_what_a_second_review_found_is_never_a_yes() -> None:
    for language, hour, kind, text in SECOND_REVIEW:
        start = datetime.combine(date(2026, 12, 1), time(hour), ZONE)
        stored = _proposal(start)
        if kind == "move":  # Tuesday's appointment moved to Wednesday at that hour
            stored.details["start"] = datetime.combine(
                date(2026, 12, 1), time(10), ZONE
            ).isoformat()
            stored.details["new_start"] = (start + timedelta(days=1)).isoformat()
            stored.kind = "appointment_rescheduled"
        deps: Any = _Deps(_Turn(language))
        assert consent.read(deps, text, stored.kind, stored).answer is not Answer.YES, text


# A no word that is also a word of the restating phrases and opens one is a preposition
# (Portuguese "no" = "in the": "sim, no horário que você falou"); alone, or before anything
# else, it stays a no beside the yes (session 40: the eval's pt-ff-sim-no-horario).
POINTING = ["no horário que você falou", "no horário que você disse", "no horário"]
NOT_RESTATING = ["", "no", "no way", "no não", "no outro dia", "no, espera", "no mesmo não"]


@EXAMPLES
@given(start=starts, yes=st.integers(0, 3), pointing=st.sampled_from(POINTING),
       form=st.integers(0, 5))  # fmt: skip
def test_a_no_that_opens_a_restatement_is_a_preposition(
    start: datetime, yes: int, pointing: str, form: int
) -> None:
    words = YES["pt"][yes % len(YES["pt"])]
    assert _read("pt", start, f"{words}, {pointing}") is Answer.YES
    assert _read("pt", start, f"{words}, {_said('pt', start, form)}, {pointing}") is Answer.YES


@EXAMPLES
@given(start=starts, yes=st.integers(0, 3), after=st.sampled_from(NOT_RESTATING))
def test_a_no_before_anything_else_is_never_a_yes(start: datetime, yes: int, after: str) -> None:
    words = YES["pt"][yes % len(YES["pt"])]
    text = f"{words}, no {after}".strip()
    assert _read("pt", start, text) is not Answer.YES, text
    for language in ("en", "es"):
        other = YES[language][yes % len(YES[language])]
        assert _read(language, start, f"{other}, no {after}".strip()) is not Answer.YES


# Found by review (session 40): a "no" set off by punctuation, or before another no word, is a
# no whatever follows it.
SET_OFF = ["ok, no, amanhã às 10h", "ok. no. amanhã às 10h", "ok, no! amanhã às 10h",
           "pode, no, às 10h", "sim; no, o das 10h", "ok, no, isso", "beleza, no, isso",
           "pode... no, no horário", "ok no no, amanhã às 10h", "ok no no no, às 10h",
           "sim no no horário"]  # fmt: skip


def test_a_no_set_off_or_doubled_is_never_a_yes() -> None:
    start = datetime.combine(TODAY + timedelta(days=1), time(10), ZONE)
    for text in SET_OFF:
        assert _read("pt", start, text) is not Answer.YES, text


RECURRING = {
    "pt": ["às {day}s", "todas as {day}s", "toda {day}"],
    "en": ["on {day}s", "every {day}"],
    "es": ["los {day}", "todos los {day}", "cada {day}"],
}


@EXAMPLES
@given(language=st.sampled_from(["pt", "en", "es"]), start=starts, form=st.integers(0, 4))
def test_a_weekday_of_every_week_is_no_restatement_of_one_day(
    language: str, start: datetime, form: int
) -> None:
    """Consent review 3: "sí, los sábados a las 13" to a Saturday proposal booked one date; the
    customer asked for every Saturday. A yes saying a weekday of every week is no yes."""
    local = start.astimezone(ZONE)
    day = WEEKDAYS[language][local.weekday()]
    if language == "es" and not day.endswith("s"):
        day += "s"  # "sábados"; "lunes".."viernes" are their own plural
    forms = RECURRING[language]
    every = forms[form % len(forms)].format(day=day)
    clock = {"pt": f"às {local.hour}h", "en": f"at {local.hour}:00", "es": f"a las {local.hour}"}
    if local.minute:
        return
    text = f"{YES[language][0]}, {every} {clock[language]}"
    assert _read(language, start, text) is not Answer.YES, text


@EXAMPLES
@given(start=starts)
def test_a_date_with_two_readings_is_no_restatement(start: datetime) -> None:
    """Consent review 3: "yes, 12/1" to "Tuesday 2027-01-12" booked; an American means
    December 1. A date the grammar reads two ways (it asks, never guesses) agrees with nothing."""
    local = start.astimezone(ZONE).date()
    if local.day > 12 or local.day == local.month:
        return
    text = f"yes, {local.day}/{local.month}"  # the other order of an m/d writer
    assert _read("en", start, text) is not Answer.YES, text


MARKER = {"pt": "às", "en": "at", "es": "a las"}


@pytest.mark.parametrize("language", ["pt", "en", "es"])
def test_an_hour_and_its_part_of_the_day_said_back_is_a_yes(language: str) -> None:
    """ "sim, sexta às 6 da tarde" to Friday 18:00 (review 12: asked again): a part of the day
    right after an hour of the twelve is read with it by the date grammar, so the time it says
    is checked — the same words with the other part ("6 da manhã") are never a yes. Generated
    over every ``[times]`` morning/afternoon/evening-after phrase of the language."""
    wrong = []
    day = TODAY + timedelta(days=4)  # Friday
    for key, hours in (("afternoon_after", range(13, 18)), ("evening_after", range(19, 22))):
        for part in word_list(language, "times", key):
            for hour in hours:
                start = datetime.combine(day, time(hour), ZONE)
                said = f"{WEEKDAYS[language][day.weekday()]} {MARKER[language]} {hour - 12}"
                if _read(language, start, f"{YES[language][0]}, {said} {part}") is not Answer.YES:
                    wrong.append(f"{said} {part} ({hour}:00)")
    for part in word_list(language, "times", "morning_after"):
        start = datetime.combine(day, time(18), ZONE)
        said = f"{YES[language][0]}, {WEEKDAYS[language][day.weekday()]} {MARKER[language]} 6"
        if _read(language, start, f"{said} {part}") is Answer.YES:
            wrong.append(f"{said} {part} read as 18:00")
    assert not wrong, wrong


@EXAMPLES
@given(start=starts, form=st.integers(0, 5), days=st.integers(0, 3), word=st.data())
def test_the_proposal_said_back_with_a_copula_and_a_yes_word(
    start: datetime, form: int, days: int, word: st.DataObject
) -> None:
    """Review 14: "yes, Friday at 10 is perfect" was asked again. A copula between the
    proposal said back and a yes word of the language's list restates it; another day said so
    does not."""
    yes = word.draw(st.sampled_from([w for w in word_list("en", "consent", "yes") if " " not in w]))
    other = start + timedelta(days=days)
    assume(other.astimezone(ZONE).weekday() < 6)
    text = f"yes, {_said('en', other, form)} is {yes}"
    assert (_read("en", start, text) is Answer.YES) is (days == 0), text
