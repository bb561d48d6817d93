"""``make run``: start the calendar and agent services on embedded defaults, seed the demo
salon, and open a chat (piped stdin is the conversation; with no input at all, or
``--script``, a scripted one). Ctrl-C stops everything; data stays in .data/.

Ports: each service listens where its own setting says (``CALENDAR_GRPC_PORT``,
``AGENT_GRPC_PORT``, ``*_METRICS_PORT``) and everything that dials it follows — the agent is
started with ``AGENT_CALENDAR_ADDR`` pointing at the calendar service's port unless it is set.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from agenda_kit.auth.devtokens import DESCRIPTIONS, PRINCIPALS_FILE, token_path
from agent_service.cli import chat, seed
from agent_service.cli.clients import agent_address, calendar_address, data_dir

HOW_TO = """
Switch to Google Calendar (README, "Google Calendar": grant the calendars, then point each
professional at one with UpdateProfessional):
  CALENDAR_BACKEND=google CALENDAR_GOOGLE_CREDENTIALS_FILE=/path/key.json make run
Switch to a real model:
  AGENT_MODEL=openai:gpt-4.1-mini OPENAI_API_KEY=... make run
  or any OpenAI-compatible server (vLLM, Ollama, LiteLLM):
  AGENT_MODEL=openai-chat:NAME OPENAI_BASE_URL=http://host:8000/v1 make run
A fresh conversation: make run NEW=1   Other ports: CALENDAR_GRPC_PORT=... AGENT_GRPC_PORT=...
Logs: .data/logs/   Operator recipes: docs/operations.md   Security: docs/security.md
"""

STOP_SECONDS = 20.0
"""How long a service gets to stop after SIGTERM before it is killed."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--script", action="store_true", help="play the scripted conversation")
    parser.add_argument(
        "--new",
        action="store_true",
        help="start a fresh conversation (the same customer; the last one is ended)",
    )


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def service_environments() -> dict[str, dict[str, str]]:
    """The environment of each service process: this one's, on this data directory, and the
    agent dialling the calendar service where it listens."""
    base = {**os.environ, "AGENDA_DATA_DIR": str(data_dir())}
    return {
        "calendar_service": base,
        "agent_service": {**base, "AGENT_CALENDAR_ADDR": calendar_address()},
    }


def _start(module: str, env: Mapping[str, str], log: Path) -> subprocess.Popen[bytes]:
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as log_file:
        return subprocess.Popen(  # noqa: S603 - our own modules, fixed arguments
            [sys.executable, "-m", module],
            stdout=log_file,
            stderr=subprocess.STDOUT,
            env=dict(env),
        )


def _wait_serving(
    address: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 90
) -> None:
    deadline = time.monotonic() + timeout
    options = [("grpc.initial_reconnect_backoff_ms", 100), ("grpc.max_reconnect_backoff_ms", 300)]
    with grpc.insecure_channel(address, options=options) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise SystemExit(f"{log.stem} did not start: {_last_line(log)}\n(log: {log})")
            with contextlib.suppress(grpc.RpcError):
                reply = health.Check(health_pb2.HealthCheckRequest(), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            time.sleep(0.3)
    raise SystemExit(f"{address} did not become healthy in {timeout:.0f}s; see {log}")


def _last_line(path: Path) -> str:
    """The log's last non-empty line: a service that cannot start says why in it."""
    lines = path.read_text(errors="replace").splitlines() if path.exists() else []
    return next((line for line in reversed(lines) if line.strip()), "(no output)")


@contextlib.contextmanager
def _services() -> Iterator[None]:
    """Both services for the body. Ctrl-C returns at once: the services got the terminal's
    SIGINT too and finish stopping by themselves (a few seconds: the embedded MongoDB closes
    its files); the next ``make run`` waits for them first (``RUN_FILE``). A normal end waits
    for them here."""
    _wait_for_previous()
    processes: list[subprocess.Popen[bytes]] = []
    environments = service_environments()
    try:
        for module, address in (
            ("calendar_service", calendar_address()),
            ("agent_service", agent_address()),
        ):
            log = data_dir() / "logs" / f"{module}.log"
            _say(f"starting {module} on {address} (log: {log})")
            processes.append(_start(module, environments[module], log))
            _remember(processes)
            _wait_serving(address, processes[-1], log)
        yield
    except KeyboardInterrupt:
        _stop(processes, wait=False)
        raise
    except BaseException:
        _stop(processes, wait=True)
        raise
    _stop(processes, wait=True)


RUN_FILE = "run.pids"
"""Under the data directory: the process ids of the services of the last ``make run``."""


def _remember(processes: list[subprocess.Popen[bytes]]) -> None:
    path = data_dir() / RUN_FILE
    path.write_text("".join(f"{process.pid}\n" for process in processes))


def _wait_for_previous(timeout: float = STOP_SECONDS) -> None:
    """The services of an earlier ``make run`` still stopping (after a Ctrl-C) hold the ports
    and the data directory: wait for them to exit (kill what outlives ``timeout``)."""
    path = data_dir() / RUN_FILE
    pids = [int(line) for line in path.read_text().split()] if path.exists() else []
    alive = [pid for pid in pids if _ours(pid)]
    if alive:
        _say("waiting for the services of the last run to stop…")
    deadline = time.monotonic() + timeout
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [pid for pid in alive if _ours(pid)]
    for pid in alive:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    path.unlink(missing_ok=True)


def _ours(pid: int) -> bool:
    """Whether ``pid`` is still one of our services (where ``/proc`` tells, by its command
    line: a pid may have been reused)."""
    cmdline = Path(f"/proc/{pid}/cmdline")
    try:
        if cmdline.exists():
            return b"_service" in cmdline.read_bytes()
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError, OSError):
        return False
    return True


def _stop(processes: list[subprocess.Popen[bytes]], *, wait: bool) -> None:
    """SIGTERM to every service at once (after a Ctrl-C they already stop: the terminal sent
    SIGINT to the whole process group); with ``wait``, wait for all and kill what outlives the
    grace."""
    with _ignoring_interrupts():
        for process in reversed(processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        if not wait:
            _say(f"\nstopping; data kept in {data_dir()}/ (logs: {data_dir() / 'logs'}/)")
            return
        deadline = time.monotonic() + STOP_SECONDS
        for process in reversed(processes):
            try:
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        (data_dir() / RUN_FILE).unlink(missing_ok=True)
        _say(f"stopped; data kept in {data_dir()}/")


@contextlib.contextmanager
def _ignoring_interrupts() -> Iterator[None]:
    """A second Ctrl-C while the services stop does not leave them running."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _tokens_table() -> str:
    """Which generated token file is which principal (nothing when tokens are configured)."""
    if os.environ.get("AGENT_AUTH_TOKENS") or os.environ.get("AGENDA_PRINCIPALS_FILE"):
        return "Tokens: as configured (AGENT_AUTH_TOKENS / AGENDA_PRINCIPALS_FILE)"
    lines = [f"Tokens (principals: {data_dir() / PRINCIPALS_FILE}, see docs/security.md):"]
    for name, description in DESCRIPTIONS.items():
        lines.append(f"  {token_path(data_dir(), name)}  {description}")
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    try:
        seed.scope_dev_principals()
        with _services():
            asyncio.run(seed.main(argparse.Namespace(address=None)))
            _say(HOW_TO)
            _say(_tokens_table())
            chat_args = argparse.Namespace(
                address=None,
                tenant=None,
                customer=None,
                script=args.script,
                new=getattr(args, "new", False),
            )
            return asyncio.run(chat.main(chat_args))
    except KeyboardInterrupt:
        return 130
