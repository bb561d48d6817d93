"""Streaming a specialist's reply while the model writes it, only as far as it is safe.

Rules (``StreamedReply``, a capability of each specialist's streaming agent when the model
streams, used only on a turn whose text reaches a caller (``AgentSet.specialist``) —
SendMessage asks for whole responses, so its replies are exactly those of the whole-reply path,
checked and retried as always):

* Text is released **sentence by sentence** (a sentence ends at ``.!?…`` before a space, or
  at a line break; the rest when the model's response ends) by a specialist whose tools only
  read — one with writes or a handoff releases a response's text only once the response
  ended with no tool call — and only when the whole text so far passes ``grounded.judge``
  over the records the output validator uses (this run's tool results: no more than the
  final check has); a prefix that does not pass is held until more text makes it pass.
* Nothing is released on a turn whose reply is the system's own (a pending action, a
  proposal, a decision or handoff settled in code, any receipt or note), nor from a response
  that started a tool call, nor text with a citation tag (``[``), nor past the reply's length,
  nor text that may still turn out to repeat the previous reply (``application/repetition``),
  nor from a second response once one released text.
* **Released text is binding**: once a response released text, it is that response's
  output — the text is cut at the released prefix when a later sentence fails the check, and
  tool calls after it are dropped (``after_model_request``) — so the final reply, which is
  composed by ``truth.final_reply`` as always, begins with exactly what was streamed.
* The released text goes to the turn's progress sink as ``ProgressEvent(text=…)`` (what a
  streaming caller receives as ``text_delta``); with no sink nothing is released and nothing
  binds (a model that writes "Sure! Let me check." before a tool call keeps its tool call).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import (
    AgentStreamEvent,
    ModelResponse,
    PartDeltaEvent,
    PartStartEvent,
    TextPart,
    TextPartDelta,
    ThinkingPart,
    ThinkingPartDelta,
)
from pydantic_ai.models import Model, ModelRequestContext
from pydantic_ai.models.function import FunctionModel
from pydantic_ai.models.wrapper import WrapperModel

from agent_service.application.consent_policy import Outcome
from agent_service.application.engine import ProgressEvent
from agent_service.application.repetition import without_leads
from agent_service.application.text import normalize
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.grounded import judge, tool_texts
from agent_service.infrastructure.agent.repetition import escalation
from agent_service.infrastructure.agent.truth import receipts

_SENTENCE_END = re.compile(r"(?:[.!?…]+(?=\s)|\n)")


def model_streams(model: Model) -> bool:
    """Whether ``model`` answers streamed requests (a ``FunctionModel`` only with a stream
    function)."""
    while isinstance(model, WrapperModel):
        model = model.wrapped
    return not (isinstance(model, FunctionModel) and model.stream_function is None)


@dataclass
class _Response:
    """What one model response wrote so far and how much of it was released."""

    text: str = ""
    text_parts: set[int] = field(default_factory=set)
    blocked: bool = False
    released: str = ""
    tried: str = ""


@dataclass
class StreamedReply(AbstractCapability[AgentDeps]):
    """The module's rules, as a capability (``on_event`` makes ``agent.run`` stream); the
    state of the response being written is the turn's (``TurnState.streaming``).
    ``mid_response`` False (a specialist with writes or a handoff, whose tool calls must not be
    dropped): a response's text is released only once the response ended without a tool call.
    """

    mid_response: bool = True

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None

    async def before_model_request(
        self, ctx: RunContext[AgentDeps], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        ctx.deps.turn.streaming = _Response(blocked=bool(ctx.deps.turn.streamed))
        return request_context

    async def on_event(self, ctx: RunContext[AgentDeps], *, event: AgentStreamEvent) -> None:
        response = ctx.deps.turn.streaming
        if not isinstance(response, _Response) or response.blocked:
            return
        if isinstance(event, PartStartEvent):
            if isinstance(event.part, ThinkingPart):
                return
            if not isinstance(event.part, TextPart) or (
                response.text_parts and event.index not in response.text_parts
            ):
                response.blocked = True  # a tool call (or a second text): nothing more of it
                return
            response.text_parts.add(event.index)
            response.text += event.part.content
        elif isinstance(event, PartDeltaEvent):
            if isinstance(event.delta, ThinkingPartDelta):
                return
            if not isinstance(event.delta, TextPartDelta):
                response.blocked = True
                return
            response.text += event.delta.content_delta
        else:
            return
        if self.mid_response:
            await self._release(ctx, response, _complete_sentences(response.text))

    async def after_model_request(
        self,
        ctx: RunContext[AgentDeps],
        *,
        request_context: ModelRequestContext,
        response: ModelResponse,
    ) -> ModelResponse:
        state, ctx.deps.turn.streaming = ctx.deps.turn.streaming, None
        if not isinstance(state, _Response):
            return response
        texts = [part.content for part in response.parts if isinstance(part, TextPart)]
        only_text = all(isinstance(p, TextPart | ThinkingPart) for p in response.parts)
        if only_text and len(texts) == 1:
            await self._release(ctx, state, texts[0])  # the response's last sentence
        if state.released and (not only_text or "".join(texts).strip() != state.released):
            # Released text is binding: the response is what was streamed, nothing after it.
            response.parts = [TextPart(state.released)]
        return response

    async def _release(self, ctx: RunContext[AgentDeps], response: _Response, text: str) -> None:
        """Release ``text`` (the response's text up to a sentence end) if the module's rules
        allow it; a failing check after a release blocks the rest of the response."""
        deps = ctx.deps
        if deps.turn.progress is None:
            return  # nobody streams: the whole-reply path decides, unchanged
        shown = text.strip()
        if response.blocked or len(shown) <= len(response.released) or shown == response.tried:
            return
        response.tried = shown
        if "[" in shown or not _open_for_text(deps, shown) or _may_repeat(deps, shown):
            if response.released:
                response.blocked = True
            return
        # The records the output validator judges by (fewer than the final check's).
        if not (await judge(deps, shown, tool_texts(ctx.messages), quiet=True)).ok:
            if response.released:
                response.blocked = True  # the response ends at what was released
            return
        delta = shown[len(response.released) :]
        response.released = shown
        deps.turn.streamed = shown
        if deps.turn.progress is not None:
            await deps.turn.progress(ProgressEvent(text=delta))


def _complete_sentences(text: str) -> str:
    """``text`` up to its last sentence end."""
    ends = [match.end() for match in _SENTENCE_END.finditer(text)]
    return text[: ends[-1]] if ends else ""


def _open_for_text(deps: AgentDeps, shown: str) -> bool:
    """The reply of this turn is the model's words alone (``truth.final_reply`` adds nothing
    before or around them, and does not cut them)."""
    turn = deps.turn
    return (
        turn.stream_room > 0
        and len(shown) < turn.stream_room
        and turn.pending is None
        and turn.reask is None
        and not turn.proposed
        and turn.handoff_reason is None
        and turn.consent is Outcome.NONE
        and not turn.change_note
        and not receipts(deps)
    )


def _may_repeat(deps: AgentDeps, shown: str) -> bool:
    """The reply could still be the previous reply again (then it is said another way,
    ``repetition.vary``): the previous reply's body begins with what would be released."""
    previous = deps.turn.previous_reply
    if previous is None:
        return False
    body = normalize(without_leads(previous, escalation(deps.turn.language)))
    said = normalize(shown)[:-1]
    return not body or body.startswith(said)
