"""``offline``: a deterministic rule-based model (Portuguese and English) behind Pydantic AI's
``FunctionModel``. It drives the same tools through the same graph as a real model, sees only
what a real model sees (instructions, messages, tool results), and says plainly when it does
not understand."""

from __future__ import annotations

from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo

from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.listings import listing_text
from agent_service.infrastructure.agent.offline.appointments_flow import appointments_step
from agent_service.infrastructure.agent.offline.booking_flow import booking_step
from agent_service.infrastructure.agent.offline.context import OfflineContext, read_context
from agent_service.infrastructure.agent.offline.nlu import classify_intent, normalize
from agent_service.infrastructure.agent.offline.nudges import nudged
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.offline.responses import call, failure_detail, text
from agent_service.infrastructure.agent.offline.upcoming import intent_of
from agent_service.infrastructure.agent.tools.results import NoMatch
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
        return call(ROUTE_TOOL, specialist=route(ctx, list(allowed)))
    me = _who_am_i({tool.name for tool in info.function_tools})
    if not ctx.results and _should_escape(ctx, me):
        return call(ESCAPE_TOOL, reason=ctx.text[:200])
    return STEPS[me](ctx)


def route(ctx: OfflineContext, allowed: list[str]) -> str:
    """The specialist for a message; greetings go to discovery, the unknown to FAQ (which
    says plainly when it does not know)."""
    intent, _ = intent_of(ctx)
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
    if ctx.turned_down is not None and me in ("booking", "appointments") and nudged(ctx):
        return False  # "antecipar?" of the proposal just asked: its owner proposes that way
    intent, confidence = intent_of(ctx)
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
        intent, _ = classify_intent(ctx.text, ctx.language)
        if intent == "greeting":
            return text(messages.text("greeting", ctx.language, business=ctx.business))
        # the listing is the reply: the system shows it and the run ends (listings.py)
        return call("list_professionals" if wants_people else "list_services", show_customer=True)
    tool = "list_professionals" if ctx.called("list_professionals") else "list_services"
    return _listed(ctx, tool)


def _faq(ctx: OfflineContext) -> ModelResponse:
    if ctx.result("search_faq") is None:
        # a message it does not understand is not shown the search's "not in our FAQ"
        understood = classify_intent(ctx.text, ctx.language)[0] != "unknown"
        return call("search_faq", query=ctx.text[:500], show_customer=understood)
    return _listed(ctx, "search_faq")


def _listed(ctx: OfflineContext, tool: str) -> ModelResponse:
    """The listing a tool returned, in the system's words (when the system did not end the
    run with it: not asked, or an agent without ``SystemReplies``); a search with no answer
    for a message the model did not understand is said as not understood."""
    result = ctx.result(tool)
    data = result.data if result is not None else None
    if isinstance(data, NoMatch) and classify_intent(ctx.text, ctx.language)[0] == "unknown":
        return text(say("not_understood", ctx.language))
    return text(listing_text(data, ctx.language) or say("not_understood", ctx.language))


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
