"""Issue 24 item 3: key rotation that works, with an injected clock (no wall-clock margins).

- JWKS **file**: a key withdrawn from the file is refused from the next call (the file is
  checked on every call; on main 6d0b5e0 it was read once and the key worked forever), even
  for a token verified a second earlier; a key added is accepted at once.
- JWKS **URL** (a real HTTP server): the keys are used for the response's ``max-age`` (clamped
  to 60 s), so a withdrawn key is refused once that time has passed — at the latest 60 s after
  it left the JWKS, whatever the provider's header says; a token naming an unknown key id
  makes the verifier look again, at most once per ``jwks_refetch_seconds`` however many such
  tokens arrive (on main: ``PyJWKClient(cache_keys=True)`` kept the withdrawn key).
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from agenda_kit.auth.jwks import MAX_CACHE_SECONDS, cache_seconds
from agenda_kit.auth.jwt_tokens import InvalidCredentialError, JwtSettings, JwtVerifier
from tests.security.principals import AUDIENCE, ISSUER, IdentityProvider, claims

NOW = 2_000_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


def _jwks(*providers: tuple[IdentityProvider, str]) -> dict[str, Any]:
    return {"keys": [idp.jwks()["keys"][0] | {"kid": kid} for idp, kid in providers]}


def _token(idp: IdentityProvider, kid: str, sub: str = "gw") -> str:
    return idp.token(claims(sub=sub, exp=int(NOW) + 86_400), headers={"kid": kid})


async def _accepted(verifier: JwtVerifier, token: str) -> bool:
    try:
        await verifier.principal(token)
    except InvalidCredentialError:
        return False
    return True


async def test_a_key_withdrawn_from_the_file_is_refused_at_the_next_call(tmp_path: Path) -> None:
    old, new, later = IdentityProvider(), IdentityProvider(), IdentityProvider()
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps(_jwks((old, "old"), (new, "new"))))
    clock = Clock()
    settings = JwtSettings(issuer=ISSUER, audience=AUDIENCE, jwks_file=path, leeway_seconds=0)
    verifier = JwtVerifier(settings, clock=clock)
    token = _token(old, "old")
    assert await _accepted(verifier, token)
    path.write_text(json.dumps(_jwks((new, "new"), (later, "later"))))  # "old" withdrawn
    clock.now += 1  # well inside the 60 s a verified token is otherwise remembered
    assert not await _accepted(verifier, token)
    assert await _accepted(verifier, _token(new, "new"))
    assert await _accepted(verifier, _token(later, "later"))  # added: accepted at once
    path.write_text("{ not json")  # a broken file keeps the last good keys
    assert await _accepted(verifier, _token(later, "later", sub="other"))


@dataclass
class Provider:
    """An identity provider's JWKS endpoint: what it serves and how often it was asked."""

    body: bytes = b""
    cache_control: str | None = None
    requests: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def publish(self, jwks: dict[str, Any], cache_control: str | None) -> None:
        with self.lock:
            self.body, self.cache_control = json.dumps(jwks).encode(), cache_control


@pytest.fixture
def provider() -> Iterator[tuple[Provider, str]]:
    state = Provider()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            with state.lock:
                state.requests += 1
                body, cache_control = state.body, state.cache_control
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if cache_control is not None:
                self.send_header("Cache-Control", cache_control)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: Any) -> None:
            return

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}/jwks.json"
    finally:
        server.shutdown()
        server.server_close()


def _url_verifier(url: str, clock: Clock) -> JwtVerifier:
    settings = JwtSettings(
        issuer=ISSUER, audience=AUDIENCE, jwks_url=url, leeway_seconds=0, jwks_refetch_seconds=10
    )
    return JwtVerifier(settings, clock=clock)


@pytest.mark.parametrize(
    ("header", "bound"),
    [("max-age=30", 30.0), ("public, max-age=3600", MAX_CACHE_SECONDS), (None, MAX_CACHE_SECONDS)],
)
async def test_a_key_withdrawn_from_the_url_is_refused_within_its_cache_time(
    provider: tuple[Provider, str], header: str | None, bound: float
) -> None:
    state, url = provider
    old, new = IdentityProvider(), IdentityProvider()
    state.publish(_jwks((old, "old"), (new, "new")), header)
    clock = Clock()
    verifier = _url_verifier(url, clock)
    token = _token(old, "old")
    assert await _accepted(verifier, token)
    state.publish(_jwks((new, "new")), header)  # "old" withdrawn at NOW
    clock.now = NOW + bound - 1
    assert await _accepted(verifier, token)  # the provider said these keys hold until then
    assert state.requests == 1
    clock.now = NOW + bound
    assert not await _accepted(verifier, token)
    assert state.requests == 2
    assert await _accepted(verifier, _token(new, "new"))


async def test_unknown_key_ids_refetch_at_most_once_per_interval(
    provider: tuple[Provider, str],
) -> None:
    state, url = provider
    current, rotated = IdentityProvider(), IdentityProvider()
    state.publish(_jwks((current, "k1")), "max-age=60")
    clock = Clock()
    verifier = _url_verifier(url, clock)
    assert await _accepted(verifier, _token(current, "k1"))
    clock.now += 11
    forger = IdentityProvider()
    invented = [_token(forger, f"invented-{n}") for n in range(20)]
    assert [await _accepted(verifier, token) for token in invented] == [False] * 20
    assert state.requests == 2  # one look for twenty unknown key ids
    state.publish(_jwks((current, "k1"), (rotated, "k2")), "max-age=60")  # the provider rotates
    assert not await _accepted(verifier, _token(rotated, "k2"))  # within the interval: no look
    clock.now += 10
    assert await _accepted(verifier, _token(rotated, "k2"))  # the next look finds it
    assert state.requests == 3


async def test_an_unreachable_provider_is_asked_at_most_once_per_interval(
    provider: tuple[Provider, str],
) -> None:
    state, url = provider
    state.body = b"<html>not a JWKS</html>"  # the provider is broken: no keys at all yet
    clock = Clock()
    verifier = _url_verifier(url, clock)
    idp = IdentityProvider()
    token = _token(idp, "k1")
    assert [await _accepted(verifier, token) for _ in range(10)] == [False] * 10
    assert state.requests == 1
    state.publish(_jwks((idp, "k1")), None)  # back, but not asked again before the interval
    assert not await _accepted(verifier, token)
    clock.now += 10
    assert await _accepted(verifier, token)
    assert state.requests == 2


def test_cache_lifetime_from_headers() -> None:
    def lifetime(**headers: str) -> float:
        return cache_seconds(headers, floor=10, ceiling=60)

    assert lifetime() == 60
    assert lifetime(**{"cache-control": "max-age=30"}) == 30
    assert lifetime(**{"cache-control": "max-age=30", "age": "25"}) == 10
    assert lifetime(**{"cache-control": "no-store"}) == 10
    assert lifetime(**{"cache-control": "private, max-age=86400"}) == 60
    assert lifetime(**{"cache-control": "max-age=junk"}) == 60
