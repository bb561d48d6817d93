"""A terminal chat with the assistant over gRPC.

At a terminal it is interactive; with piped stdin each non-empty line is one customer
message (``echo "Oi" | python -m agent_service chat``); with ``--script`` — or nothing at all
on stdin — it plays a short scripted booking. Any input is accepted: bytes are read as UTF-8
with invalid or cut sequences replaced (a terminal cuts a long paste at its line limit, maybe
inside a character), and a message the service refuses (too long, empty…) is one line saying
so, after which the chat goes on. The prompt and the chat's own notices follow the
conversation's language (``wording``)."""

from __future__ import annotations

import argparse
import contextlib
import getpass
import json
import signal
import sys
import uuid
from pathlib import Path

import grpc

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda.agent.v1 import types_pb2 as types
from agenda_kit.grpc.limits import MESSAGE_SIZE_OPTIONS
from agent_service.cli import terminal, wording
from agent_service.cli.clients import agent_address, agent_metadata, data_dir, demo_tenant_file
from agent_service.cli.script import scripted
from agent_service.cli.terminal import out


def conversations_file() -> Path:
    """Each terminal customer's last conversation, so ``--new`` can end it (same customer)."""
    return data_dir() / "chat_conversations.json"


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
"""Typed alone, returns a conversation a human attendant has to the assistant."""


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
        self.language = wording.DEFAULT
        """The conversation's language, as the agent reported it in its last reply."""
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
        self.language = reply.language or self.language
        return reply.reply

    def says(self, key: str, **values: str) -> str:
        """The chat's own words for ``key`` in the conversation's language."""
        return wording.text(self.language, key, **values)

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


async def interactive(session: Session) -> int:
    """Reads in this thread: Ctrl-C interrupts the read at once (no executor to wait for;
    asyncio's own SIGINT handler only cancels the task, which a blocked read never sees, so
    the default handler is put back). Every refused message is one line; the chat goes on."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    out(session.says("intro"))
    while True:
        line = terminal.prompt(f"{session.says('you')}> ")
        if line is None or line.strip().casefold() in wording.quit_words():
            return 0
        try:
            await _turn(session, line.strip())
        except grpc.aio.AioRpcError as error:
            out(session.says("not_sent", reason=_reason(error)))


UNREACHABLE = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.UNIMPLEMENTED,
    }
)
"""Codes that no later line can fare better with: piped input stops on them."""


async def piped(session: Session, lines: list[str]) -> int:
    """Piped stdin is the conversation: one customer message per non-empty line. A message the
    service refuses is one line and the next one is sent; a service that cannot be reached (or
    refuses the credentials) ends the run."""
    for line in (line.strip() for line in lines):
        if not line:
            continue
        out(f"{session.says('you')}> {line}")
        try:
            await _turn(session, line)
        except grpc.aio.AioRpcError as error:
            if error.code() in UNREACHABLE:
                raise
            out(session.says("not_sent", reason=_reason(error)))
    return 0


def _reason(error: grpc.aio.AioRpcError) -> str:
    """One line: the status code and the service's message."""
    details = " ".join((error.details() or "").split())
    return f"{error.code().name}: {details}" if details else error.code().name


async def _turn(session: Session, text: str) -> None:
    if not text:
        return
    if text == BACK:
        if not session.conversation_id:
            out(session.says("nothing_to_return"))
            return
        await session.hand_back()
        out(session.says("assistant_back") + "\n")
        return
    reply = await session.say(text)
    if reply:
        out(f"{session.says('assistant')}> {reply}\n")
    if session.choices():
        out("   ".join(session.choices()) + "  " + session.says("choose") + "\n")
    if session.with_human:
        out(session.says("with_human") + "\n")


def _customer(args: argparse.Namespace, fresh: bool) -> str:
    """The terminal customer: ``--customer``, else the OS user; a fresh one for a script or
    piped input (each run starts clean). ``--new`` keeps the customer and starts a new
    conversation (:meth:`Session.start_fresh`)."""
    base = args.customer or getpass.getuser()
    return f"{base}-{uuid.uuid4().hex[:8]}" if fresh else base


def _tenant(args: argparse.Namespace) -> str:
    demo = demo_tenant_file()
    tenant = args.tenant or (demo.read_text().strip() if demo.exists() else "")
    if not tenant:
        raise SystemExit("no tenant: pass --tenant or run `python -m agent_service seed-demo`")
    return tenant


async def main(args: argparse.Namespace) -> int:
    with contextlib.suppress(AttributeError, ValueError):  # a replaced or odd stdout
        sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]
    tenant = _tenant(args)
    at_terminal = sys.stdin.isatty()
    lines = [] if args.script or at_terminal else terminal.piped_lines()
    scripted_run = args.script or (not at_terminal and not any(x.strip() for x in lines))
    fresh = not at_terminal or args.script
    customer = _customer(args, fresh=fresh)
    address = args.address or agent_address()
    session: Session | None = None
    try:
        async with grpc.aio.insecure_channel(address, options=MESSAGE_SIZE_OPTIONS) as channel:
            memory = None if fresh else conversations_file()
            session = Session(pb_grpc.AgentServiceStub(channel), tenant, customer, memory)
            if getattr(args, "new", False):
                await session.start_fresh()
            if scripted_run:
                return await scripted(session)
            if lines:
                return await piped(session, lines)
            return await interactive(session)
    except grpc.aio.AioRpcError as error:
        language = session.language if session is not None else wording.DEFAULT
        out(wording.text(language, "unreachable", address=address, reason=_reason(error)))
        return 1
