"""Issue 9, property: scoped principals (gateway and back office of tenant A, calendar clients
X and Y) sending random mixes of another tenant's or another calendar client's ids — and of
ids that exist nowhere — through every handler of the three services learn nothing and change
nothing: no answer carries B's data or the other client's events, and B's data and the other
client's events are the same afterwards."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from google.protobuf import text_format
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agenda.calendar.v1 import calendar_service_pb2 as calendar_pb
from tests.figures import record
from tests.security.authorization import (
    BO,
    CALENDAR_RPCS,
    CX,
    CY,
    GW,
    AgentSide,
    CalendarSide,
    agent_request,
    agent_side,
    calendar_request,
    calendar_side,
)
from tests.security.conftest import scaled
from tests.security.isolation import id_fields, set_field
from tests.security.principals import Principals
from tests.security.rpcs import Rpc, invoke
from tests.security.stack import CALENDAR_AUTH, SecurityStack, at, stamp

pytest_plugins = ["tests.security.matrix_setup"]
RPCS = [
    Rpc(service.full_name, method)
    for module in (agent_pb, catalog_pb, calendar_pb)
    for service in module.DESCRIPTOR.services_by_name.values()
    for method in service.methods
]
SCOPED = (GW, BO, CX, CY)
SEEN: Counter[str] = Counter()
BROKEN: Counter[str] = Counter()  # examples that leaked or changed protected data (must be 0)
HYPOTHESIS = settings(
    derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)
Prepared = tuple[SecurityStack, Principals, CalendarSide, AgentSide]


@pytest.fixture
async def prepared(matrix_stack: tuple[SecurityStack, Principals]) -> Prepared:
    stack, principals = matrix_stack
    return stack, principals, await calendar_side(stack, principals), await agent_side(stack)


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    if SEEN:
        print(f"\nFIGURE foreign ids by principal: {sum(SEEN.values())} calls -> {dict(SEEN)}")
        record(
            "authorization_random_ids",
            {
                "calls (random principal, RPC and foreign ids)": sum(SEEN.values()),
                "outcomes": dict(sorted(SEEN.items())),
                "calls that leaked": BROKEN["leaks"],
                "calls that changed protected data": BROKEN["changes"],
            },
        )


def _agent_request(rpc: Rpc, prepared: Prepared, data: st.DataObject) -> Message | None:
    stack, _, _, side = prepared
    a, b = stack.tenants["A"], stack.tenants["B"]
    request = agent_request(rpc, "own", side, a, b)
    if request is None:
        return None
    for path, kind in id_fields(rpc.method.input_type):
        if not data.draw(st.booleans(), label=f"replace {'.'.join(path)}"):
            continue
        pool = [b.id] if kind in ("context", "tenant") else b.ids(kind) if kind in _KINDS else []
        choice = data.draw(st.sampled_from([*pool, str(uuid.uuid4())]), label="foreign id")
        _replace(request, path, choice)
    return request


_KINDS = frozenset({"service", "professional", "faq", "customer", "conversation", "appointment"})


def _replace(request: Message, path: tuple[str, ...], value: str) -> None:
    *parents, last = path
    holder: Any = request
    for name in parents:
        holder = getattr(holder, name)
    if holder.DESCRIPTOR.fields_by_name[last].is_repeated:
        del getattr(holder, last)[:]
    set_field(request, path, value)


def _calendar_request(
    rpc: Rpc, principal: str, prepared: Prepared, data: st.DataObject
) -> Message | None:
    stack, _, side, _ = prepared
    request = calendar_request(rpc.name, principal, "own", side, stack)
    if request is None:
        return None
    other = CY if principal == CX else CX
    nowhere = f"nowhere-{uuid.uuid4().hex[:6]}"
    pairs = [  # (calendar, event): the other client's, on its calendar or the shared one
        (side.calendars[other], side.kept[other]),
        (side.calendars[other], side.to_cancel[other]),
        (side.shared, side.shared_events[other]),
        (nowhere, "nope"),
    ]
    calendar, event = data.draw(st.sampled_from(pairs), label="foreign calendar and event")
    fields = request.DESCRIPTOR.fields_by_name
    if "event_id" in fields:
        _replace(request, ("event_id",), event)
    name = "calendar_ids" if "calendar_ids" in fields else "calendar_id"
    if "event_id" not in fields or data.draw(st.booleans(), label="foreign calendar too"):
        _replace(request, (name,), calendar)
    return request


async def _protected(prepared: Prepared, principal: str) -> Any:
    """B's stored data, and every event of the calendar clients but ``principal``'s own."""
    stack, _, side, _ = prepared
    start = at(stack.day, 0)
    window = calendar_pb.TimeRange(start=stamp(start), end=stamp(start + timedelta(days=2)))
    events = []
    for calendar in (*side.calendars.values(), side.shared):
        reply = await stack.calendar.ListEvents(
            calendar_pb.ListEventsRequest(
                calendar_id=calendar, range=window, include_cancelled=True
            ),
            metadata=CALENDAR_AUTH,
        )
        events.append(sorted((e.event_id, e.status) for e in reply.events if e.owner != principal))
    return await stack.snapshot(stack.tenants["B"]), events


def _secrets(prepared: Prepared, principal: str) -> list[str]:
    stack, _, side, _ = prepared
    if principal in (CX, CY):
        other = CY if principal == CX else CX
        return [side.kept[other], side.to_cancel[other], side.shared_events[other]]
    return [s for s in stack.tenants["B"].secrets() if s]


@pytest.mark.reliability
@settings(HYPOTHESIS, max_examples=scaled(300, 2000))
@given(data=st.data())
async def test_random_foreign_ids_leak_nothing_and_change_nothing(
    prepared: Prepared, data: st.DataObject
) -> None:
    stack, principals, _, _ = prepared
    service = data.draw(st.sampled_from(sorted({r.service for r in RPCS})), label="service")
    rpc = data.draw(st.sampled_from([r for r in RPCS if r.service == service]), label="rpc")
    calendar = rpc.name in CALENDAR_RPCS
    principal = data.draw(st.sampled_from((CX, CY, GW) if calendar else SCOPED), label="who")
    if calendar:
        channel, request = stack.calendar_channel, _calendar_request(rpc, principal, prepared, data)
    else:
        channel, request = stack.agent_channel, _agent_request(rpc, prepared, data)
    if request is None:
        return
    before = await _protected(prepared, principal)
    outcome = await invoke(channel, rpc, request, principals.metadata(principal))
    text = "".join(text_format.MessageToString(r) for r in outcome.responses)
    leaked = [s for s in _secrets(prepared, principal) if s in text]
    changed = await _protected(prepared, principal) != before
    SEEN[outcome.code.name] += 1
    BROKEN["leaks"] += bool(leaked)
    BROKEN["changes"] += changed
    assert leaked == [], (str(rpc), principal)
    assert not changed, (str(rpc), principal, outcome)
