"""What a pending action proposes, as a yes may say it back (the rule is
``application/consent_policy.read_restating``): its own day, time and names, checked against
the customer's words by the date grammar and the fact reader alike, and the words of the
conversation's language data a day, a time or an appointment is said in (only its own: "o"
is an article in Portuguese and an "or" in Spanish)."""

from __future__ import annotations

import functools
import re
from datetime import datetime
from decimal import Decimal

from agent_service.application.consent_policy import Restatement
from agent_service.application.fact_spans import Kind
from agent_service.application.relations import name_words
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction
from agent_service.infrastructure.language.grammar.when import parse_when
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import fact_reader, language_rules


def restatement(deps: AgentDeps, stored: PendingAction, message: str) -> Restatement:
    """What ``stored`` proposes, as ``message`` may say it back (``consent_policy``): whether
    every day and time ``message`` names is the proposal's (read by the date grammar and the
    fact reader alike) and it names no other fact, and the words and numbers it may use."""
    target = stored.details.get("new_start") or stored.details.get("start")
    if not target:
        return Restatement(False, frozenset(), frozenset())
    zone = deps.tenant.zone
    local = datetime.fromisoformat(target).astimezone(zone)
    today = deps.turn.now.astimezone(zone)
    codes = language_rules().in_play(deps.turn.language)
    names = frozenset(
        (word,)
        for key in ("service", "professional")
        for word in name_words(stored.details.get(key, ""))
    )
    own = codes[:1] if deps.turn.language in codes[:1] else ()  # its words in its own sense
    words = names | _restating_words(own)
    hours = (local.hour, local.hour % 12 or 12)  # "14", "2pm": the time read agrees or not
    numbers = frozenset(str(n) for n in (*hours, local.minute, local.day, local.month))
    when = parse_when(message, today)
    agrees = (
        when.day in (None, local.date())
        and when.at in (None, local.time().replace(second=0, microsecond=0))
        and when.window is None
    )
    facts = fact_reader(codes, deps.tenant.time_zone, (), today.date()).facts(message)
    said = {
        (Kind.TIME, local.hour * 60 + local.minute),
        (Kind.DATE, (local.month, local.day)),
        (Kind.WEEKDAY, local.weekday()),
        (Kind.DATETIME, (local.month, local.day, local.hour * 60 + local.minute)),
        *((Kind.NAME, word) for (word,) in names),
        *((Kind.NUMBER, Decimal(n)) for n in numbers),
    }
    agrees = agrees and all(said.intersection(fact.values) for fact in facts)
    return Restatement(agrees, words, numbers)


@functools.cache
def _restating_words(codes: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """The phrases (word tuples) a yes may say a proposal back with, in ``codes``:
    ``[consent].restating``, the relative days, the phrases a day or a time is said in, and
    the weekday and month names."""
    rules = language_rules()
    phrases: list[str] = []
    for code in codes:
        phrases += word_list(code, "consent", "restating")
        phrases += [w for key in _DAY_KEYS for w in word_list(code, "dates", key)]
        phrases += [w for key in _TIME_KEYS for w in word_list(code, "times", key)]
        calendar = rules.calendar(code)
        phrases += [name for name, _ in (*calendar.weekdays, *calendar.months)]
    return frozenset(tuple(_WORD.findall(phrase)) for phrase in phrases)


_DAY_KEYS = ("today", "tomorrow", "day_after_tomorrow", "weekday_this", "weekday_suffixes",
             "month_connectors", "day_before")  # fmt: skip
_TIME_KEYS = ("markers", "word_markers", "hour_marks", "hour_words", "morning_after",
              "afternoon_after", "evening_after", "noon", "midnight")  # fmt: skip
_WORD = re.compile(r"[^\W\d_]+")
