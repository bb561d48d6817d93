"""``offline``: a deterministic rule-based model (Portuguese and English) behind Pydantic AI's
``FunctionModel``. It drives the same tools through the same graph as a real model, sees only
what a real model sees (instructions, messages, tool results), and says plainly when it does
not understand."""

from __future__ import annotations

from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo

from agent_service.infrastructure.agent.offline import catalog
from agent_service.infrastructure.agent.offline.appointments_flow import appointments_step
from agent_service.infrastructure.agent.offline.booking_flow import booking_step
from agent_service.infrastructure.agent.offline.context import OfflineContext, read_context
from agent_service.infrastructure.agent.offline.nlu import classify_intent, normalize
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.offline.responses import call, failure_detail, text
from agent_service.infrastructure.agent.tools.results import DayHours, FaqAnswer, OpeningHours
from agent_service.infrastructure.language.grammar.vocabulary import any_of

ROUTE_TOOL = "route_to"
ESCAPE_TOOL = "transfer_to_router"
ESCAPE_CONFIDENCE = 0.6
ESCAPE_FROM_READERS = 0.5
INTENT_OWNER = {
    "booking": "booking",
    "appointments": "appointments",
    "discovery": "discovery",
    "faq": "faq",
    "handoff": "handoff",
}
SPECIALIST_BY_TOOL = {
    "book_appointment": "booking",
    "cancel_appointment": "appointments",
    "reschedule_appointment": "appointments",
    "list_my_appointments": "appointments",
    "search_faq": "faq",
    "handoff_to_human": "handoff",
}


def offline_model_function(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    ctx = read_context(messages, info.instructions)
    output_tools = {tool.name: tool for tool in info.output_tools}
    if ROUTE_TOOL in output_tools:
        allowed = output_tools[ROUTE_TOOL].parameters_json_schema["properties"]["specialist"][
            "enum"
        ]
        return call(ROUTE_TOOL, specialist=route(ctx.text, list(allowed)))
    me = _who_am_i({tool.name for tool in info.function_tools})
    if not ctx.results and _should_escape(ctx, me):
        return call(ESCAPE_TOOL, reason=ctx.text[:200])
    return STEPS[me](ctx)


def route(message: str, allowed: list[str]) -> str:
    """The specialist for a message; greetings go to discovery, the unknown to FAQ (which
    says plainly when it does not know)."""
    intent, _ = classify_intent(message)
    owner = INTENT_OWNER.get(intent)
    if owner in allowed:
        return owner
    if intent == "appointments" and "booking" in allowed:
        return "discovery"
    fallback = "faq" if intent == "unknown" and "faq" in allowed else "discovery"
    return fallback if fallback in allowed else allowed[0]


def _who_am_i(tools: set[str]) -> str:
    for tool, name in SPECIALIST_BY_TOOL.items():
        if tool in tools:
            return name
    return "discovery"


def _should_escape(ctx: OfflineContext, me: str) -> bool:
    """The seed's escape rule: a clear request for another specialist goes back to the router."""
    if ctx.pending is not None and me in ("booking", "appointments"):
        return False
    intent, confidence = classify_intent(ctx.text)
    owner = INTENT_OWNER.get(intent)
    # The FAQ and discovery specialists cannot book: any booking signal (even a day or time
    # alone) leaves them at once, so a follow-up is never stuck with a specialist that
    # cannot act on it.
    threshold = ESCAPE_FROM_READERS if me in ("faq", "discovery") else ESCAPE_CONFIDENCE
    if owner is None or owner == me or confidence < threshold:
        return False
    return not (me == "booking" and owner == "discovery")


def _discovery(ctx: OfflineContext) -> ModelResponse:
    wants_people = any_of("intents", "people").search(normalize(ctx.text)) is not None
    if not ctx.results:
        intent, _ = classify_intent(ctx.text)
        if intent == "greeting":
            return text(say("greeting", ctx.language, business=ctx.business))
        return call("list_professionals" if wants_people else "list_services")
    if ctx.called("list_professionals"):
        people = catalog.professionals(ctx.result("list_professionals"))
        items = "\n".join(f"- {p.name} ({p.specialty}): {', '.join(p.services)}" for p in people)
        return text(say("professionals", ctx.language, items=items))
    offered = catalog.services(ctx.result("list_services"))
    items = "\n".join(f"- {s.name}: {s.minutes} min, {s.price}" for s in offered)
    return text(say("services", ctx.language, items=items))


def _faq(ctx: OfflineContext) -> ModelResponse:
    result = ctx.result("search_faq")
    if result is None:
        return call("search_faq", query=ctx.text[:500])
    found = result.data
    if isinstance(found, FaqAnswer) and found.entries:
        entry = found.entries[0]
        return text(say("faq", ctx.language, answer=entry.answer, id=entry.id))
    if isinstance(found, FaqAnswer) and found.hours is not None:
        return text(opening_hours_text(found.hours, ctx.language))
    unknown = classify_intent(ctx.text)[0] != "unknown"
    return text(say("faq_unknown" if unknown else "not_understood", ctx.language))


def opening_hours_text(hours: OpeningHours, language: str) -> str:
    """ "Abrimos segunda, das 08:00 às 18:00; terça a sexta, das 08:00 às 19:00. Fechado:
    domingo." — consecutive days with the same hours said together."""
    groups: list[list[DayHours]] = []
    for day in hours.days:
        last = groups[-1][-1] if groups else None
        if last is not None and (last.opens, last.closes) == (day.opens, day.closes):
            groups[-1].append(day)
        else:
            groups.append([day])
    spans = [
        say("opening_day", language, opens=group[0].opens, closes=group[0].closes,
            days=group[0].weekday if len(group) == 1
            else say("opening_range", language, first=group[0].weekday, last=group[-1].weekday))
        for group in groups
    ]  # fmt: skip
    reply = say("opening_hours", language, days="; ".join(spans))
    if hours.closed:
        reply += " " + say("closed_days", language, days=", ".join(hours.closed))
    return reply


def _handoff(ctx: OfflineContext) -> ModelResponse:
    result = ctx.result("handoff_to_human")
    if result is None:
        return call("handoff_to_human", reason=ctx.text[:200])
    if result.code == "HANDED_OFF":
        return text(say("handoff", ctx.language))
    return text(say("failed", ctx.language, detail=failure_detail(result)))


STEPS = {
    "booking": booking_step,
    "appointments": appointments_step,
    "discovery": _discovery,
    "faq": _faq,
    "handoff": _handoff,
}
