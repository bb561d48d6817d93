"""Real streaming (issue 23 item 3), over real gRPC with one agent replica: the model's text
reaches the caller while the model is still writing, only as far as it passes the check the
final reply uses, and the deltas add up to the final reply (for a reply that passes whole, the
one SendMessage returns for the same turn; SendMessage itself never streams or binds). The
model is the offline model streamed by a script that can hold it after a sentence (until the
test has the first delta: ordered by the event itself, never a time), rewrite its text (a
hostile model) or write text before its tool calls."""

from __future__ import annotations

import asyncio
import functools
import random
import re
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCalls, FunctionModel

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda_kit.mongo import EmbeddedMongo
from agent_service.bootstrap import Overrides
from agent_service.infrastructure.agent.models import tool_call_deltas
from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.agent.streaming import _complete_sentences
from tests.agent_service.integration.agent_fixtures import (
    AUTH,
    Customer,
    agent_stack,
    agent_stub,
    booking_day,
    booking_request_text,
    channel_to,
    seed_demo_salon,
)

pytest_plugins = ["tests.kit.mongo_fixtures"]
ASKED = "Quais serviços vocês têm?"
INVENTED = "O corte custa R$ 987,65."
HOLD = object()
SENTENCE_END = re.compile(r"[.!?…]+(?=\s)|\n")
Script = Callable[[str], list[object]]


def as_written(text: str) -> list[object]:
    return [text]


@dataclass
class ScriptedModel:
    """The offline model's decisions, streamed; ``script`` turns a reply's text into the
    pieces the stream yields (``HOLD``: wait for ``released``); ``chatty`` writes text before
    a write tool's call in the same response."""

    script: Script = as_written
    chatty: str = ""
    released: asyncio.Event = field(default_factory=asyncio.Event)
    requests: dict[str, int] = field(default_factory=lambda: {"whole": 0, "streamed": 0})

    async def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        """The same response as ``stream`` writes, whole (a turn whose text nobody receives
        asks for it whole: SendMessage)."""
        self.requests["whole"] += 1
        response = offline_model_function(messages, info)
        calls = _calls(response)
        if calls:
            chatty = [TextPart(self.chatty)] if self.chatty and _books(calls) else []
            return ModelResponse(parts=[*chatty, *calls])
        pieces = self.script("".join(p.content for p in response.parts if isinstance(p, TextPart)))
        return ModelResponse(parts=[TextPart("".join(p for p in pieces if isinstance(p, str)))])

    async def stream(
        self, messages: list[ModelMessage], info: AgentInfo
    ) -> AsyncIterator[str | DeltaToolCalls]:
        self.requests["streamed"] += 1
        response = offline_model_function(messages, info)
        calls = _calls(response)
        if calls:
            if self.chatty and _books(calls):
                yield self.chatty
            yield tool_call_deltas(calls)
            return
        text = "".join(p.content for p in response.parts if isinstance(p, TextPart))
        for piece in self.script(text):
            if piece is HOLD:
                await self.released.wait()
            else:
                assert isinstance(piece, str)
                yield piece

    def model(self) -> FunctionModel:
        return FunctionModel(self.respond, stream_function=self.stream, model_name="offline")


def _calls(response: ModelResponse) -> list[ToolCallPart]:
    """The response's tool calls, as a model that writes its listings itself (no
    show_customer) makes them: its text is what is streamed."""
    return [
        ToolCallPart(part.tool_name, without_show(part.args_as_dict()), part.tool_call_id)
        for part in response.parts
        if isinstance(part, ToolCallPart)
    ]


def _books(calls: list[ToolCallPart]) -> bool:
    return any(call.tool_name == "book_appointment" for call in calls)


def without_show(args: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in args.items() if k != "show_customer"}


@dataclass
class Salon:
    tenant_id: str
    stub: object
    model: ScriptedModel

    def customer(self) -> Customer:
        return Customer(self.stub, self.tenant_id)  # type: ignore[arg-type]


@pytest.fixture
async def salon(embedded_mongo: EmbeddedMongo, tmp_path: Path) -> AsyncIterator[Salon]:
    scripted = ScriptedModel()
    async with agent_stack(embedded_mongo, tmp_path, replicas=0) as stack:
        app = await stack.start_replica(Overrides(model=scripted.model()))
        async with channel_to(app.port) as channel:
            tenant_id = await seed_demo_salon(channel)
            yield Salon(tenant_id, agent_stub(channel), scripted)


async def streamed(
    customer: Customer, text: str, on_text: Callable[[], None] = lambda: None
) -> list[pb.StreamMessageResponse]:
    request = pb.StreamMessageRequest(message=customer.request(text, uuid.uuid4().hex))
    events = []
    async for event in customer.stub.StreamMessage(request, metadata=AUTH, timeout=60):
        events.append(event)
        if event.WhichOneof("event") == "text_delta":
            on_text()
    customer.conversation_id = events[-1].final.conversation_id
    return events


def deltas(events: list[pb.StreamMessageResponse]) -> str:
    return "".join(e.text_delta for e in events if e.WhichOneof("event") == "text_delta")


def progress_after_first_text(events: list[pb.StreamMessageResponse]) -> list[str]:
    kinds = [e.WhichOneof("event") for e in events]
    first = kinds.index("text_delta")
    return [e.progress for e in events[first:] if e.WhichOneof("event") == "progress"]


def first_sentence_then_hold(text: str) -> list[object]:
    """The reply up to its first sentence end, then a hold. A lead-in ("Nossos serviços:") is
    judged with the line it introduces, so the first sentence the stream can release ends
    after it."""
    ends = [m.end() for m in SENTENCE_END.finditer(text) if not text[: m.start()].endswith(":")]
    assert ends and ends[0] < len(text), f"the reply needs two sentences: {text!r}"
    return [text[: ends[0]], HOLD, text[ends[0] :]]


async def test_first_text_arrives_while_the_model_is_still_writing(salon: Salon) -> None:
    salon.model.script = first_sentence_then_hold
    events = await streamed(salon.customer(), ASKED, salon.model.released.set)
    # The model was held after its first sentence until the test had a delta: the delta came
    # before the rest of the reply was written, and the turn went on after it.
    assert salon.model.released.is_set()
    assert "remember" in progress_after_first_text(events)
    final = events[-1].final
    assert final.reply and deltas(events) == final.reply
    twin = await salon.customer().say(ASKED)
    assert twin.reply == final.reply  # what SendMessage returns for the same turn


async def test_an_invented_price_is_never_streamed(salon: Salon) -> None:
    first = _complete_sentences((await salon.customer().say(ASKED)).reply)
    salon.model.script = lambda text: [_complete_sentences(text), INVENTED]
    events = await streamed(salon.customer(), ASKED)
    final = events[-1].final
    assert "987" not in deltas(events) and "987" not in final.reply
    assert deltas(events) == final.reply == first.strip()  # streamed text is binding
    assert "987" not in (await salon.customer().say(ASKED)).reply  # SendMessage: checked whole

    salon.model.script = lambda text: [f"{INVENTED} ", text]  # the first sentence is false
    events = await streamed(salon.customer(), ASKED)
    final = events[-1].final
    assert "987" not in deltas(events) and "987" not in final.reply
    assert deltas(events) == final.reply and final.reply


async def test_a_proposal_turn_streams_none_of_the_models_text(salon: Salon) -> None:
    salon.model.chatty = "Corte feminino com a Ana, combinado. "
    customer = salon.customer()
    events = await streamed(customer, booking_request_text(booking_day()))
    final = events[-1].final
    assert final.pending.id and "Confirma" in final.reply, final.reply
    assert "combinado" not in final.reply
    assert "remember" not in progress_after_first_text(events)  # all text after the turn
    assert deltas(events) == final.reply


async def test_a_redelivered_message_streams_the_stored_reply(salon: Salon) -> None:
    customer = salon.customer()
    request = customer.request(ASKED, "wamid-stream-1")
    first = [
        e
        async for e in customer.stub.StreamMessage(
            pb.StreamMessageRequest(message=request), metadata=AUTH, timeout=60
        )
    ]
    customer.conversation_id = first[-1].final.conversation_id
    again = [
        e
        async for e in customer.stub.StreamMessage(
            pb.StreamMessageRequest(message=request), metadata=AUTH, timeout=60
        )
    ]
    assert again[-1].final.duplicate and not first[-1].final.duplicate
    assert again[-1].final.reply == first[-1].final.reply == deltas(again) == deltas(first)
    sent = await customer.stub.SendMessage(request, metadata=AUTH, timeout=60)
    assert sent.duplicate and sent.reply == first[-1].final.reply


FALSE_SENTENCES = (
    ("O corte custa R$ 987,65.", "987"),
    ("Ligue para (11) 98765-4321.", "98765"),
    ("Veja https://promo.example.com/desconto agora.", "promo.example"),
    ("Temos horário hoje às 23:47.", "23:47"),
    ("Pronto, seu horário foi agendado com sucesso.", "sucesso"),
)


def sentences_of(text: str) -> list[str]:
    """``text`` a line at a time (each piece one sentence, with its line break)."""
    return text.splitlines(keepends=True)


def written_instead(written: str, _text: str) -> list[object]:
    return list(sentences_of(written))


async def test_generated_hostile_replies_stream_only_checked_text(salon: Salon) -> None:
    """The category, not one sentence: true sentences of the reply and false ones (a price,
    a phone, a link, a time, a claimed booking) mixed in generated orders; nothing false is
    ever streamed, the deltas add up to the final reply, and SendMessage sends nothing false."""
    true = sentences_of((await salon.customer().say(ASKED)).reply)
    assert len(true) > 2
    chooser = random.Random(23)
    for _ in range(6):
        false = chooser.sample(FALSE_SENTENCES, 2)
        pieces = [*true, *(sentence for sentence, _ in false)]
        chooser.shuffle(pieces)
        written = "\n".join(piece.strip() for piece in pieces)  # a sentence per line
        salon.model.script = functools.partial(written_instead, written)
        events = await streamed(salon.customer(), ASKED)
        final, sent = events[-1].final, await salon.customer().say(ASKED)
        for _, marker in false:
            assert marker not in deltas(events) and marker not in final.reply, written
        for _, marker in false:
            assert marker not in sent.reply, written  # SendMessage: the whole reply, checked
        assert deltas(events) == final.reply, written
        if pieces[0] in true:  # a true first sentence is streamed before the false one
            assert deltas(events).startswith(pieces[0].strip()), (written, final.reply)


async def test_only_a_turn_whose_text_reaches_a_caller_streams_the_model(salon: Salon) -> None:
    """Streaming costs CPU on every step of a run (an event per chunk, the capability's
    checks): a SendMessage turn, whose text nobody receives, asks the model for its response
    whole; a StreamMessage turn streams it."""
    requests = salon.model.requests
    await salon.customer().say(ASKED)
    whole = requests["whole"]
    assert whole > 0 and requests["streamed"] == 0
    salon.model.released.set()
    await streamed(salon.customer(), ASKED)
    assert requests["whole"] == whole and requests["streamed"] > 0
