"""Telling the customer an outcome settled after their turn: one outbox message per outcome.

A booking left pending told the customer "I'm confirming with the calendar; I'll message you
here in a moment" (``awaiting_notice``). Once it is confirmed or failed, ``notify`` writes the
outcome to the outbox under an id derived from (outcome, appointment), then clears the flag:
a crash between the two writes the same message again, which the outbox ignores — exactly one
message per outcome.
"""

from __future__ import annotations

from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.catalog import Tenant
from agent_service.domain.outbox import OutboxKind, OutboxMessage, message_id

_TEXT: dict[OutboxKind, dict[str, str]] = {
    OutboxKind.BOOKING_CONFIRMED: {
        "pt": "Confirmado com a agenda: {what}. Até lá!",
        "en": "Confirmed with the calendar: {what}. See you then!",
    },
    OutboxKind.BOOKING_FAILED: {
        "pt": (
            "Não consegui confirmar {what} com a agenda, então o horário não foi reservado. "
            "Quer escolher outro horário?"
        ),
        "en": (
            "I could not confirm {what} with the calendar, so that time was not booked. "
            "Would you like to choose another time?"
        ),
    },
    OutboxKind.RESCHEDULE_CONFIRMED: {
        "pt": "Remarcação confirmada com a agenda: {what}.",
        "en": "Your new time is confirmed with the calendar: {what}.",
    },
    OutboxKind.RESCHEDULE_FAILED: {
        "pt": "Não consegui remarcar; seu horário continua: {what}.",
        "en": "I could not move it; your appointment stays at: {what}.",
    },
}
_WHEN = {"pt": "%d/%m/%Y %H:%M", "en": "%Y-%m-%d %H:%M"}


class SettledNotices:
    def __init__(self, repos: Repositories) -> None:
        self._repos = repos

    async def notify(self, appointment: Appointment, kind: OutboxKind | None = None) -> bool:
        """Write the settled outcome's message (a booking's, unless ``kind`` says otherwise);
        True when it is new."""
        tenant = await self._repos.tenants.get(appointment.tenant_id)
        customer = await self._repos.customers.get(appointment.tenant_id, appointment.customer_id)
        conversation = await self._repos.conversations.find_open(
            appointment.tenant_id, customer.id, customer.channel
        )
        kind = kind or _kind(appointment)
        added = await self._repos.outbox.add(
            OutboxMessage(
                id=message_id(kind, appointment.id, appointment.start.isoformat()),
                tenant_id=appointment.tenant_id,
                kind=kind,
                customer_id=customer.id,
                channel=customer.channel,
                external_id=customer.external_id,
                text=outcome_text(kind, appointment, tenant),
                appointment_id=appointment.id,
                conversation_id=None if conversation is None else conversation.id,
                attributes={"status": appointment.status.value},
            )
        )
        await self._repos.appointments.clear_awaiting_notice(appointment.tenant_id, appointment.id)
        return added


def _kind(appointment: Appointment) -> OutboxKind:
    if appointment.status is AppointmentStatus.CONFIRMED:
        return OutboxKind.BOOKING_CONFIRMED
    return OutboxKind.BOOKING_FAILED


def outcome_text(kind: OutboxKind, appointment: Appointment, tenant: Tenant) -> str:
    language = tenant.language
    when = appointment.start.astimezone(tenant.zone).strftime(_WHEN[language])
    joiner = " com " if language == "pt" else " with "
    what = f"{appointment.service_name}{joiner}{appointment.professional_name}, {when}"
    return _TEXT[kind][language].format(what=what)
