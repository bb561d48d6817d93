"""The booking specialist's offline behaviour: fill service, professional, day and time from
the customer's words, check availability, ask for confirmation, book."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time

from pydantic_ai.messages import ModelResponse

from agent_service.domain.availability import local_instant
from agent_service.infrastructure.agent.offline import catalog
from agent_service.infrastructure.agent.offline.context import OfflineContext
from agent_service.infrastructure.agent.offline.nlu import best_match, is_negative, parse_when
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.offline.responses import (
    call,
    calls,
    confirmation_summary,
    done_summary,
    failure_detail,
    text,
)


@dataclass
class Request:
    service: catalog.ServiceInfo | None
    professional: catalog.ProfessionalInfo | None
    day: date | None
    at: time | None


def booking_step(ctx: OfflineContext) -> ModelResponse:
    pending = ctx.pending or {}
    confirmed = pending.get("tool") == "book_appointment" and pending.get("confirmed")
    if confirmed and not ctx.called("book_appointment"):
        return call("book_appointment", **pending["arguments"])
    booked = ctx.result("book_appointment")
    if booked is not None:
        return _after_book(ctx, booked.text)
    if is_negative(ctx.text) and not ctx.results:
        return text(say("declined", ctx.language))
    if not ctx.called("list_services"):
        return calls("list_services", "list_professionals")
    return _next_question_or_action(ctx)


def _next_question_or_action(ctx: OfflineContext) -> ModelResponse:
    services = catalog.services(_result_text(ctx, "list_services"))
    professionals = catalog.professionals(_result_text(ctx, "list_professionals"))
    request = _understand(ctx, services, professionals)
    if request.service is None:
        return text(say("ask_service", ctx.language, items=", ".join(s.name for s in services)))
    if request.professional is None:
        names = [p.name for p in professionals if request.service.name in p.services]
        return text(say("ask_professional", ctx.language, items=", ".join(names)))
    if request.day is None:
        return text(
            say(
                "ask_day",
                ctx.language,
                service=request.service.name,
                professional=request.professional.name,
            )
        )
    if request.at is None:
        return _availability(ctx, request)
    start = local_instant(request.day, request.at, ctx.zone).astimezone(ctx.zone)
    return call(
        "book_appointment",
        professional_id=request.professional.id,
        service_id=request.service.id,
        start_time=start.isoformat(),
    )


def _availability(ctx: OfflineContext, request: Request) -> ModelResponse:
    assert request.professional is not None and request.service is not None
    assert request.day is not None
    checked = ctx.result("check_availability")
    if checked is None:
        return call(
            "check_availability",
            professional_id=request.professional.id,
            target_date=request.day.isoformat(),
            service_id=request.service.id,
        )
    day = request.day.strftime("%d/%m" if ctx.language == "pt" else "%Y-%m-%d")
    times = catalog.free_times(checked.text)
    if checked.text.startswith(("NOT FOUND", "UNAVAILABLE")) or checked.is_retry:
        return text(say("failed", ctx.language, detail=failure_detail(checked.text)))
    if not times:
        return text(say("no_times", ctx.language, professional=request.professional.name, day=day))
    return text(
        say(
            "times",
            ctx.language,
            professional=request.professional.name,
            day=day,
            times=", ".join(times[:12]),
        )
    )


def _after_book(ctx: OfflineContext, result: str) -> ModelResponse:
    summary = confirmation_summary(result)
    if summary is not None:
        return text(say("confirm", ctx.language, summary=summary))
    done = done_summary(result)
    if done is not None:
        return text(say("booked", ctx.language, summary=done))
    if result.startswith("PENDING:"):
        return text(say("pending", ctx.language))
    if result.startswith("NOT CONFIRMED YET"):  # the system's receipt says it is in progress
        return text(say("unsettled", ctx.language))
    return text(say("failed", ctx.language, detail=failure_detail(result)))


def _understand(
    ctx: OfflineContext,
    services: list[catalog.ServiceInfo],
    professionals: list[catalog.ProfessionalInfo],
) -> Request:
    service = _first_match(ctx.texts, [s.name for s in services])
    chosen = services[service] if service is not None else None
    offering = [p for p in professionals if chosen is None or chosen.name in p.services]
    professional = _first_match(ctx.texts, [p.name for p in offering])
    person = offering[professional] if professional is not None else None
    if person is None and len(offering) == 1 and chosen is not None:
        person = offering[0]
    day, at = _when(ctx)
    return Request(chosen, person, day, at)


def _first_match(texts: list[str], names: list[str]) -> int | None:
    for candidate in texts:
        index = best_match(candidate, names)
        if index is not None:
            return index
    return None


def _when(ctx: OfflineContext) -> tuple[date | None, time | None]:
    """The newest day mentioned and the newest time mentioned (a later message may change
    only the time, e.g. "11h then")."""
    day = at = None
    for candidate in ctx.texts:
        parsed = parse_when(candidate, ctx.now)
        day = day or parsed.day
        at = at or parsed.at
        if day and at:
            break
    return day, at


def _result_text(ctx: OfflineContext, tool: str) -> str:
    result = ctx.result(tool)
    return result.text if result is not None else ""
