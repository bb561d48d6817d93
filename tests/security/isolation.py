"""What "tenant A's context with tenant B's ids" means for each RPC and each agent tool.

RPC targets come from the request descriptors: every string field that names an entity id
(``service_id``, ``professional.service_ids``, ``service.id`` …) of an AgentService or
CatalogService method whose request carries a ``tenant_id`` (the tenant context). A valid
request of tenant A (``baseline``) gets ONE of those fields set to B's id. Tool targets come
from the specialists' tool signatures: every ``UUID`` parameter.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from uuid import UUID, uuid4

import grpc
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agent_service.infrastructure.agent.specialists import SPECIALISTS
from tests.security.rpcs import Rpc
from tests.security.stack import SecurityStack, TenantData, at

OK = grpc.StatusCode.OK
NOT_FOUND = grpc.StatusCode.NOT_FOUND
INVALID_ARGUMENT = grpc.StatusCode.INVALID_ARGUMENT

# Field name → the kind of entity it names. ``id`` takes the kind of its message.
FIELD_KINDS = {
    "service_id": "service",
    "service_ids": "service",
    "professional_id": "professional",
    "customer_id": "customer",
    "appointment_id": "appointment",
    "conversation_id": "conversation",
    "entry_id": "faq",
    "message_ids": "outbox",
}
MESSAGE_KINDS = {
    "Tenant": "tenant",
    "Service": "service",
    "Professional": "professional",
    "FaqEntry": "faq",
    "Customer": "customer",
    "Appointment": "appointment",
    "Conversation": "conversation",
}
# ``*_id`` fields that are not ids of this service's entities: the channel's message id and
# customer id, the professional's calendar (an id in the calendar service), and a tapped
# pending action (matched only against the conversation's own open question: any other id —
# another tenant's included — runs nothing and answers OK with decision NOT_PENDING; proven by
# tests/agent_service/unit/test_consent_properties.py and the consent suites).
NOT_ENTITY_IDS = frozenset(
    {"message_id", "external_id", "calendar_id", "confirm_pending_id", "decline_pending_id"}
)
CONTEXT = "tenant_id"

# Where the answer to B's id is not NOT_FOUND, and why. Every other target: NOT_FOUND.
EXPECTED: dict[tuple[str, str], grpc.StatusCode] = {
    # Deletes are idempotent by contract ("false when it was already gone"): B's id is
    # answered exactly like an id that never existed, and nothing of B's is deleted.
    ("DeleteService", "service_id"): OK,
    ("DeleteProfessional", "professional_id"): OK,
    ("DeleteFaqEntry", "entry_id"): OK,
    # Filters: B's id selects nothing of A's.
    ("ListProfessionals", "service_id"): OK,
    ("ListAppointments", "professional_id"): OK,
    ("ListAppointments", "customer_id"): OK,
    # Acknowledging is idempotent: B's message id counts like an unknown one (0 acknowledged).
    ("AckOutbox", "message_ids"): OK,
    # A reference in a body is checked against A's services only, and named as the bad field.
    ("CreateProfessional", "professional.service_ids"): INVALID_ARGUMENT,
    ("UpdateProfessional", "professional.service_ids"): INVALID_ARGUMENT,
    # "id is ignored" on create and upsert: a new entity of A's gets a new id.
    ("CreateService", "service.id"): OK,
    ("CreateProfessional", "professional.id"): OK,
    ("CreateFaqEntry", "entry.id"): OK,
    ("UpsertCustomer", "customer.id"): OK,
}


@dataclass(frozen=True, slots=True)
class RpcTarget:
    rpc: Rpc
    path: tuple[str, ...]
    kind: str

    @property
    def field(self) -> str:
        return ".".join(self.path)

    @property
    def expected(self) -> grpc.StatusCode:
        return EXPECTED.get((self.rpc.name, self.field), NOT_FOUND)

    def __str__(self) -> str:
        return f"{self.rpc}:{self.field}"


def id_fields(
    descriptor: Descriptor, prefix: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str]]:
    """(path, kind) of every entity-id string field; kind "context" for ``tenant_id``."""
    for field in descriptor.fields:
        path = (*prefix, field.name)
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            nested = field.message_type
            assert nested is not None
            if nested.full_name.startswith("agenda.") and len(prefix) < 2:
                yield from id_fields(nested, path)
            continue
        if field.type != FieldDescriptor.TYPE_STRING or field.name in NOT_ENTITY_IDS:
            continue
        if field.name == CONTEXT:
            yield path, "context"
        elif field.name == "id":
            yield path, MESSAGE_KINDS.get(descriptor.name, "unknown")
        elif field.name in FIELD_KINDS:
            yield path, FIELD_KINDS[field.name]
        elif field.name.endswith(("_id", "_ids")):
            yield path, "unknown"


def tenant_scoped(rpc: Rpc) -> bool:
    return any(kind == "context" for _, kind in id_fields(rpc.method.input_type))


def rpc_targets(rpc: Rpc) -> list[RpcTarget]:
    """The fields of a tenant-scoped RPC that can carry another tenant's id. The tenant itself
    is the context, not a target (tenant RPCs have no tenant above them; see the docs)."""
    return [
        RpcTarget(rpc, path, kind)
        for path, kind in id_fields(rpc.method.input_type)
        if kind not in ("context", "tenant")
    ]


def set_field(request: Message, path: tuple[str, ...], value: str) -> None:
    """Set the string at ``path``; a repeated field gets ``value`` appended."""
    *parents, last = path
    holder: Any = request
    for name in parents:
        holder = getattr(holder, name)
    field = holder.DESCRIPTOR.fields_by_name[last]
    if field.is_repeated:
        getattr(holder, last).append(value)
    else:
        setattr(holder, last, value)


def _identity(a: TenantData) -> agent_pb.CustomerIdentity:
    channel, external_id = a.identities[0]
    return agent_pb.CustomerIdentity(channel=channel, external_id=external_id)


def _message(a: TenantData) -> agent_pb.SendMessageRequest:
    return agent_pb.SendMessageRequest(
        tenant_id=a.id,
        customer=_identity(a),
        conversation_id=a.conversations[0],
        message_id=uuid4().hex,
        text="quais serviços vocês têm?",
    )


def _service(a: TenantData, with_id: bool) -> catalog_pb.Service:
    return catalog_pb.Service(
        id=a.services[0] if with_id else "",
        tenant_id=a.id,
        name=f"Serviço {uuid4().hex[:6]}",
        duration_minutes=30,
        price_minor=100,
    )


def _professional(a: TenantData, with_id: bool) -> catalog_pb.Professional:
    return catalog_pb.Professional(
        id=a.professionals[0] if with_id else "",
        tenant_id=a.id,
        name=f"Pro {uuid4().hex[:6]}",
        calendar_id=a.calendars[0] if with_id else f"sec-new-{uuid4().hex[:8]}",
        weekly_hours=[catalog_pb.WorkingHours(day_of_week=1, start_time="09:00", end_time="12:00")],
        service_ids=[a.services[0]],
    )


def _entry(a: TenantData, with_id: bool) -> catalog_pb.FaqEntry:
    return catalog_pb.FaqEntry(
        id=a.faq[0] if with_id else "", tenant_id=a.id, question="Horário?", answer="9h às 18h."
    )


Baseline = Callable[[TenantData], Message]
BASELINES: dict[str, Baseline] = {
    # AgentService
    "SendMessage": _message,
    "StreamMessage": lambda a: agent_pb.StreamMessageRequest(message=_message(a)),
    "GetConversation": lambda a: agent_pb.GetConversationRequest(
        tenant_id=a.id, conversation_id=a.conversations[0]
    ),
    "HandOff": lambda a: agent_pb.HandOffRequest(
        tenant_id=a.id, conversation_id=a.conversations[0], reason="x"
    ),
    "HandBack": lambda a: agent_pb.HandBackRequest(
        tenant_id=a.id, conversation_id=a.conversations[1], note="x"
    ),
    "EndConversation": lambda a: agent_pb.EndConversationRequest(
        tenant_id=a.id, conversation_id=a.conversations[0]
    ),
    "StreamOutbox": lambda a: agent_pb.StreamOutboxRequest(tenant_id=a.id),
    "AckOutbox": lambda a: agent_pb.AckOutboxRequest(tenant_id=a.id, message_ids=[a.outbox[0]]),
    # CatalogService
    "GetTenant": lambda a: catalog_pb.GetTenantRequest(tenant_id=a.id),
    "CreateService": lambda a: catalog_pb.CreateServiceRequest(service=_service(a, False)),
    "UpdateService": lambda a: catalog_pb.UpdateServiceRequest(service=_service(a, True)),
    "DeleteService": lambda a: catalog_pb.DeleteServiceRequest(
        tenant_id=a.id, service_id=a.services[0]
    ),
    "ListServices": lambda a: catalog_pb.ListServicesRequest(tenant_id=a.id),
    "CreateProfessional": lambda a: catalog_pb.CreateProfessionalRequest(
        professional=_professional(a, False)
    ),
    "UpdateProfessional": lambda a: catalog_pb.UpdateProfessionalRequest(
        professional=_professional(a, True)
    ),
    "DeleteProfessional": lambda a: catalog_pb.DeleteProfessionalRequest(
        tenant_id=a.id, professional_id=a.professionals[0]
    ),
    "ListProfessionals": lambda a: catalog_pb.ListProfessionalsRequest(
        tenant_id=a.id, service_id=a.services[0]
    ),
    "CreateFaqEntry": lambda a: catalog_pb.CreateFaqEntryRequest(entry=_entry(a, False)),
    "UpdateFaqEntry": lambda a: catalog_pb.UpdateFaqEntryRequest(entry=_entry(a, True)),
    "DeleteFaqEntry": lambda a: catalog_pb.DeleteFaqEntryRequest(tenant_id=a.id, entry_id=a.faq[0]),
    "ListFaqEntries": lambda a: catalog_pb.ListFaqEntriesRequest(tenant_id=a.id),
    "UpsertCustomer": lambda a: catalog_pb.UpsertCustomerRequest(
        customer=catalog_pb.Customer(tenant_id=a.id, channel="webchat", external_id=uuid4().hex)
    ),
    "GetCustomer": lambda a: catalog_pb.GetCustomerRequest(
        tenant_id=a.id, customer_id=a.customers[0]
    ),
    "ListCustomers": lambda a: catalog_pb.ListCustomersRequest(tenant_id=a.id),
    "ListAppointments": lambda a: catalog_pb.ListAppointmentsRequest(
        tenant_id=a.id, professional_id=a.professionals[0], customer_id=a.customers[0]
    ),
    "CancelAppointment": lambda a: catalog_pb.CancelAppointmentRequest(
        tenant_id=a.id, appointment_id=a.appointments["confirmed"][0], reason="x"
    ),
}


# --- agent tools ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ToolTarget:
    """One UUID parameter of one tool (``parameter`` None: a tool without ids)."""

    tool: Callable[..., Any]
    parameter: str | None
    kind: str | None

    @property
    def name(self) -> str:
        return str(self.tool.__name__)

    def __str__(self) -> str:
        return f"tool {self.name}:{self.parameter or '-'}"


def all_tools() -> list[Callable[..., Any]]:
    seen: dict[str, Callable[..., Any]] = {}
    for specialist in SPECIALISTS:
        for tool in specialist.tools:
            seen.setdefault(tool.__name__, tool)
    return list(seen.values())


def tool_parameters(tool: Callable[..., Any]) -> dict[str, Any]:
    hints = typing.get_type_hints(tool)
    return {name: hint for name, hint in hints.items() if name not in ("ctx", "return")}


def _is_uuid(hint: Any) -> bool:
    return hint is UUID or UUID in typing.get_args(hint)


ID_TEXT_PARAMETERS = {"also": "appointment", "then": "service"}
"""A tool's text parameters that carry ids (comma-separated): attacked with a foreign id too."""


def tool_targets() -> list[ToolTarget]:
    targets: list[ToolTarget] = []
    for tool in all_tools():
        ids = [
            name
            for name, hint in tool_parameters(tool).items()
            if _is_uuid(hint) or name in ID_TEXT_PARAMETERS
        ]
        if not ids:
            targets.append(ToolTarget(tool, None, None))
        for name in ids:
            kind = FIELD_KINDS.get(name) or ID_TEXT_PARAMETERS.get(name, "unknown")
            targets.append(ToolTarget(tool, name, kind))
    return targets


def _without_none(hint: Any) -> Any:
    """``X`` for an optional ``X | None`` (isolation passes a real value), else ``hint``."""
    members = [member for member in typing.get_args(hint) if member is not type(None)]
    is_union = typing.get_origin(hint) in (typing.Union, types.UnionType)
    return members[0] if is_union and len(members) == 1 else hint


def tool_arguments(
    tool: Callable[..., Any], a: TenantData, stack: SecurityStack, query: str
) -> dict[str, Any]:
    """Valid arguments of tenant A's first customer (ids of A, future times)."""
    own = {
        "professional_id": UUID(a.professionals[0]),
        "service_id": UUID(a.services[0]),
        "appointment_id": UUID(a.appointments["confirmed"][0]),
    }
    arguments: dict[str, Any] = {}
    for name, declared in tool_parameters(tool).items():
        hint = _without_none(declared)
        if name in own:
            arguments[name] = own[name]
        elif hint is date:
            arguments[name] = stack.day
        elif hint is datetime:
            arguments[name] = at(stack.day, 12)
        elif hint is str:
            arguments[name] = query
        elif hint is bool:
            arguments[name] = True  # e.g. show_customer: the listing path is exercised too
        else:
            raise AssertionError(f"{tool.__name__}({name}: {hint}) needs an isolation value")
    return arguments
