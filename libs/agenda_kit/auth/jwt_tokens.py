"""Signed JWT bearer tokens (PyJWT): signature against a JWKS file or URL, issuer, audience,
expiry; the principal's roles and scope come from the claims.

Claims: ``sub`` (the principal is ``jwt:<sub>``), ``exp``, ``iss``, ``aud`` (all required),
``agenda_roles`` (list or string, required), ``agenda_tenants`` (list, or "*"),
``agenda_channels`` (list, default every channel), ``agenda_calendars`` (list of patterns or
``{"pattern", "write", "all_owners"}``) — parsed by the same strict schema as the principals
file (``agenda_kit.auth.config``): ``{"write": "false"}`` is a refused token, not a grant.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, TypeGuard

import jwt
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr

from agenda_kit.auth.config import JWT_PREFIX, PrincipalConfigError, parse_claims, validated
from agenda_kit.auth.jwks import (
    MAX_CACHE_SECONDS,
    Clock,
    KeySet,
    KeySource,
    KeysUnavailableError,
    key_source,
)
from agenda_kit.auth.principals import Principal

DEFAULT_ALGORITHMS = ("RS256", "ES256", "PS256", "EdDSA")
MAX_SUBJECT_CHARS = 256


class InvalidCredentialError(Exception):
    """A credential was presented but does not authenticate anyone (→ UNAUTHENTICATED)."""


class _JwtTable(BaseModel):
    """The ``[jwt]`` table of the principals file (unknown keys refused)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    issuer: Annotated[StrictStr, Field(min_length=1)]
    audience: Annotated[StrictStr, Field(min_length=1)]
    jwks_file: StrictStr | None = None
    jwks_url: StrictStr | None = None
    algorithms: Annotated[list[StrictStr], Field(min_length=1)] = list(DEFAULT_ALGORITHMS)
    leeway_seconds: Annotated[StrictInt | StrictFloat, Field(ge=0, le=300)] = 30.0
    jwks_cache_seconds: Annotated[StrictInt | StrictFloat, Field(gt=0, le=MAX_CACHE_SECONDS)] = (
        MAX_CACHE_SECONDS
    )
    jwks_refetch_seconds: Annotated[StrictInt | StrictFloat, Field(gt=0, le=MAX_CACHE_SECONDS)] = (
        10.0
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class JwtSettings:
    """Where the signing keys are and what the tokens must say."""

    issuer: str
    audience: str
    jwks_file: Path | None = None
    jwks_url: str | None = None
    algorithms: tuple[str, ...] = DEFAULT_ALGORITHMS
    leeway_seconds: float = 30.0
    jwks_cache_seconds: float = MAX_CACHE_SECONDS
    jwks_refetch_seconds: float = 10.0

    @classmethod
    def parse(cls, data: Mapping[str, Any], base: Path) -> JwtSettings:
        try:
            table = validated(_JwtTable, data)
        except PrincipalConfigError as error:
            raise PrincipalConfigError(f"[jwt] {error}") from None
        if (table.jwks_file is None) == (table.jwks_url is None):
            raise PrincipalConfigError("[jwt] needs exactly one of jwks_file or jwks_url")
        algorithms = tuple(table.algorithms)
        if any(a.lower() == "none" or a.upper().startswith("HS") for a in algorithms):
            raise PrincipalConfigError("[jwt] algorithms must be asymmetric (never none/HS*)")
        if table.jwks_refetch_seconds > table.jwks_cache_seconds:
            raise PrincipalConfigError("[jwt] jwks_refetch_seconds exceeds jwks_cache_seconds")
        return cls(
            issuer=table.issuer,
            audience=table.audience,
            jwks_file=None if table.jwks_file is None else base / table.jwks_file,
            jwks_url=table.jwks_url,
            algorithms=algorithms,
            leeway_seconds=float(table.leeway_seconds),
            jwks_cache_seconds=float(table.jwks_cache_seconds),
            jwks_refetch_seconds=float(table.jwks_refetch_seconds),
        )


REVERIFY_SECONDS = 60.0
"""How long a verified token is trusted without checking its signature again — and only
while the key set it was verified against is the one in force (``jwks``)."""
MAX_VERIFIED_TOKENS = 4096


@dataclass(frozen=True, slots=True)
class _Verified:
    principal: Principal
    claims: Mapping[str, Any]
    at: float
    generation: int


def looks_like_jwt(token: str) -> bool:
    return token.count(".") == 2 and token.startswith("eyJ")


@dataclass
class JwtVerifier:
    """Verifies tokens against the key source's current keys (see ``agenda_kit.auth.jwks``)."""

    settings: JwtSettings
    clock: Clock = time.time
    source: KeySource | None = None
    _verified: dict[str, _Verified] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        if self.source is None:
            self.source = key_source(
                jwks_file=self.settings.jwks_file,
                jwks_url=self.settings.jwks_url,
                clock=self.clock,
                max_cache_seconds=self.settings.jwks_cache_seconds,
                refetch_seconds=self.settings.jwks_refetch_seconds,
            )

    async def principal(self, token: str) -> Principal:
        """The token's principal. A token verified less than ``REVERIFY_SECONDS`` ago against
        the key set still in force is not verified again (a signature check costs more than
        a whole echo RPC); its expiry and not-before are checked on every call all the same."""
        keys = await self._keys()
        known = self._verified.get(token)
        if (
            known is not None
            and known.generation == keys.generation
            and self.clock() - known.at < REVERIFY_SECONDS
        ):
            self._check_times(known.claims)
            return known.principal
        self._verified.pop(token, None)
        claims, keys = await self._verify(token, keys)
        self._check_times(claims)
        principal = _principal_from(claims)
        self._remember(token, _Verified(principal, claims, self.clock(), keys.generation))
        return principal

    def _remember(self, token: str, verified: _Verified) -> None:
        if len(self._verified) >= MAX_VERIFIED_TOKENS:  # the oldest goes first
            del self._verified[next(iter(self._verified))]
        self._verified[token] = verified

    async def _keys(self, *, refresh: bool = False) -> KeySet:
        assert self.source is not None
        try:
            return await (self.source.refresh() if refresh else self.source.current())
        except KeysUnavailableError as error:
            raise InvalidCredentialError(str(error)) from error

    async def _verify(self, token: str, keys: KeySet) -> tuple[dict[str, Any], KeySet]:
        """The claims of a token whose signature, issuer and audience hold (and the key set
        that verified it: an unknown key id looks again, rate-limited)."""
        try:
            kid = jwt.get_unverified_header(token).get("kid")
            key = keys.by_kid(kid)
            if key is None:
                keys = await self._keys(refresh=True)
                key = keys.by_kid(kid)
            if key is None:
                raise InvalidCredentialError("unknown signing key")
            claims = jwt.decode(
                token,
                key,
                algorithms=list(self.settings.algorithms),
                audience=self.settings.audience,
                issuer=self.settings.issuer,
                options={"require": ["exp", "iss", "aud", "sub"], "verify_exp": False},
            )
        except (jwt.PyJWTError, ValueError, TypeError) as error:
            raise InvalidCredentialError(f"invalid token: {type(error).__name__}") from error
        return claims, keys

    def _check_times(self, claims: Mapping[str, Any]) -> None:
        now, leeway = self.clock(), self.settings.leeway_seconds
        exp, nbf = claims.get("exp"), claims.get("nbf")
        if not _is_number(exp) or exp + leeway <= now:
            raise InvalidCredentialError("token expired")
        if nbf is not None and (not _is_number(nbf) or nbf - leeway > now):
            raise InvalidCredentialError("token not yet valid")


def _is_number(value: object) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _principal_from(claims: Mapping[str, Any]) -> Principal:
    subject = claims.get("sub")
    if not isinstance(subject, str) or not 0 < len(subject) <= MAX_SUBJECT_CHARS:
        raise InvalidCredentialError(f"sub must be a string of 1..{MAX_SUBJECT_CHARS} characters")
    try:
        return parse_claims(claims, name=f"{JWT_PREFIX}{subject}")
    except PrincipalConfigError as error:
        raise InvalidCredentialError(f"invalid claims: {error}") from error
