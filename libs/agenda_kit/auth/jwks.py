"""Where a JWT's signing keys come from, and how fast a withdrawn key stops working.

Rules:

- **File** (``jwks_file``): checked on every call (its modification time and size); a changed
  file is read again at once. A file that no longer parses keeps the last good keys (logged).
- **URL** (``jwks_url``): fetched on first use and again when its cache lifetime ends: the
  response's ``Cache-Control: max-age`` (less ``Age``), clamped to
  [``refetch_seconds``, ``max_cache_seconds``] (at most ``MAX_CACHE_SECONDS`` = 60 s; without
  a header, ``max_cache_seconds``). A token naming a key id the set does not hold forces a
  fetch — at most one per ``refetch_seconds``, so tokens with invented key ids cannot make the
  server hammer the identity provider. A failed fetch keeps the last good keys and is retried
  after ``refetch_seconds``; with no keys at all every token is refused.
- Each distinct key set gets a new ``generation``: whoever remembers a verification (the
  verifier's token cache) remembers it for one generation only, so a key withdrawn from the
  set is refused from the first call that sees the new set.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import urllib.request
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import jwt
import structlog

log = structlog.get_logger("agenda.auth")
Clock = Callable[[], float]
MAX_CACHE_SECONDS = 60.0
"""The longest a fetched key set is used without asking the identity provider again."""
MAX_JWKS_BYTES = 1 << 20
FETCH_TIMEOUT_SECONDS = 5.0


class KeysUnavailableError(Exception):
    """No key set could be read or fetched yet (every token is refused)."""


@dataclass(frozen=True, slots=True)
class KeySet:
    """The keys of one version of the JWKS; ``generation`` changes when the keys do."""

    keys: tuple[jwt.PyJWK, ...]
    generation: int

    def by_kid(self, kid: str | None) -> jwt.PyJWK | None:
        if kid is None and len(self.keys) == 1:
            return self.keys[0]
        return next((key for key in self.keys if key.key_id == kid and kid is not None), None)


class KeySource(Protocol):
    async def current(self) -> KeySet:
        """The key set in force now."""
        ...

    async def refresh(self) -> KeySet:
        """A key id was not found: look again if allowed now (rate-limited), else ``current``."""
        ...


def parse_keys(body: bytes | str) -> tuple[jwt.PyJWK, ...]:
    """The usable keys of a JWKS document; ``ValueError`` when it is not one."""
    try:
        return tuple(jwt.PyJWKSet.from_dict(json.loads(body)).keys)
    except (jwt.PyJWKError, jwt.PyJWKSetError, json.JSONDecodeError, TypeError) as error:
        raise ValueError(f"not a usable JWKS: {error}") from error


@dataclass
class _Generations:
    """Numbers key sets: the same document keeps its number, another gets the next one."""

    body: bytes | None = None
    generation: int = 0

    def of(self, body: bytes, keys: tuple[jwt.PyJWK, ...]) -> KeySet:
        if body != self.body:
            self.body, self.generation = body, self.generation + 1
        return KeySet(keys, self.generation)


@dataclass
class FileKeySource:
    """``KeySource`` over a JWKS file, re-read when its content changes (a rewrite keeping
    size and modification time, ``cp -p``, is a change)."""

    path: Path
    _stamp: bytes | None = field(default=None, init=False)
    _current: KeySet | None = field(default=None, init=False)
    _generations: _Generations = field(default_factory=_Generations, init=False)

    async def current(self) -> KeySet:
        try:
            body = self.path.read_bytes()
            stamp = hashlib.sha256(body).digest()
            if stamp != self._stamp:  # a broken file is read again once it changes
                self._stamp = stamp
                self._current = self._generations.of(body, parse_keys(body))
        except (OSError, ValueError) as error:
            log.error("jwks_reload_failed", path=str(self.path), error=str(error))
        if self._current is None:
            raise KeysUnavailableError("signing keys unavailable")
        return self._current

    async def refresh(self) -> KeySet:
        return await self.current()  # already current: the file is checked on every call


Fetch = Callable[[str], Awaitable[tuple[bytes, Mapping[str, str]]]]


async def http_fetch(url: str) -> tuple[bytes, Mapping[str, str]]:
    """GET ``url`` (in a thread; bounded size and time): the body and the headers."""

    def get() -> tuple[bytes, Mapping[str, str]]:
        request = urllib.request.Request(url, headers={"Accept": "application/json"})  # noqa: S310
        with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT_SECONDS) as response:  # noqa: S310
            body = response.read(MAX_JWKS_BYTES + 1)
            if len(body) > MAX_JWKS_BYTES:
                raise ValueError("JWKS response too large")
            return body, {key.lower(): value for key, value in response.headers.items()}

    return await asyncio.to_thread(get)


def cache_seconds(headers: Mapping[str, str], *, floor: float, ceiling: float) -> float:
    """How long a response may be used: ``max-age`` less ``Age``, within [floor, ceiling];
    ``no-store``/``no-cache`` mean the floor; no directive means the ceiling."""
    lifetime: float = ceiling
    for directive in headers.get("cache-control", "").lower().split(","):
        name, _, value = directive.strip().partition("=")
        if name in ("no-store", "no-cache"):
            lifetime = 0.0
            break
        if name == "max-age":
            try:
                lifetime = float(int(value.strip().strip('"')))
            except ValueError:
                continue
    with contextlib.suppress(ValueError):
        lifetime -= max(0, int(headers.get("age", "0")))
    return min(ceiling, max(floor, lifetime))


@dataclass
class UrlKeySource:
    """``KeySource`` over a JWKS URL, cached by its headers (see the module's rules)."""

    url: str
    clock: Clock
    max_cache_seconds: float = MAX_CACHE_SECONDS
    refetch_seconds: float = 10.0
    fetch: Fetch = http_fetch
    _current: KeySet | None = field(default=None, init=False)
    _expires: float = field(default=float("-inf"), init=False)
    _fetched_at: float = field(default=float("-inf"), init=False)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, init=False)
    _generations: _Generations = field(default_factory=_Generations, init=False)

    def __post_init__(self) -> None:
        if not 0 < self.refetch_seconds <= self.max_cache_seconds <= MAX_CACHE_SECONDS:
            raise ValueError("need 0 < refetch_seconds <= max_cache_seconds <= 60")

    async def current(self) -> KeySet:
        if self.clock() >= self._expires:  # also after a failed fetch: retried at most this often
            await self._fetch_once(lambda: self.clock() >= self._expires)
        return self._available()

    async def refresh(self) -> KeySet:
        await self._fetch_once(lambda: self.clock() - self._fetched_at >= self.refetch_seconds)
        return self._available()

    def _available(self) -> KeySet:
        if self._current is None:
            raise KeysUnavailableError("signing keys unavailable")
        return self._current

    async def _fetch_once(self, still_needed: Callable[[], bool]) -> None:
        """One fetch for every caller that needs it at the same time (single flight)."""
        async with self._lock:
            if not still_needed():  # another caller fetched while this one waited
                return
            self._fetched_at = self.clock()
            try:
                body, headers = await self.fetch(self.url)
                keys = parse_keys(body)
            except (OSError, ValueError) as error:
                log.error("jwks_fetch_failed", url=self.url, error=str(error))
                self._expires = self._fetched_at + self.refetch_seconds
                return
            lifetime = cache_seconds(
                headers, floor=self.refetch_seconds, ceiling=self.max_cache_seconds
            )
            self._current = self._generations.of(body, keys)
            self._expires = self._fetched_at + lifetime


def key_source(
    *, jwks_file: Path | None, jwks_url: str | None, clock: Clock, **url_options: Any
) -> KeySource:
    if jwks_file is not None:
        return FileKeySource(jwks_file)
    assert jwks_url is not None
    return UrlKeySource(jwks_url, clock, **url_options)
