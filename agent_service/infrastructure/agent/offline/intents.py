"""What the customer wants (intent) and whether a reply is a yes or a no.

Intent rules (the phrases of every spoken language's ``[intents]`` table, matched on folded
text with word boundaries):

* ``handoff`` beats everything: an explicit request for a person, read with the language
  data's ``[handoff]`` phrases by the same policy as the code-level handoff (one vocabulary),
  or a complaint (``[intents].complaint``).
* ``appointments`` (the customer's existing ones: cancel, reschedule, "my appointment", a move
  "de X pra Y", or asking for the list: :func:`asks_for_listing`) beats the booking words, so
  "quero cancelar e marcar outro" is ``appointments``. The nouns ``cancelamento``/
  ``cancellation`` are not cancel requests ("política de cancelamento" is faq).
* Otherwise the highest score among ``booking``, ``discovery`` and ``faq`` wins; strong phrases
  score 1, weak ones ("quero um", "available", "appointment") 0.5; ties go to booking, then
  discovery, then faq.
* With no keyword: a date/time mention alone ("amanhã às 10") is ``booking`` at 0.5; any other
  question (``?`` or a leading question word) is ``faq`` at 0.4; a greeting is ``greeting``;
  anything else is ``unknown`` with confidence 0.0.
* Confidence: 0.95 for handoff/appointments, else ``min(0.95, 0.6 + 0.15 * score)`` for the
  keyword intents; greetings 0.9.

Yes/no rules (:func:`is_affirmative`, :func:`is_negative`; never both true):

* Negative: the message starts (after fillers such as "ah", "então", "well") with a negative
  phrase ("não", "nope", "melhor não", "cancela", "never mind"...), ends with "não"/"no", is
  "n", or negates a verb/agreement anywhere ("não pode", "not ok", "don't", "do not").
  Portuguese ``no`` (= "in the") only counts when alone or followed by punctuation or an
  English word ("no thanks").
* Phrases that look negative but agree ("não tem problema", "no problem", "why not") are yes;
  uncertainty ("não sei", "talvez", "maybe", "not sure", "vou pensar") is neither yes nor no.
* A question is not a yes when its only yes-word is a weak one ("pode?", "isso?").
* Affirmative: not negative, and the message starts with an affirmative phrase. Weak words
  that are also ordinary words ("isso", "pode", "certo", "tá", "right", "fine", "great") must be
  followed by the end of the message, punctuation or another affirmative phrase.
* A 👍 counts as yes and a 👎 as no (checked on the raw text).
"""

from __future__ import annotations

import functools
import re
from typing import Literal

from agent_service.application.handoff_policy import asks_for_person
from agent_service.infrastructure.agent.messages import DEFAULT_LANGUAGE
from agent_service.infrastructure.agent.offline.text import normalize
from agent_service.infrastructure.agent.offline.when import (
    has_when_mention,
    names_only_a_weekday,
    without_moments_ahead,
)
from agent_service.infrastructure.language.grammar.asks import (
    QUESTION,
    asks_about_appointments,
)
from agent_service.infrastructure.language.grammar.ranges import wants_earliest, wants_latest
from agent_service.infrastructure.language.grammar.vocabulary import (
    alternation,
    any_of,
    found,
    union,
)
from agent_service.infrastructure.language.grammar.when import says_a_range
from agent_service.infrastructure.language.lexicon import service_lexicon
from agent_service.infrastructure.language.rules import language_rules

__all__ = [
    "Intent",
    "asks_for_times",
    "cancels_in_other_words",
    "classify_intent",
    "is_affirmative",
    "is_negative",
    "is_reluctant",
]

Intent = Literal["discovery", "booking", "appointments", "faq", "handoff", "greeting", "unknown"]


def asks_for_handoff(folded: str) -> bool:
    """A request for a person — the same ``[handoff]`` phrases of the language data the
    code-level handoff reads (``application/handoff_policy``; "falar com um atendente", not a
    lone "humano" inside a product question) — or a complaint (``[intents].complaint``)."""
    rules = language_rules()
    phrases = [rules.handoff(code) for code in rules.in_play(DEFAULT_LANGUAGE)]
    return asks_for_person(folded, phrases) or bool(any_of("intents", "complaint").search(folded))


def cancels_in_other_words(text: str) -> bool:
    """Whether the message cancels the customer's own appointment without the word "cancel"
    (``[intents].cancel_other``: "não vou poder ir na minha massagem", "I can't make it to my
    haircut"; with the possessive only, see the data)."""
    return any_of("intents", "cancel_other").search(normalize(text)) is not None


_GREETING = any_of("intents", "greeting")
_TIMES_QUESTION = any_of("intents", "times_question")
_ANYONE = any_of("intents", "anyone")
# (intent, [intents] key, weight): each phrase found adds the weight to the intent's score.
_RANKED: tuple[tuple[Intent, str, float], ...] = (
    ("booking", "booking", 1.0),
    ("booking", "booking_weak", 0.5),
    ("booking", "times_question", 1.0),
    ("booking", "anyone", 1.0),  # "quais horários a profissional X tem?" is booking
    ("discovery", "discovery", 1.0),
    ("faq", "faq", 1.0),
)


def wants_anyone(text: str) -> bool:
    """Any professional will do ("tanto faz", "anyone", "me da igual")."""
    return _ANYONE.search(normalize(text)) is not None


def classify_intent(text: str, language: str | None = None) -> tuple[Intent, float]:
    """The customer's intent and a confidence in [0, 1]; the intent words are read as a
    conversation in ``language`` reads them (``vocabulary.found``: Spanish "fechas" is no
    Portuguese "fecha", closes); past a question about the rules, the words of a moment
    counted from now ("in 3 hours") are no intent's: its "hours" asks nothing about the
    opening hours."""
    folded = normalize(text)
    if asks_for_handoff(folded):
        return "handoff", 0.95
    if found("intents", "policy_question", folded, language):
        return "faq", 0.9  # about the rules, not a request: "até quando posso cancelar?"
    folded = without_moments_ahead(folded)
    # "the first opening", "o primeiro horário livre": the earliest or latest asks for times,
    # and its words ask nothing about the opening hours
    first_or_last = wants_earliest(folded) or wants_latest(folded)
    opening = found("faq", "hours_question", _without_first_or_last(folded), language)
    if opening and not found("intents", "booking", folded, language):
        return "faq", 0.9  # "what time do you open on Saturdays?": the opening hours
    if asks_about_appointments(folded, language) or cancels_in_other_words(folded):
        return "appointments", 0.95
    scores: dict[Intent, float] = {}
    for intent, key, weight in _RANKED:
        hits = len(found("intents", key, folded, language))
        if hits:
            scores[intent] = scores.get(intent, 0.0) + weight * hits
    if first_or_last:
        scores["booking"] = scores.get("booking", 0.0) + 1.0
    if scores.get("discovery") and has_when_mention(text):
        # "corte amanhã às 10h, tanto faz o profissional": a day or time asks for a booking.
        scores["booking"] = scores.get("booking", 0.0) + scores["discovery"]
    if scores:
        intent = max(scores, key=lambda name: (scores[name], -_order(name)))
        return intent, round(min(0.95, 0.6 + 0.15 * scores[intent]), 2)
    return _fallback(text, folded)


def _without_first_or_last(folded: str) -> str:
    for phrases in (any_of("ranges", "earliest"), any_of("ranges", "latest")):
        folded = phrases.sub(lambda m: " " * len(m.group()), folded)
    return folded


def _asks_whether_a_day(text: str, folded: str) -> bool:
    """A yes/no question whose only date is a weekday, naming no service and no part of the
    day: "o Rodrigo trabalha segunda?", "¿Vanessa trabaja los lunes?". Asking which, when or
    what time ("¿cuándo tiene libre Rafael el viernes?", "the latest on Saturday?", a service
    "after 3") asks for times: a booking's question."""
    if not QUESTION.search(folded) or not names_only_a_weekday(text):
        return False
    if any_of("listing", "question_words").search(folded) or service_lexicon().kinds_in(folded):
        return False
    return not (wants_earliest(folded) or wants_latest(folded) or says_a_range(text))


def _order(intent: Intent) -> int:
    return ("booking", "discovery", "faq").index(intent)


def _fallback(text: str, folded: str) -> tuple[Intent, float]:
    if _asks_whether_a_day(text, folded):
        # "a Helena atende terça?": whether someone works a day, no request for a time (the
        # FAQ's answer: the business's hours, or the professional it names and their week)
        return "faq", 0.4
    if has_when_mention(text):
        return "booking", 0.5
    if QUESTION.search(folded):
        return "faq", 0.4
    if _GREETING.search(folded):
        return "greeting", 0.9
    return "unknown", 0.0


# --- yes / no ----------------------------------------------------------------------------
# The words are data ([replies] of every language file); the structure is here: fillers may
# lead, a strong yes stands alone, a weak yes ("isso", "right") only at the end or before another
# yes, and a bare "no" is a refusal only before what [replies].no_before names (Portuguese "no"
# is also "in the": "no sábado").


def _phrases(key: str) -> str:
    return alternation(union("replies", key))


@functools.cache
def _reply_patterns() -> dict[str, re.Pattern[str]]:
    filler = rf"(?:(?:{_phrases('filler')})(?![a-z0-9'])\W*\s*)*"
    strong, weak = _phrases("strong_yes"), _phrases("weak_yes")
    return {
        "agreeing": any_of("replies", "agreeing"),
        "unsure": any_of("replies", "unsure"),
        "neg_start": re.compile(
            rf"{filler}(?:{_phrases('negative_start')}|no(?=\s*(?:$|[,.!;?]"
            rf"|\s(?:{_phrases('no_before')})(?![a-z0-9']))))(?![a-z0-9'])"
        ),
        "neg_anywhere": any_of("replies", "negative_anywhere"),
        "neg_end": re.compile(rf"(?<![a-z0-9])(?:{_phrases('negative_end')})\W*$"),
        "yes_start": re.compile(
            rf"{filler}(?:(?:{strong})(?![a-z0-9'])|(?:{weak})(?=\s*$|\s*[,.!;]"
            rf"|\s+(?:{strong}|{weak})(?![a-z0-9'])))"
        ),
    }


def is_negative(text: str) -> bool:
    """Whether the message says no (declines, cancels, negates)."""
    if "👎" in text:
        return True
    folded = normalize(text)
    rules = _reply_patterns()
    if rules["agreeing"].search(folded) or rules["unsure"].search(folded):
        return False
    return bool(
        rules["neg_start"].match(folded)
        or rules["neg_anywhere"].search(folded)
        or rules["neg_end"].search(folded)
    )


def is_reluctant(text: str) -> bool:
    """Whether the message says no or holds back ("não, vou pensar", "let me think")."""
    return is_negative(text) or bool(_reply_patterns()["unsure"].search(normalize(text)))


def is_affirmative(text: str) -> bool:
    """Whether the message says yes (agrees, confirms); never true when it is negative."""
    if is_negative(text):
        return False
    folded = normalize(text)
    rules = _reply_patterns()
    if rules["unsure"].search(folded):
        return False
    said_yes = rules["yes_start"].match(folded) or rules["agreeing"].search(folded)
    return "👍" in text or bool(said_yes)


# --- questions for free times ------------------------------------------------------------


def asks_for_times(text: str) -> bool:
    """Whether the message asks which times are free (a new question, not a choice of time)."""
    return bool(_TIMES_QUESTION.search(normalize(text)))
