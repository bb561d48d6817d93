"""Health follows MongoDB (both services) and the agent reports the calendar service's health
as a separate component; MongoDB is cut and restored through a TCP proxy."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agenda_kit.grpc.server import LIVENESS
from agenda_kit.mongo import EmbeddedMongo
from agenda_kit.settings import SharedSettings
from agent_service.bootstrap import CALENDAR_COMPONENT, bootstrap
from calendar_service.bootstrap import SERVICE_NAME as CALENDAR_SERVICE
from calendar_service.bootstrap import bootstrap as calendar_bootstrap
from calendar_service.infrastructure.settings import CalendarSettings
from tests.agent_service.integration.agent_fixtures import AgentStack, agent_stack, channel_to
from tests.ops.health_probe import NOT_SERVING, SERVING, wait_status
from tests.ops.tcp_proxy import TcpProxy

pytest_plugins = ["tests.kit.mongo_fixtures"]

AGENT_SERVICES = ("", "agenda.agent.v1.AgentService", "agenda.agent.v1.CatalogService")


@pytest.fixture
async def mongo_proxy(embedded_mongo: EmbeddedMongo) -> AsyncIterator[TcpProxy]:
    proxy = TcpProxy(embedded_mongo.port)
    await proxy.open()
    yield proxy
    await proxy.close()


def fast_health(proxy: TcpProxy, data_dir: Path) -> SharedSettings:
    return SharedSettings(
        MONGODB_URI=f"mongodb://127.0.0.1:{proxy.port}/?directConnection=true",
        AGENDA_DATA_DIR=data_dir,
        AGENDA_HEALTH_INTERVAL_SECONDS=0.1,
        AGENDA_HEALTH_TIMEOUT_SECONDS=0.5,
    )


async def test_calendar_service_is_not_serving_while_mongodb_is_unreachable(
    mongo_proxy: TcpProxy, tmp_path: Path
) -> None:
    settings = CalendarSettings(
        grpc_port=0, metrics_port=0, auth_tokens=["t"], database=f"cal_{uuid.uuid4().hex[:8]}"
    )
    app = await calendar_bootstrap(settings, fast_health(mongo_proxy, tmp_path))
    await app.start()
    try:
        async with channel_to(app.port) as channel:
            for name in ("", CALENDAR_SERVICE):
                await wait_status(channel, name, SERVING)
            await mongo_proxy.close()
            for name in ("", CALENDAR_SERVICE):
                await wait_status(channel, name, NOT_SERVING)
            await wait_status(channel, LIVENESS, SERVING)  # out of rotation, not restarted
            await mongo_proxy.open()
            for name in ("", CALENDAR_SERVICE):
                await wait_status(channel, name, SERVING)
    finally:
        await app.stop(0)


@pytest.fixture
async def stack(embedded_mongo: EmbeddedMongo, tmp_path: Path) -> AsyncIterator[AgentStack]:
    async with agent_stack(embedded_mongo, tmp_path) as running:
        yield running


async def test_agent_reports_the_calendar_as_a_component_and_follows_mongodb(
    stack: AgentStack, mongo_proxy: TcpProxy, tmp_path: Path
) -> None:
    app = await bootstrap(stack.agent_settings(), fast_health(mongo_proxy, tmp_path))
    await app.start()
    stack.replicas.append(app)  # stopped (first) with the stack
    async with channel_to(app.port) as channel:
        await wait_status(channel, CALENDAR_COMPONENT, SERVING)
        for name in AGENT_SERVICES:
            await wait_status(channel, name, SERVING)

        await stack.calendar.spec.health.enter_graceful_shutdown()  # calendar: NOT_SERVING
        await wait_status(channel, CALENDAR_COMPONENT, NOT_SERVING)
        for name in AGENT_SERVICES:  # the agent's own health does not follow the calendar
            await wait_status(channel, name, SERVING, within=0.5)

        await mongo_proxy.close()
        for name in AGENT_SERVICES:
            await wait_status(channel, name, NOT_SERVING)
        await mongo_proxy.open()
        for name in AGENT_SERVICES:
            await wait_status(channel, name, SERVING)
