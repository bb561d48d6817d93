"""Service-account tokens: JWT-bearer grant, signature check, caching and 401 refresh."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from agenda_kit.calendar.errors import CalendarCredentialsError
from agenda_kit.calendar.port import EventDraft
from calendar_service.infrastructure.google.failures import GoogleApiError, TokenRequestError
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import (
    CALENDAR_ID,
    DELEGATED_USER,
    AdapterFactory,
    ServiceAccount,
    ServiceAccountKey,
)

T0 = datetime(2031, 7, 1, 9, 0, tzinfo=UTC)


def draft(key: str) -> EventDraft:
    return EventDraft(
        calendar_id=CALENDAR_ID,
        summary="Aula",
        description="",
        start=T0,
        end=T0 + timedelta(hours=1),
        idempotency_key=key,
    )


async def test_one_token_is_fetched_and_reused(
    make_adapter: AdapterFactory, emulator: Emulator
) -> None:
    adapter = await make_adapter()
    for i in range(3):
        await adapter.insert_event(draft(f"a-{i}"))

    assert emulator.faults.count("token") == 1
    assert emulator.oauth.issued == 1


async def test_a_key_the_emulator_does_not_trust_is_rejected_clearly(
    make_adapter: AdapterFactory, emulator: Emulator, tmp_path: Path
) -> None:
    impostor = ServiceAccountKey.generate()  # same e-mail, different RSA key
    key_file = impostor.write(tmp_path / "impostor.json", emulator.token_uri)
    adapter = await make_adapter(credentials_file=key_file)

    with pytest.raises(CalendarCredentialsError) as caught:
        await adapter.insert_event(draft("x"))

    cause = caught.value.__cause__
    assert isinstance(cause, TokenRequestError)
    assert cause.error == "invalid_grant"
    assert "Invalid JWT Signature" in str(cause)
    assert emulator.faults.counts() == {"token": 1}  # 400 from the token endpoint: no retry


@pytest.mark.parametrize("how", ["revoke", "expire"])
async def test_401_mid_run_refreshes_once_and_succeeds(
    make_adapter: AdapterFactory, emulator: Emulator, how: str
) -> None:
    adapter = await make_adapter()
    await adapter.insert_event(draft("before"))
    if how == "revoke":
        emulator.oauth.revoke_all()
    else:
        emulator.oauth.expire_all()

    _, created = await adapter.insert_event(draft("after"))

    assert created
    assert emulator.faults.count("token") == 2
    assert emulator.faults.count("events.insert") == 3  # ok, 401, ok


async def test_a_second_401_after_refresh_is_an_error(
    make_adapter: AdapterFactory, emulator: Emulator
) -> None:
    adapter = await make_adapter()
    emulator.oauth.lifetime = 0.0  # every token is already expired when used

    with pytest.raises(CalendarCredentialsError) as caught:
        await adapter.insert_event(draft("never"))

    assert isinstance(caught.value.__cause__, GoogleApiError)
    assert caught.value.__cause__.status == 401
    assert emulator.faults.count("token") == 2
    assert emulator.faults.count("events.insert") == 2


async def test_token_endpoint_outage_is_retried(
    make_adapter: AdapterFactory, emulator: Emulator
) -> None:
    adapter = await make_adapter()
    emulator.faults.fail_next("token", Fault.error(503, "backendError"))
    emulator.faults.fail_next("token", Fault.connection_reset())

    _, created = await adapter.insert_event(draft("t"))

    assert created
    assert emulator.faults.count("token") == 3


async def test_domain_wide_delegation_subject(
    make_adapter: AdapterFactory, emulator: Emulator
) -> None:
    allowed = await make_adapter(subject=DELEGATED_USER)
    denied = await make_adapter(subject="intruder@agenda.test")

    _, created = await allowed.insert_event(draft("delegated"))
    with pytest.raises(CalendarCredentialsError) as caught:
        await denied.insert_event(draft("denied"))

    assert created
    assert isinstance(caught.value.__cause__, TokenRequestError)
    assert caught.value.__cause__.error == "unauthorized_client"
    assert {grant.subject for grant in emulator.oauth.tokens.values()} == {DELEGATED_USER}


async def test_token_uri_override_beats_the_key_file(
    make_adapter: AdapterFactory,
    emulator: Emulator,
    service_account: ServiceAccount,
    tmp_path: Path,
) -> None:
    key_file = service_account.key.write(tmp_path / "prod.json", "https://oauth2.invalid/token")
    adapter = await make_adapter(credentials_file=key_file, token_uri=emulator.token_uri)

    _, created = await adapter.insert_event(draft("override"))

    assert created
