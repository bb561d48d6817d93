"""A terminal chat with the assistant over gRPC; without a terminal it plays a short script."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import re
import sys
import uuid
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import grpc

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda_kit.grpc.limits import MESSAGE_SIZE_OPTIONS
from agent_service.cli.clients import DEMO_TENANT_FILE, agent_address, agent_metadata

_TIME = re.compile(r"\b(\d{2}:\d{2})\b")
DEMO_ZONE = ZoneInfo("America/Sao_Paulo")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--address", default=None, help="agent service address")
    parser.add_argument("--tenant", default=None, help="tenant id (default: the demo tenant)")
    parser.add_argument("--customer", default=None, help="your id on the 'terminal' channel")
    parser.add_argument("--script", action="store_true", help="play the scripted conversation")


class Session:
    """One customer talking to the assistant."""

    def __init__(self, stub: pb_grpc.AgentServiceAsyncStub, tenant_id: str, customer: str) -> None:
        self._stub = stub
        self._tenant_id = tenant_id
        self._customer = customer
        self.conversation_id = ""
        self.actions: list[pb.SendMessageResponse] = []

    async def say(self, text: str) -> str:
        reply = await self._stub.SendMessage(
            pb.SendMessageRequest(
                tenant_id=self._tenant_id,
                customer=pb.CustomerIdentity(
                    channel="terminal", external_id=self._customer, display_name=self._customer
                ),
                conversation_id=self.conversation_id,
                message_id=uuid.uuid4().hex,
                text=text,
            ),
            metadata=agent_metadata("gateway"),
            timeout=60,
        )
        self.conversation_id = reply.conversation_id
        if reply.actions:
            self.actions.append(reply)
        return reply.reply


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
    _out("Chat with the assistant (Ctrl-D or 'sair' to quit).")
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, _prompt)
        if line is None or line.strip().lower() in {"sair", "exit", "quit"}:
            return 0
        if line.strip():
            try:
                _out(f"assistente> {await session.say(line)}\n")
            except grpc.aio.AioRpcError as error:
                _out(f"[{error.code().name}] {error.details()}")


def _prompt() -> str | None:
    try:
        return input("você> ")
    except EOFError:
        return None


async def main(args: argparse.Namespace) -> int:
    tenant = args.tenant or (
        DEMO_TENANT_FILE.read_text().strip() if DEMO_TENANT_FILE.exists() else ""
    )
    if not tenant:
        raise SystemExit("no tenant: pass --tenant or run `python -m agent_service seed-demo`")
    customer = args.customer or getpass.getuser()
    async with grpc.aio.insecure_channel(
        args.address or agent_address(), options=MESSAGE_SIZE_OPTIONS
    ) as channel:
        session = Session(pb_grpc.AgentServiceStub(channel), tenant, customer)
        if args.script or not sys.stdin.isatty():
            return await scripted(session)
        return await interactive(session)
