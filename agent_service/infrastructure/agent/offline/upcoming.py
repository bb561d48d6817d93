"""A message about one of the customer's upcoming appointments, read against them.

The context's memory lists the customer's upcoming appointments (``OfflineContext.upcoming``).
A message is about one of them when, with nothing pending:

* it has a cancel or move word (``[appointments].cancel_words``/``move_words``: "adia",
  "push", "cambias") or says the customer will not go or no longer needs it
  (``[appointments].cant_make_it``: "não vou conseguir ir", "ya no necesito", "scrap"); or
  it is a question with a possessive (``[listing].possessives``: "com quem ficou minha
  barba?", "what time is my haircut?");
* it names what one of them is: its service (the service lexicon's kinds) or its day;
* and it has no booking phrase (``[intents].booking``: "marca", "book", "reservar").

So "adia minha barba de sexta pra sábado" moves the Friday beard trim instead of booking a
second one, and "ya no necesito el corte del jueves" cancels Thursday's haircut, while "posso
passar aí amanhã pra fazer a barba?" stays a booking.
"""

from __future__ import annotations

import functools
import re
from datetime import datetime

from agent_service.infrastructure.agent.offline.context import OfflineContext
from agent_service.infrastructure.agent.offline.nlu import Intent, classify_intent, parse_when
from agent_service.infrastructure.agent.offline.text import normalize
from agent_service.infrastructure.language.grammar.asks import QUESTION
from agent_service.infrastructure.language.grammar.vocabulary import (
    alternation,
    any_of,
    found,
    union,
)
from agent_service.infrastructure.language.lexicon import service_lexicon


def intent_of(ctx: OfflineContext) -> tuple[Intent, float]:
    """The message's intent (``classify_intent``), read against the customer's upcoming
    appointments: a message about one of them is for the appointments specialist."""
    if ctx.pending is None and about_upcoming(ctx.text, ctx.upcoming, ctx.now, ctx.language):
        return "appointments", 0.9
    return classify_intent(ctx.text, ctx.language)


def about_upcoming(
    text: str, upcoming: tuple[str, ...], now: datetime, language: str | None = None
) -> bool:
    """Whether ``text`` cancels or moves one of ``upcoming`` (see the module's rules)."""
    if not upcoming:
        return False
    folded = normalize(text)
    if found("intents", "booking", folded, language):
        return False
    signals = ("cancel_words", "move_words", "cant_make_it")
    changes = any(any_of("appointments", key).search(folded) for key in signals)
    asks_of_mine = QUESTION.search(folded) and any_of("listing", "possessives").search(folded)
    if not (changes or asks_of_mine):
        return False
    if not changes and anchor_phrase(folded) is not None:
        return False  # "could I add a massage right after my RPG?": a new booking placed by it
    return any(names_item(text, item, now) for item in upcoming)


def names_item(text: str, item: str, now: datetime) -> bool:
    """``text`` names ``item``'s service (its most named kinds) or its day."""
    said = service_lexicon().kinds_in(text)
    top = {kind for kind, count in said.items() if count == max(said.values(), default=0)}
    if top & set(service_lexicon().kinds_in(item)):
        return True
    day = parse_when(text, now).day
    return day is not None and day == parse_when(item, now).day


@functools.cache
def _same_as() -> re.Pattern[str]:
    same = alternation(union("anchors", "same_as"))
    not_after = alternation(union("anchors", "same_as_not"))
    return re.compile(rf"\b(?:{same})\b(?!\s+(?:{not_after})\b)")


def anchor_phrase(folded: str) -> tuple[str, re.Match[str]] | None:
    """The first ``[anchors]`` phrase of ``folded`` and its kind (``right_after``, then
    ``same_day`` first): a
    ``same_as`` word not followed by a ``same_as_not`` word ("mesmo horário" asks for a
    time), or a ``right_after`` phrase (see ``anchors``)."""
    for kind, pattern in (
        ("right_after", any_of("anchors", "right_after")),
        ("same_day", any_of("anchors", "same_day")),
        ("same_as", _same_as()),
    ):
        found = pattern.search(folded)
        if found is not None:
            return kind, found
    return None
