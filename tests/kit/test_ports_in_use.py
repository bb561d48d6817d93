"""A port that cannot be bound ends a service with one line naming the setting to change —
for the gRPC port and for the metrics port — never a traceback (real sockets, in process;
``run_service`` calls these two, and ``tests/e2e/test_make_run.py`` sees the line from
``make run``)."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from agenda_kit.grpc.run import ServedApp, built, serving_metrics
from agenda_kit.grpc.server import PortUnavailableError, ServerSpec, create_server


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port some other process listens on."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield int(holder.getsockname()[1])


async def test_a_taken_port_is_a_port_unavailable_error(taken_port: int) -> None:
    with pytest.raises(PortUnavailableError) as raised:
        create_server(f"127.0.0.1:{taken_port}", ServerSpec(services=[]))
    assert raised.value.address == f"127.0.0.1:{taken_port}"


async def test_a_taken_grpc_port_names_its_setting(taken_port: int) -> None:
    async def build() -> ServedApp:
        create_server(f"127.0.0.1:{taken_port}", ServerSpec(services=[]))
        raise AssertionError("bound a taken port")

    with pytest.raises(SystemExit) as exited:
        await built("agenda-agent", build, "AGENT")
    message = str(exited.value.code)
    assert f"127.0.0.1:{taken_port}" in message and "set AGENT_GRPC_PORT" in message
    assert "\n" not in message


def test_a_taken_metrics_port_names_its_setting(taken_port: int) -> None:
    with pytest.raises(SystemExit) as exited:
        serving_metrics("agenda-calendar", taken_port, "CALENDAR")
    message = str(exited.value.code)
    assert f"port {taken_port}" in message and "set CALENDAR_METRICS_PORT" in message
    assert "\n" not in message
