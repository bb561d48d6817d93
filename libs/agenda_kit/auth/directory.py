"""Credential → principal: hashed bearer tokens, JWTs, client-certificate names.

The principals file is re-read when it changes (token rotation without a restart); a file
that no longer parses keeps the last good one and logs why.
"""

from __future__ import annotations

import hashlib
import hmac
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import structlog

from agenda_kit.auth.config import PrincipalConfigError, PrincipalEntry, parse_entry
from agenda_kit.auth.jwt_tokens import (
    InvalidCredentialError,
    JwtSettings,
    JwtVerifier,
    looks_like_jwt,
)
from agenda_kit.auth.principals import Principal

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

    def by_token(self, token: str) -> Principal | None:
        digest = token_hash(token).encode()
        found = None
        for entry in self.entries:  # compare every hash: no early exit, constant time each
            for known in entry.token_hashes:
                if hmac.compare_digest(digest, known.encode()):
                    found = entry.principal
        return found

    def by_certificate(self, names: Sequence[str]) -> Principal | None:
        for entry in self.entries:
            if any(name in entry.mtls_names for name in names):
                return entry.principal
        return None

    def names(self) -> list[str]:
        return [entry.principal.name for entry in self.entries]


def parse_directory(text: str, base: Path) -> Directory:
    """A directory from the principals file's TOML text (paths relative to ``base``)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PrincipalConfigError(f"not valid TOML: {error}") from error
    tables = data.get("principal", [])
    if not isinstance(tables, list):
        raise PrincipalConfigError("[[principal]] must be an array of tables")
    entries = tuple(parse_entry(table) for table in tables)
    names = [entry.principal.name for entry in entries]
    if len(set(names)) != len(names):
        raise PrincipalConfigError("principal names must be unique")
    jwt_table = data.get("jwt")
    verifier = None if jwt_table is None else JwtVerifier(JwtSettings.parse(jwt_table, base))
    return Directory(entries, verifier)


@dataclass
class PrincipalDirectory:
    """The principals a server accepts: a file (reloaded on change) plus fixed entries."""

    path: Path | None = None
    fixed: tuple[PrincipalEntry, ...] = ()
    _current: Directory = field(default_factory=Directory, init=False)
    _stamp: tuple[int, int] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        if self.path is not None:
            self._reload(strict=True)
        else:
            self._current = Directory(self.fixed)
        if not self._current.entries and self._current.jwt is None:
            raise PrincipalConfigError("no principals configured")

    def current(self) -> Directory:
        if self.path is not None:
            self._reload(strict=False)
        return self._current

    async def resolve(self, token: str | None, certificate_names: Sequence[str]) -> Principal:
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
        stamp: tuple[int, int] | None = None
        try:
            stat = self.path.stat()
            stamp = (stat.st_mtime_ns, stat.st_size)
            if stamp == self._stamp:
                return
            loaded = parse_directory(self.path.read_text(), self.path.parent)
        except (OSError, PrincipalConfigError) as error:
            if strict:
                raise PrincipalConfigError(f"{self.path}: {error}") from error
            log.error("principals_reload_failed", path=str(self.path), error=str(error))
            self._stamp = stamp  # retried when the file changes again
            return
        self._current = Directory((*loaded.entries, *self.fixed), loaded.jwt)
        self._stamp = stamp
        log.info("principals_loaded", path=str(self.path), principals=self._current.names())
