"""Item 10b: a cached token is replaced ``min(60 s, lifetime / 2)`` before it expires, so a
short-lived token (< 60 s) is reused instead of fetched on every call (injected clock)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from calendar_service.infrastructure.google.auth import ServiceAccountTokenSource
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_fixtures import ServiceAccount


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as opened:
        yield opened


def source(service_account: ServiceAccount, clock: FakeClock) -> ServiceAccountTokenSource:
    return ServiceAccountTokenSource.from_file(
        service_account.key_file, token_uri=None, subject=None, clock=clock
    )


async def test_a_30_second_token_is_reused_until_15_seconds_before_it_expires(
    emulator: Emulator, service_account: ServiceAccount, session: aiohttp.ClientSession
) -> None:
    emulator.oauth.lifetime = 30.0
    clock = FakeClock()
    tokens = source(service_account, clock)

    first = await tokens.token(session)
    assert await tokens.token(session) == first
    clock.now += 14.9
    assert await tokens.token(session) == first
    assert emulator.faults.count("token") == 1

    clock.now += 0.2  # 15.1 s old: inside the last half of its life
    assert await tokens.token(session) != first
    assert emulator.faults.count("token") == 2


async def test_an_hour_token_is_replaced_60_seconds_before_it_expires(
    emulator: Emulator, service_account: ServiceAccount, session: aiohttp.ClientSession
) -> None:
    clock = FakeClock()
    tokens = source(service_account, clock)

    first = await tokens.token(session)
    clock.now += 3600 - 60.5
    assert await tokens.token(session) == first
    clock.now += 1.0
    assert await tokens.token(session) != first
    assert emulator.faults.count("token") == 2
