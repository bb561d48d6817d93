"""A principal's roles are never combined into more reach than one role gives (session 44, blind
review of the agent service as an attacker with credentials: a principal with roles
operator + back office and tenants [A] — the documented way to let an operator write —
rewrote tenant B's FAQ and cancelled B's appointments, and operator + gateway of A sent messages
as B's customers: the operator's reach across tenants carried over to its other roles). Rules:

- a call is scoped by the roles of the principal that the call's row grants: the operator's
  reach across tenants counts only for the calls the operator role itself may make (reads);
- a principal's stated tenants bound every role, the operator's too (an operator of A only
  reads A); an operator with no tenant list reads every tenant, as documented.

Property over every row of the agent and catalog policy tables, every set of roles and both
kinds of tenant scope."""

from __future__ import annotations

import itertools
import uuid
from typing import Any

import pytest
from google.protobuf.message_factory import GetMessageClass

from agenda.agent.v1 import agent_service_pb2, catalog_service_pb2
from agenda_kit.auth.policy import PolicyTable, Scope, authorize
from agenda_kit.auth.principals import Principal, Role
from agent_service.infrastructure.grpc.policy import AGENT_POLICY, CATALOG_POLICY

A, B = str(uuid.UUID(int=0xA)), str(uuid.UUID(int=0xB))
ROLES = (Role.GATEWAY, Role.BACKOFFICE, Role.OPERATOR)
ROLE_SETS = [
    frozenset(combo) for size in (1, 2, 3) for combo in itertools.combinations(ROLES, size)
]
MODULES = {
    AGENT_POLICY.service: agent_service_pb2,
    CATALOG_POLICY.service: catalog_service_pb2,
}


def _request(table: PolicyTable, method: str, tenant_field: str, tenant: str) -> Any:
    module = MODULES[table.service]
    service = module.DESCRIPTOR.services_by_name[table.service.rsplit(".", 1)[-1]]
    request = GetMessageClass(service.methods_by_name[method].input_type)()
    target: Any = request
    *path, last = tenant_field.split(".")
    for part in path:
        target = getattr(target, part)
    setattr(target, last, tenant)
    return request


ROWS = [
    (table, method, row)
    for table in (AGENT_POLICY, CATALOG_POLICY)
    for method, row in sorted(table.rows.items())
    if row.scope is Scope.TENANT and row.tenant
]


IDS = [f"{table.service.rsplit('.', 1)[-1]}.{method}" for table, method, _ in ROWS]


@pytest.mark.parametrize(("table", "method", "row"), ROWS, ids=IDS)
def test_another_tenant_is_reached_only_by_an_operator_without_a_tenant_list(
    table: PolicyTable, method: str, row: Any
) -> None:
    request = _request(table, method, row.tenant, B)
    for roles in ROLE_SETS:
        granted = roles & row.roles
        for tenants in (frozenset({A}), frozenset()):
            principal = Principal(name="p", roles=roles, tenants=tenants)
            denial = authorize(row, principal, request)
            reaches = Role.OPERATOR in granted and not tenants
            assert (denial is None) is (bool(granted) and reaches), (method, roles, tenants)
