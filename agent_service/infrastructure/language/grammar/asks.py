"""What a message asks for, read from the language data: one reading for the code-level route
(``agent/intent.py``) and the offline model (``offline/intents.py``).

A message asks for (:func:`asked`):

* ``complaint``: a phrase of ``[intents].complaint``;
* ``appointments``, the customer's own: ``[intents].appointments`` or ``.cancel_other``, a
  move "de X pra Y" (``move_verbs``, ``from_words``, ``to_words``), one's own appointment
  named by its day and sent somewhere ("minha barba de sexta pro sábado", whatever the verb),
  or a request to list them (:func:`asks_for_listing`);
* ``faq``: ``[intents].faq``; or ``.policy_question`` ("até quando posso cancelar?", about
  the rules, so no request about the customer's appointments); or an opening-hours question
  (``[faq].hours_question``) that asks for no booking;
* ``booking``: ``[intents].booking`` or ``.times_question``; or a day or time named with a
  weak booking phrase ("I need an appointment tomorrow") or with a discovery question ("how
  much is it, and are you free tomorrow?" asks for both), in a message not about the
  customer's own appointments ("my appointment on Friday");
* ``discovery``: ``[intents].discovery``; or who does a service, in any verb (a word of
  ``[intents].people`` and a kind of service the lexicon knows: "quem dá aula de bateria?").

Table phrases are read as the conversation's ``language`` reads them (``vocabulary.found``:
Spanish "fechas" is no Portuguese "fecha", closes). Nothing here names a language.
"""

from __future__ import annotations

import functools
import re
from typing import Literal, get_args

from agent_service.infrastructure.language.grammar.calendar_names import calendar_names
from agent_service.infrastructure.language.grammar.vocabulary import (
    Vocabulary,
    alternation,
    any_of,
    bounded,
    found,
    union,
    vocabularies,
)
from agent_service.infrastructure.language.grammar.when import has_when_mention
from agent_service.infrastructure.language.lexicon import service_lexicon

Ask = Literal["complaint", "appointments", "faq", "booking", "discovery"]
ASKS: frozenset[str] = frozenset(get_args(Ask))
BUSINESS_ASKS: frozenset[Ask] = frozenset({"faq", "discovery"})
"""What asks about the business itself: its FAQ or its catalog."""
REQUEST_ASKS: frozenset[Ask] = frozenset({"booking", "appointments"})
"""What asks for something done: a booking, or a change of one's appointments."""

QUESTION = re.compile(r"\?|^(?:" + alternation(union("intents", "question_start")) + r")\b")
"""A question: a question mark, or a message that starts with a question word."""


def asks_about_appointments(folded: str, language: str | None = None) -> bool:
    """The customer's own appointments: cancel/move/"my appointment" words
    (``[intents].appointments``, read as ``language`` reads them), a move "de X pra Y", or a
    request to list them."""
    return bool(
        found("intents", "appointments", folded, language)
        or _move_between().search(folded)
        or moves_own(folded, language)
        or asks_for_listing(folded)
    )


@functools.cache
def _move_between() -> re.Pattern[str]:
    verb, source = union("intents", "move_verbs"), union("intents", "from_words")
    target = union("intents", "to_words")
    return bounded(
        rf"(?:{alternation(verb)})\b.{{0,40}}\b(?:{alternation(source)})\s+\S+"
        rf"(?:[\s-]*(?:{alternation(union('dates', 'weekday_suffixes'))}))?\s+"
        rf"(?:{alternation(target)})"
    )


def moves_own(folded: str, language: str | None = None) -> bool:
    """One's own appointment named by its day and sent to another (see :func:`_move_mine`),
    in ``language``'s words (every spoken language's when none)."""
    spoken = [v.code for v in vocabularies()]
    codes = [language] if language in spoken else spoken
    found = (m for code in codes for m in _move_mine(code).finditer(folded))
    return any(_names_an_appointment(match.group()) for match in found)


def _names_an_appointment(said: str) -> bool:
    """``said`` names an appointment: an appointment noun (``[listing].appointment_nouns``)
    or a kind of service (the service lexicon): "minha barba de sexta", "my Friday
    appointment"; not "my shifts from Thursday", "minha folga de quinta"."""
    if any_of("listing", "appointment_nouns").search(said):
        return True
    return bool(service_lexicon().kinds_in(said))


@functools.cache
def _move_mine(code: str) -> re.Pattern[str]:
    """One's own appointment named by its day, then the day it goes to, whatever the verb:
    "joga minha barba de sexta pro sábado", "bump my Friday beard trim to Saturday", "mi barba
    del viernes al sábado", "¿me pasan la terapia del viernes al sábado?" (a possessive or a
    definite article, ``[listing].definite_articles``; the day it is on right after it, or after a
    ``from_words`` word within four words; at most three words; a ``to_words`` word; a day),
    all in one language's words, with no "and" (``[ranges].and_words``) and no punctuation
    between. A new booking names no day it is on already: "para mi esposo mañana a las 10",
    "minha filha quer unha amanhã pra festa", "minha barba de sexta e unha pro sábado" and
    "minhas férias são de sexta a domingo" (no Portuguese "to") move nothing."""
    v = Vocabulary(code)
    word = rf"(?:\s+(?!(?:{v.alt('matching', 'and_words')})(?![a-z0-9']))[a-z0-9']+)"
    days = [*calendar_names(v).weekdays, *(w for k in _RELATIVE for w in v.words("dates", k))]
    day = rf"(?:{alternation(days)})(?:[\s-]*(?:{v.alt('dates', 'weekday_suffixes')}))?"
    on = rf"(?:\s+{day}|{word}{{0,4}}?\s+(?:{v.alt('intents', 'from_words')})\s+{day})"
    target = v.alt("intents", "to_words")
    owner = alternation(
        [*v.words("listing", "possessives"), *v.words("listing", "definite_articles")]
    )
    return bounded(rf"(?:{owner}){on}{word}{{0,3}}?\s+(?:{target})\s+(?:[a-z]+\s+)?{day}")


_RELATIVE = ("today", "tomorrow", "day_after_tomorrow")


@functools.cache
def _listing() -> tuple[re.Pattern[str], ...]:
    def words(key: str) -> str:
        return alternation(union("listing", key))

    near = r"(?:\s+[a-z0-9']+){0,3}\s+"
    booked = bounded(rf"(?:{words('question_words')}){near}(?:{words('booked_words')})")
    nouns, have = words("appointment_nouns"), words("have_words")
    held = bounded(
        rf"(?:{words('question_words')})(?:\s+[a-z0-9']+){{0,2}}\s+"
        rf"(?:(?:{nouns}){near}(?:{have})|(?:{have}){near}(?:{nouns}))"
    )
    return booked, held, _mine()


@functools.cache
def _mine() -> re.Pattern[str]:
    """A possessive before an appointment noun ("meus horários", "my booking", "mi cita")."""
    possessives = alternation(union("listing", "possessives"))
    return bounded(rf"(?:{possessives})\s+(?:{alternation(union('listing', 'appointment_nouns'))})")


@functools.cache
def _have_booked() -> re.Pattern[str]:
    have, booked = (
        alternation(union("listing", "have_words")),
        alternation(union("listing", "booked_words")),
    )
    return bounded(rf"(?:{have})(?:\s+[a-z0-9']+){{0,3}}\s+(?:{booked})")


def asks_for_listing(folded: str) -> bool:
    """ "o que eu marquei?", "what have I got booked?", "¿qué citas tengo?", "meus horários",
    "tenho algo marcado?" (the ``[listing]`` table: a question word near a booked-verb, or near
    "have" and an appointment noun, or a possessive before an appointment noun; or, in a
    question, "have" near a booked-verb)."""
    if any(pattern.search(folded) for pattern in _listing()):
        return True
    return bool(QUESTION.search(folded) and _have_booked().search(folded))


@functools.lru_cache(maxsize=256)
def asked(folded: str, language: str | None = None) -> frozenset[Ask]:
    """Everything ``folded`` (``application.text.normalize``d) asks for (see the module); read
    once per message and language (the route and the consent policy both ask). The
    words that name the customer's own appointment ("cancelar meu agendamento", "cancel my
    appointment for Friday") are read as that, not also as a booking's words."""

    def said(table: str, *keys: str, text: str = folded) -> bool:
        return any(found(table, key, text, language) for key in keys)

    asks: set[Ask] = set()
    if said("intents", "complaint"):
        asks.add("complaint")
    policy = said("intents", "policy_question")  # about the rules, not a request
    own = not policy and (
        said("intents", "cancel_other") or asks_about_appointments(folded, language)
    )
    if own:
        asks.add("appointments")
    rest = _without_own(folded, language) if own else folded
    discovery = said("intents", "discovery", text=rest) or _who_does(rest, language)
    booking = said("intents", "booking", "times_question", text=rest) or (
        not own and (discovery or said("intents", "booking_weak")) and has_when_mention(folded)
    )
    if booking:
        asks.add("booking")
    faq = policy or said("intents", "faq", text=rest)
    if faq or (not booking and said("faq", "hours_question", text=rest)):
        asks.add("faq")
    if discovery:
        asks.add("discovery")
    return frozenset(asks)


def _who_does(folded: str, language: str | None) -> bool:
    """A question about who does something, in any words: a word asking for people
    (``[intents].people``: "quem", "who", "quién"; "quem dá aula de bateria?", "quem mexe com
    bike elétrica aí?") — the catalog's (discovery lists who does what), never the FAQ's: an
    entry sharing a word with it ("bike") answers another question. Who someone is ("quem é
    você?", "who are you?", "who owns the salon?") is no such question."""
    if not QUESTION.search(folded) and "?" not in folded:
        return False
    if not found("intents", "people", folded, language):
        return False
    if _identity().search(folded) is None:
        return True
    lexicon = service_lexicon()  # "who is the nutritionist?": who someone is, of a service
    return bool(set(lexicon.kinds_in(folded)) - lexicon.qualifiers)


@functools.cache
def _identity() -> re.Pattern[str]:
    """A word asking for people right before a word of ``[intents].people_identity`` ("quem
    é", "who are", "con quién hablo"): who someone is, not who does what."""
    people = alternation(union("intents", "people"))
    identity = alternation(union("intents", "people_identity"))
    return bounded(rf"(?:{people})\s+(?:(?:eu|i|yo)\s+)?(?:{identity})")


def _without_own(folded: str, language: str | None) -> str:
    """``folded`` without the phrases that name the customer's own appointments
    (``[intents].appointments``, a possessive before an appointment noun)."""
    phrases = found("intents", "appointments", folded, language)
    if phrases:  # the very text found, longest first
        said = "|".join(map(re.escape, sorted(set(phrases), key=len, reverse=True)))
        folded = bounded(said).sub(" ", folded)
    return _mine().sub(" ", folded)


_ANOTHER_TIME = (
    ("times", "earlier"), ("times", "later"), ("times", "earlier_verbs"),
    ("times", "later_verbs"), ("ranges", "earliest"), ("ranges", "latest"),
)  # fmt: skip
_GRAMMAR = (
    ("matching", "stopwords"), ("consent", "filler"), ("consent", "change"),
    ("intents", "question_start"), ("times", "asked_with"), ("parts", "morning"),
    ("parts", "afternoon"), ("parts", "evening"),
)  # fmt: skip


@functools.cache
def _another_time() -> re.Pattern[str]:
    return bounded(alternation([w for key in _ANOTHER_TIME for w in union(*key)]))


@functools.cache
def _grammar() -> frozenset[str]:
    words = {w for key in _GRAMMAR for phrase in union(*key) for w in phrase.split()}
    nouns = (e.rpartition(" ") for e in union("numbers", "counted"))
    return frozenset(words | {noun for noun, _, what in nouns if what in ("times", "options")})


def without_another_time(folded: str) -> str:
    """``folded`` with its earlier, later, earliest and latest phrases blanked ("mais tarde?"
    names no afternoon)."""
    return _another_time().sub(" ", folded)


def asks_another_time(folded: str) -> bool:
    """A question that asks only for another time: an earlier, later, earliest or latest
    phrase ("mais cedo?", "nothing earlier that morning?", "¿se puede adelantar?", "the latest
    you have?") and besides it only grammar, courtesy, change words, a part of the day, a day,
    or a noun of free times. A word of another action makes it about that action ("devo chegar
    mais cedo?", "posso pagar depois?", "vocês abrem mais cedo no sábado?": asides)."""
    if not QUESTION.search(folded) or not _another_time().search(folded):
        return False
    rest = without_another_time(folded)
    left = [w for w in re.findall(r"[a-z]+", rest) if w not in _grammar() and w not in _days()]
    return not left


@functools.cache
def _days() -> frozenset[str]:
    """The words of a day in every language: weekdays and relative days ("quarta", "amanha")."""
    words: set[str] = set()
    for v in vocabularies():
        names = [*calendar_names(v).weekdays, *(w for k in _RELATIVE for w in v.words("dates", k))]
        words |= {w for name in names for w in name.split()}
    return frozenset(words)
