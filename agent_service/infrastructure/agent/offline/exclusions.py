"""What the customer excluded, and the first day left: "qualquer dia menos terça às 7h", "any
day except Thursday", "cualquier día menos hoy y el miércoles", "anyone but Henrique", "só não
quero com o Diego".

Rules:

* What is excluded is read from the message's negated clauses (``corrections.negated``: a
  negation, an "instead of", or an exclusion word, ``[corrections].except``), each of its
  parts (split at commas, ``[matching].and_words`` and ``[corrections].either_words``: "que no
  sea hoy ni el miércoles" excludes both) read alone: the days they name and the
  professionals they name.
* An excluded professional is never among those who may do the service; an excluded day is
  never the request's day.
* A time with no day, when something is excluded or a span is named ("essa semana"), is the
  first day of the span (else of the coming ``MAX_RANGE_DAYS`` days) that is not excluded and
  has that time free with someone who may do the service: one availability check per such
  professional over the days, then that day's proposal; several free then and none named,
  asked among them; none, the day is asked. With no time and no day, the earliest asked for
  ("o primeiro horário livre", "the earliest … you have") is the first free start of those
  days, whoever may do it.
"""

from __future__ import annotations

import functools
import re
from datetime import date, datetime, time, timedelta

from pydantic_ai.messages import ModelResponse, ToolCallPart

from agent_service.infrastructure.agent.offline import catalog
from agent_service.infrastructure.agent.offline.availability_flow import (
    propose_among,
    wants_anyone,
)
from agent_service.infrastructure.agent.offline.context import OfflineContext
from agent_service.infrastructure.agent.offline.corrections import negated
from agent_service.infrastructure.agent.offline.matching import best_person
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.offline.responses import text
from agent_service.infrastructure.agent.offline.when import parse_when
from agent_service.infrastructure.agent.tools.discovery import MAX_RANGE_DAYS
from agent_service.infrastructure.agent.tools.results import FreeTimes
from agent_service.infrastructure.language.grammar.vocabulary import alternation, union

__all__ = ["excluded_days", "excluded_people", "first_day_at"]


@functools.cache
def _parts() -> re.Pattern[str]:
    joins = (*union("matching", "and_words"), *union("corrections", "either_words"))
    return re.compile(rf"[,;]|\s(?:{alternation(joins)})\s", re.I)


def _pieces(refused: str) -> list[str]:
    return [p.strip() for p in _parts().split(refused) if p and p.strip()]


def excluded_days(refused: str, now: datetime) -> frozenset[date]:
    """The days the negated clauses ``refused`` name."""
    days = (parse_when(piece, now).day for piece in _pieces(refused))
    return frozenset(day for day in days if day is not None)


def excluded_people(
    refused: str, professionals: list[catalog.ProfessionalInfo]
) -> list[catalog.ProfessionalInfo]:
    """The professionals the negated clauses ``refused`` name."""
    names = [p.words for p in professionals]
    found = (best_person(piece, names) for piece in _pieces(refused))
    return [professionals[i] for i in sorted({i for i in found if i is not None})]


def first_day_at(
    ctx: OfflineContext,
    service: catalog.ServiceInfo,
    named: catalog.ProfessionalInfo | None,
    professionals: list[catalog.ProfessionalInfo],
    at: time | None,
    span: tuple[date, date] | None,
    excluded: frozenset[date],
) -> ModelResponse:
    """The first day not excluded with ``at`` free with the professional ``named``, else with
    one who does ``service`` and is not excluded (see the module)."""
    unwanted = excluded_people(negated(ctx.text, ctx.language), professionals)
    able = [p for p in professionals if service.name in p.services and p not in unwanted]
    who = [named] if named is not None else able
    today = ctx.now.date()
    first, last = span or (today, today + timedelta(days=MAX_RANGE_DAYS - 1))
    first = max(first, today)
    checked = [r for r in ctx.results if r.tool == "check_availability"]
    if not checked:
        parts = [
            ToolCallPart(
                "check_availability",
                {
                    "professional_id": p.id,
                    "target_date": first.isoformat(),
                    "end_date": last.isoformat(),
                    "service_id": service.id,
                },
            )
            for p in who
        ]
        return ModelResponse(parts=parts, model_name="offline")
    free: dict[tuple[date, str], list[str]] = {}
    for result in checked:
        if not isinstance(result.data, FreeTimes):
            continue
        for times in result.data.days:
            when = date.fromisoformat(times.day)
            if when in excluded or not first <= when <= last or not times.times:
                continue
            wanted = at.strftime("%H:%M") if at is not None else times.times[0]
            if wanted in times.times:
                free.setdefault((when, wanted), []).append(times.professional_id)
    if not free:
        return text(say("ask_day_anyone", ctx.language, service=service.name))
    day, start_at = min(free)
    ids = set(free[(day, start_at)])
    people = [p for p in who if p.id in ids]
    return propose_among(ctx, service, people, day, start_at, anyone=wants_anyone(ctx.texts))
