"""Shared by the command-line tools: where the services are and how to authenticate.

Everything is read from the environment when called, never at import: one setting moves a
service, and every tool (and ``make run``'s agent) dialling it follows —
``CALENDAR_GRPC_PORT`` moves the calendar service and what dials it unless
``AGENT_CALENDAR_ADDR`` says otherwise; ``AGENT_GRPC_PORT`` likewise with ``AGENT_ADDR``.
"""

from __future__ import annotations

import os
from pathlib import Path

from agenda_kit.auth.devtokens import TOKEN_FILES


def data_dir() -> Path:
    """``AGENDA_DATA_DIR`` (default ``.data``): tokens, principals, the demo tenant id, logs."""
    return Path(os.environ.get("AGENDA_DATA_DIR", ".data"))


def demo_tenant_file() -> Path:
    return data_dir() / "demo_tenant_id"


def agent_address() -> str:
    return os.environ.get("AGENT_ADDR", f"127.0.0.1:{os.environ.get('AGENT_GRPC_PORT', '50052')}")


def calendar_address() -> str:
    return os.environ.get(
        "AGENT_CALENDAR_ADDR", f"127.0.0.1:{os.environ.get('CALENDAR_GRPC_PORT', '50051')}"
    )


def token(variable: str, file_name: str) -> str:
    """A token from the environment, else the one the local service generated in .data/."""
    configured = os.environ.get(variable, "").split(",")[0].strip()
    if configured:
        return configured
    path = data_dir() / "tokens" / file_name
    if not path.exists():
        raise SystemExit(f"no token: set {variable} or start the service once to create {path}")
    return path.read_text().strip()


def agent_metadata(principal: str) -> tuple[tuple[str, str], ...]:
    """Credentials of ``principal`` ("gateway", "backoffice", "operator") for the agent
    service: ``AGENT_AUTH_TOKENS`` (the single-token case) when set, else its generated token."""
    return (("authorization", f"Bearer {token('AGENT_AUTH_TOKENS', TOKEN_FILES[principal])}"),)
