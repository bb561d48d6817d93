"""Pytest fixtures: a running Google Calendar emulator, a test service account, adapters.

Import them into a conftest or test module::

    from tests.fakes.google_fixtures import emulator, make_adapter  # noqa: F401
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from calendar_service.infrastructure.google import GoogleCalendarAdapter
from calendar_service.infrastructure.settings import Backend, CalendarSettings
from tests.fakes.google_calendar import Emulator, running_emulator

CALENDAR_ID = "pro-ana@agenda.test"
DELEGATED_USER = "owner@agenda.test"
FAST_RETRIES: dict[str, Any] = {
    "request_timeout": 2.0,
    "max_attempts": 5,
    "default_budget": 10.0,
    "backoff_initial": 0.01,
    "backoff_max": 0.05,
    "backoff_jitter": 0.01,
}
AdapterFactory = Callable[..., Awaitable[GoogleCalendarAdapter]]


@dataclass(frozen=True, slots=True)
class ServiceAccountKey:
    """A test service account: its RSA key and identity."""

    email: str
    key_id: str
    private_key: rsa.RSAPrivateKey

    @classmethod
    def generate(cls, email: str = "agenda-test@agenda-test.iam.gserviceaccount.com") -> Any:
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        return cls(email=email, key_id="k" + format(abs(hash(email)), "x"), private_key=key)

    def write(self, path: Path, token_uri: str) -> Path:
        """Write a Google-format JSON key file whose ``token_uri`` is ``token_uri``."""
        pem = self.private_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode("ascii")
        info = {
            "type": "service_account",
            "project_id": "agenda-test",
            "private_key_id": self.key_id,
            "private_key": pem,
            "client_email": self.email,
            "client_id": "100000000000000000001",
            "token_uri": token_uri,
        }
        path.write_text(json.dumps(info), encoding="utf-8")
        return path


@dataclass(frozen=True, slots=True)
class ServiceAccount:
    key: ServiceAccountKey
    key_file: Path


@pytest.fixture(scope="session")
def service_account_key() -> ServiceAccountKey:
    key: ServiceAccountKey = ServiceAccountKey.generate()
    return key


@pytest.fixture
async def emulator(service_account_key: ServiceAccountKey) -> AsyncIterator[Emulator]:
    async with running_emulator() as running:
        running.oauth.register(
            service_account_key.email,
            service_account_key.private_key.public_key(),
            subjects=frozenset({DELEGATED_USER}),
        )
        running.state.add_calendar(CALENDAR_ID)
        yield running


def google_settings(
    emulator: Emulator, service_account: ServiceAccount, token: str, **overrides: Any
) -> CalendarSettings:
    """The calendar service's settings on the Google backend through ``emulator`` (any free
    gRPC port, no metrics port, ``token`` as the one bearer token), plus ``overrides``."""
    return CalendarSettings(
        grpc_port=0,
        metrics_port=0,
        auth_tokens=[token],
        backend=Backend.GOOGLE,
        google_credentials_file=service_account.key_file,
        google_api_base=emulator.base_url,
        google_token_uri=emulator.token_uri,
        **overrides,
    )


@pytest.fixture
def service_account(
    tmp_path: Path, service_account_key: ServiceAccountKey, emulator: Emulator
) -> ServiceAccount:
    key_file = service_account_key.write(tmp_path / "service-account.json", emulator.token_uri)
    return ServiceAccount(service_account_key, key_file)


@pytest.fixture
async def make_adapter(
    emulator: Emulator, service_account: ServiceAccount
) -> AsyncIterator[AdapterFactory]:
    """Open adapters against the emulator (fast backoffs; override any constructor arg)."""
    opened: list[GoogleCalendarAdapter] = []

    async def make(**overrides: Any) -> GoogleCalendarAdapter:
        settings = {
            "credentials_file": service_account.key_file,
            "api_base": emulator.base_url,
            **FAST_RETRIES,
            **overrides,
        }
        adapter = await GoogleCalendarAdapter.create(**settings)
        opened.append(adapter)
        return adapter

    yield make
    for adapter in opened:
        await adapter.close()


@pytest.fixture
async def adapter(make_adapter: AdapterFactory) -> GoogleCalendarAdapter:
    return await make_adapter()
