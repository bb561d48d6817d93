"""The system's own words for what a tool's structured result says, per language.

Tools return structures (``tools/results``: a refusal's reason code, who offers a service, an
empty list of appointments, an FAQ search with no match); these are the sentences that state
them, from the ``outcomes`` part of each locale file. They are used three ways, so a true
outcome always has one wording the truth check knows:

* the truth check (``grounded.judge``) takes the sentences of **this conversation's
  structured results** as told: a reply sentence that is one of them states what a tool
  returned, whatever specialist wrote it (``statements``'s "told from the tools");
* the offline model phrases these outcomes with them (``offline/refusals``, ``booking_flow``);
* a real model may phrase them its own way; if the check refuses its words, the reply is
  rendered from the same outcomes (``truth``).

A sentence is only ever rendered from a result the turn holds: :func:`told` never renders a
refusal no tool returned, a "you have no appointments" for a customer who has one, or a "who
offers it" that the salon's listing does not say.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from agent_service.infrastructure.agent.messages import Sentences
from agent_service.infrastructure.agent.tools.results import (
    AnyResult,
    DayTimes,
    Failed,
    FaqAnswer,
    FreeTimes,
    NoMatch,
    NotAvailable,
    NotOffered,
    Professionals,
    Retry,
    Services,
)

say = Sentences("outcomes")
"""The outcome sentence ``key`` in ``language`` (English when unknown), filled in."""
_listing = Sentences("listings")

RETRY_REASONS = frozenset({"past", "beyond_horizon"})
"""The refusals a tool gives as a retry of its arguments (``tools/bounds``)."""


def refusal_reason(data: AnyResult | None, retry: Retry | None) -> str | None:
    """The refusal's reason code, from a ``NOT_AVAILABLE`` result, a free-times result with a
    closed day, or a tool's retry; ``None`` if the result is no refusal."""
    if isinstance(data, NotAvailable):
        return data.reason
    if isinstance(data, FreeTimes) and any(day.closed for day in data.days):
        return "closed_day"
    if isinstance(data, FreeTimes) and any(day.day_off for day in data.days):
        return "day_off"
    if retry is not None and retry.reason in RETRY_REASONS:
        return retry.reason
    return None


def refusal(data: AnyResult | None, retry: Retry | None, language: str) -> str | None:
    """Why a time cannot be had, and the nearest free times (or how to find others);
    ``None`` if the result is no refusal."""
    reason = refusal_reason(data, retry)
    if reason is None:
        return None
    refused = data if isinstance(data, NotAvailable) else None
    horizon = refused.horizon_days if refused else (retry.horizon_days if retry else None)
    if reason == "beyond_horizon" and horizon is None:
        reason = "beyond_horizon_unstated"
    sentence = say(f"refusal_{reason}", language, days=str(horizon or ""))
    off = [d.professional for d in data.days if d.day_off] if isinstance(data, FreeTimes) else []
    if reason == "day_off" and off:  # a free-times check: whose day off it is
        sentence = say("refusal_day_off_named", language, professional=off[0])
    if reason == "day_off" and refused is not None and refused.working_that_day:
        sentence += " " + say("day_off_others", language, names=", ".join(refused.working_that_day))
    if refused is None or not refused.nearest:
        return f"{sentence} {say('try_other_day', language)}"
    offer = say("nearest_times", language, times=", ".join(refused.nearest))
    hint = f" {say('more_times', language)}" if refused.more else ""
    return f"{sentence} {offer}{hint}"


def not_offered(professional: str, service: str, offered_by: Sequence[str], language: str) -> str:
    """``professional`` does not do ``service``; who does (the salon's listing order)."""
    key = "not_offered" if offered_by else "not_offered_anyone"
    return say(
        key, language, professional=professional, service=service, items=", ".join(offered_by)
    )


def failure_note(data: Failed) -> str:
    """Why a tool did not do it: its note as the tools localized it, without the codes that
    lead it ("NOT FOUND: ...", "NOT DONE: TURNED DOWN: ..."); its reason code when it has
    none."""
    return _CODES.sub("", data.note).strip() or data.reason


_CODES = re.compile(r"^(?:\s*[A-Z][A-Z_ ]*[A-Z]:)+")
"""The upper-case codes a tool's note starts with, each ending in a colon."""


def failed(data: Failed, language: str) -> str:
    """Not done, and why (``failure_note``)."""
    return say("failed", language, detail=failure_note(data))


@dataclass(frozen=True, slots=True)
class Held:
    """One structured result a conversation holds: ``this_turn`` when it returned after the
    latest customer message."""

    data: AnyResult | None
    retry: Retry | None
    this_turn: bool


def local_day(day: DayTimes, language: str) -> str:
    """``terça-feira 01/12/2026`` / ``Tuesday 2026-12-01``: the weekday as the tool named it."""
    return _listing("local_day", language, weekday=day.weekday, day=date.fromisoformat(day.day))


def no_free_day(day: DayTimes, language: str) -> str:
    """That a professional has no free time on a day they work (a free-times result's day with
    none): an absence is told in the system's words only (``statements``)."""
    return say("no_free_day", language, professional=day.professional, day=local_day(day, language))


def none_free(data: AnyResult | None, language: str) -> list[str]:
    """:func:`no_free_day` for each day of a free-times result with no free time, not closed."""
    days = data.days if isinstance(data, FreeTimes) else []
    return [no_free_day(day, language) for day in days if not day.times and not day.closed]


def told(
    held: Iterable[Held], languages: Sequence[str], has_upcoming: bool, *, catalog: bool = True
) -> list[str]:
    """Every outcome sentence the results ``held`` make true, in ``languages``: the refusals
    and "not offered", "not done" and "no match" results of this turn, the best answer of
    this turn's FAQ search (the salon's own words), each day of this turn's free times with
    none free (:func:`no_free_day`), each "not offered" pair the
    conversation's latest service and professional listings state, and — only when the
    customer has no upcoming appointment on record — that they have none. ``catalog=False``:
    this turn's outcomes alone."""
    found: list[str] = []
    services: Services | None = None
    professionals: Professionals | None = None
    for item in held:
        if isinstance(item.data, Services):
            services = item.data
        elif isinstance(item.data, Professionals):
            professionals = item.data
        if not item.this_turn:
            continue
        if isinstance(item.data, FaqAnswer) and item.data.entries:  # the salon's own words
            found += [entry.answer for entry in item.data.entries[: item.data.answering]]
        for language in languages:
            text = refusal(item.data, item.retry, language)
            if text is not None:
                found.append(text)
            if isinstance(item.data, NotOffered):
                found.append(
                    not_offered(
                        item.data.professional, item.data.service, item.data.offered_by, language
                    )
                )
            if isinstance(item.data, Failed):
                found.append(failed(item.data, language))
            if isinstance(item.data, NoMatch):
                found.append(say("faq_unknown", language))
            found += none_free(item.data, language)
    if catalog and services is not None and professionals is not None:
        found += _catalog_not_offered(services, professionals, languages)
    if not has_upcoming:
        found += [say("no_appointments", language) for language in languages]
    return found


def _catalog_not_offered(
    services: Services, professionals: Professionals, languages: Sequence[str]
) -> list[str]:
    """For each listed professional and listed service they do not offer: the sentence that
    says so, with who does."""
    team = professionals.professionals
    found = []
    for service in services.services:
        offering = [p.name for p in team if service.name in p.services]
        for person in team:
            if service.name in person.services:
                continue
            found += [not_offered(person.name, service.name, offering, c) for c in languages]
    return found
