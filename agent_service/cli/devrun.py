"""``make run``: start the calendar and agent services on embedded defaults, seed the demo
salon, and open a chat (a scripted one without a terminal). Ctrl-C stops everything; data
stays in .data/."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from agenda_kit.auth.devtokens import DESCRIPTIONS, PRINCIPALS_FILE, token_path
from agent_service.cli import chat, seed
from agent_service.cli.clients import DATA_DIR, agent_address, calendar_address

HOW_TO = """
Switch to Google Calendar:
  CALENDAR_BACKEND=google CALENDAR_GOOGLE_CREDENTIALS_FILE=/path/key.json make run
  (share each professional's calendar with the service account; set the calendar ids
   of the professionals through CatalogService)
Switch to a real model:
  AGENT_MODEL=openai:gpt-4.1-mini OPENAI_API_KEY=... make run
  or any OpenAI-compatible server (vLLM, Ollama, LiteLLM):
  AGENT_MODEL=openai-chat:NAME OPENAI_BASE_URL=http://host:8000/v1 make run
Logs: .data/logs/   Operator recipes: docs/operations.md   Security: docs/security.md
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--script", action="store_true", help="play the scripted conversation")
    parser.add_argument(
        "--new", action="store_true", help="start a fresh conversation (as a new customer)"
    )


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _start(module: str, log_name: str) -> subprocess.Popen[bytes]:
    logs = DATA_DIR / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    with (logs / log_name).open("ab") as log_file:
        return subprocess.Popen(  # noqa: S603 - our own modules, fixed arguments
            [sys.executable, "-m", module],
            stdout=log_file,
            stderr=subprocess.STDOUT,
            env={**os.environ, "AGENDA_DATA_DIR": str(DATA_DIR)},
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
                raise SystemExit(f"{log.name} exited early; see {log}:\n{_tail(log)}")
            with contextlib.suppress(grpc.RpcError):
                reply = health.Check(health_pb2.HealthCheckRequest(), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            time.sleep(0.3)
    raise SystemExit(f"{address} did not become healthy in {timeout:.0f}s; see {log}")


def _tail(path: Path, lines: int = 20) -> str:
    return (
        "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""
    )


@contextlib.contextmanager
def _services() -> Iterator[None]:
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for module, address in (
            ("calendar_service", calendar_address()),
            ("agent_service", agent_address()),
        ):
            log = DATA_DIR / "logs" / f"{module}.log"
            _say(f"starting {module} on {address} (log: {log})")
            processes.append(_start(module, log.name))
            _wait_serving(address, processes[-1], log)
        yield
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in reversed(processes):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        _say(f"stopped; data kept in {DATA_DIR}/")


def _tokens_table() -> str:
    """Which generated token file is which principal (nothing when tokens are configured)."""
    if os.environ.get("AGENT_AUTH_TOKENS") or os.environ.get("AGENDA_PRINCIPALS_FILE"):
        return "Tokens: as configured (AGENT_AUTH_TOKENS / AGENDA_PRINCIPALS_FILE)"
    lines = [f"Tokens (principals: {DATA_DIR / PRINCIPALS_FILE}, see docs/security.md):"]
    for name, description in DESCRIPTIONS.items():
        lines.append(f"  {token_path(DATA_DIR, name)}  {description}")
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
