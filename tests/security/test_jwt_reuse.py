"""A verified JWT is not verified again on every call (the signature check costs more than an
echo RPC), yet its expiry still holds on every call, a failed token is never remembered, and
the signature is checked again after ``REVERIFY_SECONDS``. The clock is injected."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jwt
import pytest

from agenda_kit.auth import jwt_tokens
from agenda_kit.auth.jwt_tokens import (
    REVERIFY_SECONDS,
    InvalidCredentialError,
    JwtSettings,
    JwtVerifier,
)
from tests.security.principals import AUDIENCE, ISSUER, IdentityProvider, claims

NOW = 2_000_000_000.0  # 2033-05-18


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def decodes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every signature check the verifier makes."""
    seen: list[str] = []
    real = jwt.decode

    def counting(token: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(token)
        return real(token, *args, **kwargs)

    monkeypatch.setattr(jwt, "decode", counting)  # the module jwt_tokens calls
    return seen


def verifier(tmp_path: Path, idp: IdentityProvider, clock: Clock) -> JwtVerifier:
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps(idp.jwks()))
    settings = JwtSettings(issuer=ISSUER, audience=AUDIENCE, jwks_file=jwks, leeway_seconds=0)
    return JwtVerifier(settings, clock=clock)


async def test_a_verified_token_is_trusted_until_reverify_time(
    tmp_path: Path, decodes: list[str]
) -> None:
    idp, clock = IdentityProvider(), Clock()
    check = verifier(tmp_path, idp, clock)
    token = idp.token(claims(exp=int(NOW) + 3600))
    first = await check.principal(token)
    clock.now += REVERIFY_SECONDS - 1
    assert await check.principal(token) == first
    assert len(decodes) == 1
    clock.now += 1
    assert await check.principal(token) == first
    assert len(decodes) == 2


async def test_a_remembered_token_still_expires(tmp_path: Path, decodes: list[str]) -> None:
    idp, clock = IdentityProvider(), Clock()
    check = verifier(tmp_path, idp, clock)
    token = idp.token(claims(exp=int(NOW) + 10))
    await check.principal(token)
    clock.now += 10
    with pytest.raises(InvalidCredentialError, match="expired"):
        await check.principal(token)
    assert len(decodes) == 1  # refused from what was remembered, without a signature check


async def test_a_failed_token_is_never_remembered(tmp_path: Path, decodes: list[str]) -> None:
    idp, clock = IdentityProvider(), Clock()
    check = verifier(tmp_path, idp, clock)
    forged = IdentityProvider().token(claims())  # another key under the same key id
    for _ in range(2):
        with pytest.raises(InvalidCredentialError):
            await check.principal(forged)
    assert len(decodes) == 2
    assert not check._verified


async def test_remembered_tokens_are_bounded(
    tmp_path: Path, decodes: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jwt_tokens, "MAX_VERIFIED_TOKENS", 2)
    idp, clock = IdentityProvider(), Clock()
    check = verifier(tmp_path, idp, clock)
    tokens = [idp.token(claims(sub=f"gateway-{n}")) for n in range(3)]
    for token in tokens:
        await check.principal(token)
    assert list(check._verified) == tokens[1:]  # the oldest went first
