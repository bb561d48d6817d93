"""The booking use cases the assistant's tools call, as one bundle (``AgentDeps.booking``).

Each is its own class with ``execute()``: ``FindFreeSlots``, ``BookAppointment`` (the saga,
docs/architecture.md#a-booking-from-the-tool-to-google), ``CancelAppointment``,
``RescheduleAppointment`` and ``GetCustomerAppointment``; ``agent_service.bootstrap.wire_booking``
builds them.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent_service.application.book_appointment import BookAppointment
from agent_service.application.booking_rules import GetCustomerAppointment
from agent_service.application.cancel_appointment import CancelAppointment
from agent_service.application.free_slots import FindFreeSlots
from agent_service.application.reschedule_appointment import RescheduleAppointment


@dataclass(frozen=True, slots=True, kw_only=True)
class Booking:
    """Availability, booking, cancelling and rescheduling for one calendar and clock."""

    free_slots: FindFreeSlots
    book: BookAppointment
    cancel: CancelAppointment
    reschedule: RescheduleAppointment
    customer_appointment: GetCustomerAppointment
