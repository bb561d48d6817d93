"""The authorization matrix: every RPC of the three services × every principal × target
(own tenant/calendar, another tenant/calendar, a foreign id under one's own scope) × channel
(for the RPCs that address a conversation or outbox message: one cell per channel of the own
tenant), with the expected answer of each cell written from the threat model
(docs/security.md), NOT from the servers' policy tables, so the tables are checked against an
independent statement.

Principals cover the scope dimensions: tenant (gateway and back office of A, operator of all),
channel (a whatsapp-only gateway, a webchat-only JWT gateway), calendar grant (calendar clients
X and Y with write grants, a read-only client of X's calendars) and bad credentials (expired,
forged, none, and a JWT whose grant says ``"write": "false"`` — a string, so no credential).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import grpc
from google.protobuf.message import Message

from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agenda.calendar.v1 import calendar_service_pb2 as calendar_pb
from tests.security.channels import ChannelSide, channel_side
from tests.security.isolation import BASELINES, EXPECTED, rpc_targets, set_field
from tests.security.principals import SHARED, X_CALENDARS, Y_CALENDARS, Principals
from tests.security.rpcs import Rpc
from tests.security.stack import AGENT_AUTH, SecurityStack, TenantData, at, stamp

Code = grpc.StatusCode
GW, GWJ, BO, OP = "gateway-a", "gateway-a (JWT)", "backoffice-a", "operator"
GWW, GWC = "gateway-a-whatsapp", "gateway-a webchat (JWT)"
CX, CY, CXR = "calendar-x", "calendar-y", "calendar-x-read"
BAD = ("expired JWT", "forged JWT", "no credential", "JWT string grant")
PRINCIPALS = (GW, GWJ, GWW, GWC, BO, OP, CX, CY, CXR, *BAD)
ROLE = {
    GW: "gateway",
    GWJ: "gateway",
    GWW: "gateway",
    GWC: "gateway",
    BO: "backoffice",
    OP: "operator",
    CX: "calendar",
    CY: "calendar",
    CXR: "calendar",
}
CHANNELS_OF = {GWW: frozenset({"whatsapp"}), GWC: frozenset({"webchat"})}
"""The channels of channel-scoped principals (the others act on every channel)."""
READ_ONLY = frozenset({CXR})
"""Calendar clients whose grants allow no writes (and who own no events)."""
CHANNELS = ("whatsapp", "webchat")
BASELINE_CHANNEL = "whatsapp"
"""The channel of the seeded conversations (``BASELINES``, the other and foreign targets)."""
REQUEST_CHANNEL = frozenset({"SendMessage", "StreamMessage"})
"""RPCs whose request names the channel: another channel is PERMISSION_DENIED."""
STORED_CHANNEL = frozenset({"GetConversation", "HandOff", "HandBack", "EndConversation"})
"""RPCs on a stored conversation: another channel's is NOT_FOUND, like an absent one."""
CHANNEL_RPCS = REQUEST_CHANNEL | STORED_CHANNEL | {"AckOutbox"}
"""RPCs with one cell per channel (acking another channel's message acknowledges nothing)."""
PLATFORM_WIDE = frozenset({OP})
TARGETS = ("own", "other", "foreign")

_AGENT = {"gateway"}
_RENDER = {"gateway", "backoffice", "operator"}  # what a gateway reads to render menus
_BACK = {"backoffice"}
_BACK_READ = {"backoffice", "operator"}
_CAL_READ = {"calendar", "operator"}
_CAL_WRITE = {"calendar"}

MAY: dict[str, set[str]] = {
    # AgentService: gateways converse; back office and operator read; back office hands off.
    "SendMessage": _AGENT,
    "StreamMessage": _AGENT,
    "GetConversation": _RENDER,
    "HandOff": {"gateway", "backoffice"},
    "HandBack": {"gateway", "backoffice"},
    "EndConversation": _AGENT,
    "StreamOutbox": _AGENT,
    "AckOutbox": _AGENT,
    # CatalogService: the back office of a tenant writes; platform RPCs need platform scope.
    "CreateTenant": {"operator", "backoffice"},
    "GetTenant": _RENDER,
    "UpdateTenant": _BACK,
    "ListTenants": {"operator", "backoffice"},
    "CreateService": _BACK,
    "UpdateService": _BACK,
    "DeleteService": _BACK,
    "ListServices": _RENDER,
    "CreateProfessional": _BACK,
    "UpdateProfessional": _BACK,
    "DeleteProfessional": _BACK,
    "ListProfessionals": _RENDER,
    "CreateFaqEntry": _BACK,
    "UpdateFaqEntry": _BACK,
    "DeleteFaqEntry": _BACK,
    "ListFaqEntries": _RENDER,
    "UpsertCustomer": _BACK,
    "GetCustomer": _BACK_READ,
    "ListCustomers": _BACK_READ,
    "ListAppointments": _BACK_READ,
    "CancelAppointment": _BACK,
    # CalendarService: calendar clients on their calendars; operators read.
    "GetFreeSlots": _CAL_READ,
    "QueryFreeBusy": _CAL_READ,
    "CreateEvent": _CAL_WRITE,
    "GetEvent": _CAL_READ,
    "CancelEvent": _CAL_WRITE,
    "ListEvents": _CAL_READ,
    "MoveEvent": _CAL_WRITE,
    "UpdateEvent": _CAL_WRITE,
}
PLATFORM_RPCS = frozenset({"CreateTenant", "ListTenants"})
CALENDAR_WRITES = frozenset({"CreateEvent", "CancelEvent", "MoveEvent", "UpdateEvent"})
READS = frozenset(name for name in MAY if name.startswith(("Get", "List", "Query")))
CALENDAR_RPCS = frozenset(
    {
        "GetFreeSlots",
        "QueryFreeBusy",
        "CreateEvent",
        "GetEvent",
        "CancelEvent",
        "ListEvents",
        "MoveEvent",
        "UpdateEvent",
    }
)
WRITE_OUTCOMES = frozenset({Code.OK, Code.FAILED_PRECONDITION})
"""An allowed write passes authorization: OK, or a business rule (a conversation already
handed back) — never a denial, NOT_FOUND or an error."""


def expected(rpc: str, principal: str, target: str, channel: str | None = None) -> str:
    """The expected outcome: a status code name, or ALLOWED for a permitted write."""
    assert rpc in MAY, f"add {rpc} to MAY in tests/security/authorization.py (who may call it)"
    if principal in BAD:
        return "UNAUTHENTICATED"
    if ROLE[principal] not in MAY[rpc]:
        return "PERMISSION_DENIED"
    wide = principal in PLATFORM_WIDE
    if rpc in PLATFORM_RPCS and not wide:
        return "PERMISSION_DENIED"
    if target == "other" and not wide:
        return "PERMISSION_DENIED"
    if principal in READ_ONLY and rpc in CALENDAR_WRITES:
        return "PERMISSION_DENIED"
    if rpc in REQUEST_CHANNEL and not may_act_on(principal, channel or BASELINE_CHANNEL):
        return "PERMISSION_DENIED"  # the request names the channel: refused before any lookup
    if target == "foreign":
        if rpc in CALENDAR_RPCS:
            return "OK" if wide or rpc == "ListEvents" else "NOT_FOUND"
        return "NOT_FOUND"
    if channel is not None and not may_act_on(principal, channel) and rpc in STORED_CHANNEL:
        return "NOT_FOUND"
    if principal in READ_ONLY and rpc == "GetEvent":
        return "NOT_FOUND"  # its own calendar holds only another client's events
    return "OK" if rpc in READS else "ALLOWED"


def may_act_on(principal: str, channel: str) -> bool:
    return channel in CHANNELS_OF.get(principal, frozenset(CHANNELS))


def acknowledged(principal: str, channel: str | None) -> int:
    """How many of one fresh outbox message on ``channel`` an allowed AckOutbox acknowledges."""
    return 1 if channel is None or may_act_on(principal, channel) else 0


def matches(expectation: str, code: Code) -> bool:
    if expectation == "ALLOWED":
        return code in WRITE_OUTCOMES
    return code.name == expectation


@dataclass
class CalendarSide:
    """Calendars and events of the two calendar clients (X and Y) and the one they share."""

    calendars: dict[str, str] = field(default_factory=dict)  # principal → its calendar
    kept: dict[str, str] = field(default_factory=dict)  # principal → an event it owns
    to_cancel: dict[str, str] = field(default_factory=dict)  # principal → an event to cancel
    shared: str = f"{SHARED}{uuid.uuid4().hex[:6]}"
    shared_events: dict[str, str] = field(default_factory=dict)  # principal → its shared event

    def of(self, principal: str) -> tuple[str, str]:
        """Whose calendar is "own" for ``principal`` (the read-only client reads X's), and
        whose is "other"."""
        return (CY, CX) if principal == CY else (CX, CY)


def calendar_request(
    rpc: str, principal: str, target: str, side: CalendarSide, stack: SecurityStack
) -> Message | None:
    own, other = side.of(principal)
    owner = {"own": own, "other": other, "foreign": other}[target]
    calendar = side.shared if target == "foreign" else side.calendars[owner]
    event = (side.shared_events if target == "foreign" else side.kept)[owner]
    start = at(stack.day, 6)
    window = calendar_pb.TimeRange(start=stamp(start), end=stamp(start + timedelta(hours=14)))
    if rpc == "CancelEvent" and target == "own":
        event = side.to_cancel[owner]
    if target == "foreign" and rpc in ("GetFreeSlots", "QueryFreeBusy", "CreateEvent"):
        return None  # no id of another owner to name: the calendar itself is shared
    builders: dict[str, Callable[[], Message]] = {
        "GetFreeSlots": lambda: calendar_pb.GetFreeSlotsRequest(
            calendar_id=calendar, range=window, duration_minutes=30
        ),
        "QueryFreeBusy": lambda: calendar_pb.QueryFreeBusyRequest(
            calendar_ids=[calendar], range=window
        ),
        "CreateEvent": lambda: calendar_pb.CreateEventRequest(
            calendar_id=calendar,
            summary="matrix",
            time=calendar_pb.TimeRange(
                start=stamp(at(stack.day, 7)), end=stamp(at(stack.day, 7, 30))
            ),
            idempotency_key=uuid.uuid4().hex,
        ),
        "GetEvent": lambda: calendar_pb.GetEventRequest(calendar_id=calendar, event_id=event),
        "CancelEvent": lambda: calendar_pb.CancelEventRequest(calendar_id=calendar, event_id=event),
        "ListEvents": lambda: calendar_pb.ListEventsRequest(
            calendar_id=calendar, range=window, include_cancelled=True
        ),
        "MoveEvent": lambda: calendar_pb.MoveEventRequest(
            calendar_id=calendar,
            event_id=event,
            time=calendar_pb.TimeRange(
                start=stamp(at(stack.day, 12)), end=stamp(at(stack.day, 12, 30))
            ),
        ),
        "UpdateEvent": lambda: calendar_pb.UpdateEventRequest(
            calendar_id=calendar,
            event_id=event,
            event=calendar_pb.Event(summary="renamed"),
        ),
    }
    return builders[rpc]()


@dataclass
class AgentSide:
    """Requests of tenant A and B the agent-service RPCs need beyond ``BASELINES``."""

    tenant_messages: dict[str, catalog_pb.Tenant] = field(default_factory=dict)
    disposable: dict[str, str] = field(default_factory=dict)  # kind → an A entity to delete
    channels: ChannelSide = field(default_factory=ChannelSide)


def on_channel(name: str, request: Message, channel: str, side: ChannelSide) -> None:
    """Point tenant A's ``request`` at its conversation (or customer) on ``channel``."""
    held: Any = request.message if name == "StreamMessage" else request  # type: ignore[attr-defined]
    if name in REQUEST_CHANNEL:
        held.customer.channel = channel
        held.customer.external_id = side.customers[channel][1]
    if channel == "whatsapp":
        return  # the baselines address tenant A's whatsapp conversations already
    if name in REQUEST_CHANNEL or name in STORED_CHANNEL:
        held.conversation_id = side.conversations[channel]


def agent_request(
    rpc: Rpc, target: str, side: AgentSide, a: TenantData, b: TenantData
) -> Message | None:
    name = rpc.name
    tenant = b if target == "other" else a
    if name in PLATFORM_RPCS:
        if target != "own":
            return None
        if name == "ListTenants":
            return catalog_pb.ListTenantsRequest()
        return catalog_pb.CreateTenantRequest(
            tenant=catalog_pb.Tenant(name="Matrix", time_zone="UTC"),
            idempotency_key=uuid.uuid4().hex,
        )
    if name == "UpdateTenant":
        return (
            None
            if target == "foreign"
            else catalog_pb.UpdateTenantRequest(tenant=side.tenant_messages[tenant.label])
        )
    request = BASELINES[name](tenant)
    if target == "own" and name in DISPOSABLE:
        set_field(request, (DISPOSABLE[name][1],), side.disposable[DISPOSABLE[name][0]])
    if target == "foreign":
        return _foreign(rpc, request, b)
    return request


DISPOSABLE = {
    "DeleteService": ("service", "service_id"),
    "DeleteProfessional": ("professional", "professional_id"),
    "DeleteFaqEntry": ("faq", "entry_id"),
}


def _foreign(rpc: Rpc, request: Message, b: TenantData) -> Message | None:
    """A's request with one id that exists only in B, where the RPC addresses that entity."""
    for target in rpc_targets(rpc):
        if EXPECTED.get((rpc.name, target.field), Code.NOT_FOUND) is Code.NOT_FOUND:
            set_field(request, target.path, b.ids(target.kind)[0])
            return request
    return None


async def calendar_side(stack: SecurityStack, principals: Principals) -> CalendarSide:
    side = CalendarSide()
    for who, prefix in ((CX, X_CALENDARS), (CY, Y_CALENDARS)):
        side.calendars[who] = f"{prefix}{uuid.uuid4().hex[:6]}"
        auth = principals.metadata(who)
        for kind, calendar, hour in (
            ("kept", side.calendars[who], 8),
            ("to_cancel", side.calendars[who], 9),
            ("shared", side.shared, 10 if who == CX else 11),
        ):
            reply = await stack.calendar.CreateEvent(
                calendar_pb.CreateEventRequest(
                    calendar_id=calendar,
                    summary=f"{who} {kind}",
                    time=calendar_pb.TimeRange(
                        start=stamp(at(stack.day, hour)),
                        end=stamp(at(stack.day, hour) + timedelta(minutes=30)),
                    ),
                    idempotency_key=f"{who}-{kind}",
                    private_properties={"ref": f"{who}-{kind}"},
                ),
                metadata=auth,
            )
            events = {"kept": side.kept, "to_cancel": side.to_cancel, "shared": side.shared_events}
            events[kind][who] = reply.event.event_id
    return side


async def agent_side(stack: SecurityStack) -> AgentSide:
    side = AgentSide(channels=await channel_side(stack))
    for label, tenant in stack.tenants.items():
        reply = await stack.catalog.GetTenant(
            catalog_pb.GetTenantRequest(tenant_id=tenant.id), metadata=AGENT_AUTH
        )
        side.tenant_messages[label] = reply.tenant
    a = stack.tenants["A"].id
    service = await stack.catalog.CreateService(
        catalog_pb.CreateServiceRequest(
            service=catalog_pb.Service(tenant_id=a, name="Descartável", duration_minutes=30)
        ),
        metadata=AGENT_AUTH,
    )
    professional = await stack.catalog.CreateProfessional(
        catalog_pb.CreateProfessionalRequest(
            professional=catalog_pb.Professional(tenant_id=a, name="Temp", calendar_id="tmp-1")
        ),
        metadata=AGENT_AUTH,
    )
    entry = await stack.catalog.CreateFaqEntry(
        catalog_pb.CreateFaqEntryRequest(
            entry=catalog_pb.FaqEntry(tenant_id=a, question="Temp?", answer="Sim.")
        ),
        metadata=AGENT_AUTH,
    )
    side.disposable = {
        "service": service.service.id,
        "professional": professional.professional.id,
        "faq": entry.entry.id,
    }
    return side
