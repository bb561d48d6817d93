"""Polling ``grpc.health.v1.Health/Check`` until a status shows up."""

from __future__ import annotations

import asyncio

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


async def status_of(channel: grpc.aio.Channel, service: str = "") -> int:
    stub = health_pb2_grpc.HealthStub(channel)
    reply = await stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
    return int(reply.status)


async def wait_status(
    channel: grpc.aio.Channel, service: str, expected: int, within: float = 20.0
) -> None:
    """Poll until ``service`` reports ``expected``; fail after ``within`` seconds."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    last: int | str = "never answered"
    while loop.time() < give_up:
        try:
            last = await status_of(channel, service)
        except grpc.aio.AioRpcError as error:
            last = error.code().name
        if last == expected:
            return
        await asyncio.sleep(0.05)
    name = health_pb2.HealthCheckResponse.ServingStatus.Name(expected)
    raise AssertionError(f"health of {service!r} is {last}, expected {name} after {within}s")
