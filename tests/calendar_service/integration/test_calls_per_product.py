"""One product's flood does not take every other product's share of the calendar service
(review acting as another product: 1,500 free/busy calls of one product slowed another's
create from 1.0 s to 7.4 s, past the agent's deadline: every product shares one pool of
provider connections and nothing bounded one caller). Calls one principal has in flight are
bounded (``CALENDAR_MAX_CALLS_PER_PRINCIPAL``): the next is RESOURCE_EXHAUSTED
(``TOO_MANY_CALLS``, with a retry hint) at once, while another principal is served. The
emulator holds the flood's calls at a gate: the test waits on events, never on time."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.errors import details_of
from agenda_kit.grpc.auth import AuthorizationInterceptor
from agenda_kit.mongo import EmbeddedMongo
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import bootstrap
from calendar_service.infrastructure.settings import Backend
from tests.calendar_service.integration.backends import service_settings
from tests.calendar_service.integration.test_event_owners import TOKENS, _principals, _range
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_fixtures import CALENDAR_ID, ServiceAccount

pytest_plugins = ["tests.kit.mongo_fixtures"]
LIMIT = 3


async def test_a_products_flood_is_refused_past_its_share_and_others_are_served(
    tmp_path: Path,
    emulator: Emulator,
    service_account: ServiceAccount,
    embedded_mongo: EmbeddedMongo,
) -> None:
    settings = service_settings(
        Backend.GOOGLE,
        emulator,
        service_account,
        database=f"flood_{id(tmp_path) % 100000}",
        max_calls_per_principal=LIMIT,
        freebusy_cache_ttl_seconds=0,
    )
    shared = SharedSettings(
        AGENDA_DATA_DIR=tmp_path,
        AGENDA_PRINCIPALS_FILE=_principals(tmp_path),
        MONGODB_URI=embedded_mongo.uri,
    )
    gate = emulator.faults.hold("freeBusy")
    app = await bootstrap(settings, shared)
    await app.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = pb_grpc.CalendarServiceStub(channel)

            def auth(who: str) -> tuple[tuple[str, str]]:
                return (("authorization", f"Bearer {TOKENS[who]}"),)

            def busy() -> pb.QueryFreeBusyRequest:
                return pb.QueryFreeBusyRequest(calendar_ids=[CALENDAR_ID], range=_range())

            flood = [
                asyncio.ensure_future(stub.QueryFreeBusy(busy(), metadata=auth("x"), timeout=30))
                for _ in range(LIMIT)
            ]
            (admission,) = [
                i.admission
                for i in app.spec.interceptors
                if isinstance(i, AuthorizationInterceptor)
            ]
            assert admission is not None
            while admission.open_calls("x") < LIMIT:  # noqa: ASYNC110 - the service's own count
                await asyncio.sleep(0.01)
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.QueryFreeBusy(busy(), metadata=auth("x"), timeout=30)
            assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
            details = details_of(refused.value)
            assert details.reason == "TOO_MANY_CALLS" and details.retry_delay
            listed = await stub.ListEvents(  # another product: served while x's calls wait
                pb.ListEventsRequest(calendar_id=CALENDAR_ID, range=_range()),
                metadata=auth("y"),
                timeout=30,
            )
            assert list(listed.events) == []
            gate.set()
            assert all(answer.calendars for answer in await asyncio.gather(*flood))
            again = await stub.QueryFreeBusy(busy(), metadata=auth("x"), timeout=30)
            assert again.calendars  # its share is free again
    finally:
        gate.set()
        await app.stop(0)
