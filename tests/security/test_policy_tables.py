"""The per-RPC policy tables are complete and fail closed: every RPC of every service the
servers register has exactly one row, every row names a real RPC and a real request field,
and a method without a row (or a principal without the row's role or scope) is denied."""

from __future__ import annotations

import pytest
from google.protobuf.descriptor import Descriptor
from google.protobuf.message_factory import GetMessageClass

from agenda.agent.v1 import agent_service_pb2, catalog_service_pb2
from agenda.calendar.v1 import calendar_service_pb2
from agenda_kit.auth.policy import Access, PolicyTable, Scope, authorize, field_value, rule
from agenda_kit.auth.principals import CalendarGrant, Principal, Role
from agenda_kit.errors import RequestValidationError
from agent_service.infrastructure.grpc.policy import AGENT_POLICY, CATALOG_POLICY
from calendar_service.infrastructure.grpc.policy import CALENDAR_POLICY

TABLES = (AGENT_POLICY, CATALOG_POLICY, CALENDAR_POLICY)
SERVICES = [
    service
    for module in (agent_service_pb2, catalog_service_pb2, calendar_service_pb2)
    for service in module.DESCRIPTOR.services_by_name.values()
]


def test_every_rpc_has_exactly_one_row_and_every_row_a_real_rpc() -> None:
    tables = {table.service: table for table in TABLES}
    assert sorted(tables) == sorted(service.full_name for service in SERVICES)
    assert len(tables) == len(TABLES), "one table per service"
    rows = 0
    for service in SERVICES:
        methods = {method.name for method in service.methods}
        table = tables[service.full_name]
        assert set(table.rows) == methods, service.full_name
        rows += len(table.rows)
    print(f"\nFIGURE policy rows: {rows} rows for {len(SERVICES)} services")


def _has_path(descriptor: Descriptor, path: str) -> bool:
    for name in path.split("."):
        field = descriptor.fields_by_name.get(name)
        if field is None:
            return False
        if field.message_type is not None:
            descriptor = field.message_type
    return True


def test_every_row_names_fields_its_request_has() -> None:
    for table in TABLES:
        service = next(s for s in SERVICES if s.full_name == table.service)
        for method_name, row in table.rows.items():
            request = service.methods_by_name[method_name].input_type
            for path in (row.tenant, row.channel, row.calendars):
                assert not path or _has_path(request, path), (method_name, path)
            assert row.roles, method_name
            assert row.scope is not Scope.NONE, method_name  # diagnostics only (bench)
            if row.scope is Scope.TENANT:
                assert row.tenant, method_name
            # Every calendar RPC is calendar-scoped; every agent RPC names a tenant or is
            # platform-wide (create/list tenants).
            if table is CALENDAR_POLICY:
                assert row.scope is Scope.CALENDARS, method_name
            # A row's request type resolves (the field paths are read from real messages).
            assert GetMessageClass(request)() is not None


def test_every_agent_rpc_a_gateway_may_call_checks_channels() -> None:
    """Issue 24: the channel scope is a dimension of every AgentService row a gateway (or any
    channel-scoped principal) may call — the request's channel or the stored one's."""
    for method_name, row in AGENT_POLICY.rows.items():
        if Role.GATEWAY in row.roles:
            assert bool(row.channel) != row.stored_channel, method_name


def test_misspelt_scope_fields_are_invalid_not_compared() -> None:
    send = AGENT_POLICY.rows["SendMessage"]
    a = "aaaaaaaa-0000-0000-0000-000000000001"
    for tenant in (f"{{{a}}}", a.replace("-", ""), f"urn:uuid:{a}", f"{a}\n", f" {a}"):
        with pytest.raises(RequestValidationError) as refused:
            authorize(send, GATEWAY, _message(tenant, "whatsapp"))
        assert refused.value.field == "tenant_id"
    for channel in ("whatsapp\n", "WhatsApp", "whats app", "x" * 33):
        with pytest.raises(RequestValidationError) as refused:
            authorize(send, GATEWAY, _message(a, channel))
        assert refused.value.field == "customer.channel"


def test_a_method_without_a_row_is_denied() -> None:
    operator = Principal(name="op", roles=frozenset(Role), tenants=None)
    table = PolicyTable("x.Service", {})
    assert authorize(table.rule_for("Anything"), operator, object()) is not None


GATEWAY = Principal(
    name="gw",
    roles=frozenset({Role.GATEWAY}),
    tenants=frozenset({"aaaaaaaa-0000-0000-0000-000000000001"}),
    channels=frozenset({"whatsapp"}),
)


def _message(tenant: str, channel: str) -> agent_service_pb2.SendMessageRequest:
    return agent_service_pb2.SendMessageRequest(
        tenant_id=tenant, customer=agent_service_pb2.CustomerIdentity(channel=channel)
    )


def test_tenant_and_channel_scopes() -> None:
    send = AGENT_POLICY.rows["SendMessage"]
    a = "aaaaaaaa-0000-0000-0000-000000000001"
    assert authorize(send, GATEWAY, _message(a, "whatsapp")) is None
    assert authorize(send, GATEWAY, _message(a.upper(), "whatsapp")) is None
    assert authorize(send, GATEWAY, _message(a, "webchat")) is not None
    assert authorize(send, GATEWAY, _message(a.replace("1", "2"), "whatsapp")) is not None
    # Empty fields pass to the handler, which answers INVALID_ARGUMENT.
    assert authorize(send, GATEWAY, _message("", "")) is None
    assert field_value(_message(a, "x"), "customer.channel") == "x"


def test_calendar_grants_read_write_and_patterns() -> None:
    reader = Principal(
        name="r",
        roles=frozenset({Role.CALENDAR_CLIENT}),
        calendars=(CalendarGrant(pattern="salon-*"), CalendarGrant(pattern="x", write=True)),
    )
    read = rule(Role.CALENDAR_CLIENT, access=Access.READ, calendars="calendar_id")
    write = rule(Role.CALENDAR_CLIENT, access=Access.WRITE, calendars="calendar_id")
    many = rule(Role.CALENDAR_CLIENT, access=Access.READ, calendars="calendar_ids")
    get = calendar_service_pb2.GetEventRequest
    assert authorize(read, reader, get(calendar_id="salon-1")) is None
    assert authorize(write, reader, get(calendar_id="salon-1")) is not None
    assert authorize(write, reader, get(calendar_id="x")) is None
    assert authorize(read, reader, get(calendar_id="salonx")) is not None
    query = calendar_service_pb2.QueryFreeBusyRequest
    assert authorize(many, reader, query(calendar_ids=["salon-1", "x"])) is None
    assert authorize(many, reader, query(calendar_ids=["salon-1", "other"])) is not None
    assert not reader.sees_all_owners("salon-1")
    operator = Principal(name="op", roles=frozenset({Role.OPERATOR}), tenants=None)
    assert authorize(read, operator, get(calendar_id="any")) is not None  # not in the row
    op_read = rule(Role.OPERATOR, access=Access.READ, calendars="calendar_id")
    op_write = rule(Role.OPERATOR, access=Access.WRITE, calendars="calendar_id")
    assert authorize(op_read, operator, get(calendar_id="any")) is None
    assert authorize(op_write, operator, get(calendar_id="any")) is not None
    assert operator.sees_all_owners("any")


def test_platform_rows_need_a_platform_wide_principal() -> None:
    create = CATALOG_POLICY.rows["CreateTenant"]
    request = catalog_service_pb2.CreateTenantRequest()
    scoped = Principal(name="bo", roles=frozenset({Role.BACKOFFICE}), tenants=frozenset({"a"}))
    platform = Principal(name="bo2", roles=frozenset({Role.BACKOFFICE}), tenants=None)
    assert authorize(create, scoped, request) is not None
    assert authorize(create, platform, request) is None
