"""A change feed Google answers 410 is told by the position the caller sent, whatever the
410's reason (some carry none, REFERENCES.md §3): a sync token → ``SYNC_TOKEN_EXPIRED``
naming ``sync_token``; ``updated_since`` → ``PROVIDER_REJECTED_REQUEST`` naming
``updated_since``. Before review 14 a reasonless 410 of a sync-token feed was
``CALENDAR_NOT_FOUND``, and a 410 of an updated_since feed named a sync token never sent."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agenda_kit.calendar.errors import InvalidCalendarRequestError
from agenda_kit.calendar.values import ChangeQuery
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_faults import Fault
from tests.fakes.google_fixtures import CALENDAR_ID

SINCE = datetime(2032, 1, 1, tzinfo=UTC)
FEED = ChangeQuery(calendar_id=CALENDAR_ID, updated_since=SINCE)
EXPECTED = {"sync_token": "SYNC_TOKEN_EXPIRED", "updated_since": "PROVIDER_REJECTED_REQUEST"}


@pytest.mark.parametrize("reason", ["", "fullSyncRequired"])
@pytest.mark.parametrize("position", sorted(EXPECTED))
async def test_a_gone_feed_names_the_position_sent(
    adapter: GoogleCalendarAdapter, emulator: Emulator, position: str, reason: str
) -> None:
    query = FEED
    if position == "sync_token":  # the service's own token of a feed listed before
        token = (await adapter.list_changes(FEED)).next_sync_token
        query = ChangeQuery(calendar_id=CALENDAR_ID, sync_token=token)
    emulator.faults.calls.clear()
    emulator.faults.fail_next("events.list", Fault.error(410, reason))
    with pytest.raises(InvalidCalendarRequestError) as caught:
        await adapter.list_changes(query)
    assert (caught.value.reason, caught.value.field) == (EXPECTED[position], position)
    assert emulator.faults.count("events.list") == 1  # a 410 is never retried


async def test_the_emulator_expires_every_sync_token_issued_so_far(
    adapter: GoogleCalendarAdapter, emulator: Emulator
) -> None:
    """``EmulatorState.expire_sync_tokens`` ends every token issued so far, the newest too, as
    Google's 410 ``fullSyncRequired`` does; before review 15 the newest one (issued after the
    last change) stayed valid, so a feed said to be expired went on answering."""
    token = (await adapter.list_changes(FEED)).next_sync_token
    resumed = ChangeQuery(calendar_id=CALENDAR_ID, sync_token=token)
    await adapter.list_changes(resumed)  # valid until expired
    emulator.state.expire_sync_tokens()

    with pytest.raises(InvalidCalendarRequestError) as caught:
        await adapter.list_changes(resumed)

    assert (caught.value.reason, caught.value.field) == ("SYNC_TOKEN_EXPIRED", "sync_token")
    fresh = (await adapter.list_changes(FEED)).next_sync_token  # a full sync again
    await adapter.list_changes(ChangeQuery(calendar_id=CALENDAR_ID, sync_token=fresh))
