"""Sync tokens are the service's own on both backends, sealed and bound to the feed they
resume (calendar and owner) by the page tokens' one mechanism (``page_tokens.wrap_sync``).
Before review 14 they were bare: the built-in calendar's an unsealed base64 JSON instant
anyone could write, Google's its own token passed through. So a calendar's token resumed
another calendar's feed, another owner's token was accepted, and on Google garbage or an
altered token was sent to Google (a request spent) and answered ``SYNC_TOKEN_EXPIRED`` where
the built-in calendar said ``INVALID_REQUEST``. Now every token the service did not issue for
this very feed is ``INVALID_REQUEST`` naming ``sync_token``, on both backends, before any
provider request; real tokens still resume."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import grpc
import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.calendar.errors import InvalidCalendarRequestError
from agenda_kit.errors import details_of
from calendar_service.infrastructure.page_tokens import SealedPageTokens, decode, sync_listing
from tests.calendar_service.integration import test_event_owners as owners
from tests.calendar_service.integration.test_event_owners import T0, Running
from tests.calendar_service.integration.test_page_tokens import TAMPERED
from tests.fakes.google_fixtures import CALENDAR_ID

pytest_plugins = ["tests.kit.mongo_fixtures"]
running = owners.running  # the fixture: two owners of one calendar, on both backends
LIST = "events.list"


def _bare(token: str) -> str:
    """The position inside a sealed token, as the service handed it out before sealing."""
    value = decode(token.rpartition(".")[0])
    assert isinstance(value, list)
    return str(value[1])


def _own(change: Callable[[str], str]) -> Callable[[str, str, str], str]:
    return lambda own, page, other: change(own)


VARIANTS: dict[str, Callable[[str, str, str], str]] = {
    **{name: _own(change) for name, change in TAMPERED.items()},
    "the bare position (a token issued before sealing)": lambda own, page, other: _bare(own),
    "a page token of the calendar": lambda own, page, other: page,
    "another owner's sync token": lambda own, page, other: other,
}  # fmt: skip


async def _feed(running: Running, who: str) -> pb.ListEventsResponse:
    request = pb.ListEventsRequest(
        calendar_id=CALENDAR_ID, updated_since=owners._stamp(T0 - timedelta(days=1))
    )
    page: pb.ListEventsResponse = await running.call(who, "ListEvents", request)
    return page


@pytest.mark.parametrize("variant", sorted(VARIANTS))
async def test_a_sync_token_not_issued_for_this_feed_is_refused(
    running: Running, variant: str
) -> None:
    for hour in (1, 2):
        start, end = (
            owners._stamp(T0 + timedelta(hours=hour)),
            owners._stamp(T0 + timedelta(hours=hour, minutes=30)),
        )
        await running.call(
            "x", "CreateEvent", owners._create(f"s-{hour}", time=pb.TimeRange(start=start, end=end))
        )
    listing = pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=owners._range(), page_size=1)
    page = await running.call("x", "ListEvents", listing)  # one of two: a page token
    own = (await _feed(running, "x")).next_sync_token
    other = (await _feed(running, "y")).next_sync_token
    assert page.next_page_token and own and other
    token = VARIANTS[variant](own, page.next_page_token, other)
    sent = running.emulator.faults.count(LIST) if running.emulator else 0
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await running.call(
            "x", "ListEvents", pb.ListEventsRequest(calendar_id=CALENDAR_ID, sync_token=token)
        )
    details = details_of(caught.value)
    assert (caught.value.code(), details.reason) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_REQUEST",
    ), running.backend
    assert [field for field, _ in details.violations] == ["sync_token"]
    if running.emulator is not None:
        assert running.emulator.faults.count(LIST) == sent  # nothing sent to Google
    resumed = await running.call(
        "x", "ListEvents", pb.ListEventsRequest(calendar_id=CALENDAR_ID, sync_token=own)
    )
    assert resumed.next_sync_token  # the real token still resumes


@pytest.mark.parametrize("owner", ["x", None])
def test_a_sync_token_is_bound_to_its_calendar_and_owner(owner: str | None) -> None:
    tokens = SealedPageTokens(b"k" * 32)
    token = tokens.wrap_sync("position", sync_listing("cal-a", owner))
    assert tokens.unwrap_sync(token, sync_listing("cal-a", owner)) == "position"
    for calendar, who in (("cal-b", owner), ("cal-a", "y"), ("cal-a", None if owner else "x")):
        with pytest.raises(InvalidCalendarRequestError) as caught:
            tokens.unwrap_sync(token, sync_listing(calendar, who))
        assert caught.value.field == "sync_token"
