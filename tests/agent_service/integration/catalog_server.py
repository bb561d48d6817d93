"""A real CatalogService gRPC server on port 0, over any repositories, with a fake canceller."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from uuid import UUID

import grpc

from agenda.agent.v1 import catalog_service_pb2_grpc as pb_grpc
from agenda_kit.auth.setup import token_directory
from agenda_kit.grpc.auth import AuthorizationInterceptor
from agenda_kit.grpc.context import RequestContextInterceptor
from agenda_kit.grpc.server import ServerSpec, create_server
from agent_service.application.repositories import Repositories
from agent_service.bootstrap import ENV_PRINCIPAL, catalog_registration
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.infrastructure.grpc.errors import AGENT_ERRORS
from agent_service.infrastructure.grpc.policy import CATALOG_POLICY

TOKEN = "test-token-agent"
AUTH = (("authorization", f"Bearer {TOKEN}"),)


class RepositoryCanceller:
    """Cancels through the repository only (the real one also cancels the calendar event)."""

    def __init__(self, repos: Repositories) -> None:
        self._repos = repos

    async def execute(
        self, tenant_id: UUID, appointment_id: UUID, *, reason: str, enforce_window: bool
    ) -> tuple[Appointment, bool]:
        appointment = await self._repos.appointments.get(tenant_id, appointment_id)
        if appointment.status is AppointmentStatus.CANCELLED:
            return appointment, False
        cancelled = appointment.moved_to(AppointmentStatus.CANCELLED, cancel_reason=reason)
        return await self._repos.appointments.save(cancelled), True


@asynccontextmanager
async def catalog_stub(repos: Repositories) -> AsyncIterator[pb_grpc.CatalogServiceAsyncStub]:
    """A started server and a stub talking to it; stopped on exit."""
    spec = ServerSpec(
        services=[catalog_registration(repos, RepositoryCanceller(repos))],
        interceptors=[
            RequestContextInterceptor(AGENT_ERRORS),
            AuthorizationInterceptor(token_directory(ENV_PRINCIPAL, [TOKEN]), [CATALOG_POLICY]),
        ],
    )
    server, port = create_server("127.0.0.1:0", spec)
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield pb_grpc.CatalogServiceStub(channel)
    finally:
        await server.stop(0)
