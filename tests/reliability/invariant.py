"""The booking invariant (docs/architecture.md#the-booking-invariant), checked against what is
stored: the agent's MongoDB (appointments), the calendar (through the calendar service) and
the calendar service's holds (its own MongoDB).

- every non-cancelled event belongs to exactly one confirmed appointment (no orphan event);
- every confirmed appointment has exactly one such event, the one it names;
- no pending appointment is left (after the reconciler);
- every hold of the calendar service is a live event's, at that event's time (no orphan
  hold: a write that died was swept);
- no two confirmed appointments of one professional overlap.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any
from uuid import UUID

from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.calendar.port import CalendarEvent
from agenda_kit.mongo import make_client
from calendar_service.application.holds import Hold
from calendar_service.infrastructure.mongo_holds import COLLECTION, MongoHoldStore


@dataclass(frozen=True)
class Snapshot:
    """Everything stored for one tenant in a time range (appointments overlapping it)."""

    appointments: list[dict[str, Any]]
    holds: list[Hold]
    """The calendar service's holds (empty when its database was not given)."""
    events: list[CalendarEvent]

    def with_status(self, status: str) -> list[dict[str, Any]]:
        return [a for a in self.appointments if a["status"] == status]

    @property
    def live_events(self) -> list[CalendarEvent]:
        return [e for e in self.events if e.status != "cancelled"]


async def snapshot(
    mongo_uri: str,
    database: str,
    tenant_id: UUID,
    calendar: GrpcCalendarAdapter,
    calendar_ids: list[str],
    start: datetime,
    end: datetime,
    calendar_database: str | None = None,
) -> Snapshot:
    client = make_client(mongo_uri)
    try:
        db = client[database]
        overlapping = {"tenant_id": tenant_id, "start": {"$lt": end}, "end": {"$gt": start}}
        appointments = await db["appointments"].find(overlapping).to_list(None)
        holds: list[Hold] = []
        if calendar_database is not None:
            store = MongoHoldStore(client[calendar_database][COLLECTION])
            for calendar_id in calendar_ids:
                held = await store.of_calendar(calendar_id)
                holds += [h for h in held if h.start < end and start < h.end]
    finally:
        await client.close()
    events: list[CalendarEvent] = []
    for calendar_id in calendar_ids:
        token: str | None = None
        while True:
            page = await calendar.list_events(
                calendar_id, start, end, page_size=1000, page_token=token
            )
            events.extend(page.events)
            if page.next_page_token is None:
                break
            token = page.next_page_token
    return Snapshot(appointments, holds, events)


async def check_days(
    mongo_uri: str,
    database: str,
    tenant_id: str,
    calendar_targets: str | list[str],
    token: str,
    zone: tzinfo,
    days: tuple[date, date],
    calendar_ids: tuple[str, ...] = ("demo-ana",),
    calendar_database: str | None = None,
) -> dict[str, int]:
    """``check`` over whole days ``days[0]``..``days[1]`` (in ``zone``), reading the calendar
    through the calendar service at ``calendar_targets`` (one address or a balanced pool)."""
    start = datetime.combine(days[0], time.min, zone)
    end = datetime.combine(days[1], time.min, zone) + timedelta(days=1)
    calendar = GrpcCalendarAdapter.connect(calendar_targets, token=token)
    try:
        state = await snapshot(
            mongo_uri,
            database,
            UUID(tenant_id),
            calendar,
            list(calendar_ids),
            start,
            end,
            calendar_database,
        )
    finally:
        await calendar.close()
    return check(state)


def check(state: Snapshot) -> dict[str, int]:
    """Assert the invariant; returns the counts (for the figures)."""
    confirmed = {str(a["_id"]): a for a in state.with_status("confirmed")}
    live = state.live_events
    per_key = Counter(e.idempotency_key for e in live)
    duplicates = {key: n for key, n in per_key.items() if n > 1}
    assert not duplicates, f"duplicate events per key: {duplicates}"
    orphans = [e for e in live if e.idempotency_key not in confirmed]
    assert not orphans, f"{len(orphans)} orphan events: {_explain(state, orphans[:5])}"
    by_key = {e.idempotency_key: e for e in live}
    missing = [k for k, a in confirmed.items() if by_key.get(k) is None]
    assert not missing, f"{len(missing)} confirmed appointments without an event: {missing[:5]}"
    wrong = [k for k, a in confirmed.items() if by_key[k].event_id != a["external_event_id"]]
    assert not wrong, f"confirmed appointments naming another event: {wrong[:5]}"
    pending = state.with_status("pending")
    assert not pending, f"{len(pending)} appointments left pending"
    orphan_holds = orphaned(state)
    assert not orphan_holds, f"{len(orphan_holds)} holds without their live event"
    overlaps = overlapping_pairs(list(confirmed.values()))
    assert overlaps == 0, f"{overlaps} overlapping confirmed pairs"
    return {
        "appointments": len(state.appointments),
        "confirmed": len(confirmed),
        "failed": len(state.with_status("failed")),
        "events": len(live),
        "orphans": len(orphans),
        "holds": len(state.holds),
        "orphan_holds": len(orphan_holds),
        "overlapping_pairs": overlaps,
    }


def orphaned(state: Snapshot) -> list[Hold]:
    """Holds of the calendar service that are not a live event's time (its event is gone,
    cancelled or moved away, or a write died and was not swept)."""
    live = {e.event_id: e for e in state.live_events}
    return [
        hold
        for hold in state.holds
        if (event := live.get(hold.event_id)) is None
        or hold.writing
        or (hold.start, hold.end) != (event.start, event.end)
    ]


def overlapping_pairs(appointments: list[dict[str, Any]]) -> int:
    """Pairs of appointments of one professional whose [start, end) intersect."""
    count = 0
    by_professional: dict[Any, list[dict[str, Any]]] = {}
    for a in appointments:
        by_professional.setdefault(a["professional_id"], []).append(a)
    for group in by_professional.values():
        ordered = sorted(group, key=lambda a: a["start"])
        for i, first in enumerate(ordered):
            for second in ordered[i + 1 :]:
                if second["start"] >= first["end"]:
                    break
                count += 1
    return count


def _explain(state: Snapshot, events: list[CalendarEvent]) -> list[str]:
    """For each orphan event: its key and what became of the appointment of that id."""
    by_id = {str(a["_id"]): a for a in state.appointments}
    explained = []
    for event in events:
        appointment = by_id.get(event.idempotency_key or "")
        fate = (
            "no appointment"
            if appointment is None
            else (f"{appointment['status']}: {appointment['cancel_reason']!r}")
        )
        explained.append(f"{event.event_id} (key {event.idempotency_key}) → {fate}")
    return explained
