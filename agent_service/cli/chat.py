"""A terminal chat with the assistant over gRPC; without a terminal it plays a short script."""

from __future__ import annotations

import argparse
import contextlib
import getpass
import json
import re
import select
import signal
import sys
import uuid
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import grpc

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda.agent.v1 import types_pb2 as types
from agenda_kit.grpc.limits import MESSAGE_SIZE_OPTIONS
from agent_service.cli.clients import DEMO_TENANT_FILE, agent_address, agent_metadata

_TIME = re.compile(r"\b(\d{2}:\d{2})\b")
CONVERSATIONS_FILE = DEMO_TENANT_FILE.parent / "chat_conversations.json"
"""Each terminal customer's last conversation, so ``--new`` can end it (same customer)."""
DEMO_ZONE = ZoneInfo("America/Sao_Paulo")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--address", default=None, help="agent service address")
    parser.add_argument("--tenant", default=None, help="tenant id (default: the demo tenant)")
    parser.add_argument("--customer", default=None, help="your id on the 'terminal' channel")
    parser.add_argument("--script", action="store_true", help="play the scripted conversation")
    parser.add_argument(
        "--new",
        action="store_true",
        help="start a fresh conversation (the same customer; the last one is ended)",
    )


HANDED_OFF = "CONVERSATION_STATUS_HANDED_OFF"
BACK = "/back"


class Session:
    """One customer talking to the assistant."""

    def __init__(
        self,
        stub: pb_grpc.AgentServiceAsyncStub,
        tenant_id: str,
        customer: str,
        memory: Path | None = None,
    ) -> None:
        self._stub = stub
        self._tenant_id = tenant_id
        self._customer = customer
        self._memory = memory
        self.conversation_id = ""
        self.actions: list[pb.SendMessageResponse] = []
        self.with_human = False
        self.pending: types.PendingAction | None = None
        """The question the last reply asked: its quick replies are numbered choices."""

    def choices(self) -> list[str]:
        """The last question's quick replies as numbered lines ("1) Sim, confirmar")."""
        if self.pending is None:
            return []
        return [f"{n}) {r.label}" for n, r in enumerate(self.pending.quick_replies, start=1)]

    def _request(self, text: str) -> pb.SendMessageRequest:
        """A typed number of a shown choice is sent as that tap (confirm/decline of the
        question's pending id, the structured decision); any other text as text."""
        request = pb.SendMessageRequest(
            tenant_id=self._tenant_id,
            customer=pb.CustomerIdentity(
                channel="terminal", external_id=self._customer, display_name=self._customer
            ),
            conversation_id=self.conversation_id,
            message_id=uuid.uuid4().hex,
            text=text,
        )
        replies = list(self.pending.quick_replies) if self.pending is not None else []
        if self.pending is not None and text.isascii() and text.isdigit():
            number = int(text)
            if 1 <= number <= len(replies):
                chosen = replies[number - 1]
                request.text = chosen.label
                if chosen.choice == types.QUICK_REPLY_CHOICE_CONFIRM:
                    request.confirm_pending_id = self.pending.id
                else:
                    request.decline_pending_id = self.pending.id
        return request

    async def say(self, text: str) -> str:
        reply = await self._stub.SendMessage(
            self._request(text), metadata=agent_metadata("gateway"), timeout=60
        )
        self.pending = reply.pending if reply.HasField("pending") else None
        self.conversation_id = reply.conversation_id
        if self._memory is not None:
            remember(self._memory, self._tenant_id, self._customer, self.conversation_id)
        if reply.actions:
            self.actions.append(reply)
        self.with_human = types.ConversationStatus.Name(reply.status) == HANDED_OFF
        return reply.reply

    async def hand_back(self) -> None:
        """Return the conversation from the human attendant to the assistant."""
        await self._stub.HandBack(
            pb.HandBackRequest(
                tenant_id=self._tenant_id,
                conversation_id=self.conversation_id,
                note="handed back from the terminal chat",
            ),
            metadata=agent_metadata("gateway"),
            timeout=30,
        )
        self.with_human = False

    async def start_fresh(self) -> None:
        """End this customer's last conversation (if any is remembered and still open): the
        next message starts a new one, for the same customer."""
        if self._memory is None:
            return
        last = remembered(self._memory).get(f"{self._tenant_id}/{self._customer}")
        if not last:
            return
        with contextlib.suppress(grpc.aio.AioRpcError):  # already ended or gone: nothing to end
            await self._stub.EndConversation(
                pb.EndConversationRequest(tenant_id=self._tenant_id, conversation_id=last),
                metadata=agent_metadata("gateway"),
                timeout=30,
            )


def remembered(path: Path) -> dict[str, str]:
    """``{"<tenant>/<customer>": conversation id}`` (empty when absent or unreadable)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def remember(path: Path, tenant_id: str, customer: str, conversation_id: str) -> None:
    data = remembered(path)
    data[f"{tenant_id}/{customer}"] = conversation_id
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def _out(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def next_working_day(today: date) -> date:
    """The demo's Ana works Monday to Saturday: the first such day after today."""
    day = today + timedelta(days=1)
    return day if day.isoweekday() != 7 else day + timedelta(days=1)


async def scripted(session: Session) -> int:
    """Greets, asks services and Ana's free times, books the first free one, confirms, lists."""
    today = datetime.now(DEMO_ZONE).date()  # the demo salon's date, not this machine's
    day = next_working_day(today).strftime("%d/%m")
    turns = [
        "Olá!",
        "Quais serviços vocês têm?",
        f"Quais horários a Ana tem dia {day} para corte feminino?",
    ]
    last = ""
    for text in turns:
        last = await _exchange(session, text)
    times = _TIME.findall(last)
    if not times:
        _out("(no free time found on that day; nothing booked)")
        return 1
    await _exchange(session, f"Quero agendar um corte feminino com a Ana dia {day} às {times[0]}")
    await _exchange(session, "sim")
    await _exchange(session, "Quais são meus agendamentos?")
    await _exchange(session, "Qual é o endereço?")
    booked = [a for r in session.actions for a in r.actions if a.appointment.id]
    _out(f"\nbooked appointments this session: {[a.appointment.id for a in booked]}")
    return 0 if booked else 1


async def _exchange(session: Session, text: str) -> str:
    _out(f"você> {text}")
    reply = await session.say(text)
    _out(f"assistente> {reply}\n")
    return reply


async def interactive(session: Session) -> int:
    """Reads in this thread: Ctrl-C interrupts ``input()`` at once (no executor to wait for;
    asyncio's own SIGINT handler only cancels the task, which a blocked ``input()`` never sees,
    so the default handler is put back)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    _out("Chat with the assistant (Ctrl-D, Ctrl-C or 'sair' to quit).")
    while True:
        line = _prompt()
        if line is None or line.strip().lower() in {"sair", "exit", "quit"}:
            return 0
        try:
            await _turn(session, line.strip())
        except grpc.aio.AioRpcError as error:
            _out(f"[{error.code().name}] {error.details()}")


async def piped(session: Session, lines: list[str]) -> int:
    """Piped stdin is the conversation: one customer message per non-empty line."""
    for line in (line.strip() for line in lines):
        if line:
            _out(f"você> {line}")
            await _turn(session, line)
    return 0


async def _turn(session: Session, text: str) -> None:
    if not text:
        return
    if text == BACK:
        if not session.conversation_id:
            _out("(nothing to return yet)")
            return
        await session.hand_back()
        _out("(o assistente voltou à conversa / the assistant is back)\n")
        return
    reply = await session.say(text)
    if reply:
        _out(f"assistente> {reply}\n")
    if session.choices():
        _out("   ".join(session.choices()) + "  (digite o número / type the number)\n")
    if session.with_human:
        _out(
            "(um atendente humano está com esta conversa; digite /back para voltar ao "
            "assistente / a human attendant has this conversation; type /back to return it)\n"
        )


PROMPT = "você> "
WAKE_SECONDS = 0.2


def _prompt() -> str | None:
    """One line from the terminal. Waits in short ``select`` slices rather than one blocking
    read: a process-directed SIGINT may be delivered to one of gRPC's threads, and then only a
    main thread that wakes up runs Python's handler (a blocked read would wait for Enter)."""
    sys.stdout.write(PROMPT)
    sys.stdout.flush()
    while not select.select([sys.stdin], [], [], WAKE_SECONDS)[0]:
        pass
    try:
        return input()
    except EOFError:
        return None


def _customer(args: argparse.Namespace, fresh: bool) -> str:
    """The terminal customer: ``--customer``, else the OS user; a fresh one for a script or
    piped input (each run starts clean). ``--new`` keeps the customer and starts a new
    conversation (:meth:`Session.start_fresh`)."""
    base = args.customer or getpass.getuser()
    return f"{base}-{uuid.uuid4().hex[:8]}" if fresh else base


async def main(args: argparse.Namespace) -> int:
    tenant = args.tenant or (
        DEMO_TENANT_FILE.read_text().strip() if DEMO_TENANT_FILE.exists() else ""
    )
    if not tenant:
        raise SystemExit("no tenant: pass --tenant or run `python -m agent_service seed-demo`")
    lines = [] if args.script or sys.stdin.isatty() else sys.stdin.read().splitlines()
    scripted_run = args.script or (not sys.stdin.isatty() and not any(x.strip() for x in lines))
    fresh = not sys.stdin.isatty() or args.script
    customer = _customer(args, fresh=fresh)
    address = args.address or agent_address()
    try:
        async with grpc.aio.insecure_channel(address, options=MESSAGE_SIZE_OPTIONS) as channel:
            memory = None if fresh else CONVERSATIONS_FILE
            session = Session(pb_grpc.AgentServiceStub(channel), tenant, customer, memory)
            if getattr(args, "new", False):
                await session.start_fresh()
            if scripted_run:
                return await scripted(session)
            if lines:
                return await piped(session, lines)
            return await interactive(session)
    except grpc.aio.AioRpcError as error:
        _out(f"agent service at {address}: {error.code().name}: {error.details()}")
        return 1
