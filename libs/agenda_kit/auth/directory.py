"""Credential → principal: hashed bearer tokens, JWTs, client-certificate names.

The principals file is re-read when it changes (token rotation without a restart); a file
that no longer parses keeps the last good one and logs why. Principal names are unique
across the file and the fixed (environment) principals — a name is an owner (of calendar
events, of tenant idempotency keys), so two sources may never share one.

Client certificates are matched by the name types of the file's ``[mtls]`` table
(``name_types``, default ``["dns", "uri", "cn"]``): DNS and URI subject alternative names and
the subject's common name. E-mail and IP SANs never name a principal.
"""

from __future__ import annotations

import hashlib
import hmac
import time
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import structlog

from agenda_kit.auth.config import PrincipalConfigError, PrincipalEntry, parse_entry
from agenda_kit.auth.jwks import Clock
from agenda_kit.auth.jwt_tokens import (
    InvalidCredentialError,
    JwtSettings,
    JwtVerifier,
    looks_like_jwt,
)
from agenda_kit.auth.principals import Principal

NameType = Literal["cn", "dns", "uri"]
NAME_TYPES: tuple[NameType, ...] = ("dns", "uri", "cn")
CertificateName = tuple[str, str]
"""``(type, value)`` of one name of a client certificate: ``cn``, ``dns``, ``uri``, ``email``…"""

log = structlog.get_logger("agenda.auth")


class MissingCredentialError(Exception):
    """No bearer token and no client certificate (→ UNAUTHENTICATED)."""


def token_hash(token: str) -> str:
    """What the principals file stores for a bearer token: SHA-256, lowercase hex."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Directory:
    """One consistent set of principals and how to recognise them."""

    entries: tuple[PrincipalEntry, ...] = ()
    jwt: JwtVerifier | None = None
    name_types: tuple[NameType, ...] = NAME_TYPES

    def by_token(self, token: str) -> Principal | None:
        digest = token_hash(token).encode()
        found = None
        for entry in self.entries:  # compare every hash: no early exit, constant time each
            for known in entry.token_hashes:
                if hmac.compare_digest(digest, known.encode()):
                    found = entry.principal
        return found

    def by_certificate(self, names: Sequence[CertificateName]) -> Principal | None:
        usable = {value for kind, value in names if kind in self.name_types}
        for entry in self.entries:
            if usable.intersection(entry.mtls_names):
                return entry.principal
        return None

    def names(self) -> list[str]:
        return [entry.principal.name for entry in self.entries]


_TOP_LEVEL = frozenset({"principal", "jwt", "mtls"})


def parse_directory(
    text: str, base: Path, *, fixed: Sequence[PrincipalEntry] = (), clock: Clock = time.time
) -> Directory:
    """A directory from the principals file's TOML text (paths relative to ``base``) plus the
    ``fixed`` entries; ``clock`` is the JWT verifier's."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PrincipalConfigError(f"not valid TOML: {error}") from error
    unknown = sorted(set(data) - _TOP_LEVEL)
    if unknown:
        raise PrincipalConfigError(f"unknown tables or keys: {', '.join(unknown)}")
    tables = data.get("principal", [])
    if not isinstance(tables, list) or not all(isinstance(t, Mapping) for t in tables):
        raise PrincipalConfigError("[[principal]] must be an array of tables")
    entries = (*(_entry(index, table) for index, table in enumerate(tables)), *fixed)
    names = [entry.principal.name for entry in entries]
    if len(set(names)) != len(names):
        raise PrincipalConfigError("principal names must be unique (the file and the env)")
    jwt_table = data.get("jwt")
    verifier = None if jwt_table is None else JwtVerifier(JwtSettings.parse(jwt_table, base), clock)
    return Directory(entries, verifier, _name_types(data.get("mtls", {})))


def _entry(index: int, table: Mapping[str, Any]) -> PrincipalEntry:
    try:
        return parse_entry(table)
    except PrincipalConfigError as error:
        name = table.get("name")
        label = repr(name) if isinstance(name, str) else f"#{index + 1}"
        raise PrincipalConfigError(f"principal {label}: {error}") from None


def _name_types(table: object) -> tuple[NameType, ...]:
    if not isinstance(table, Mapping) or set(table) - {"name_types"}:
        raise PrincipalConfigError("[mtls] takes only name_types")
    kinds = table.get("name_types", list(NAME_TYPES))
    if not isinstance(kinds, list) or not kinds or not set(kinds) <= set(NAME_TYPES):
        raise PrincipalConfigError(f"[mtls] name_types: a non-empty list of {NAME_TYPES}")
    return tuple(kinds)


@dataclass
class PrincipalDirectory:
    """The principals a server accepts: a file (reloaded on change) plus fixed entries."""

    path: Path | None = None
    fixed: tuple[PrincipalEntry, ...] = ()
    clock: Clock = time.time
    _current: Directory = field(default_factory=Directory, init=False)
    _stamp: bytes | None = field(default=None, init=False)
    """The content last read (its digest): a rewrite keeping size and modification time
    (``cp -p``, ``rsync -t``) is still a change."""

    def __post_init__(self) -> None:
        if self.path is not None:
            self._reload(strict=True)
        else:
            self._current = parse_directory("", Path("."), fixed=self.fixed)
        if not self._current.entries and self._current.jwt is None:
            raise PrincipalConfigError("no principals configured")

    def current(self) -> Directory:
        if self.path is not None:
            self._reload(strict=False)
        return self._current

    async def resolve(
        self, token: str | None, certificate_names: Sequence[CertificateName]
    ) -> Principal:
        """The caller's principal; raises when it cannot be authenticated."""
        directory = self.current()
        if token is not None:
            if looks_like_jwt(token) and directory.jwt is not None:
                return await directory.jwt.principal(token)
            principal = directory.by_token(token)
            if principal is None:
                raise InvalidCredentialError("invalid bearer token")
            return principal
        if certificate_names:
            principal = directory.by_certificate(certificate_names)
            if principal is None:
                raise InvalidCredentialError("client certificate maps to no principal")
            return principal
        raise MissingCredentialError("missing bearer token")

    def _reload(self, *, strict: bool) -> None:
        assert self.path is not None
        stamp: bytes | None = None
        try:
            body = self.path.read_bytes()
            stamp = hashlib.sha256(body).digest()
            if stamp == self._stamp:
                return
            loaded = parse_directory(
                body.decode(), self.path.parent, fixed=self.fixed, clock=self.clock
            )
        except (OSError, PrincipalConfigError) as error:
            if strict:
                raise PrincipalConfigError(f"{self.path}: {error}") from error
            log.error("principals_reload_failed", path=str(self.path), error=str(error))
            self._stamp = stamp  # retried when the file changes again
            return
        self._current = loaded
        self._stamp = stamp
        log.info("principals_loaded", path=str(self.path), principals=self._current.names())
