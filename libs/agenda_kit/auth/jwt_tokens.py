"""Signed JWT bearer tokens (PyJWT): signature against a JWKS file or URL, issuer, audience,
expiry; the principal's roles and scope come from the claims.

Claims: ``sub`` (the principal is ``jwt:<sub>``), ``exp``, ``iss``, ``aud`` (all required),
``agenda_roles`` (list or string, required), ``agenda_tenants`` (list, or "*"),
``agenda_channels`` (list, default every channel), ``agenda_calendars`` (list of
``{"pattern", "write", "all_owners"}``).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jwt

from agenda_kit.auth.config import PrincipalConfigError, parse_principal
from agenda_kit.auth.principals import Principal

Clock = Callable[[], float]
DEFAULT_ALGORITHMS = ("RS256", "ES256", "PS256", "EdDSA")


class InvalidCredentialError(Exception):
    """A credential was presented but does not authenticate anyone (→ UNAUTHENTICATED)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class JwtSettings:
    """Where the signing keys are and what the tokens must say."""

    issuer: str
    audience: str
    jwks_file: Path | None = None
    jwks_url: str | None = None
    algorithms: tuple[str, ...] = DEFAULT_ALGORITHMS
    leeway_seconds: float = 30.0

    @classmethod
    def parse(cls, data: Mapping[str, Any], base: Path) -> JwtSettings:
        jwks_file = data.get("jwks_file")
        if (jwks_file is None) == (data.get("jwks_url") is None):
            raise PrincipalConfigError("[jwt] needs exactly one of jwks_file or jwks_url")
        algorithms = tuple(data.get("algorithms", DEFAULT_ALGORITHMS))
        if not algorithms or any(a.lower() == "none" or a.startswith("HS") for a in algorithms):
            raise PrincipalConfigError("[jwt] algorithms must be asymmetric (never none/HS*)")
        for key in ("issuer", "audience"):
            if not isinstance(data.get(key), str) or not data[key]:
                raise PrincipalConfigError(f"[jwt] {key} is required")
        return cls(
            issuer=data["issuer"],
            audience=data["audience"],
            jwks_file=None if jwks_file is None else base / str(jwks_file),
            jwks_url=data.get("jwks_url"),
            algorithms=algorithms,
            leeway_seconds=float(data.get("leeway_seconds", 30.0)),
        )


REVERIFY_SECONDS = 60.0
"""How long a verified token is trusted without checking its signature again (a signing key
withdrawn from a JWKS URL stops being accepted within this time, as with the key cache)."""
MAX_VERIFIED_TOKENS = 4096


@dataclass(frozen=True, slots=True)
class _Verified:
    principal: Principal
    claims: Mapping[str, Any]
    at: float


def looks_like_jwt(token: str) -> bool:
    return token.count(".") == 2 and token.startswith("eyJ")


@dataclass
class JwtVerifier:
    """Verifies tokens; keys are read once from the file, or fetched (and cached) by URL."""

    settings: JwtSettings
    clock: Clock = time.time
    _keys: jwt.PyJWKSet | None = field(default=None, init=False)
    _client: jwt.PyJWKClient | None = field(default=None, init=False)
    _verified: dict[str, _Verified] = field(default_factory=dict, init=False)

    async def principal(self, token: str) -> Principal:
        """The token's principal. A token verified less than ``REVERIFY_SECONDS`` ago is not
        verified again (a signature check costs more than a whole echo RPC); its expiry and
        not-before are checked on every call all the same."""
        known = self._verified.get(token)
        if known is not None and self.clock() - known.at < REVERIFY_SECONDS:
            self._check_times(known.claims)
            return known.principal
        self._verified.pop(token, None)
        claims = await self._verify(token)
        self._check_times(claims)
        principal = _principal_from(claims)
        self._remember(token, _Verified(principal, claims, self.clock()))
        return principal

    def _remember(self, token: str, verified: _Verified) -> None:
        if len(self._verified) >= MAX_VERIFIED_TOKENS:  # the oldest goes first
            del self._verified[next(iter(self._verified))]
        self._verified[token] = verified

    async def _verify(self, token: str) -> dict[str, Any]:
        """The claims of a token whose signature, issuer and audience hold."""
        try:
            key = await self._signing_key(token)
            claims = jwt.decode(
                token,
                key,
                algorithms=list(self.settings.algorithms),
                audience=self.settings.audience,
                issuer=self.settings.issuer,
                options={"require": ["exp", "iss", "aud", "sub"], "verify_exp": False},
            )
        except (jwt.PyJWTError, ValueError) as error:
            raise InvalidCredentialError(f"invalid token: {type(error).__name__}") from error
        return claims

    def _check_times(self, claims: Mapping[str, Any]) -> None:
        now, leeway = self.clock(), self.settings.leeway_seconds
        exp, nbf = claims.get("exp"), claims.get("nbf")
        if not isinstance(exp, int | float) or exp + leeway <= now:
            raise InvalidCredentialError("token expired")
        if nbf is not None and (not isinstance(nbf, int | float) or nbf - leeway > now):
            raise InvalidCredentialError("token not yet valid")

    async def _signing_key(self, token: str) -> Any:
        kid = jwt.get_unverified_header(token).get("kid")
        if self.settings.jwks_url is not None:
            if self._client is None:
                self._client = jwt.PyJWKClient(self.settings.jwks_url, cache_keys=True)
            client = self._client
            return (await asyncio.to_thread(client.get_signing_key_from_jwt, token)).key
        if self._keys is None:
            assert self.settings.jwks_file is not None
            self._keys = jwt.PyJWKSet.from_dict(json.loads(self.settings.jwks_file.read_text()))
        keys = self._keys.keys
        if kid is None and len(keys) == 1:
            return keys[0].key
        for candidate in keys:
            if candidate.key_id == kid:
                return candidate.key
        raise InvalidCredentialError("unknown signing key")


def _principal_from(claims: Mapping[str, Any]) -> Principal:
    if "agenda_roles" not in claims:
        raise InvalidCredentialError("token has no agenda_roles claim")
    mapped = {
        "roles": claims["agenda_roles"],
        "tenants": claims.get("agenda_tenants", []),
        "channels": claims.get("agenda_channels", "*"),
        "calendars": claims.get("agenda_calendars", []),
    }
    try:
        return parse_principal(mapped, name=f"jwt:{claims['sub']}")
    except PrincipalConfigError as error:
        raise InvalidCredentialError(f"invalid claims: {error}") from error
