"""The agent's real gRPC calendar client with faults scripted at its edge — what a network,
a quota or Google would produce — around the real calls to the running calendar service."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.calendar.port import CalendarEvent, EventDraft, EventPage, FreeBusy

Real = Callable[[], Awaitable[Any]]
Hook = Callable[[Real, tuple[Any, ...]], Awaitable[Any]]
"""Called instead of the real call with (the real call, its arguments); may call it or not."""


class ScriptedCalendar(GrpcCalendarAdapter):
    """``hooks[name]`` wraps the call ``name`` (insert_event, cancel_event, list_events,
    move_event, query_free_busy) while set."""

    hooks: dict[str, Hook]

    def _hooked(self, name: str, real: Real, args: tuple[Any, ...]) -> Awaitable[Any]:
        hook = getattr(self, "hooks", {}).get(name)
        return real() if hook is None else hook(real, args)

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        result: tuple[CalendarEvent, bool] = await self._hooked(
            "insert_event", lambda: super(ScriptedCalendar, self).insert_event(draft), (draft,)
        )
        return result

    async def cancel_event(self, calendar_id: str, event_id: str, **kwargs: Any) -> bool:
        result: bool = await self._hooked(
            "cancel_event",
            lambda: super(ScriptedCalendar, self).cancel_event(calendar_id, event_id, **kwargs),
            (calendar_id, event_id),
        )
        return result

    async def list_events(
        self, calendar_id: str, start: datetime, end: datetime, **kwargs: Any
    ) -> EventPage:
        result: EventPage = await self._hooked(
            "list_events",
            lambda: super(ScriptedCalendar, self).list_events(calendar_id, start, end, **kwargs),
            (calendar_id, start, end),
        )
        return result

    async def move_event(
        self, calendar_id: str, event_id: str, start: datetime, end: datetime, **kwargs: Any
    ) -> CalendarEvent:
        result: CalendarEvent = await self._hooked(
            "move_event",
            lambda: super(ScriptedCalendar, self).move_event(
                calendar_id, event_id, start, end, **kwargs
            ),
            (calendar_id, event_id, start, end),
        )
        return result

    async def query_free_busy(
        self, calendar_ids: Sequence[str], start: datetime, end: datetime, **kwargs: Any
    ) -> list[FreeBusy]:
        result: list[FreeBusy] = await self._hooked(
            "query_free_busy",
            lambda: super(ScriptedCalendar, self).query_free_busy(
                calendar_ids, start, end, **kwargs
            ),
            (calendar_ids, start, end),
        )
        return result


def scripted(address: str, token: str) -> ScriptedCalendar:
    calendar = ScriptedCalendar.connect(address, token=token, timeout=30.0)
    assert isinstance(calendar, ScriptedCalendar)
    calendar.hooks = {}
    return calendar
