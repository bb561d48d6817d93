"""Zero-config credentials for one machine (``make run``, or a server started with nothing
configured): one random token per role in ``<data>/tokens/`` (mode 0600) and a principals
file ``<data>/principals.toml`` that stores only their SHA-256 hashes."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from agenda_kit.auth.directory import token_hash

PRINCIPALS_FILE = "principals.toml"
TOKEN_FILES = {
    "gateway": "gateway.token",
    "backoffice": "backoffice.token",
    "operator": "operator.token",
    "calendar-agent": "calendar-agent.token",
}
"""Principal name → its token file under ``<data>/tokens/``."""

DESCRIPTIONS = {
    "gateway": "channel gateway of the demo tenant (AgentService: chat)",
    "backoffice": "back office of the demo tenant (CatalogService, handoff)",
    "operator": "platform operator (create/list tenants, read everything)",
    "calendar-agent": "the agent service as a calendar client (CalendarService)",
}


def token_path(data_dir: Path, principal: str) -> Path:
    return data_dir / "tokens" / TOKEN_FILES[principal]


def ensure_token(path: Path) -> str:
    """The token in ``path``, created (random, mode 0600) when absent or empty."""
    if path.exists():
        existing = path.read_text().strip()
        if existing:
            return existing
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    path.touch(mode=0o600)
    path.write_text(token + "\n")
    return token


def write_dev_principals(data_dir: Path, demo_tenant: str | None) -> Path:
    """(Re)write the principals file for the per-role tokens; the gateway and back office
    are scoped to ``demo_tenant`` (no tenant at all until it is known)."""
    hashes = {name: token_hash(ensure_token(token_path(data_dir, name))) for name in TOKEN_FILES}
    tenants = f'["{demo_tenant}"]' if demo_tenant else "[]"
    text = "\n".join(
        [
            "# Generated for local development (make run). Tokens: tokens/*.token.",
            _entry("gateway", "gateway", tenants, hashes),
            _entry("backoffice", "backoffice", tenants, hashes),
            _entry("operator", "operator", '"*"', hashes),
            _entry("calendar-agent", "calendar-client", "[]", hashes)
            + 'calendars = [{ pattern = "*", write = true }]\n',
        ]
    )
    path = data_dir / PRINCIPALS_FILE
    if not path.exists() or path.read_text() != text:
        temporary = path.with_suffix(".tmp")
        temporary.write_text(text)
        os.replace(temporary, path)
    return path


def ensure_dev_principals(data_dir: Path) -> Path:
    """The development principals file, written only when it does not exist yet."""
    path = data_dir / PRINCIPALS_FILE
    if path.exists():
        return path
    demo_file = data_dir / "demo_tenant_id"
    demo = demo_file.read_text().strip() if demo_file.exists() else None
    return write_dev_principals(data_dir, demo or None)


def _entry(name: str, role: str, tenants: str, hashes: dict[str, str]) -> str:
    return (
        f'\n[[principal]]\nname = "{name}"\nrole = "{role}"\ntenants = {tenants}\n'
        f'token_sha256 = ["{hashes[name]}"]\n'
    )
