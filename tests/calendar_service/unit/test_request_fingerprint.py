"""What "the same request" means for an idempotency key, read from the proto: a field marked
``(unordered)`` is a set (order and repetitions mean nothing) and a field marked
``(case_insensitive)`` is compared in lower case. ``attendees`` is both a set and of e-mail
addresses compared without case, so a retry listing the same people in another order, or
spelling an address in other letters' case, is the same request; inviting someone else, or
the same person on other terms, is not. Generated (seeded) over attendee lists."""

from __future__ import annotations

import random
from collections.abc import Callable

from agenda.calendar.v1 import calendar_service_pb2 as pb
from calendar_service.infrastructure.grpc.fingerprint import request_fingerprint

CASES = 200


def _email(rng: random.Random) -> str:
    local = "".join(rng.choices("abcdefghij.", k=rng.randrange(1, 8))).strip(".") or "x"
    return f"{local}{rng.randrange(100)}@{rng.choice(['example.com', 'clinic.example.org'])}"


def _attendees(rng: random.Random) -> list[pb.Attendee]:
    emails = {_email(rng) for _ in range(rng.randrange(2, 7))}
    return [
        pb.Attendee(
            email=email,
            display_name=rng.choice(["", "Ana", "Bo"]),
            optional=rng.random() < 0.3,
        )
        for email in sorted(emails)
    ]


def _request(attendees: list[pb.Attendee]) -> pb.CreateEventRequest:
    return pb.CreateEventRequest(
        calendar_id="cal", summary="Visit", idempotency_key="k", attendees=attendees
    )


def _copies(attendees: list[pb.Attendee]) -> list[pb.Attendee]:
    copies = [pb.Attendee() for _ in attendees]
    for copy, original in zip(copies, attendees, strict=True):
        copy.CopyFrom(original)
    return copies


def _respelled(rng: random.Random, attendees: list[pb.Attendee]) -> list[pb.Attendee]:
    """The same people: shuffled, some addresses in other letters' case, one maybe twice."""
    again = _copies(attendees)
    for copy in again:
        if rng.random() < 0.5:
            copy.email = "".join(c.upper() if rng.random() < 0.5 else c for c in copy.email)
    if rng.random() < 0.3:
        again.append(again[0])
    while [a.email for a in again] == [a.email for a in attendees]:
        rng.shuffle(again)
    return again


def test_the_same_attendees_in_another_order_or_case_are_the_same_request() -> None:
    differing = CASES - _same_requests(random.Random(20261209), _respelled)
    assert differing == 0, f"{differing} of {CASES} generated retries were another request"


def _changed(rng: random.Random, attendees: list[pb.Attendee]) -> list[pb.Attendee]:
    """Other people, or the same people on other terms."""
    changed = _copies(attendees)
    which = rng.randrange(4)
    if which == 0:
        changed.pop(rng.randrange(len(changed)))
    elif which == 1:
        changed.append(pb.Attendee(email=f"new{rng.randrange(1000)}@example.net"))
    elif which == 2:
        target = rng.choice(changed)
        target.optional = not target.optional
    else:
        target = rng.choice(changed)
        target.display_name += "x"
    rng.shuffle(changed)
    return changed


def test_other_attendees_are_another_request() -> None:
    same = _same_requests(random.Random(20261210), _changed)
    assert same == 0, f"{same} of {CASES} generated changes were the same request"


def _same_requests(
    rng: random.Random,
    retry: Callable[[random.Random, list[pb.Attendee]], list[pb.Attendee]],
) -> int:
    """Of ``CASES`` generated attendee lists, how many ``retry`` leaves the same request."""
    same = 0
    for _ in range(CASES):
        attendees = _attendees(rng)
        first = request_fingerprint(_request(attendees))
        same += first == request_fingerprint(_request(retry(rng, attendees)))
    return same


def test_every_marked_field_is_repeated_or_text() -> None:
    """The marks mean something only where they can: ``unordered`` on repeated fields,
    ``case_insensitive`` on strings (a mark elsewhere would be silently ignored)."""
    for message in pb.DESCRIPTOR.message_types_by_name.values():
        for field in message.fields:
            options = field.GetOptions()
            if options.Extensions[pb.unordered]:
                assert field.is_repeated, field.full_name
            if options.Extensions[pb.case_insensitive]:
                assert field.type == field.TYPE_STRING, field.full_name
