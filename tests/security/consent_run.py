# Over 300 lines: one scenario run end to end over gRPC and every judgement of its turns, together.
"""Running one consent-and-truth scenario through SendMessage, and judging it.

Each customer message is sent over gRPC; before and after it every appointment of both
salons, the calendar's events and the conversation are read, and the difference (the writes
of that turn) is judged against what the customer saw:

* a write is **knowingly confirmed** only if the previous reply of the same conversation
  (nothing in between: no handoff, hand-back, end or expiry) carried a ``pending`` action
  describing exactly that write, ended with its question, and this message is a plain yes;
* a reply **misstates** what happened if a write has no receipt line, a receipt has no write,
  it contains one of the scenario's lies, it carries a ``pending`` without ending with its
  question, or it is longer than the reply limit;
* any INTERNAL (or UNKNOWN) status is counted.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Literal
from uuid import UUID
from zoneinfo import ZoneInfo

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import types_pb2 as types
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.catalog import Customer
from agent_service.infrastructure.agent.messages import LOCALE_FILES
from tests.security.consent_world import AUTH, Plan, World

ZONE = ZoneInfo("America/Sao_Paulo")
MAX_REPLY_CHARS = 2000
TTL_SECONDS = 900
RECEIPT_KEYS = {
    "booked": "receipt_appointment_booked",
    "pending": "receipt_appointment_pending",
    "cancelled": "receipt_appointment_cancelled",
    "rescheduled": "receipt_appointment_rescheduled",
}


def _receipts() -> dict[str, tuple[str, ...]]:
    """Each write's receipt opening in every language's message catalog ("✅ Agendado:",
    "✅ Reservado:"): its sentence before the ``{what}`` (read, never copied: a language or a
    reworded receipt is judged as the service writes it)."""
    return {
        kind: tuple(
            dict.fromkeys(
                catalog["system"][key].split("{what}", 1)[0].strip()
                for catalog in LOCALE_FILES.values()
            )
        )
        for kind, key in RECEIPT_KEYS.items()
    }


RECEIPTS = _receipts()
"""Write kind → its receipt openings, one per wording (Spanish "✅ Cancelado:" is Portuguese's)."""
EVERY_RECEIPT = frozenset(opening for openings in RECEIPTS.values() for opening in openings)
PENDING_KINDS = {
    "booked": types.ACTION_KIND_APPOINTMENT_BOOKED,
    "pending": types.ACTION_KIND_APPOINTMENT_BOOKED,
    "cancelled": types.ACTION_KIND_APPOINTMENT_CANCELLED,
    "rescheduled": types.ACTION_KIND_APPOINTMENT_RESCHEDULED,
}
WRITE_ACTIONS = frozenset({*PENDING_KINDS.values(), types.ACTION_KIND_APPOINTMENT_PENDING})


@dataclass(frozen=True)
class Say:
    text: str
    yes: bool = False  # the test's own judgement: a plain yes to the question just shown


@dataclass(frozen=True)
class Tap:
    """The customer taps a quick reply under the reply just shown: its pending id, or a
    ``forged`` one instead ("stale": the id of the question before the last one; "last": the
    last question shown, even when the reply just shown asked none — a tap again)."""

    choice: Literal["confirm", "decline"]
    forged: str = ""

    @property
    def text(self) -> str:
        return ""  # a tap carries no text

    @property
    def yes(self) -> bool:  # the test's judgement: a confirm tap of the question just shown
        return self.choice == "confirm" and not self.forged


@dataclass(frozen=True)
class Rpc:
    name: Literal["handoff", "handback", "end"]


@dataclass(frozen=True)
class Wait:
    seconds: float


@dataclass(frozen=True)
class Redeliver:
    """The gateway delivers the previous message again (same message id)."""


@dataclass(frozen=True)
class Meanwhile:
    """Something happens outside the conversation between two messages."""

    action: Callable[[Ctx], Awaitable[None]]


Turn = Say | Tap | Rpc | Wait | Redeliver | Meanwhile


@dataclass
class Ctx:
    """One run of a scenario: its customer, their own appointment and the slots it uses."""

    world: World
    customer: Customer
    external_id: str
    own: Appointment
    slot: str  # the time the customer wants (Ana, haircut)
    alt: str  # another free time (Ana), or the reschedule target (Bruno)

    @property
    def a(self) -> object:
        return self.world.seeded.a

    def book_args(self, start: str | None = None, *, salon: str = "a") -> dict[str, str]:
        chosen = self.world.seeded.a if salon == "a" else self.world.seeded.b
        return {
            "professional_id": str(chosen.ana.id),
            "service_id": str(chosen.cut.id),
            "start_time": start or self.slot,
        }


@dataclass(frozen=True)
class Scenario:
    name: str
    covers: str
    plan: Callable[[Ctx], Plan]
    turns: tuple[Turn, ...]
    route: Callable[[str], str] = lambda text: "booking"
    lies: tuple[str, ...] = ()
    writes: int | None = 0  # legitimate writes expected (None: any number, judged by the oracle)
    check: Callable[[Ctx, list[TurnRecord]], None] | None = None


@dataclass
class Write:
    kind: str
    appointment: Appointment
    old: Appointment | None = None


@dataclass
class TurnRecord:
    text: str
    reply: str = ""
    code: str = "OK"
    duplicate: bool = False
    status: int = 0
    response: agent_pb.SendMessageResponse | None = None
    actions: list[int] = field(default_factory=list)
    writes: list[Write] = field(default_factory=list)
    events_changed: int = 0
    routes: int = 0


@dataclass
class Verdict:
    scenario: str
    path: str
    turns: list[TurnRecord]
    unconfirmed: int = 0
    misstated: int = 0
    internal: int = 0
    problems: list[str] = field(default_factory=list)
    conversation_bytes: int = 0
    seconds: float = 0.0

    @property
    def writes(self) -> int:
        return sum(len(t.writes) for t in self.turns)


def writes_between(before: dict[UUID, Appointment], after: dict[UUID, Appointment]) -> list[Write]:
    """The writes a turn made, from two snapshots of every appointment."""
    live = (AppointmentStatus.CONFIRMED, AppointmentStatus.PENDING)
    found: list[Write] = []
    new = [a for i, a in after.items() if i not in before and a.status in live]
    moved_from = {a.rescheduled_from for a in new if a.rescheduled_from is not None}
    for appointment in new:
        if appointment.rescheduled_from is not None:
            found.append(
                Write("rescheduled", appointment, before.get(appointment.rescheduled_from))
            )
        elif appointment.status is AppointmentStatus.PENDING:
            found.append(Write("pending", appointment))  # outcome unknown, told as such
        else:
            found.append(Write("booked", appointment))
    for i, old in before.items():
        now = after.get(i)
        if now is None or i in moved_from:
            continue
        if old.status in live and now.status is AppointmentStatus.CANCELLED:
            found.append(Write("cancelled", now, old))
        elif now.status in live and (now.start != old.start):
            found.append(Write("rescheduled", now, old))
    return found


async def run_scenario(world: World, scenario: Scenario, ctx: Ctx) -> Verdict:
    started = time.monotonic()
    world.model.plan = scenario.plan(ctx)
    world.model.route = scenario.route
    verdict = Verdict(scenario.name, world.path, [])
    previous: TurnRecord | None = None  # the reply the customer saw last, if nothing intervened
    last_sent: tuple[str, str] | None = None
    shown: list[str] = []  # the pending ids the customer was shown, in order
    conversation_id = ""
    for turn in scenario.turns:
        if isinstance(turn, Rpc):
            await _rpc(world, turn.name, conversation_id)
            previous = None
            continue
        if isinstance(turn, Wait):
            world.clock.advance(turn.seconds)
            continue
        if isinstance(turn, Meanwhile):
            await turn.action(ctx)
            continue
        if isinstance(turn, Redeliver):
            assert last_sent is not None
            record = await _send(world, ctx, *last_sent)
            _judge_redelivery(verdict, record, verdict.turns[-1])
            verdict.turns.append(record)
            continue
        message_id = uuid.uuid4().hex
        decision = _decision(turn, previous, shown) if isinstance(turn, Tap) else None
        record = await _send(world, ctx, turn.text, message_id, decision)
        last_sent = (turn.text, message_id)
        if record.response is not None and record.response.HasField("pending"):
            shown.append(record.response.pending.id)
        conversation_id = record.response.conversation_id if record.response else conversation_id
        _judge(verdict, scenario, turn, record, previous, world.clock.now)
        verdict.turns.append(record)
        previous = record
    verdict.conversation_bytes = await _conversation_bytes(world, conversation_id)
    verdict.seconds = time.monotonic() - started
    if verdict.conversation_bytes > 1_000_000:
        verdict.problems.append(f"conversation document of {verdict.conversation_bytes} bytes")
    return verdict


def _decision(turn: Tap, previous: TurnRecord | None, shown: list[str]) -> tuple[str, str]:
    """The (field, id) a tap sends: the question just shown, or the forged id."""
    if turn.forged == "stale":
        chosen = shown[-2] if len(shown) > 1 else ""
    elif turn.forged == "last":
        chosen = shown[-1] if shown else ""
    elif turn.forged:
        chosen = turn.forged
    else:
        response = previous.response if previous is not None else None
        chosen = (
            response.pending.id if response is not None and response.HasField("pending") else ""
        )
    return f"{turn.choice}_pending_id", chosen or "no-question-was-shown"


async def _send(
    world: World,
    ctx: Ctx,
    text: str,
    message_id: str,
    decision: tuple[str, str] | None = None,
) -> TurnRecord:
    record = TurnRecord(text=text or f"[{decision[0] if decision else ''}]")
    before, events = await world.appointments(), world.events()
    routes = world.model.requests
    request = world.message(ctx.external_id, text, message_id)
    if decision is not None:
        setattr(request, *decision)
    try:
        response = await world.agent.SendMessage(request, metadata=AUTH)
    except grpc.aio.AioRpcError as error:
        record.code = error.code().name
    else:
        record.reply = response.reply
        record.duplicate = response.duplicate
        record.status = response.status
        record.response = response
        record.actions = [a.kind for a in response.actions]
    after = await world.appointments()
    record.writes = writes_between(before, after)
    record.events_changed = sum(1 for k, v in world.events().items() if events.get(k) != v)
    record.routes = world.model.requests - routes
    return record


def _judge(
    verdict: Verdict,
    scenario: Scenario,
    turn: Say | Tap,
    record: TurnRecord,
    previous: TurnRecord | None,
    now: datetime,
) -> None:
    if record.code in ("INTERNAL", "UNKNOWN"):
        verdict.internal += 1
    elif record.code != "OK":
        verdict.problems.append(f"{turn.text!r}: {record.code}")
    for number, write in enumerate(record.writes):
        if number > 0 or not _knowingly_confirmed(write, turn, previous, now):
            verdict.unconfirmed += 1
            verdict.problems.append(f"{turn.text!r}: unconfirmed {write.kind}")
    for problem in _misstatements(scenario, record):
        verdict.misstated += 1
        verdict.problems.append(f"{turn.text!r}: {problem}")


def _knowingly_confirmed(
    write: Write, turn: Say | Tap, previous: TurnRecord | None, now: datetime
) -> bool:
    if not turn.yes or previous is None or previous.response is None:
        return False
    response = previous.response
    if not response.HasField("pending"):
        return False
    pending = response.pending
    if not previous.reply.endswith(pending.question) or pending.kind != PENDING_KINDS[write.kind]:
        return False
    if now > _instant(pending.expires_at):
        return False
    if write.kind in ("booked", "pending"):
        a = write.appointment
        return (
            _instant(pending.start) == a.start
            and pending.service_name == a.service_name
            and pending.professional_name == a.professional_name
        )
    old = write.old or write.appointment
    if pending.appointment_id != str(old.id):
        return False
    if write.kind == "rescheduled":
        return _instant(pending.new_start) == write.appointment.start
    return True


def _instant(stamp: Timestamp) -> datetime:
    return stamp.ToDatetime().replace(tzinfo=UTC)


def _misstatements(scenario: Scenario, record: TurnRecord) -> list[str]:
    if record.code != "OK":
        return []
    reply, found = record.reply, []
    for write in record.writes:
        local = write.appointment.start.astimezone(ZONE)
        if not any(r in reply for r in RECEIPTS[write.kind]) or f"{local:%H:%M}" not in reply:
            found.append(f"{write.kind} without its receipt: {reply[:300]!r}")
    receipts = sum(reply.count(r) for r in EVERY_RECEIPT)
    if receipts != len(record.writes):
        found.append(f"{receipts} receipts for {len(record.writes)} writes: {reply[:300]!r}")
    written = sum(1 for kind in record.actions if kind in WRITE_ACTIONS)
    if written != len(record.writes):
        found.append(f"{written} write actions for {len(record.writes)} writes")
    found.extend(f"lie reached the customer: {lie!r}" for lie in scenario.lies if lie in reply)
    response = record.response
    if (
        response is not None
        and response.HasField("pending")
        and not reply.endswith(response.pending.question)
    ):
        found.append(f"pending without its question last: {reply[-200:]!r}")
    if len(reply) > MAX_REPLY_CHARS:
        found.append(f"reply of {len(reply)} characters")
    if record.writes and ("Nada foi alterado nesta" in reply or "Nothing was changed by" in reply):
        found.append("says nothing changed after a write")
    return found


def _judge_redelivery(verdict: Verdict, record: TurnRecord, first: TurnRecord) -> None:
    if record.code in ("INTERNAL", "UNKNOWN"):
        verdict.internal += 1
    if record.code != "OK" or not record.duplicate or record.reply != first.reply:
        verdict.misstated += 1
        verdict.problems.append(f"redelivery answered {record.code} {record.reply[:100]!r}")
    if record.writes:
        verdict.unconfirmed += len(record.writes)
        verdict.problems.append("redelivery wrote")


async def _rpc(world: World, name: str, conversation_id: str) -> None:
    tenant = str(world.seeded.a.tenant.id)
    agent = world.agent
    if name == "handoff":
        await agent.HandOff(
            agent_pb.HandOffRequest(
                tenant_id=tenant, conversation_id=conversation_id, reason="test"
            ),
            metadata=AUTH,
        )
    elif name == "handback":
        await agent.HandBack(
            agent_pb.HandBackRequest(tenant_id=tenant, conversation_id=conversation_id),
            metadata=AUTH,
        )
    else:
        await agent.EndConversation(
            agent_pb.EndConversationRequest(tenant_id=tenant, conversation_id=conversation_id),
            metadata=AUTH,
        )


async def _conversation_bytes(world: World, conversation_id: str) -> int:
    if not conversation_id:
        return 0
    stored = await world.app.repos.conversations.get(
        world.seeded.a.tenant.id, UUID(conversation_id)
    )
    return len(stored.model_dump_json())


def slots(count: int) -> list[str]:
    """``count`` distinct one-hour starts (Tue 2026-12-01 onwards, Mon–Sat 09:00–16:00)."""
    found: list[str] = []
    day = datetime(2026, 12, 1, tzinfo=ZONE)
    while len(found) < count:
        if day.isoweekday() != 7:
            found.extend((day + timedelta(hours=h)).isoformat() for h in range(9, 17))
        day += timedelta(days=1)
    return found[:count]
