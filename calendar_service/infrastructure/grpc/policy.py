"""Who may call which calendar-service RPC: one row per RPC (docs/security.md has the table).

Calendar clients need a grant covering every calendar a request names (write grants for
writes); operators read every calendar. Event owners are checked by the use cases.
"""

from __future__ import annotations

from agenda_kit.auth.policy import Access, PolicyTable, rule
from agenda_kit.auth.principals import Role

CC, OP = Role.CALENDAR_CLIENT, Role.OPERATOR
R, W = Access.READ, Access.WRITE

CALENDAR_POLICY = PolicyTable(
    "agenda.calendar.v1.CalendarService",
    {
        "GetFreeSlots": rule(CC, OP, access=R, calendars="calendar_id"),
        "QueryFreeBusy": rule(CC, OP, access=R, calendars="calendar_ids"),
        "CreateEvent": rule(CC, access=W, calendars="calendar_id"),
        "GetEvent": rule(CC, OP, access=R, calendars="calendar_id"),
        "CancelEvent": rule(CC, access=W, calendars="calendar_id"),
        "ListEvents": rule(CC, OP, access=R, calendars="calendar_id"),
        "MoveEvent": rule(CC, access=W, calendars="calendar_id"),
        "UpdateEvent": rule(CC, access=W, calendars="calendar_id"),
    },
)
