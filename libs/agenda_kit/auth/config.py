"""Parse principals from the principals file's data (TOML tables) or JWT claims.

File format (docs/security.md)::

    [[principal]]
    name = "whatsapp-gateway"
    roles = ["gateway"]                 # or role = "gateway"
    tenants = ["3f0c…"]                 # or "*" for every tenant
    channels = ["whatsapp"]             # optional; default every channel
    token_sha256 = ["9f86d0…"]          # SHA-256 (hex) of each accepted bearer token
    mtls_names = ["gw.internal"]        # client certificate CN or SAN

    [[principal]]
    name = "agent"
    role = "calendar-client"
    calendars = [{ pattern = "*", write = true }]

    [jwt]                                # optional: signed bearer tokens
    issuer = "https://idp.example.com/"
    audience = "agenda"
    jwks_file = "/etc/agenda/jwks.json"  # or jwks_url = "https://…/jwks.json"
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agenda_kit.auth.principals import CalendarGrant, Principal, Role

ALL = "*"
_SHA256_HEX = re.compile(r"^[0-9a-f]{64}$")


class PrincipalConfigError(ValueError):
    """The principals file (or a token's claims) does not describe a valid principal."""


@dataclass(frozen=True, slots=True)
class PrincipalEntry:
    """A principal and the credentials that resolve to it."""

    principal: Principal
    token_hashes: tuple[str, ...] = ()
    mtls_names: tuple[str, ...] = ()


def parse_principal(data: Mapping[str, Any], *, name: str | None = None) -> Principal:
    """One principal from a file table or from JWT claims (already mapped to these keys)."""
    principal_name = name or _text(data, "name")
    return Principal(
        name=principal_name,
        roles=_roles(data),
        tenants=_lower(_set_or_all(data.get("tenants", []), "tenants")),
        channels=_set_or_all(data.get("channels", ALL), "channels"),
        calendars=tuple(_grant(item) for item in _list(data.get("calendars", []), "calendars")),
    )


def parse_entry(data: Mapping[str, Any]) -> PrincipalEntry:
    hashes = tuple(str(h).lower() for h in _list(data.get("token_sha256", []), "token_sha256"))
    for value in hashes:
        if not _SHA256_HEX.match(value):
            raise PrincipalConfigError("token_sha256 entries must be 64 hex characters")
    names = tuple(str(n) for n in _list(data.get("mtls_names", []), "mtls_names"))
    return PrincipalEntry(parse_principal(data), hashes, names)


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise PrincipalConfigError(f"{key} is required")
    return value.strip()


def _roles(data: Mapping[str, Any]) -> frozenset[Role]:
    raw = data.get("roles", data.get("role"))
    values = [raw] if isinstance(raw, str) else _list(raw, "roles")
    try:
        roles = frozenset(Role(str(value)) for value in values)
    except ValueError as error:
        raise PrincipalConfigError(f"unknown role in {values!r}") from error
    if not roles:
        raise PrincipalConfigError("roles is required")
    return roles


def _set_or_all(value: object, key: str) -> frozenset[str] | None:
    if value == ALL:
        return None
    items = _list(value, key)
    if ALL in items:
        return None
    return frozenset(str(item) for item in items)


def _lower(values: frozenset[str] | None) -> frozenset[str] | None:
    return None if values is None else frozenset(value.lower() for value in values)


def _list(value: object, key: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise PrincipalConfigError(f"{key} must be a list")
    return list(value)


def _grant(item: object) -> CalendarGrant:
    if isinstance(item, str):
        return CalendarGrant(pattern=item)
    if not isinstance(item, Mapping):
        raise PrincipalConfigError("calendars entries are patterns or tables")
    return CalendarGrant(
        pattern=_text(item, "pattern"),
        write=bool(item.get("write", False)),
        all_owners=bool(item.get("all_owners", False)),
    )
