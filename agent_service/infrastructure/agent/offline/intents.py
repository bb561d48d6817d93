"""What the customer wants (intent) and whether a reply is a yes or a no.

Intent rules (the phrases of every spoken language's ``[intents]`` table, matched on folded
text with word boundaries):

* ``handoff`` beats everything (a human, attendant, manager, complaint).
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

from agent_service.infrastructure.agent.offline.text import normalize
from agent_service.infrastructure.agent.offline.when import has_when_mention
from agent_service.infrastructure.language.grammar.vocabulary import (
    alternation,
    any_of,
    bounded,
    union,
)

__all__ = [
    "Intent",
    "asks_for_times",
    "cancels_in_other_words",
    "classify_intent",
    "is_affirmative",
    "is_negative",
]

Intent = Literal["discovery", "booking", "appointments", "faq", "handoff", "greeting", "unknown"]


def _rx(*phrases: str) -> re.Pattern[str]:
    """A word-bounded alternation of regex phrases (spaces match any whitespace run)."""
    body = "|".join(p.replace(" ", r"\s+") for p in phrases)
    return re.compile(r"(?<![a-z0-9])(?:" + body + r")(?![a-z0-9])")


_HANDOFF = _rx(
    r"falar (?:com|c|c/) (?:um |uma |o |a |algum |alguma )?(?:humano|atendente|pessoa"
    r"|gerente|responsavel|alguem|dono|dona|funcionari[oa]|recepcao|recepcionista)",
    r"atendimento humano", r"atendente", r"humano", r"pessoa (?:de verdade|real)",
    r"gerente", r"reclama\w*", r"quero reclamar", r"human", r"(?:live |real )?agent",
    r"real person", r"manager", r"complain\w*", r"complaint", r"representative",
    r"operator", r"(?:speak|talk) (?:to|with) (?:someone|somebody|a person)",
)  # fmt: skip
# Cancelling in negative words about the customer's OWN appointment ("não quero mais o meu
# corte", "não vou poder ir na minha massagem", "I can't make it to my haircut"). Without the
# possessive ("não quero mais o corte") the words may just decline what was proposed a moment
# ago, so they are left to the decline; a bare "não quero mais"/"never mind" is a decline.
_CANCEL_IN_OTHER_WORDS = _rx(
    r"nao (?:vou|vai|irei) (?:mais )?(?:poder|conseguir|dar pra) (?:ir|comparecer)"
    r" (?:n[oa]|a|ao|em) (?:meu|minha)",
    r"nao (?:quero|preciso) mais (?:d?[oa] )?(?:meu|minha) \w+",
    r"(?:can'?t|cannot|won'?t(?: be able to)?|will not(?: be able to)?|not able to)"
    r" make (?:it )?(?:to )?my",
    r"(?:don'?t|do not|no longer) need my [a-z' ]{1,40}?(?:any ?more|now)?",
)  # fmt: skip


def cancels_in_other_words(text: str) -> bool:
    """Whether the message cancels an appointment without the word "cancel"."""
    return _CANCEL_IN_OTHER_WORDS.search(normalize(text)) is not None


_BOOKING = any_of("intents", "booking")
_BOOKING_WEAK = any_of("intents", "booking_weak")
_DISCOVERY = any_of("intents", "discovery")
_FAQ = any_of("intents", "faq")
_GREETING = any_of("intents", "greeting")
_QUESTION = re.compile(r"\?|^(?:" + alternation(union("intents", "question_start")) + r")\b")
_TIMES_QUESTION = any_of("intents", "times_question")
_ANYONE = any_of("intents", "anyone")
# A question about the rules, not a request: "até quando posso cancelar?" is answered from
# the FAQ.
_POLICY_QUESTION = any_of("intents", "policy_question")
_RANKED: tuple[tuple[Intent, re.Pattern[str], float], ...] = (
    ("booking", _BOOKING, 1.0),
    ("booking", _BOOKING_WEAK, 0.5),
    ("booking", _TIMES_QUESTION, 1.0),
    ("booking", _ANYONE, 1.0),  # "quais horários a profissional X tem?" is booking
    ("discovery", _DISCOVERY, 1.0),
    ("faq", _FAQ, 1.0),
)


def wants_anyone(text: str) -> bool:
    """Any professional will do ("tanto faz", "anyone", "me da igual")."""
    return _ANYONE.search(normalize(text)) is not None


def asks_about_appointments(folded: str) -> bool:
    """The customer's own appointments: cancel/move/"my appointment" words
    (``[intents].appointments``), a move "de X pra Y" (``move_verbs``, ``from_words``,
    ``to_words``), or a request to list them (:func:`asks_for_listing`)."""
    return bool(
        any_of("intents", "appointments").search(folded)
        or _move_between().search(folded)
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


@functools.cache
def _listing() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    def words(key: str) -> str:
        return alternation(union("listing", key))

    near = r"(?:\s+[a-z0-9']+){0,3}\s+"
    booked = bounded(rf"(?:{words('question_words')}){near}(?:{words('booked_words')})")
    nouns, have = words("appointment_nouns"), words("have_words")
    held = bounded(
        rf"(?:{words('question_words')})(?:\s+[a-z0-9']+){{0,2}}\s+"
        rf"(?:(?:{nouns}){near}(?:{have})|(?:{have}){near}(?:{nouns}))"
    )
    mine = bounded(rf"(?:{words('possessives')})\s+(?:{nouns})")
    return booked, held, mine


def asks_for_listing(folded: str) -> bool:
    """ "o que eu marquei?", "what have I got booked?", "¿qué citas tengo?", "meus horários"
    (the ``[listing]`` table: a question word near a booked-verb, or near "have" and an
    appointment noun, or a possessive before an appointment noun)."""
    return any(pattern.search(folded) for pattern in _listing())


def classify_intent(text: str) -> tuple[Intent, float]:
    """The customer's intent and a confidence in [0, 1]."""
    folded = normalize(text)
    if _HANDOFF.search(folded):
        return "handoff", 0.95
    if _POLICY_QUESTION.search(folded):
        return "faq", 0.9
    if any_of("faq", "hours_question").search(folded) and not _BOOKING.search(folded):
        return "faq", 0.9  # "what time do you open on Saturdays?": the opening hours
    if asks_about_appointments(folded) or _CANCEL_IN_OTHER_WORDS.search(folded):
        return "appointments", 0.95
    scores: dict[Intent, float] = {}
    for intent, pattern, weight in _RANKED:
        hits = len(pattern.findall(folded))
        if hits:
            scores[intent] = scores.get(intent, 0.0) + weight * hits
    if scores.get("discovery") and has_when_mention(text):
        # "corte amanhã às 10h, tanto faz o profissional": a day or time asks for a booking.
        scores["booking"] = scores.get("booking", 0.0) + scores["discovery"]
    if scores:
        intent = max(scores, key=lambda name: (scores[name], -_order(name)))
        return intent, round(min(0.95, 0.6 + 0.15 * scores[intent]), 2)
    return _fallback(text, folded)


def _order(intent: Intent) -> int:
    return ("booking", "discovery", "faq").index(intent)


def _fallback(text: str, folded: str) -> tuple[Intent, float]:
    if has_when_mention(text):
        return "booking", 0.5
    if _QUESTION.search(folded):
        return "faq", 0.4
    if _GREETING.search(folded):
        return "greeting", 0.9
    return "unknown", 0.0


# --- yes / no ----------------------------------------------------------------------------

_FILLER = r"(?:(?:ah+|ahn|hm+|hum+|entao|bom|oi|ola|ok entao|well|oh|so|uh+|um+|err?)\W*\s*)*"
_AGREEING = _rx(
    r"nao tem problema", r"sem problemas?", r"nao ha problema", r"no problem", r"no worries",
    r"why not", r"por que nao", r"porque nao",
)  # fmt: skip
_UNSURE = _rx(
    r"nao sei", r"sei la", r"talvez", r"maybe", r"not sure", r"i don'?t know", r"dunno",
    r"perhaps", r"nao tenho certeza", r"vou pensar", r"let me think",
)  # fmt: skip
_NEG_START = re.compile(
    _FILLER + r"(?:nao|nop|nope|nah|negativo|melhor nao|acho que nao|de jeito nenhum|jamais"
    r"|nunca|cancela\w*|cancel|deixa pra la|esquece|never\s?mind|not now|not really"
    r"|nem|n|no(?=\s*(?:$|[,.!;?]|\s(?:thanks|thank|need|i|it|not|please|sorry|way|that"
    r"|thats|longer|more|to)\b)))(?![a-z0-9'])"
)
_NEG_ANYWHERE = _rx(
    r"nao (?:pode|quero|precisa|confirmo|marca|marque|posso|vou|da|obrigad[oa])",
    r"not (?:ok|okay|now|good|really|sure|yet|interested|today)", r"don'?t", r"do not",
    r"doesn'?t", r"won'?t", r"can'?t", r"cannot", r"i'?d rather not",
)  # fmt: skip
_NEG_END = re.compile(r"(?<![a-z0-9])(?:nao|no|not)\W*$")
_STRONG_YES = (
    r"sim", r"s", r"pode sim", r"pode marcar", r"pode ser", r"pode confirmar", r"confirm\w*",
    r"ok", r"okay", r"okey", r"k", r"beleza", r"blz", r"perfeito", r"fechado", r"claro",
    r"com certeza", r"isso mesmo", r"isso ai", r"exatamente", r"exato", r"correto", r"bora",
    r"manda ver", r"ta bom", r"ta otimo", r"otimo", r"combinado", r"fechou", r"demorou",
    r"pode pa", r"partiu",
    r"quero sim", r"acho que sim", r"yes", r"y", r"yeah", r"yea", r"yep", r"yup",
    r"sure", r"go ahead", r"please do", r"sounds good", r"of course", r"absolutely",
    r"definitely", r"correct", r"that'?s right", r"perfect", r"alright", r"all right",
    r"do it", r"book it", r"works for me", r"that works", r"let'?s do it",
)  # fmt: skip
_WEAK_YES = (
    r"isso", r"pode", r"certo", r"ta", r"show", r"top", r"vamos", r"por\s+favor", r"right",
    r"fine", r"great", r"good",
)  # fmt: skip
_ANY_YES = "|".join(p.replace(" ", r"\s+") for p in _STRONG_YES + _WEAK_YES)
_YES_START = re.compile(
    _FILLER + r"(?:(?:" + "|".join(p.replace(" ", r"\s+") for p in _STRONG_YES)
    + r")(?![a-z0-9'])|(?:" + "|".join(_WEAK_YES) + r")(?=\s*$|\s*[,.!;]|\s+(?:" + _ANY_YES
    + r")(?![a-z0-9'])))"
)  # fmt: skip


def is_negative(text: str) -> bool:
    """Whether the message says no (declines, cancels, negates)."""
    if "👎" in text:
        return True
    folded = normalize(text)
    if _AGREEING.search(folded) or _UNSURE.search(folded):
        return False
    return bool(_NEG_START.match(folded) or _NEG_ANYWHERE.search(folded) or _NEG_END.search(folded))


def is_affirmative(text: str) -> bool:
    """Whether the message says yes (agrees, confirms); never true when it is negative."""
    if is_negative(text):
        return False
    folded = normalize(text)
    if _UNSURE.search(folded):
        return False
    return "👍" in text or bool(_YES_START.match(folded) or _AGREEING.search(folded))


# --- questions for free times ------------------------------------------------------------


def asks_for_times(text: str) -> bool:
    """Whether the message asks which times are free (a new question, not a choice of time)."""
    return bool(_TIMES_QUESTION.search(normalize(text)))
