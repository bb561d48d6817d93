"""Open the configured calendar backend: the built-in MongoDB calendar or Google Calendar."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import Any

import structlog
from pymongo import AsyncMongoClient

from agenda_kit.health import HealthWatcher, mongo_probe
from agenda_kit.mongo import ensure_mongo, make_client
from agenda_kit.settings import SharedSettings
from calendar_service.application.busy_time import BusyTimeCalendarAdapter
from calendar_service.application.change_feed import ChangeFeed
from calendar_service.infrastructure.google import GoogleCalendarAdapter
from calendar_service.infrastructure.google.quota import QuotaPolicy
from calendar_service.infrastructure.google.watch import start_feed
from calendar_service.infrastructure.local import LocalCalendarAdapter, init_local_calendar
from calendar_service.infrastructure.local.day_keys import MAX_KEYS_PER_READ
from calendar_service.infrastructure.settings import Backend, CalendarSettings

log = structlog.get_logger("agenda.calendar")


MongoClient = AsyncMongoClient[dict[str, Any]]


async def open_mongo(
    shared: SharedSettings, resources: AsyncExitStack, watcher: HealthWatcher | None = None
) -> MongoClient:
    """The calendar service's MongoDB (``MONGODB_URI``, else an embedded server): the
    built-in calendar's events and, for both backends, the holds of create-if-free.
    ``watcher`` gets it as a required dependency."""
    uri, embedded = await ensure_mongo(shared.mongodb_uri, shared.data_dir / "mongo" / "calendar")
    if embedded is not None:
        resources.callback(embedded.stop)
        log.info("embedded_mongodb_started", data_dir=str(shared.data_dir / "mongo" / "calendar"))
    client = make_client(uri)
    resources.push_async_callback(client.close)
    if watcher is not None:
        watcher.require("mongodb", mongo_probe(client))
    return client


async def open_backend(
    settings: CalendarSettings, resources: AsyncExitStack, client: MongoClient | None
) -> BusyTimeCalendarAdapter:
    """The backend ``CALENDAR_BACKEND`` names; what it opens is closed with ``resources``
    (the built-in calendar needs ``client``)."""
    if settings.backend is Backend.GOOGLE:
        return await _open_google(settings, resources)
    if client is None:
        raise ValueError("the built-in calendar needs MongoDB")
    await init_local_calendar(client, settings.database)
    return local_adapter(settings)


def local_adapter(settings: CalendarSettings) -> LocalCalendarAdapter:
    """Busy time read by day keys, or (``CALENDAR_LOCAL_BUSY_BY_DAY_KEYS=false``, the first
    step of a rolling upgrade) every read by the overlap filter."""
    return LocalCalendarAdapter(
        max_keys_per_read=MAX_KEYS_PER_READ if settings.local_busy_by_day_keys else 0
    )


async def _open_google(
    settings: CalendarSettings, resources: AsyncExitStack
) -> BusyTimeCalendarAdapter:
    if settings.google_credentials_file is None:
        raise ValueError(
            "CALENDAR_BACKEND=google needs CALENDAR_GOOGLE_CREDENTIALS_FILE "
            "(a service-account JSON key file)"
        )
    adapter = await GoogleCalendarAdapter.create(
        credentials_file=settings.google_credentials_file,
        subject=settings.google_subject,
        api_base=settings.google_api_base,
        token_uri=settings.google_token_uri,
        request_timeout=settings.google_request_timeout_seconds,
        max_attempts=settings.google_max_attempts,
        quota=QuotaPolicy(
            threshold=settings.google_quota_threshold,
            initial=settings.google_quota_cooldown_seconds,
            maximum=settings.google_quota_max_cooldown_seconds,
            usage_cooldown=settings.google_usage_cooldown_seconds,
            credentials_cooldown=settings.google_credentials_cooldown_seconds,
        ),
    )
    resources.push_async_callback(adapter.close)
    return adapter


async def open_change_feed(
    backend: BusyTimeCalendarAdapter,
    settings: CalendarSettings,
    on_change: Callable[[str], None],
    resources: AsyncExitStack,
) -> ChangeFeed | None:
    """Google push notifications when ``CALENDAR_GOOGLE_WATCH_ADDRESS`` is set (and the
    backend is Google), else None: the free/busy cache then keeps only its short TTL."""
    address = settings.google_watch_address
    if not address or not isinstance(backend, GoogleCalendarAdapter):
        return None
    return await start_feed(
        backend,
        address,
        on_change,
        host=settings.google_watch_host,
        port=settings.google_watch_port,
        resources=resources,
    )
