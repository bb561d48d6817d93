"""Model requests' token counts: Prometheus counters per request, one structured log line
(``model_usage``) per agent run.

``MeteredModel`` wraps whatever model is configured (offline, OpenAI, …) so each request is
recorded with the specialist (or "router") whose run made it, named by ``acting_as``.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import AsyncGenerator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from typing import Any

import structlog
from prometheus_client import Counter
from pydantic import BaseModel
from pydantic_ai import RunContext
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import ModelRequestParameters, StreamedResponse
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.settings import ModelSettings

from agent_service.infrastructure.agent.history import MAX_PART_CHARS, bounded_messages
from agent_service.infrastructure.agent.tools.results import Result

log = structlog.get_logger("agenda.model")

MODEL_REQUESTS = Counter("agenda_model_requests_total", "Model requests", ["specialist"])
MODEL_TOKENS = Counter("agenda_model_tokens_total", "Model tokens", ["specialist", "direction"])


@dataclasses.dataclass(slots=True)
class RunUsage:
    """What one agent run's requests used."""

    specialist: str
    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


_run: ContextVar[RunUsage | None] = ContextVar("agenda_model_run", default=None)


@contextmanager
def acting_as(specialist: str) -> Iterator[RunUsage]:
    """Attribute the model requests made inside the block (one agent run) to ``specialist``;
    on leaving it, log what they used as one ``model_usage`` line."""
    usage = RunUsage(specialist)
    token = _run.set(usage)
    try:
        yield usage
    finally:
        _run.reset(token)
        if usage.requests:
            log.info(
                "model_usage",
                specialist=specialist,
                requests=usage.requests,
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
            )


class MeteredModel(WrapperModel):
    """The configured model, recording each request's input and output tokens."""

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        sent = messages if surely_bounded(messages) else bounded_messages(messages)
        response = await super().request(sent, model_settings, model_request_parameters)
        record_request(response.usage.input_tokens, response.usage.output_tokens)
        return response

    @asynccontextmanager
    async def request_stream(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
        run_context: RunContext[Any] | None = None,
    ) -> AsyncGenerator[StreamedResponse]:
        """The same as ``request``, streamed (``streaming.py``): bounded messages, and the
        tokens recorded once the stream is read."""
        sent = messages if surely_bounded(messages) else bounded_messages(messages)
        async with super().request_stream(
            sent, model_settings, model_request_parameters, run_context
        ) as stream:
            yield stream
        usage = stream.usage
        record_request(usage.input_tokens, usage.output_tokens)


def record_request(input_tokens: int, output_tokens: int) -> None:
    """Counters for one request, added to the current run's usage (``acting_as``)."""
    usage = _run.get() or RunUsage("unknown")
    usage.requests += 1
    usage.input_tokens += input_tokens
    usage.output_tokens += output_tokens
    MODEL_REQUESTS.labels(usage.specialist).inc()
    MODEL_TOKENS.labels(usage.specialist, "input").inc(input_tokens)
    MODEL_TOKENS.labels(usage.specialist, "output").inc(output_tokens)


_PLAIN = frozenset({int, float, bool, type(None), datetime, date})
Values = Callable[[Any], tuple[Any, ...]]
_VALUES: dict[type, Values | None] = {}
_UNSEEN: Any = object()


def surely_bounded(value: Any) -> bool:
    """Whether every text in ``value`` (messages: dataclasses, lists, dicts, scalars) is at
    most ``MAX_PART_CHARS`` — checked on the objects, without ``bounded_messages``' JSON dump
    of the whole history on every request. False when a text is longer or when a value is of
    a kind not looked into here (bytes, models whose JSON adds text, subclasses…): the caller
    then checks the JSON. One loop over a stack of values, not a call per value: a request's
    history holds hundreds of them."""
    pending = [value]
    take, extend = pending.pop, pending.extend
    while pending:
        item = take()
        kind = type(item)
        if kind is str:
            if len(item) > MAX_PART_CHARS:
                return False
        elif kind in _PLAIN:
            continue
        elif kind is list or kind is tuple:
            extend(item)
        elif kind is dict:
            extend(item.values())
        else:
            values = _VALUES.get(kind, _UNSEEN)
            if values is _UNSEEN:
                values = _VALUES[kind] = _values_of(kind)
            if values is None:
                return False
            extend(values(item))
    return True


def _values_of(kind: type) -> Values | None:
    """One C-level getter of ``kind``'s field values, in field order (``_names``)."""
    names = _names(kind)
    if names is None:
        return None
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda item: (one(item),)
    return operator.attrgetter(*names) if names else lambda item: ()


def _names(kind: type) -> tuple[str, ...] | None:
    """The attributes whose values are all the texts ``kind``'s JSON can hold: a dataclass's
    fields; a pydantic model's (a tool's result) when its serialisation adds none of its own
    (``_fields_only``); None for any other kind (not looked into)."""
    if dataclasses.is_dataclass(kind):
        return tuple(field.name for field in dataclasses.fields(kind))
    if issubclass(kind, BaseModel) and _fields_only(kind.__pydantic_core_schema__):
        return tuple(kind.model_fields)
    return None


_KEY_DROPPING = frozenset(
    serializer.func for serializer in Result.__pydantic_decorators__.model_serializers.values()
)
"""Model serializers whose output is their default output with keys left out (the tool
results' ``_compact``): the fields' values are still a superset of what is dumped."""


def _fields_only(schema: Any) -> bool:
    """Whether a pydantic core schema dumps nothing but its models' field values as they are:
    no custom serializer (but ``_KEY_DROPPING`` ones), no computed field, no extra fields."""
    pending = [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            serialization = node.get("serialization")
            if serialization is not None and serialization.get("function") not in _KEY_DROPPING:
                return False
            if node.get("computed_fields"):
                return False
            if node.get("extra_fields_behavior") == "allow" or node.get("extras_schema"):
                return False
            pending.extend(node.values())
        elif isinstance(node, list | tuple):
            pending.extend(node)
    return True
