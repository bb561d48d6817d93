"""Routing in code: a deterministic intent scorer for a new task, before any model router.

Each specialist declares ``intent_phrases`` (regular-expression phrases in Portuguese and
English, matched with word boundaries on folded text: lower case, accents removed). A message
is routed in code only when it is clear:

* a handoff phrase (a human, an attendant, a complaint) always wins;
* otherwise exactly one enabled, not-escaped specialist must match;
* a bare greeting ("Oi", "Hello, good morning!") with no task goes to ``GREETED``, the
  specialist that presents the business (what the router would pick; no request spent).

Anything else — no phrase, or phrases of two jobs ("cancel and book another") — is ambiguous
and goes to the model router, which sees the route hints. The share of turns that needed
the router is a benchmark figure (``bench.token_economy``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from agent_service.infrastructure.agent.specialists import Specialist

PRIORITY = "handoff"
GREETED = "discovery"
MAX_SCORED_CHARS = 2000
_GREETING = re.compile(
    r"^(?:\W*(?:oi+|ola|opa|e ai|tudo bem|bom dia|boa tarde|boa noite|hi|hello|hey|"
    r"good (?:morning|afternoon|evening)|how are you)\b)+\W*$"
)


def fold(text: str) -> str:
    """Lower case without accents (``"Endereço"`` → ``"endereco"``)."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


@lru_cache(maxsize=64)
def _pattern(phrases: tuple[str, ...]) -> re.Pattern[str]:
    body = "|".join(phrase.replace(" ", r"\s+") for phrase in phrases)
    return re.compile(r"(?<![a-z0-9])(?:" + body + r")(?![a-z0-9])")


def matching(message: str, specialists: Sequence[Specialist]) -> list[str]:
    """The specialists one of whose phrases occurs in ``message``, in their order."""
    folded = fold(message[:MAX_SCORED_CHARS])
    return [
        spec.name
        for spec in specialists
        if spec.intent_phrases and _pattern(spec.intent_phrases).search(folded)
    ]


def clear_route(message: str, specialists: Sequence[Specialist], escaped: Sequence[str]) -> str:
    """The specialist a clear message belongs to, or ``""`` when the model router must decide."""
    candidates = [spec for spec in specialists if spec.name not in escaped]
    matched = matching(message, candidates)
    if PRIORITY in matched:
        return PRIORITY
    if not matched and _GREETING.match(fold(message[:MAX_SCORED_CHARS]).strip()):
        return GREETED if any(spec.name == GREETED for spec in candidates) else ""
    return matched[0] if len(matched) == 1 else ""
