"""Two defaults of issue 22 §6: with push notifications on, a calendar's cached busy time
lives past the plain TTL only while its channel was heard within the plain TTL (a lost
notification leaves it no staler than without push); and no two listening ports of the two
services default to the same number."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agent_service.infrastructure.settings import AgentSettings
from calendar_service.application.caching import CachingCalendarAdapter
from calendar_service.infrastructure.settings import CalendarSettings
from tests.fakes.in_memory_calendar import InMemoryCalendar

START = datetime(2031, 3, 3, tzinfo=UTC)
TTL, FOLLOWED = 15.0, 300.0


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Feed:
    """A push channel the test controls: always open, heard when it says so."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.heard_at: float | None = None

    def assured_seconds(self, calendar_id: str) -> float:
        return 3600.0

    def follow(self, calendar_id: str) -> None:
        return None

    def heard_within(self, calendar_id: str, seconds: float) -> bool:
        return self.heard_at is not None and self.clock.now - self.heard_at <= seconds


async def test_past_the_plain_ttl_only_a_recently_heard_channel_keeps_busy_time() -> None:
    clock, backend = Clock(), InMemoryCalendar()
    feed = Feed(clock)
    cache = CachingCalendarAdapter(
        backend, TTL, clock=clock, feed=feed, followed_ttl_seconds=FOLLOWED
    )
    ask = (["ana"], START, START + timedelta(hours=8))
    await cache.query_free_busy(*ask)
    assert backend.free_busy_calls == 1
    clock.now = TTL - 1
    await cache.query_free_busy(*ask)
    assert backend.free_busy_calls == 1  # within the plain TTL: cached
    clock.now = TTL + 1  # past it, and the channel has been silent: read again
    await cache.query_free_busy(*ask)
    assert backend.free_busy_calls == 2
    feed.heard_at = clock.now + TTL - 2  # a notification (ours or anyone's): it delivers
    clock.now += TTL + 3  # past the answer's plain TTL, heard 5 s ago
    await cache.query_free_busy(*ask)
    assert backend.free_busy_calls == 2  # kept: heard within the plain TTL
    clock.now += TTL  # silent for longer than the plain TTL: no more trust
    await cache.query_free_busy(*ask)
    assert backend.free_busy_calls == 3


def test_no_two_listening_ports_default_to_the_same_number() -> None:
    calendar, agent = CalendarSettings(), AgentSettings()
    ports = {
        "CALENDAR_GRPC_PORT": calendar.grpc_port,
        "CALENDAR_METRICS_PORT": calendar.metrics_port,
        "CALENDAR_GOOGLE_WATCH_PORT": calendar.google_watch_port,
        "AGENT_GRPC_PORT": agent.grpc_port,
        "AGENT_METRICS_PORT": agent.metrics_port,
    }
    assert len(set(ports.values())) == len(ports), ports
