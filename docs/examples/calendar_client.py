"""Ask a calendar for tomorrow's free slots within working hours, then book the first one.

The booking is idempotent: the key is your own id for the booking (an appointment id), so a
retry after a lost response — simulated here by sending the same request twice — returns the
same event instead of creating a second one.

    CALENDAR_TOKEN=... python docs/examples/calendar_client.py \
        --address 127.0.0.1:50051 --calendar demo
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import uuid
from datetime import datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from agenda_kit.calendar import CalendarError, EventDraft, SlotRules, WeeklyHours
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
    parser.add_argument("--booking-id", default=uuid.uuid4().hex, help="idempotency key")
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


async def book_first_free_slot(calendar: GrpcCalendarAdapter, args: argparse.Namespace) -> int:
    start, end, rules = tomorrow_rules()
    slots = await calendar.get_free_slots(args.calendar, start, end, DURATION_MINUTES, rules)
    zone = ZoneInfo(TIME_ZONE)
    print(
        f"{len(slots)} free slots tomorrow:",
        ", ".join(f"{s.astimezone(zone):%H:%M}" for s in slots),
    )
    if not slots:
        return 1
    draft = EventDraft(
        calendar_id=args.calendar,
        summary="Example appointment",
        description="Booked by docs/examples/calendar_client.py",
        start=slots[0],
        end=slots[0] + timedelta(minutes=DURATION_MINUTES),
        idempotency_key=args.booking_id,
        time_zone=TIME_ZONE,
    )
    for _ in range(2):  # the second call is what a retry after a lost response looks like
        event, created = await calendar.insert_event(draft)
        print(f"event {event.event_id} at {event.start.astimezone(zone):%Y-%m-%d %H:%M}", end="")
        print(" (created)" if created else " (already existed: same event returned)")
    return 0


async def main(args: argparse.Namespace, root_cert: bytes | None) -> int:
    async with GrpcCalendarAdapter.connect(
        args.address, token=args.token, tls_root_cert=root_cert
    ) as calendar:
        try:
            with deadline_after(10):  # the whole example must finish within 10 s
                return await book_first_free_slot(calendar, args)
        except CalendarError as error:  # the client only ever raises the port's errors
            print(f"{type(error).__name__}: {error}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    arguments = parse_args()
    certificate = arguments.tls_root_cert.read_bytes() if arguments.tls_root_cert else None
    sys.exit(asyncio.run(main(arguments, certificate)))
