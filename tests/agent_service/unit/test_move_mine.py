"""One's own appointment named by the day it is on and sent to another day is a move, whatever
the verb ("joga minha barba de sexta pro sábado", "bump my Friday beard trim to Saturday",
"aplaza mi barba del viernes al sábado": session 41's blind batch found all three routed to a
new booking); so is one named with a definite article ("¿me pasan la terapia del viernes al
sábado?": blind batch 17). A booking for someone else on a day at a time ("para mi esposo
mañana a las 10") moves nothing. Generated from every language's ``[listing].possessives`` and
``definite_articles``,
``[intents].from_words``/``to_words`` and CLDR weekday names, never written here; the verbs are
nonsense words, so no verb list can be what reads them.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.text import normalize
from agent_service.infrastructure.language.grammar.asks import moves_own
from agent_service.infrastructure.language.grammar.calendar_names import calendar_names
from agent_service.infrastructure.language.grammar.vocabulary import Vocabulary
from tests.scale import size

LANGUAGES = ("pt", "en", "es")
EXAMPLES = settings(max_examples=size(80, 800), deadline=None)
THINGS = st.sampled_from(["barba", "corte", "beard trim", "unhas", "cita", "appointment"])
VERBS = st.sampled_from(["zorpa", "blick", "frumea", "please", ""])


def _words(language: str, table: str, key: str) -> list[str]:
    return list(Vocabulary(language).words(table, key))


def _owners(language: str) -> list[str]:
    """A possessive or a definite article: "minha barba", "la terapia"."""
    return [
        *_words(language, "listing", "possessives"),
        *_words(language, "listing", "definite_articles"),
    ]


def _weekdays(language: str) -> list[str]:
    return sorted(calendar_names(Vocabulary(language)).weekdays)


@st.composite
def _moves(draw: st.DrawFn) -> str:
    language = draw(st.sampled_from(LANGUAGES))
    mine = draw(st.sampled_from(_owners(language)))
    first, then = (
        draw(st.sampled_from(_weekdays(language))),
        draw(st.sampled_from(_weekdays(language))),
    )
    to = draw(st.sampled_from(_words(language, "intents", "to_words")))
    thing = draw(THINGS)
    if draw(st.booleans()):  # "my Friday beard trim to Saturday"
        said = f"{mine} {first} {thing} {to} {then}"
    else:  # "minha barba de sexta pro sábado"
        source = draw(st.sampled_from(_words(language, "intents", "from_words")))
        said = f"{mine} {thing} {source} {first} {to} {then}"
    return f"{draw(VERBS)} {said}".strip()


@EXAMPLES
@given(_moves())
def test_ones_own_appointment_sent_from_its_day_to_another_is_a_move(message: str) -> None:
    assert moves_own(normalize(message)), message


@st.composite
def _for_someone(draw: st.DrawFn) -> str:
    language = draw(st.sampled_from(LANGUAGES))
    mine = draw(st.sampled_from(_owners(language)))
    day = draw(st.sampled_from([*_weekdays(language), *_words(language, "dates", "tomorrow")]))
    to = draw(st.sampled_from(_words(language, "intents", "to_words")))
    relative = draw(st.sampled_from(["esposo", "marido", "filha", "husband", "son", "hijo"]))
    purpose = draw(st.sampled_from(["10", "as 10h", "las 10", "festa", "the party", "la boda"]))
    return f"{draw(THINGS)} {mine} {relative} {day} {to} {purpose}"


@EXAMPLES
@given(_for_someone())
def test_a_booking_for_someone_on_a_day_moves_nothing(message: str) -> None:
    assert not moves_own(normalize(message)), message


@st.composite
def _two_things(draw: st.DrawFn) -> str:
    """ "minha barba de sexta e unha pro sábado": one thing kept, another booked."""
    language = draw(st.sampled_from(LANGUAGES))
    mine = draw(st.sampled_from(_owners(language)))
    source = draw(st.sampled_from(_words(language, "intents", "from_words")))
    first, then = (
        draw(st.sampled_from(_weekdays(language))),
        draw(st.sampled_from(_weekdays(language))),
    )
    joined = draw(st.sampled_from(_words(language, "matching", "and_words")))
    to = draw(st.sampled_from(_words(language, "intents", "to_words")))
    return f"{mine} {draw(THINGS)} {source} {first} {joined} {draw(THINGS)} {to} {then}"


@EXAMPLES
@given(_two_things())
def test_an_and_between_the_two_days_moves_nothing(message: str) -> None:
    assert not moves_own(normalize(message)), message
