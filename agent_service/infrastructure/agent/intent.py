"""Routing in code: a deterministic reading of a new task, before any model router.

Each specialist declares what a message ``asks`` for when it is that specialist's job;
``language/grammar/asks`` reads it from the language data's ``[intents]`` tables, as the
conversation's language reads them (Portuguese, English, Spanish: a language is its data
file, no phrase is in this code). A kind the grammar does not read itself (a new specialist's
"promotions") is the ``[intents]`` table of that name. A message is routed in code only when
it is clear:

* a complaint always wins (its specialist hands over; an explicit request for a person is
  handed off in code before any routing, ``confirm.py``);
* otherwise exactly one enabled, not-escaped specialist must be asked for;
* a bare greeting ("Oi", "Hello, good morning!", "¡Hola, buenas!"; ``[greeting]``) with no task
  goes to ``GREETED``, the specialist that presents the business (what the router would pick;
  no request spent).

Anything else — nothing asked, or two jobs ("cancel and book another") — is ambiguous and goes
to the model router, which sees the route hints. The share of turns that needed the router is
a benchmark figure (``bench.token_economy``); ``python -m eval.routing`` scores the reading on
messages written for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_service.application.greeting_policy import greets_only
from agent_service.application.text import normalize
from agent_service.infrastructure.agent.specialists import Specialist
from agent_service.infrastructure.language.grammar.asks import ASKS, asked
from agent_service.infrastructure.language.grammar.vocabulary import found
from agent_service.infrastructure.language.rules import language_rules

PRIORITY = "complaint"
GREETED = "discovery"
MAX_SCORED_CHARS = 2000


def clear_route(
    message: str,
    specialists: Sequence[Specialist],
    escaped: Sequence[str],
    language: str | None = None,
) -> str:
    """The specialist a clear message belongs to, or ``""`` when the model router must decide;
    ``language``: the conversation's (None: every language's reading)."""
    candidates = [spec for spec in specialists if spec.name not in escaped]
    folded = normalize(message[:MAX_SCORED_CHARS])
    asks = asked(folded, language)
    matched = [  # in their order
        spec.name
        for spec in candidates
        if spec.asks in asks
        or (spec.asks not in ASKS and spec.asks and found("intents", spec.asks, folded, language))
    ]
    complaint = [spec.name for spec in candidates if spec.asks == PRIORITY]
    if complaint and complaint[0] in matched:
        return complaint[0]
    if not matched and _greets_only(message[:MAX_SCORED_CHARS], language):
        return GREETED if any(spec.name == GREETED for spec in candidates) else ""
    return matched[0] if len(matched) == 1 else ""


def _greets_only(message: str, language: str | None) -> bool:
    rules = language_rules()
    codes = rules.in_play(language) if language else rules.in_play("")
    return greets_only(message, [rules.greeting(code) for code in codes])
