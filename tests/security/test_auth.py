"""Property 6: every RPC of both services, without a token or with a wrong one, is
UNAUTHENTICATED and changes nothing; health and reflection still answer without a token.

The RPCs are discovered from the running servers (reflection + descriptors), so a new RPC is
covered without touching this file.
"""

from __future__ import annotations

from collections import Counter

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.figures import record
from tests.security.rpcs import Metadata, discover, invoke, reflected_services
from tests.security.stack import AGENT_TOKEN, CALENDAR_TOKEN, SecurityStack


def bad_credentials(token: str, other_service_token: str) -> dict[str, Metadata]:
    """Metadata that must never pass: none, wrong, malformed, near misses, the other
    service's token, the right token under the wrong key or scheme."""
    return {
        "none": (),
        "wrong": (("authorization", "Bearer not-the-token"),),
        "empty bearer": (("authorization", "Bearer "),),
        "no scheme": (("authorization", token),),
        "basic scheme": (("authorization", f"Basic {token}"),),
        "prefix": (("authorization", f"Bearer {token[:-1]}"),),
        "suffix": (("authorization", f"Bearer {token}x"),),
        "other service's token": (("authorization", f"Bearer {other_service_token}"),),
        "wrong key": (("x-authorization", f"Bearer {token}"),),
    }


async def test_every_rpc_without_a_valid_token_is_unauthenticated(stack: SecurityStack) -> None:
    servers = (
        ("agent", stack.agent_channel, AGENT_TOKEN, CALENDAR_TOKEN),
        ("calendar", stack.calendar_channel, CALENDAR_TOKEN, AGENT_TOKEN),
    )
    before = {label: await stack.snapshot(t) for label, t in stack.tenants.items()}
    requests_before = stack.model.requests
    codes: Counter[str] = Counter()
    methods = 0
    for _server, channel, token, other in servers:
        rpcs = await discover(channel)
        assert rpcs, "reflection listed no application service"
        methods += len(rpcs)
        for rpc in rpcs:
            for label, metadata in bad_credentials(token, other).items():
                outcome = await invoke(channel, rpc, rpc.request_type(), metadata)
                codes[outcome.code.name] += 1
                assert outcome.code is grpc.StatusCode.UNAUTHENTICATED, (str(rpc), label, outcome)
                assert outcome.responses == ()
            # The same call with the right token passes authentication (so the check is real).
            authorised = await invoke(
                channel, rpc, rpc.request_type(), (("authorization", f"Bearer {token}"),)
            )
            assert authorised.code is not grpc.StatusCode.UNAUTHENTICATED, str(rpc)
    assert methods >= 33  # 6 AgentService + 21 CatalogService + 6 CalendarService today
    # Even the authorised calls (empty requests) were refused before any model or write.
    assert stack.model.requests == requests_before
    assert {label: await stack.snapshot(t) for label, t in stack.tenants.items()} == before
    print(f"\nFIGURE auth: {methods} RPCs x 9 bad credentials -> {dict(codes)}")
    record(
        "properties",
        {
            "06 auth: RPCs (found through reflection) x bad credentials": f"{methods} x 9",
            "06 auth: codes": dict(codes),
            "06 auth: model requests": stack.model.requests - requests_before,
        },
    )


async def test_health_and_reflection_answer_without_a_token(stack: SecurityStack) -> None:
    for channel in (stack.agent_channel, stack.calendar_channel):
        services = await reflected_services(channel)
        assert any(name.startswith("agenda.") for name in services), services
        assert services == await reflected_services(channel, (("authorization", "Bearer wrong"),))
        health = health_pb2_grpc.HealthStub(channel)
        for name in ("", *(s for s in services if s.startswith("agenda."))):
            for metadata in ((), (("authorization", "Bearer wrong"),)):
                reply = await health.Check(
                    health_pb2.HealthCheckRequest(service=name), metadata=metadata, timeout=5
                )
                assert reply.status == health_pb2.HealthCheckResponse.SERVING, name
