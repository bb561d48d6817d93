"""Page tokens are the service's own on every backend (review 10, F2): the Google backend
forwarded any ``page_token`` to Google (``PROVIDER_REJECTED_REQUEST`` without a BadRequest,
a Google request spent on each), and the built-in calendar's were bound to their listing but
not sealed (a caller could forge a cursor or alter one). Now a token the service did not
issue for this very listing — garbage, forged, altered, cut, another listing's, a feed's in a
range listing — is ``INVALID_ARGUMENT`` ``INVALID_REQUEST`` with a FieldViolation naming
``page_token`` on both backends, and on Google no listing request is sent for it. Real tokens
still page through."""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable
from datetime import timedelta

import grpc
import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.errors import details_of
from tests.calendar_service.integration import test_event_model as model
from tests.calendar_service.integration.test_event_model import T0, Running, span, stamp
from tests.fakes.google_fixtures import CALENDAR_ID

pytest_plugins = ["tests.kit.mongo_fixtures"]
running = model.running  # the fixture: the service on both backends
LIST = "events.list"


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _flip(token: str, at: int) -> str:
    index = at % len(token)
    swapped = "A" if token[index] != "A" else "B"
    return token[:index] + swapped + token[index + 1 :]


TAMPERED: dict[str, Callable[[str], str]] = {
    "garbage": lambda real: "garbage",
    "brackets": lambda real: "[" * 3000,
    "deep JSON": lambda real: _b64(b"[" * 3000),
    "random base64": lambda real: _b64(bytes(range(40))),
    "Google's own token": lambda real: _b64(b"o:2"),
    "a forged wrapper": lambda real: _b64(json.dumps(["range", "o:0", "x"]).encode()) + ".AAAA",
    "cut short": lambda real: real[: len(real) // 2],
    "one character changed at the start": lambda real: _flip(real, 0),
    "one character changed in the middle": lambda real: _flip(real, len(real) // 2),
    "one character changed at the end": lambda real: _flip(real, -1),
    "with a suffix": lambda real: real + "x",
}


async def _paged(running: Running, count: int = 5) -> pb.ListEventsRequest:
    for index in range(count):
        await running.call(
            "CreateEvent",
            pb.CreateEventRequest(
                calendar_id=CALENDAR_ID,
                summary="Paged",
                idempotency_key=f"page-{index}",
                time=span(T0 + timedelta(hours=2 * index)),
            ),
        )
    return pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=span(T0, 60 * 24), page_size=2)


def _listed(running: Running) -> int:
    return 0 if running.emulator is None else running.emulator.faults.count(LIST)


async def _refused(running: Running, request: pb.ListEventsRequest) -> None:
    before = _listed(running)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await running.call("ListEvents", request)
    details = details_of(refused.value)
    assert (refused.value.code(), details.reason) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_REQUEST",
    )
    assert [field for field, _ in details.violations] == ["page_token"]
    assert _listed(running) == before  # never sent to the provider


@pytest.mark.parametrize("how", sorted(TAMPERED))
async def test_a_token_the_service_did_not_issue_is_refused(running: Running, how: str) -> None:
    listing = await _paged(running)
    first: pb.ListEventsResponse = await running.call("ListEvents", listing)
    assert first.next_page_token
    tampered = pb.ListEventsRequest()
    tampered.CopyFrom(listing)
    tampered.page_token = TAMPERED[how](first.next_page_token)
    await _refused(running, tampered)


async def test_another_listings_token_is_refused(running: Running) -> None:
    listing = await _paged(running)
    first: pb.ListEventsResponse = await running.call("ListEvents", listing)
    others = [
        pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=span(T0, 60 * 23), page_size=2),
        pb.ListEventsRequest(
            calendar_id=CALENDAR_ID, range=span(T0, 60 * 24), page_size=2, include_cancelled=True
        ),
        pb.ListEventsRequest(
            calendar_id=CALENDAR_ID,
            range=span(T0, 60 * 24),
            page_size=2,
            private_property_filter={"bookingId": "1"},
        ),
        pb.ListEventsRequest(calendar_id=CALENDAR_ID, updated_since=stamp(T0), page_size=2),
    ]
    for other in others:
        other.page_token = first.next_page_token
        await _refused(running, other)


async def test_the_service_tokens_page_through_every_event(running: Running) -> None:
    listing = await _paged(running)
    seen: list[str] = []
    while True:
        page: pb.ListEventsResponse = await running.call("ListEvents", listing)
        seen += [event.idempotency_key for event in page.events]
        if not page.next_page_token:
            break
        listing.page_token = page.next_page_token
    assert seen == [f"page-{index}" for index in range(5)]


def _forged(rng: random.Random, real: str) -> str:
    """A token of a shape the service might write, made by a caller (never issued): a
    position of its own choosing in this very listing, in the layout a token's body has."""
    start = (T0 + timedelta(minutes=rng.randrange(-600, 6000))).isoformat()
    event_id = "".join(rng.choices("0123456789abcdefghijklmnopqrstuv", k=rng.randrange(1, 30)))
    body, _, _ = real.partition(".")
    try:
        inner = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except ValueError:
        inner = []
    listing = next((part for part in reversed(inner) if isinstance(part, str)), "")
    layouts = [
        [start, event_id, listing],
        ["range", _b64(json.dumps([start, event_id]).encode()), listing],
        ["range", f"{start}|{event_id}", listing],
    ]
    forged = _b64(json.dumps(rng.choice(layouts)).encode())
    return forged if rng.random() < 0.5 else f"{forged}.{_b64(rng.randbytes(16))}"


def _altered(rng: random.Random, real: str) -> str:
    """``real`` with one to three characters replaced by other base64 characters."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    chars = list(real)
    for _ in range(rng.randrange(1, 4)):
        index = rng.randrange(len(chars))
        chars[index] = rng.choice(alphabet.replace(chars[index], ""))
    return "".join(chars)


async def test_generated_forged_and_altered_tokens_are_refused(running: Running) -> None:
    """A property over generated tokens (seeded): a position forged in the token's own
    layout, or a real token with characters changed, is refused on BOTH backends — a
    built-in calendar token is sealed like a Google one, so a caller cannot pick its
    position (it could page from anywhere, or past events the listing would show)."""
    rng = random.Random(20261207)
    listing = await _paged(running)
    first: pb.ListEventsResponse = await running.call("ListEvents", listing)
    real = first.next_page_token
    cases = [_forged(rng, real) for _ in range(30)] + [_altered(rng, real) for _ in range(30)]
    accepted = []
    for token in cases:
        if token == real:
            continue
        tampered = pb.ListEventsRequest()
        tampered.CopyFrom(listing)
        tampered.page_token = token
        try:
            await _refused(running, tampered)
        except (AssertionError, pytest.fail.Exception):
            accepted.append(token)
    assert not accepted, f"{len(accepted)} of {len(cases)} generated tokens were not refused"
