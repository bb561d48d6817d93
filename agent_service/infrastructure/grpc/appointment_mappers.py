"""Appointment messages ↔ domain: the status codes, the ListAppointments filter, the record."""

from __future__ import annotations

from agenda.agent.v1 import catalog_service_pb2 as pb
from agenda.agent.v1 import types_pb2 as types
from agent_service.application.ports import AppointmentFilter
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.errors import InvalidInputError
from agent_service.infrastructure.grpc.catalog_fields import optional_uuid, timestamp, to_datetime

STATUS_TO_PROTO = {
    AppointmentStatus.PENDING: types.APPOINTMENT_STATUS_PENDING,
    AppointmentStatus.CONFIRMED: types.APPOINTMENT_STATUS_CONFIRMED,
    AppointmentStatus.CANCELLED: types.APPOINTMENT_STATUS_CANCELLED,
    AppointmentStatus.FAILED: types.APPOINTMENT_STATUS_FAILED,
}
STATUS_FROM_PROTO = {code: status for status, code in STATUS_TO_PROTO.items()}


def to_appointment_filter(request: pb.ListAppointmentsRequest) -> AppointmentFilter:
    statuses = []
    for index, code in enumerate(request.statuses):
        if code not in STATUS_FROM_PROTO:
            raise InvalidInputError(f"statuses[{index}]", f"unknown appointment status {code}")
        statuses.append(STATUS_FROM_PROTO[code])
    return AppointmentFilter(
        professional_id=optional_uuid("professional_id", request.professional_id),
        customer_id=optional_uuid("customer_id", request.customer_id),
        statuses=tuple(statuses),
        start_after=to_datetime("start_after", request.start_after)
        if request.HasField("start_after")
        else None,
        start_before=to_datetime("start_before", request.start_before)
        if request.HasField("start_before")
        else None,
    )


def appointment_message(appointment: Appointment) -> types.Appointment:
    return types.Appointment(
        id=str(appointment.id),
        tenant_id=str(appointment.tenant_id),
        customer_id=str(appointment.customer_id),
        professional_id=str(appointment.professional_id),
        service_id=str(appointment.service_id),
        start=timestamp(appointment.start),
        end=timestamp(appointment.end),
        status=STATUS_TO_PROTO[appointment.status],
        external_event_id=appointment.external_event_id or "",
        calendar_id=appointment.calendar_id,
        service_name=appointment.service_name,
        professional_name=appointment.professional_name,
        created_at=timestamp(appointment.created_at),
    )
