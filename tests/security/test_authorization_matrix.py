"""Issue 9's authorization matrix: every RPC of the three services (discovered from the
running servers) × 9 principals × 3 targets, each cell's answer against the threat model.

Counted: cells, and cells wrongly allowed / wrongly denied / otherwise wrong (all must be 0).
Tenant B's data must be unchanged, and no allowed answer may carry B's data (to a principal
of A) or another calendar client's events. The counts are recorded as the figures of
docs/figures/authorization.json (``AGENDA_RECORD_FIGURES=1``; see tests/figures.py).
"""

from __future__ import annotations

import json
from collections import Counter

import grpc
from google.protobuf import text_format
from google.protobuf.message import Message

from tests.figures import record
from tests.security.authorization import (
    CALENDAR_RPCS,
    CX,
    CY,
    PLATFORM_WIDE,
    PRINCIPALS,
    TARGETS,
    AgentSide,
    CalendarSide,
    agent_request,
    agent_side,
    calendar_request,
    calendar_side,
    expected,
    matches,
)
from tests.security.principals import Principals
from tests.security.rpcs import Outcome, Rpc, discover, invoke
from tests.security.stack import SecurityStack

pytest_plugins = ["tests.security.matrix_setup"]
DENIALS = frozenset({"UNAUTHENTICATED", "PERMISSION_DENIED", "NOT_FOUND"})


def _leaks(stack: SecurityStack, side: CalendarSide, principal: str, outcome: Outcome) -> list[str]:
    text = "".join(text_format.MessageToString(r) for r in outcome.responses)
    secrets: list[str] = []
    if principal not in PLATFORM_WIDE:
        secrets += [s for s in stack.tenants["B"].secrets() if s]
    if principal in (CX, CY):
        other = CY if principal == CX else CX
        secrets += [side.kept[other], side.to_cancel[other], side.shared_events[other]]
    return [secret for secret in secrets if secret in text]


async def test_authorization_matrix(matrix_stack: tuple[SecurityStack, Principals]) -> None:
    stack, principals = matrix_stack
    calendars = await calendar_side(stack, principals)
    agents = await agent_side(stack)
    b = stack.tenants["B"]
    b_before = await stack.snapshot(b)
    rpcs = [
        *(await discover(stack.agent_channel)),
        *(await discover(stack.calendar_channel)),
    ]
    outcomes: Counter[str] = Counter()
    wrong: dict[str, list[str]] = {"wrongly_allowed": [], "wrongly_denied": [], "other": []}
    leaks: list[str] = []
    for rpc in rpcs:
        for principal in PRINCIPALS:
            for target in TARGETS:
                channel, request = _cell(stack, rpc, principal, target, calendars, agents)
                if request is None:
                    continue
                outcome = await invoke(channel, rpc, request, principals.metadata(principal))
                want = expected(rpc.name, principal, target)
                outcomes[want] += 1
                cell = f"{rpc} | {principal} | {target}: want {want}, got {outcome.code.name}"
                if not matches(want, outcome.code):
                    kind = _kind(want, outcome.code.name)
                    wrong[kind].append(f"{cell} {outcome.details!r}")
                if outcome.responses:
                    leaks += [
                        f"{cell} leaks {s}" for s in _leaks(stack, calendars, principal, outcome)
                    ]
    assert await stack.snapshot(b) == b_before, "tenant B's data changed"
    cells = sum(outcomes.values())
    figures = {
        "RPCs (3 services, from reflection)": len(rpcs),
        "principals": len(PRINCIPALS),
        "targets (own, other, foreign id)": len(TARGETS),
        "cells": cells,
        "expected outcomes": dict(sorted(outcomes.items())),
        "wrongly allowed": len(wrong["wrongly_allowed"]),
        "wrongly denied": len(wrong["wrongly_denied"]),
        "other mismatches": len(wrong["other"]),
        "answers leaking another tenant's or client's data": len(leaks),
        "tenant B changed": False,
    }
    print(f"\nFIGURE authorization matrix: {cells} cells -> {json.dumps(figures)}")
    assert wrong == {"wrongly_allowed": [], "wrongly_denied": [], "other": []}
    assert leaks == []
    assert len(rpcs) >= 33 and {r.name for r in rpcs} >= CALENDAR_RPCS
    record("authorization", figures)


def _cell(
    stack: SecurityStack,
    rpc: Rpc,
    principal: str,
    target: str,
    calendar_side: CalendarSide,
    agent_side: AgentSide,
) -> tuple[grpc.aio.Channel, Message | None]:
    a, b = stack.tenants["A"], stack.tenants["B"]
    if rpc.name in CALENDAR_RPCS:
        request = calendar_request(rpc.name, principal, target, calendar_side, stack)
        return stack.calendar_channel, request
    return stack.agent_channel, agent_request(rpc, target, agent_side, a, b)


def _kind(want: str, got: str) -> str:
    if want in DENIALS and got not in DENIALS:
        return "wrongly_allowed"
    if want not in DENIALS and got in DENIALS:
        return "wrongly_denied"
    return "other"
