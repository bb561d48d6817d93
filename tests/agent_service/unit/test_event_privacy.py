"""Issue 9: the events the agent writes say what was booked with whom, never who booked it;
appointment and tenant ids travel only as opaque private references."""

from __future__ import annotations

from datetime import datetime
from uuid import uuid4

from agent_service.bootstrap import wire_booking
from tests.agent_service.conversation_fixtures import NOW, seed_salon
from tests.fakes.agent_repositories import in_memory_repositories
from tests.fakes.in_memory_calendar import InMemoryCalendar

TUESDAY_10 = datetime.fromisoformat("2026-12-01T10:00:00-03:00")


async def test_an_event_holds_no_customer_data_and_opaque_references_only() -> None:
    repos = in_memory_repositories()
    calendar = InMemoryCalendar(clock=lambda: NOW)
    salon = await seed_salon(repos)
    booking = wire_booking(repos, calendar, lambda: NOW)
    customer_id = uuid4()
    appointment = await booking.book.execute(
        salon.tenant.id, customer_id, salon.ana.id, salon.cut.id, TUESDAY_10
    )
    (event,) = calendar.events.values()
    visible = f"{event.summary} {event.description}"
    for secret in (str(customer_id), str(appointment.id), str(salon.tenant.id)):
        assert secret not in visible
    assert event.private == {
        "agendaTenant": str(salon.tenant.id),
        "agendaAppointment": str(appointment.id),
    }
    assert str(customer_id) not in str(event.private)
