"""Adding a principal with a new bearer token to a principals file, safely re-runnable.

Rules: the file is validated with the servers' own parser before it is written (never a file
they would refuse), and written atomically. Adding a principal whose name is already in the
file with the **same** roles and scope adds the new token's hash to it (a second valid token,
as in step 1 of a rotation) instead of failing, so a recipe or a bootstrap run twice works and
no token in use stops working; the same name with another scope is refused.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from agenda_kit.auth.config import PrincipalConfigError, parse_entry
from agenda_kit.auth.devtokens import replace_file
from agenda_kit.auth.directory import parse_directory, token_hash


@dataclass(frozen=True, slots=True, kw_only=True)
class Grant:
    """Who a new principal is: its name, roles and scope."""

    name: str
    roles: tuple[str, ...]
    tenants: tuple[str, ...] = ()
    """Tenant ids; ``("*",)`` for every tenant."""
    channels: tuple[str, ...] = ()
    """Empty: every channel."""
    calendars: tuple[str, ...] = ()
    """Calendar ids or patterns it may use (assign, for a back office)."""
    write: bool = False
    """Whether the calendar grants allow writes."""

    def table(self, digest: str) -> str:
        """The ``[[principal]]`` TOML table (values JSON-quoted, which is valid TOML)."""
        lines = [
            "[[principal]]",
            f"name = {json.dumps(self.name)}",
            f"roles = {json.dumps(list(self.roles))}",
            f"tenants = {json.dumps('*' if '*' in self.tenants else list(self.tenants))}",
            f'token_sha256 = ["{digest}"]',
        ]
        if self.channels:
            lines.append(f"channels = {json.dumps(list(self.channels))}")
        if self.calendars:
            grants = ", ".join(
                f"{{ pattern = {json.dumps(c)}, write = {str(self.write).lower()} }}"
                for c in self.calendars
            )
            lines.append(f"calendars = [{grants}]")
        return "\n".join(lines) + "\n\n"


class Added(StrEnum):
    NEW = "new"
    """The principal was appended."""
    EXISTING = "existing"
    """The principal existed with this scope: the token was added to it."""


class GrantConflictError(Exception):
    """The name is taken by a principal with other roles or another scope."""


def add_principal(path: Path, grant: Grant, token: str) -> Added:
    """Add ``grant`` with ``token`` (only its SHA-256 is stored) to the file at ``path``."""
    existing = path.read_text() if path.exists() else ""
    digest = token_hash(token)
    text, added = _with_token(existing, grant, digest)
    parse_directory(text, path.parent)  # PrincipalConfigError: the servers would refuse it
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(path, text)
    return added


def _with_token(existing: str, grant: Grant, digest: str) -> tuple[str, Added]:
    table = grant.table(digest)
    wanted = parse_entry(tomllib.loads(table)["principal"][0]).principal
    try:
        tables = tomllib.loads(existing).get("principal", [])
    except tomllib.TOMLDecodeError as error:
        raise PrincipalConfigError(f"not valid TOML: {error}") from error
    same_name = [t for t in tables if isinstance(t, dict) and t.get("name") == grant.name]
    if not same_name:
        separator = "\n" if existing and not existing.endswith("\n") else ""
        return existing + separator + table, Added.NEW
    if parse_entry(same_name[0]).principal != wanted:
        raise GrantConflictError(
            f"a principal named {grant.name!r} already exists with other roles or scope; "
            "choose another --name, or edit the file"
        )
    return _add_hash(existing, grant.name, digest), Added.EXISTING


_BLOCK = re.compile(r"^\[\[principal\]\]\n(?:[^\n]+\n)*", re.MULTILINE)
_HASHES = re.compile(r"^token_sha256 = \[(?P<hashes>[^\]\n]*)\]$", re.MULTILINE)


def _add_hash(text: str, name: str, digest: str) -> str:
    """``text`` with ``digest`` added to the ``token_sha256`` line of principal ``name``'s
    block (as ``issue-token``, ``admin bootstrap`` and ``make run`` write them)."""
    name_line = f"name = {json.dumps(name)}\n"
    for block in _BLOCK.finditer(text):
        if name_line not in block.group(0):
            continue
        hashes = _HASHES.search(block.group(0))
        if hashes is None:
            break
        listed = hashes.group("hashes").strip()
        line = f'token_sha256 = [{listed + ", " if listed else ""}"{digest}"]'
        start, end = block.start() + hashes.start(), block.start() + hashes.end()
        return text[:start] + line + text[end:]
    raise GrantConflictError(
        f"principal {name!r} is not in the format this tool writes; add the token by hand"
    )
