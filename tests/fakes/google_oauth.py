"""The emulator's OAuth side: JWT-bearer grants verified against registered service accounts."""

from __future__ import annotations

import base64
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
CALENDAR_SCOPE = "https://www.googleapis.com/auth/calendar"
MAX_ASSERTION_LIFETIME = 3600
CLOCK_SKEW = 300
SHORT_LIVED = (
    "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable "
    "timeframe. Check your iat and exp values in the JWT claim."
)


class OAuthError(Exception):
    """An OAuth error answer: ``{"error": ..., "error_description": ...}``."""

    def __init__(self, status: int, error: str, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.error = error
        self.description = description


@dataclass(frozen=True, slots=True)
class ServiceAccount:
    email: str
    public_key: rsa.RSAPublicKey
    subjects: frozenset[str] = frozenset()


@dataclass(slots=True)
class Grant:
    email: str
    subject: str | None
    expires_at: float


@dataclass
class TokenIssuer:
    """Issues opaque access tokens; tests can revoke or expire them to force 401s."""

    token_uri: str
    lifetime: float = 3600.0
    accounts: dict[str, ServiceAccount] = field(default_factory=dict)
    tokens: dict[str, Grant] = field(default_factory=dict)
    issued: int = 0

    def register(
        self, email: str, public_key: rsa.RSAPublicKey, subjects: frozenset[str] = frozenset()
    ) -> None:
        """Trust ``email``'s key; ``subjects`` are the users it may impersonate."""
        self.accounts[email] = ServiceAccount(email, public_key, subjects)

    def grant(self, form: dict[str, str]) -> dict[str, Any]:
        """The token answer for a JWT-bearer form, or ``OAuthError``."""
        if form.get("grant_type") != JWT_BEARER_GRANT:
            raise OAuthError(400, "unsupported_grant_type", "Invalid grant_type.")
        claims = self._verified_claims(form.get("assertion", ""))
        token = "ya29.emu-" + secrets.token_urlsafe(24)
        subject = claims.get("sub")
        self.tokens[token] = Grant(claims["iss"], subject, time.monotonic() + self.lifetime)
        self.issued += 1
        return {"access_token": token, "expires_in": int(self.lifetime), "token_type": "Bearer"}

    def valid(self, token: str) -> bool:
        grant = self.tokens.get(token)
        return grant is not None and grant.expires_at > time.monotonic()

    def revoke_all(self) -> None:
        self.tokens.clear()

    def expire_all(self) -> None:
        for grant in self.tokens.values():
            grant.expires_at = 0.0

    def _verified_claims(self, assertion: str) -> dict[str, Any]:
        header, claims, signed, signature = _split(assertion)
        if header.get("alg") != "RS256":
            raise OAuthError(400, "invalid_grant", "Invalid JWT: alg must be RS256.")
        account = self.accounts.get(str(claims.get("iss")))
        if account is None:
            raise OAuthError(400, "invalid_grant", "Invalid grant: account not found")
        try:
            account.public_key.verify(signature, signed, padding.PKCS1v15(), hashes.SHA256())
        except InvalidSignature as exc:
            raise OAuthError(400, "invalid_grant", "Invalid JWT Signature.") from exc
        self._check_claims(claims, account)
        return claims

    def _check_claims(self, claims: dict[str, Any], account: ServiceAccount) -> None:
        now = time.time()
        if claims.get("aud") != self.token_uri:
            raise OAuthError(400, "invalid_grant", "Invalid JWT: audience is not the token URI.")
        iat, exp = float(claims.get("iat", 0)), float(claims.get("exp", 0))
        if exp < now or iat > now + CLOCK_SKEW or exp - iat > MAX_ASSERTION_LIFETIME:
            raise OAuthError(400, "invalid_grant", SHORT_LIVED)
        if CALENDAR_SCOPE not in str(claims.get("scope", "")).split():
            raise OAuthError(400, "invalid_scope", "Invalid OAuth scope or ID token audience.")
        subject = claims.get("sub")
        if subject is not None and subject not in account.subjects:
            raise OAuthError(
                401,
                "unauthorized_client",
                "Client is unauthorized to retrieve access tokens using this method.",
            )


def _split(assertion: str) -> tuple[dict[str, Any], dict[str, Any], bytes, bytes]:
    parts = assertion.split(".")
    if len(parts) != 3:
        raise OAuthError(400, "invalid_grant", "Invalid JWT: not three segments.")
    try:
        header, claims = (json.loads(_b64(part)) for part in parts[:2])
        signature = _b64(parts[2])
    except (ValueError, UnicodeDecodeError) as exc:
        raise OAuthError(400, "invalid_grant", "Invalid JWT: undecodable.") from exc
    return header, claims, f"{parts[0]}.{parts[1]}".encode("ascii"), signature


def _b64(segment: str) -> bytes:
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
