"""Book the first free slot of tomorrow's working hours on a calendar, the way another product
uses the calendar service (docs/calendar-service.md):

1. ask for free slots (cached reads are fine for offering times);
2. write the event create-if-free (the default): if someone took the time meanwhile — another
   product, the agent, a person in Google Calendar — the service answers SLOT_TAKEN with the
   taken range, and the example tries the next slot;
3. retry with the same idempotency key, as after a lost response: the same event comes back
   (``created`` is False), nothing is written twice;
4. read the change feed from the booking on (what a product keeps its own copy in step with),
   and find its event again by its own reference (a private property).

    CALENDAR_TOKEN=... python docs/examples/calendar_client.py \
        --address 127.0.0.1:50051 --calendar demo
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import uuid
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from agenda_kit.calendar import (
    CalendarError,
    CalendarQuotaError,
    ChangeQuery,
    EventDraft,
    SlotRules,
    SlotTakenError,
    WeeklyHours,
)
from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.deadline import deadline_after

TIME_ZONE = "America/Sao_Paulo"
WORKING_HOURS = (time(9), time(18))
DURATION_MINUTES = 30


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--address", default="127.0.0.1:50051", help="calendar service host:port")
    parser.add_argument(
        "--token",
        default=os.environ.get("CALENDAR_TOKEN"),
        required="CALENDAR_TOKEN" not in os.environ,
        help="bearer token of the calendar service (default: $CALENDAR_TOKEN)",
    )
    parser.add_argument("--calendar", required=True, help="calendar id to read and write")
    parser.add_argument("--booking-id", default=uuid.uuid4().hex, help="your own booking id")
    parser.add_argument("--tls-root-cert", type=Path, help="PEM file of the CA; enables TLS")
    return parser.parse_args(argv)


def tomorrow_rules() -> tuple[datetime, datetime, SlotRules]:
    """Tomorrow (local day) as a range, with working hours on every weekday of the week."""
    zone = ZoneInfo(TIME_ZONE)
    start = datetime.combine(datetime.now(zone).date() + timedelta(days=1), time.min, zone)
    hours = tuple(
        WeeklyHours(day_of_week=day, start=WORKING_HOURS[0], end=WORKING_HOURS[1])
        for day in range(1, 8)
    )
    return start, start + timedelta(days=1), SlotRules(time_zone=TIME_ZONE, weekly_hours=hours)


def booking(args: argparse.Namespace, start: datetime) -> EventDraft:
    """The event of a booking: the key is your own booking id (a retry names the same event),
    and the id rides along as an opaque reference (never personal data)."""
    return EventDraft(
        calendar_id=args.calendar,
        summary="Example appointment",
        description="Booked by docs/examples/calendar_client.py",
        start=start,
        end=start + timedelta(minutes=DURATION_MINUTES),
        idempotency_key=args.booking_id,
        time_zone=TIME_ZONE,
        private={"bookingId": args.booking_id},
    )


async def book_first_free_slot(calendar: GrpcCalendarAdapter, args: argparse.Namespace) -> int:
    start, end, rules = tomorrow_rules()
    zone = ZoneInfo(TIME_ZONE)
    slots = await calendar.get_free_slots(args.calendar, start, end, DURATION_MINUTES, rules)
    print(
        f"{len(slots)} free slots tomorrow:",
        ", ".join(f"{s.astimezone(zone):%H:%M}" for s in slots),
    )
    booked_since = datetime.now(UTC)
    for slot in slots:
        try:
            event, created = await calendar.insert_event(booking(args, slot))
        except SlotTakenError as taken:  # someone was faster: the taken range, no one's id
            print(f"{slot.astimezone(zone):%H:%M} was just taken ({taken.metadata}); next one")
            continue
        print(f"event {event.event_id} at {event.start.astimezone(zone):%Y-%m-%d %H:%M}", end="")
        print(" (created)" if created else " (already existed)")
        again, created_again = await calendar.insert_event(booking(args, slot))  # a retry
        print(
            "retried: the same event"
            if again.event_id == event.event_id and not created_again
            else "?!"
        )
        changes = await calendar.list_changes(
            ChangeQuery(calendar_id=args.calendar, updated_since=booked_since)
        )
        print(f"change feed: {len(changes.events)} change(s); resume with the sync token")
        mine = await calendar.list_events(
            args.calendar, start, end, private={"bookingId": args.booking_id}
        )
        print(f"found by its own reference: {[e.event_id for e in mine.events]}")
        return 0
    print("no free slot left tomorrow")
    return 1


async def main(args: argparse.Namespace, root_cert: bytes | None) -> int:
    async with GrpcCalendarAdapter.connect(
        args.address, token=args.token, tls_root_cert=root_cert
    ) as calendar:
        try:
            with deadline_after(10):  # the whole example must finish within 10 s
                return await book_first_free_slot(calendar, args)
        except CalendarQuotaError as error:  # RetryInfo: when to try again
            print(f"{error.reason}: retry in {error.retry_after} s", file=sys.stderr)
            return 3
        except CalendarError as error:  # the client only ever raises the port's errors
            print(f"{error.reason}: {error}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    arguments = parse_args()
    certificate = arguments.tls_root_cert.read_bytes() if arguments.tls_root_cert else None
    sys.exit(asyncio.run(main(arguments, certificate)))
