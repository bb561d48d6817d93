"""Property 7: in tenant A's context, tenant B's ids are not found and B's data is unchanged.

Hypothesis picks the target (an id field of an AgentService/CatalogService RPC, or a UUID
parameter of an agent tool), the kind of id and which of B's ids. Every RPC answer to B's id
must be the answer to an id that never existed (no existence oracle) and, where the RPC
addresses the entity, NOT_FOUND; every tool must answer "NOT FOUND"; B's stored data and
calendar events must be byte-for-byte the same before and after; no answer may carry any of
B's other ids, names or FAQ text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path
from uuid import UUID, uuid4

import pytest
from google.protobuf import text_format
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic_ai import RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agenda_kit.mongo import EmbeddedMongo
from agent_service.domain.conversations import ActionKind
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction, TurnState
from agent_service.infrastructure.agent.tools.results import result_code, result_text
from tests.figures import record
from tests.process_clock import services_now
from tests.security.conftest import scaled
from tests.security.isolation import (
    BASELINES,
    ID_TEXT_PARAMETERS,
    OK,
    RpcTarget,
    ToolTarget,
    rpc_targets,
    set_field,
    tenant_scoped,
    tool_arguments,
    tool_targets,
)
from tests.security.rpcs import Rpc, invoke
from tests.security.stack import AGENT_AUTH, SecurityStack, TenantData, security_stack

pytest_plugins = ["tests.kit.mongo_fixtures"]
WRITE_TOOLS = frozenset({"book_appointment", "cancel_appointment", "reschedule_appointment"})
SEEN: Counter[str] = Counter()


def _leaks(text: str, b: TenantData, allowed: str) -> list[str]:
    return [secret for secret in b.secrets() if secret != allowed and secret in text]


async def _attack_rpc(
    stack: SecurityStack, target: RpcTarget | Rpc, foreign: str, a: TenantData, b: TenantData
) -> str:
    rpc = target.rpc if isinstance(target, RpcTarget) else target
    request = BASELINES[rpc.name](a)
    if isinstance(target, RpcTarget):
        control = BASELINES[rpc.name](a)
        set_field(request, target.path, foreign)
        set_field(control, target.path, str(uuid4()))
        outcome = await invoke(stack.agent_channel, rpc, request, AGENT_AUTH)
        never_existed = await invoke(stack.agent_channel, rpc, control, AGENT_AUTH)
        assert outcome.code == never_existed.code, (str(target), outcome, never_existed)
        assert outcome.code == target.expected, (str(target), outcome)
    else:  # no id but the tenant's: the answer must be A's data only
        outcome = await invoke(stack.agent_channel, rpc, request, AGENT_AUTH)
        assert outcome.code == OK, (str(rpc), outcome)
    answer = outcome.details + "".join(text_format.MessageToString(r) for r in outcome.responses)
    assert not _leaks(answer, b, foreign), (str(target), _leaks(answer, b, foreign))
    return outcome.code.name


async def _deps(stack: SecurityStack, a: TenantData, pending: PendingAction | None) -> AgentDeps:
    repos, tenant_id = stack.repos, UUID(a.id)
    return AgentDeps(
        tenant_id=tenant_id,
        customer_id=UUID(a.customers[0]),
        tenant_repository=repos.tenants,
        service_repository=repos.services,
        professional_repository=repos.professionals,
        appointment_repository=repos.appointments,
        calendar_adapter=stack.agent_app.calendar,
        faq_repository=repos.faq,
        booking=stack.agent_app.booking,
        tenant=await repos.tenants.get(tenant_id),
        turn=TurnState(now=services_now(), language="pt", pending=pending),
    )


async def _attack_tool(
    stack: SecurityStack, target: ToolTarget, foreign: str, confirmed: bool, query: str
) -> str:
    a, b = stack.tenants["A"], stack.tenants["B"]
    arguments = tool_arguments(target.tool, a, stack, query)
    if target.parameter is not None:  # an id, or a text of ids (``also``, ``then``)
        is_text = target.parameter in ID_TEXT_PARAMETERS
        arguments[target.parameter] = foreign if is_text else UUID(foreign)
    pending = None
    if confirmed and target.name in WRITE_TOOLS:  # as if the customer had said yes to exactly this
        textual = {
            k: v.isoformat() if isinstance(v, datetime) else str(v) for k, v in arguments.items()
        }
        pending = PendingAction(target.name, textual, "x", confirmed=True)
    deps = await _deps(stack, a, pending)
    context = RunContext(deps=deps, model=TestModel(), usage=RunUsage())
    returned = await target.tool(context, **arguments)
    answer = result_text(returned)  # what a model reads
    if target.parameter is not None:
        assert result_code(returned) == "NOT_FOUND", (str(target), answer)
    assert not _leaks(answer, b, foreign), (str(target), answer)
    writes = [x for x in deps.turn.actions if x.kind is not ActionKind.HANDED_OFF]
    assert not writes and deps.turn.writes_this_turn == 0, str(target)
    return "NOT FOUND" if target.parameter is not None else "no B data"


def _foreign_ids(stack: SecurityStack, kind: str | None, tool: bool) -> list[str]:
    """B's ids of that kind first, then any of B's ids; for the customer's own tools also
    the appointments of A's OTHER customer (same tenant, not theirs)."""
    a, b = stack.tenants["A"], stack.tenants["B"]
    ids = b.ids(kind) if kind else []
    if tool and kind == "appointment":
        ids = ids + a.appointments_of[a.customers[1]]
    return ids + [i for i in b.all_ids() if i not in ids]


def _static_rpcs() -> list[Rpc]:
    """AgentService and CatalogService methods whose request names a tenant (from the
    descriptors, so a new RPC is a new target)."""
    rpcs = [
        Rpc(service.full_name, method)
        for module in (agent_pb, catalog_pb)
        for service in module.DESCRIPTOR.services_by_name.values()
        for method in service.methods
    ]
    return [r for r in rpcs if tenant_scoped(r)]


RPCS = _static_rpcs()
TARGETS: list[RpcTarget | Rpc | ToolTarget] = [
    *(t for r in RPCS for t in rpc_targets(r)),
    *(r for r in RPCS if not rpc_targets(r)),  # tenant-only RPCs: A's answer holds no B data
    *tool_targets(),
]
CASES = {"memory": scaled(150, 1000), "mongodb": scaled(40, 1000)}
HYPOTHESIS = settings(
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def test_every_target_is_classified() -> None:
    missing = sorted(r.name for r in RPCS if r.name not in BASELINES)
    assert not missing, f"add a valid tenant-A request for {missing} to isolation.BASELINES"
    unknown = [str(t) for t in TARGETS if getattr(t, "kind", "") == "unknown"]
    assert not unknown, f"classify these id fields in isolation.FIELD_KINDS: {unknown}"
    print(f"\nFIGURE isolation targets: {len(RPCS)} tenant-scoped RPCs, {len(TARGETS)} targets")


async def _attack(
    stack: SecurityStack, target: RpcTarget | Rpc | ToolTarget, data: st.DataObject, label: str
) -> None:
    a, b = stack.tenants["A"], stack.tenants["B"]
    is_tool = isinstance(target, ToolTarget)
    kind = None if isinstance(target, Rpc) else target.kind
    candidates = _foreign_ids(stack, kind, is_tool)
    foreign = data.draw(st.sampled_from(candidates), label="foreign id")
    victims = [b, a] if is_tool else [b]
    before = [await stack.snapshot(v) for v in victims]
    if isinstance(target, ToolTarget):
        confirmed = data.draw(st.booleans(), label="pre-confirmed")
        query = data.draw(
            st.sampled_from([*b.faq_questions, b.name, "endereço", "pix", "serviços"])
        )
        outcome = await _attack_tool(stack, target, foreign, confirmed, query)
    else:
        outcome = await _attack_rpc(stack, target, foreign, a, b)
    after = [await stack.snapshot(v) for v in victims]
    assert after == before, f"{target} changed a victim's data"
    SEEN[f"{label} {'tool' if is_tool else 'rpc'} -> {outcome}"] += 1


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    for label in CASES:
        figures = {k.split(" ", 1)[1]: n for k, n in SEEN.items() if k.startswith(label)}
        if figures:
            print(f"\nFIGURE isolation[{label}]: {sum(figures.values())} cases -> {figures}")
            record(
                "properties",
                {
                    f"07 tenant isolation ({label}): cases": sum(figures.values()),
                    f"07 tenant isolation ({label}): outcomes": figures,
                },
            )


@pytest.mark.reliability
@settings(HYPOTHESIS, max_examples=CASES["memory"])
@given(target=st.sampled_from(TARGETS), data=st.data())
async def test_tenant_b_ids_in_tenant_a_context(
    stack: SecurityStack, target: RpcTarget | Rpc | ToolTarget, data: st.DataObject
) -> None:
    """In-memory storage: ~150 cases by default, 1,000 under RELIABILITY_SCALE=full."""
    await _attack(stack, target, data, "memory")


@pytest.fixture
async def mongo_stack(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> AsyncIterator[SecurityStack]:
    async with security_stack(tmp_path, embedded_mongo) as stack:
        yield stack


@pytest.mark.reliability
@settings(HYPOTHESIS, max_examples=CASES["mongodb"])
@given(target=st.sampled_from(TARGETS), data=st.data())
async def test_tenant_b_ids_in_tenant_a_context_on_mongodb(
    mongo_stack: SecurityStack, target: RpcTarget | Rpc | ToolTarget, data: st.DataObject
) -> None:
    """The same attack on production storage (Beanie on the embedded MongoDB)."""
    await _attack(mongo_stack, target, data, "mongodb")
