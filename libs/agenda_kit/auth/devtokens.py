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
    """The token in ``path``, created (random, mode 0600) when absent. Two servers starting
    together agree: the file appears complete or not at all (link of a written temporary)."""
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.{secrets.token_hex(4)}.tmp")
    temporary.touch(mode=0o600)
    temporary.write_text(secrets.token_urlsafe(32) + "\n")
    try:
        os.link(temporary, path)
    except FileExistsError:
        pass  # another process created it first: use theirs
    finally:
        temporary.unlink()
    return path.read_text().strip()


BEGIN = "# >>> generated for local development (make run); this block is rewritten\n"
END = "# <<< end of the generated block; principals added below are kept\n"


def write_dev_principals(data_dir: Path, demo_tenant: str | None) -> Path:
    """(Re)write the generated block of the principals file for the per-role tokens; the
    gateway and back office are scoped to ``demo_tenant`` (to no tenant until it is known).
    Principals added after the block (``issue-token``) are kept."""
    hashes = {name: token_hash(ensure_token(token_path(data_dir, name))) for name in TOKEN_FILES}
    tenants = f'["{demo_tenant}"]' if demo_tenant else "[]"
    block = "".join(
        [
            BEGIN,
            _entry("gateway", "gateway", tenants, hashes),
            _entry("backoffice", "backoffice", tenants, hashes, DEMO_CALENDARS),
            _entry("operator", "operator", '"*"', hashes),
            _entry("calendar-agent", "calendar-client", "[]", hashes, EVERY_CALENDAR),
            END,
        ]
    )
    path = data_dir / PRINCIPALS_FILE
    existing = path.read_text() if path.exists() else ""
    text = block + (existing.split(END, 1)[1] if END in existing else "")
    if text != existing:
        replace_file(path, text)
    return path


def replace_file(path: Path, text: str) -> None:
    """Write ``text`` atomically (the servers never read half a file)."""
    temporary = path.with_name(f"{path.name}.{secrets.token_hex(4)}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


def ensure_dev_principals(data_dir: Path) -> Path:
    """The development principals file, written (with no tenant scope yet) when it does not
    exist; ``make run`` and ``seed-demo`` scope it to the demo tenant."""
    path = data_dir / PRINCIPALS_FILE
    if path.exists():
        return path
    return write_dev_principals(data_dir, None)


DEMO_CALENDARS = 'calendars = [{ pattern = "demo-*", write = true }]\n'
"""The demo salon's calendars (``seed-demo`` names them ``demo-…``)."""
EVERY_CALENDAR = 'calendars = [{ pattern = "*", write = true }]\n'


def _entry(name: str, role: str, tenants: str, hashes: dict[str, str], extra: str = "") -> str:
    return (
        f'[[principal]]\nname = "{name}"\nrole = "{role}"\ntenants = {tenants}\n'
        f'token_sha256 = ["{hashes[name]}"]\n{extra}\n'
    )
