"""The appointments a turn's actions name, for the reply the channel gateway receives."""

from __future__ import annotations

from uuid import UUID

from agent_service.application.ports import AppointmentRepository
from agent_service.domain.appointments import Appointment
from agent_service.domain.conversations import TurnResult


class GetTurnAppointments:
    """Each appointment a turn's actions name, as stored now (the reply shows its state)."""

    def __init__(self, appointments: AppointmentRepository) -> None:
        self._appointments = appointments

    async def execute(self, tenant_id: UUID, result: TurnResult) -> dict[UUID, Appointment]:
        found: dict[UUID, Appointment] = {}
        for action in result.actions:
            if action.appointment_id is not None:
                found[action.appointment_id] = await self._appointments.get(
                    tenant_id, action.appointment_id
                )
        return found
