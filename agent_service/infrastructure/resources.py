"""What the agent service opens and runs besides its servers: storage, the calendar client,
the tenant limits and the reconciler loop; ``agent_service.bootstrap`` calls these."""

from __future__ import annotations

import asyncio
import contextlib
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import structlog
from pymongo import AsyncMongoClient

from agenda_kit.auth.devtokens import token_path
from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.calendar.port import ICalendarAdapter
from agenda_kit.health import HealthWatcher, mongo_probe
from agenda_kit.mongo import ensure_mongo, make_client
from agenda_kit.settings import SharedSettings
from agent_service.application.reconciler import Reconciler
from agent_service.application.repositories import Repositories
from agent_service.application.tenant_gate import Admission, ClusterTenantGate, TenantGate
from agent_service.infrastructure.mongo import init_agent_storage
from agent_service.infrastructure.mongo.claim_slots import SlotPolicy
from agent_service.infrastructure.mongo.tenant_limits import open_message_rate
from agent_service.infrastructure.settings import AgentSettings

log = structlog.get_logger("agenda.agent")


async def open_storage(
    settings: AgentSettings,
    shared: SharedSettings,
    resources: AsyncExitStack,
    watcher: HealthWatcher,
) -> tuple[Repositories, AsyncMongoClient[Any]]:
    uri, embedded = await ensure_mongo(shared.mongodb_uri, shared.data_dir / "mongo" / "agent")
    if embedded is not None:
        resources.callback(embedded.stop)
    client = make_client(uri)
    resources.push_async_callback(client.close)
    watcher.require("mongodb", mongo_probe(client))
    repos = await init_agent_storage(
        client,
        settings.database,
        turn_lease=timedelta(seconds=settings.turn_lease_seconds),
        turn_slots=SlotPolicy(
            settings.tenant_max_concurrent_turns,
            timedelta(seconds=settings.tenant_slot_lease_seconds),
        ),
    )
    return repos, client


async def open_tenant_gate(
    settings: AgentSettings, mongo: AsyncMongoClient[Any] | None
) -> Admission | None:
    """The per-tenant limits across every replica (MongoDB: the turn slots are kept on the
    message claims, see ``open_storage``; the gate keeps the message rate); in-process
    without MongoDB."""
    if mongo is None:
        return TenantGate(settings.tenant_max_concurrent_turns)
    rate = open_message_rate(
        mongo,
        settings.database,
        per_minute=settings.tenant_messages_per_minute,
        burst=settings.tenant_message_burst,
        clock=lambda: datetime.now(UTC),
    )
    return None if rate is None else ClusterTenantGate(rate)


async def open_calendar(
    settings: AgentSettings,
    shared: SharedSettings,
    resources: AsyncExitStack,
    watcher: HealthWatcher,
    component: str,
) -> ICalendarAdapter:
    """The calendar service's gRPC client; its health is reported under ``component``."""
    token = settings.calendar_token or _read_token(token_path(shared.data_dir, "calendar-agent"))
    root = settings.calendar_tls_root_cert.read_bytes() if settings.calendar_tls_root_cert else None
    adapter = GrpcCalendarAdapter.connect(
        settings.calendar_addr,
        token=token,
        tls_root_cert=root,
        timeout=settings.calendar_timeout_seconds,
    )
    resources.push_async_callback(adapter.close)
    watcher.report(component, adapter.check_health)
    return adapter


def _read_token(path: Path) -> str | None:
    """On one machine (``make run``) the calendar service's generated token is in .data/."""
    return path.read_text().strip() if path.exists() else None


def start_reconciler(reconciler: Reconciler, interval: float, resources: AsyncExitStack) -> None:
    async def loop() -> None:
        while True:
            try:
                report = await reconciler.run_once()
                if report.confirmed or report.released or report.unresolved:
                    log.info("reconciled", **report.__dict__)
            except Exception:
                log.exception("reconcile_failed")
            await asyncio.sleep(interval)

    task = asyncio.get_running_loop().create_task(loop())

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    resources.push_async_callback(stop)
