"""Issue 9, per calendar on the agent side: a back office assigns its professionals only the
calendars its principal is granted, so tenant A cannot point a professional at tenant B's
calendar (to read B's busy time or book into it); B is unchanged."""

from __future__ import annotations

import grpc

from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from tests.security.principals import Principals
from tests.security.stack import SecurityStack

pytest_plugins = ["tests.security.matrix_setup"]


async def test_a_back_office_assigns_only_granted_calendars(
    matrix_stack: tuple[SecurityStack, Principals],
) -> None:
    stack, principals = matrix_stack
    a, b = stack.tenants["A"], stack.tenants["B"]
    office = principals.metadata("backoffice-a")
    before = await stack.snapshot(b)
    current = (
        await stack.catalog.ListProfessionals(
            catalog_pb.ListProfessionalsRequest(tenant_id=a.id), metadata=office
        )
    ).professionals[0]

    async def update(calendar_id: str) -> grpc.StatusCode:
        professional = catalog_pb.Professional()
        professional.CopyFrom(current)
        professional.calendar_id = calendar_id
        try:
            await stack.catalog.UpdateProfessional(
                catalog_pb.UpdateProfessionalRequest(professional=professional), metadata=office
            )
        except grpc.aio.AioRpcError as error:
            return error.code()
        return grpc.StatusCode.OK

    async def create(calendar_id: str) -> grpc.StatusCode:
        request = catalog_pb.CreateProfessionalRequest(
            professional=catalog_pb.Professional(
                tenant_id=a.id, name="Nova", calendar_id=calendar_id
            )
        )
        try:
            await stack.catalog.CreateProfessional(request, metadata=office)
        except grpc.aio.AioRpcError as error:
            return error.code()
        return grpc.StatusCode.OK

    denied = grpc.StatusCode.PERMISSION_DENIED
    assert [await update(c) for c in b.calendars] == [denied] * len(b.calendars)
    assert await create(b.calendars[0]) == denied
    assert await update(a.calendars[1]) == grpc.StatusCode.OK
    assert await create("sec-new-1") == grpc.StatusCode.OK
    assert await stack.snapshot(b) == before
