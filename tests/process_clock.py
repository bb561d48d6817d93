"""The one place tests read the real clock.

Services started as processes or as servers bootstrapped with their production clock (and the
TLS stack checking a certificate's validity) run on the real clock, which a test cannot move;
a test talking to them picks its days (and instants) from here, so they are in those
services' future. What is chosen never depends on the date itself — any future working day
serves — and no outcome depends on a wall-clock margin. Tests of in-process logic inject a
clock instead (``clock=`` / ``Clock`` fakes) and never call this.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, tzinfo


def services_now(zone: tzinfo = UTC) -> datetime:
    """The instant the services under test see now, in ``zone``."""
    return datetime.now(zone)


def services_today(zone: tzinfo) -> date:
    """The services' current date in ``zone``."""
    return services_now(zone).date()
