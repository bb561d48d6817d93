"""The length bound of every string and list of the agent's contracts (AgentService and
CatalogService requests), checked at the edge before anything else reads a request.

Fields not listed have the kit's defaults (``agenda_kit.grpc.bounds``: 256 characters,
100 items) — ids, names of languages and zones, idempotency keys, page tokens fit in them.
The bounds here are the domain's own limits where it has them, so the edge never refuses what
the domain would accept and never lets through what it would have to parse first.
"""

from __future__ import annotations

from agenda_kit.grpc.bounds import RequestBounds
from agent_service.application.outbox import MAX_ACK
from agent_service.domain.catalog import MAX_ALIAS_CHARS, MAX_ALIASES
from agent_service.domain.conversations import MAX_MESSAGE_CHARS

_A = "agenda.agent.v1."
NOTE_CHARS = 2000
"""A hand-off reason or hand-back note (``application/handoff.py``)."""
WEEK_ROWS = 7 * 8
"""Working-hour rows of a week: at most eight intervals a day."""

AGENT_BOUNDS = RequestBounds(
    strings={
        f"{_A}SendMessageRequest.text": MAX_MESSAGE_CHARS,
        f"{_A}CustomerIdentity.channel": 32,
        f"{_A}CustomerIdentity.display_name": 200,
        f"{_A}HandOffRequest.reason": NOTE_CHARS,
        f"{_A}HandBackRequest.note": NOTE_CHARS,
        f"{_A}StreamOutboxRequest.cursor": 512,
        f"{_A}ListTenantsRequest.page_token": 512,
        f"{_A}ListCustomersRequest.page_token": 512,
        f"{_A}ListAppointmentsRequest.page_token": 512,
        f"{_A}ListServicesRequest.page_token": 512,
        f"{_A}ListProfessionalsRequest.page_token": 512,
        f"{_A}ListFaqEntriesRequest.page_token": 512,
        f"{_A}Tenant.name": 200,
        f"{_A}Tenant.time_zone": 64,
        f"{_A}Tenant.locale": 35,
        f"{_A}Service.name": 200,
        f"{_A}Service.description": 2000,
        f"{_A}Service.currency": 3,
        f"{_A}Service.aliases": MAX_ALIAS_CHARS,
        f"{_A}LocalizedAliases.language": 12,
        f"{_A}LocalizedAliases.aliases": MAX_ALIAS_CHARS,
        f"{_A}Professional.name": 200,
        f"{_A}Professional.specialty": 200,
        f"{_A}Professional.calendar_id": 1024,
        f"{_A}Professional.aliases": MAX_ALIAS_CHARS,
        f"{_A}WorkingHours.start_time": 5,
        f"{_A}WorkingHours.end_time": 5,
        f"{_A}DateException.date": 10,
        f"{_A}DateException.reason": 200,
        f"{_A}FaqEntry.question": 500,
        f"{_A}FaqEntry.answer": 4000,
        f"{_A}FaqEntry.tags": 100,
        f"{_A}LocalizedFaq.language": 12,
        f"{_A}LocalizedFaq.question": 500,
        f"{_A}LocalizedFaq.answer": 4000,
        f"{_A}Customer.name": 200,
        f"{_A}Customer.phone": 64,
        f"{_A}Customer.email": 320,
        f"{_A}Customer.preferences": 500,
        f"{_A}CancelAppointmentRequest.reason": NOTE_CHARS,
    },
    lists={
        f"{_A}AckOutboxRequest.message_ids": MAX_ACK,
        f"{_A}Service.aliases": MAX_ALIASES,
        f"{_A}Service.localized_aliases": 20,
        f"{_A}LocalizedAliases.aliases": MAX_ALIASES,
        f"{_A}Professional.aliases": MAX_ALIASES,
        f"{_A}Professional.localized_aliases": 20,
        f"{_A}Professional.weekly_hours": WEEK_ROWS,
        f"{_A}Professional.exceptions": 366,
        f"{_A}DateException.hours": 8,
        f"{_A}Professional.service_ids": 500,
        f"{_A}FaqEntry.tags": 20,
        f"{_A}FaqEntry.localized": 20,
        f"{_A}Customer.preferences": 50,
        f"{_A}ListAppointmentsRequest.statuses": 10,
    },
)
