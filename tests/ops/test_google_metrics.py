"""The Google adapter counts attempts, retries and final errors by reason, and never logs an
access token or the service-account key (emulator with injected faults)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from prometheus_client import REGISTRY

from agenda_kit.calendar.errors import CalendarUnavailableError
from agenda_kit.calendar.port import EventDraft
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount
from tests.ops.log_capture import captured_events

INSERT = "events.insert"
START = datetime(2031, 5, 5, 12, 0, tzinfo=UTC)


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def draft(key: str) -> EventDraft:
    return EventDraft(
        calendar_id=CALENDAR_ID,
        summary="Consulta",
        description="",
        start=START,
        end=START + timedelta(minutes=30),
        idempotency_key=key,
    )


async def test_attempts_retries_and_errors_are_counted_by_reason(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    reason = "503 backendError"
    before = {
        "ok": sample("agenda_google_api_requests_total", method="POST", outcome="ok"),
        "failed": sample("agenda_google_api_requests_total", method="POST", outcome=reason),
        "retries": sample("agenda_google_api_retries_total", reason=reason),
        "errors": sample("agenda_google_api_errors_total", reason=reason),
    }
    emulator.faults.fail_next(INSERT, Fault.error(503, "backendError"), times=2)
    await adapter.insert_event(draft("metrics-ok"))
    emulator.faults.fail_always(INSERT, Fault.error(503, "backendError"))
    with pytest.raises(CalendarUnavailableError):
        await adapter.insert_event(draft("metrics-down"))

    ok = sample("agenda_google_api_requests_total", method="POST", outcome="ok")
    failed = sample("agenda_google_api_requests_total", method="POST", outcome=reason)
    assert ok - before["ok"] == 1
    assert failed - before["failed"] == 2 + 5  # two before the success, five attempts after
    assert sample("agenda_google_api_retries_total", reason=reason) - before["retries"] == 2 + 4
    assert sample("agenda_google_api_errors_total", reason=reason) - before["errors"] == 1


async def test_no_token_or_key_in_logs(
    adapter: GoogleCalendarAdapter, emulator: Emulator, service_account: ServiceAccount
) -> None:
    with captured_events() as events:
        emulator.oauth.revoke_all()  # nothing cached yet: the adapter fetches a token
        emulator.faults.fail_next(INSERT, Fault.error(503, "backendError"))
        await adapter.insert_event(draft("log-check"))
        emulator.oauth.revoke_all()  # the cached token is now rejected: 401, refresh, resend
        await adapter.list_events(CALENDAR_ID, START, START + timedelta(days=1))

    assert any(e["event"] == "google_calendar.token_rejected" for e in events)
    rendered = "\n".join(json.dumps(e, default=str) for e in events)
    tokens = list(emulator.oauth.tokens)
    assert tokens
    for secret in [*tokens, "PRIVATE KEY", "ya29."]:
        assert secret not in rendered
    assert json.loads(service_account.key_file.read_text())["private_key_id"] not in rendered
