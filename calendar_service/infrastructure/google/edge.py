"""Helpers at the adapter edge: error translation scope, paths, validation, fan-out."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import quote

import aiohttp
import structlog

from agenda_kit.calendar.errors import EventNotFoundError, InvalidCalendarRequestError
from agenda_kit.calendar.port import CalendarEvent
from calendar_service.infrastructure.google.errors import Scope, translate
from calendar_service.infrastructure.google.failures import (
    BudgetExhaustedError,
    GoogleApiError,
    TokenRequestError,
    describe,
)
from calendar_service.infrastructure.google.mapping import event_from_json
from calendar_service.infrastructure.google.metrics import count_error
from calendar_service.infrastructure.google.quota import QuotaOpenError

T = TypeVar("T")
log = structlog.get_logger(__name__)
FAILURES = (
    GoogleApiError,
    TokenRequestError,
    BudgetExhaustedError,
    QuotaOpenError,
    asyncio.TimeoutError,
    aiohttp.ClientError,
)


@contextmanager
def translated(scope: Scope, target: str) -> Iterator[None]:
    """Turn internal Google/aiohttp failures into calendar errors (logged, cause chained)."""
    try:
        yield
    except FAILURES as exc:
        error = translate(exc, scope=scope, target=target)
        count_error(exc)
        log.warning(
            "google_calendar.failed",
            scope=scope,
            reason=describe(exc),
            error=type(error).__name__,
            detail=str(exc),
        )
        raise error from exc
    except asyncio.CancelledError as exc:
        count_error(exc)  # cancelled by the caller: not translated, but counted and logged
        log.info("google_calendar.cancelled", scope=scope)
        raise


async def all_or_nothing(coroutines: Sequence[Coroutine[Any, Any, T]]) -> list[T]:
    """Run concurrently, results in order; the first failure cancels the rest and is raised."""
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(coroutine) for coroutine in coroutines]
    except ExceptionGroup as failures:
        raise failures.exceptions[0] from None
    return [task.result() for task in tasks]


def calendar_path(calendar_id: str) -> str:
    return f"/calendars/{quote(calendar_id, safe='')}"


def events_path(calendar_id: str) -> str:
    return f"{calendar_path(calendar_id)}/events"


def event_path(calendar_id: str, event_id: str) -> str:
    return f"{events_path(calendar_id)}/{quote(event_id, safe='')}"


def require_event(
    calendar_id: str, event_id: str, data: dict[str, Any], zone: str = "UTC"
) -> CalendarEvent:
    """The event in ``data``; a cancelled stub without times counts as absent."""
    event = event_from_json(calendar_id, data, zone)
    if event is None:
        raise EventNotFoundError()
    return event


def check_range(start: datetime, end: datetime) -> None:
    if start.tzinfo is None or end.tzinfo is None:
        raise InvalidCalendarRequestError("start and end must be timezone-aware")
    if end <= start:
        raise InvalidCalendarRequestError("end must be after start")


def live_event(
    calendar_id: str, event_id: str, data: dict[str, Any], zone: str = "UTC"
) -> CalendarEvent:
    """The event in ``data``; a cancelled one counts as absent."""
    event = require_event(calendar_id, event_id, data, zone)
    if event.status == "cancelled":
        raise EventNotFoundError()
    return event


def was_404(error: BaseException) -> bool:
    """Whether a translated error was Google's 404."""
    cause = error.__cause__
    return isinstance(cause, GoogleApiError) and cause.status == 404
