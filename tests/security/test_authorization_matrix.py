"""Issues 9 and 24's authorization matrix: every RPC of the three services (discovered from
the running servers) × 13 principals × 3 targets × (for the RPCs that address a conversation
or an outbox message) the own tenant's 2 channels, each cell's answer against the threat model.

Counted: cells, and cells wrongly allowed / wrongly denied / otherwise wrong (all must be 0).
Tenant B's data must be unchanged, and no allowed answer may carry B's data (to a principal
of A), another calendar client's events, or (to a channel-scoped gateway) another channel's
conversation or outbox message; an acknowledgement of another channel's message acknowledges
nothing. The counts are recorded as the figures of docs/figures/authorization.json
(``AGENDA_RECORD_FIGURES=1``; see tests/figures.py).
"""

from __future__ import annotations

import json
from collections import Counter

import grpc
from google.protobuf import text_format
from google.protobuf.message import Message

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from tests.figures import record
from tests.security.authorization import (
    CALENDAR_RPCS,
    CHANNEL_RPCS,
    CHANNELS,
    CHANNELS_OF,
    CX,
    CXR,
    CY,
    PLATFORM_WIDE,
    PRINCIPALS,
    TARGETS,
    AgentSide,
    CalendarSide,
    acknowledged,
    agent_request,
    agent_side,
    calendar_request,
    calendar_side,
    expected,
    matches,
    on_channel,
)
from tests.security.principals import Principals
from tests.security.rpcs import Outcome, Rpc, discover, invoke
from tests.security.stack import SecurityStack

pytest_plugins = ["tests.security.matrix_setup"]
DENIALS = frozenset({"UNAUTHENTICATED", "PERMISSION_DENIED", "NOT_FOUND"})


def _leaks(
    stack: SecurityStack, sides: tuple[CalendarSide, AgentSide], principal: str, outcome: Outcome
) -> list[str]:
    side, agents = sides
    text = "".join(text_format.MessageToString(r) for r in outcome.responses)
    secrets: list[str] = []
    if principal not in PLATFORM_WIDE:
        secrets += [s for s in stack.tenants["B"].secrets() if s]
    if principal in (CX, CY, CXR):
        others = {CX: [CY], CY: [CX], CXR: [CX, CY]}[principal]
        for other in others:
            secrets += [side.kept[other], side.to_cancel[other], side.shared_events[other]]
    if principal in CHANNELS_OF:
        barred = [c for c in CHANNELS if c not in CHANNELS_OF[principal]]
        secrets += [agents.channels.conversations[c] for c in barred]
        secrets += [f'channel: "{c}"' for c in barred]  # an outbox message or conversation
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
            for target, on in _targets(rpc):
                server, request = await _cell(
                    stack, rpc, principal, (target, on), calendars, agents
                )
                if request is None:
                    continue
                outcome = await invoke(server, rpc, request, principals.metadata(principal))
                want = expected(rpc.name, principal, target, on)
                outcomes[want] += 1
                where = f"{target}/{on}" if on else target
                cell = f"{rpc} | {principal} | {where}: want {want}, got {outcome.code.name}"
                if not matches(want, outcome.code):
                    kind = _kind(want, outcome.code.name)
                    wrong[kind].append(f"{cell} {outcome.details!r}")
                elif rpc.name == "AckOutbox" and outcome.responses:
                    count = outcome.responses[0].acknowledged  # type: ignore[attr-defined]
                    if target == "own" and count != acknowledged(principal, on):
                        wrong["wrongly_allowed" if count else "wrongly_denied"].append(
                            f"{cell}: acknowledged {count}"
                        )
                if outcome.responses:
                    found = _leaks(stack, (calendars, agents), principal, outcome)
                    leaks += [f"{cell} leaks {s}" for s in found]
    assert await stack.snapshot(b) == b_before, "tenant B's data changed"
    cells = sum(outcomes.values())
    figures = {
        "RPCs (3 services, from reflection)": len(rpcs),
        "principals": len(PRINCIPALS),
        "targets (own, other, foreign id)": len(TARGETS),
        "channels (own tenant's, per conversation/outbox RPC)": len(CHANNELS),
        "cells": cells,
        "expected outcomes": dict(sorted(outcomes.items())),
        "wrongly allowed": len(wrong["wrongly_allowed"]),
        "wrongly denied": len(wrong["wrongly_denied"]),
        "other mismatches": len(wrong["other"]),
        "answers leaking another tenant's, client's or channel's data": len(leaks),
        "tenant B changed": False,
    }
    print(f"\nFIGURE authorization matrix: {cells} cells -> {json.dumps(figures)}")
    assert wrong == {"wrongly_allowed": [], "wrongly_denied": [], "other": []}
    assert leaks == []
    assert len(rpcs) >= 33 and {r.name for r in rpcs} >= CALENDAR_RPCS
    record("authorization", figures)


def _targets(rpc: Rpc) -> list[tuple[str, str | None]]:
    """(target, channel): the own tenant once per channel where the RPC addresses one."""
    if rpc.name not in CHANNEL_RPCS:
        return [(target, None) for target in TARGETS]
    return [*(("own", channel) for channel in CHANNELS), ("other", None), ("foreign", None)]


async def _cell(
    stack: SecurityStack,
    rpc: Rpc,
    principal: str,
    where: tuple[str, str | None],
    calendar_side: CalendarSide,
    agent_side: AgentSide,
) -> tuple[grpc.aio.Channel, Message | None]:
    a, b = stack.tenants["A"], stack.tenants["B"]
    target, channel = where
    if rpc.name in CALENDAR_RPCS:
        request = calendar_request(rpc.name, principal, target, calendar_side, stack)
        return stack.calendar_channel, request
    request = agent_request(rpc, target, agent_side, a, b)
    if request is not None and channel is not None:
        if rpc.name == "AckOutbox":  # a fresh message: each cell's acknowledgement is its own
            fresh = await agent_side.channels.outbox_message(stack, channel)
            request = agent_pb.AckOutboxRequest(tenant_id=a.id, message_ids=[fresh])
        else:
            on_channel(rpc.name, request, channel, agent_side.channels)
    return stack.agent_channel, request


def _kind(want: str, got: str) -> str:
    if want in DENIALS and got not in DENIALS:
        return "wrongly_allowed"
    if want not in DENIALS and got in DENIALS:
        return "wrongly_denied"
    return "other"
