"""A port that cannot be bound ends a service with one line naming the setting to change —
for the gRPC port and for the metrics port — never a traceback (real sockets, in process)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import AsyncExitStack

import pytest

from agenda_kit.grpc.run import run_service
from agenda_kit.grpc.server import PortUnavailableError, ServerSpec, create_server
from agenda_kit.settings import SharedSettings


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port some other process listens on."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield int(holder.getsockname()[1])


def test_a_taken_port_is_a_port_unavailable_error(taken_port: int) -> None:
    with pytest.raises(PortUnavailableError) as raised:
        create_server(f"127.0.0.1:{taken_port}", ServerSpec(services=[]))
    assert raised.value.address == f"127.0.0.1:{taken_port}"


class _App:
    """What ``bootstrap`` returns, bound to a free port (never started here)."""

    def __init__(self) -> None:
        self.spec = ServerSpec(services=[])
        self.server, self.port = create_server("127.0.0.1:0", self.spec)
        self.resources = AsyncExitStack()


async def test_a_taken_grpc_port_names_its_setting(taken_port: int) -> None:
    async def build() -> _App:
        create_server(f"127.0.0.1:{taken_port}", ServerSpec(services=[]))
        raise AssertionError("bound a taken port")

    with pytest.raises(SystemExit) as exited:
        await run_service(
            "agenda-agent", SharedSettings(), build, metrics_port=0, grace=0,
            settings_prefix="AGENT",
        )  # fmt: skip
    message = str(exited.value.code)
    assert f"127.0.0.1:{taken_port}" in message and "set AGENT_GRPC_PORT" in message
    assert "\n" not in message


async def test_a_taken_metrics_port_names_its_setting(taken_port: int) -> None:
    built: list[_App] = []

    async def build() -> _App:
        built.append(_App())
        return built[-1]

    with pytest.raises(SystemExit) as exited:
        await run_service(
            "agenda-calendar", SharedSettings(), build, metrics_port=taken_port, grace=0,
            settings_prefix="CALENDAR",
        )  # fmt: skip
    message = str(exited.value.code)
    assert f"port {taken_port}" in message and "set CALENDAR_METRICS_PORT" in message
    assert "\n" not in message
