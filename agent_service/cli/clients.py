"""Shared by the command-line tools: where the services are and how to authenticate."""

from __future__ import annotations

import os
from pathlib import Path

from agenda_kit.auth.devtokens import TOKEN_FILES

DATA_DIR = Path(os.environ.get("AGENDA_DATA_DIR", ".data"))
DEMO_TENANT_FILE = DATA_DIR / "demo_tenant_id"


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
    path = DATA_DIR / "tokens" / file_name
    if not path.exists():
        raise SystemExit(f"no token: set {variable} or start the service once to create {path}")
    return path.read_text().strip()


def agent_metadata(principal: str) -> tuple[tuple[str, str], ...]:
    """Credentials of ``principal`` ("gateway", "backoffice", "operator") for the agent
    service: ``AGENT_AUTH_TOKENS`` (the single-token case) when set, else its generated token."""
    return (("authorization", f"Bearer {token('AGENT_AUTH_TOKENS', TOKEN_FILES[principal])}"),)
