"""OAuth access tokens for a Google service account (JWT-bearer grant) over aiohttp.

Why not ``creds.refresh(Request())`` in a thread: google-auth's synchronous transports need
``requests`` or ``urllib3`` (not dependencies here), and its token client retries on its own
with sleeps that ignore the caller's deadline. Instead google-auth parses the key file and
signs the assertion (``service_account.Credentials.signer`` + ``google.auth.jwt.encode``), and
the POST goes through the adapter's one aiohttp session, inside the same per-attempt timeout
and deadline as every API call. Signing is ~1 ms of CPU, so it runs on the loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import aiohttp
from google.auth import jwt
from google.oauth2 import service_account

from calendar_service.infrastructure.google.failures import TokenRequestError
from calendar_service.infrastructure.google.responses import error_json

CALENDAR_SCOPE = "https://www.googleapis.com/auth/calendar"
JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
ASSERTION_LIFETIME = 3600
EXPIRY_MARGIN = 60.0
"""A cached token is replaced this many seconds before it expires (at most half its life)."""


@dataclass(frozen=True, slots=True)
class AccessToken:
    """A token and when to stop using it: ``min(60 s, lifetime / 2)`` before it expires, so
    a token living less than 60 s is still reused for half its life, not fetched per call."""

    value: str
    expires_at: float  # on the token source's monotonic clock
    margin: float = EXPIRY_MARGIN

    @classmethod
    def issued(cls, value: str, *, now: float, lifetime: float) -> AccessToken:
        return cls(value, now + lifetime, min(EXPIRY_MARGIN, lifetime / 2))

    def fresh(self, now: float) -> bool:
        return now < self.expires_at - self.margin


class ServiceAccountTokenSource:
    """Caches one access token, fetches a new one (single-flight) when it is near expiry."""

    def __init__(
        self,
        credentials: service_account.Credentials,
        *,
        token_uri: str,
        subject: str | None = None,
        scopes: tuple[str, ...] = (CALENDAR_SCOPE,),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._clock = clock
        self._credentials = credentials
        self._token_uri = token_uri
        self._subject = subject
        self._scopes = scopes
        self._cached: AccessToken | None = None
        self._lock = asyncio.Lock()

    @classmethod
    def from_file(
        cls,
        path: str | Path,
        *,
        token_uri: str | None,
        subject: str | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Self:
        """Load a service-account JSON key; ``token_uri`` overrides the file's."""
        info: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
        credentials = service_account.Credentials.from_service_account_info(info)  # type: ignore[no-untyped-call]
        uri = token_uri or str(info["token_uri"])
        return cls(credentials, token_uri=uri, subject=subject, clock=clock)

    async def token(self, session: aiohttp.ClientSession) -> str:
        """A valid access token, fetched only when the cached one is missing or stale."""
        cached = self._cached
        if cached is not None and cached.fresh(self._clock()):
            return cached.value
        async with self._lock:
            if self._cached is None or not self._cached.fresh(self._clock()):
                self._cached = await self._fetch(session)
            return self._cached.value

    def derived_secret(self, label: bytes) -> bytes:
        """A secret every holder of this key file derives alike and no caller can: the
        SHA-256 of the key's (deterministic, PKCS#1 v1.5) signature of ``label``."""
        signature: bytes = self._credentials.signer.sign(label)
        return hashlib.sha256(signature).digest()

    def invalidate(self, value: str) -> None:
        """Forget ``value`` after a 401 (a token already replaced meanwhile is kept)."""
        if self._cached is not None and self._cached.value == value:
            self._cached = None

    def _assertion(self) -> str:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self._credentials.service_account_email,
            "aud": self._token_uri,
            "scope": " ".join(self._scopes),
            "iat": now,
            "exp": now + ASSERTION_LIFETIME,
        }
        if self._subject:
            claims["sub"] = self._subject
        signed: bytes = jwt.encode(self._credentials.signer, claims)  # type: ignore[no-untyped-call]
        return signed.decode("ascii")

    async def _fetch(self, session: aiohttp.ClientSession) -> AccessToken:
        form = {"grant_type": JWT_BEARER_GRANT, "assertion": self._assertion()}
        async with session.post(self._token_uri, data=form) as response:
            raw = await response.read()
            if response.status >= 300:
                payload = error_json(raw)
                raise TokenRequestError(
                    response.status,
                    str(payload.get("error", "unknown")),
                    str(payload.get("error_description", "")),
                )
        value, lifetime = _token_answer(raw)
        return AccessToken.issued(value, now=self._clock(), lifetime=lifetime)


def _token_answer(raw: bytes) -> tuple[str, float]:
    """A 2xx token answer's ``access_token`` and lifetime. A body that is not one (cut short,
    a proxy's page, ``expires_in`` not a number) is the endpoint failing, like a 502 — never
    refused credentials, which would close the credentials gate."""
    try:
        payload = json.loads(raw)
        value, lifetime = (
            payload["access_token"],
            float(payload.get("expires_in", ASSERTION_LIFETIME)),
        )
    except (UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError) as error:
        raise TokenRequestError(502, "malformed_answer", "not a token answer") from error
    if not isinstance(value, str) or not value or not 0 <= lifetime < float("inf"):
        raise TokenRequestError(502, "malformed_answer", "not a token answer")
    return value, lifetime
