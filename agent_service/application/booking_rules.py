"""What every booking use case checks: the tenant's policy, the caller's deadline, which
professional offers which service, and that a saga once started runs to its end."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4, uuid5

import structlog

from agenda_kit import deadline
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import Appointment
from agent_service.domain.availability import bookable_range
from agent_service.domain.catalog import Professional, Service, Tenant
from agent_service.domain.errors import (
    DeadlineExceededError,
    InvalidInputError,
    NotFoundError,
    PolicyViolationError,
)

log = structlog.get_logger("agenda.booking")
Clock = Callable[[], datetime]
_REQUEST_NAMESPACE = UUID("0f5b8a3e-7c61-4a0e-b1d2-5e9c4f7a2d30")


def utc_now() -> datetime:
    return datetime.now(UTC)


def appointment_id_for(
    tenant_id: UUID,
    customer_id: UUID,
    professional_id: UUID,
    service_id: UUID,
    start: datetime,
    request_key: str | None,
) -> UUID:
    """A new random id; with ``request_key`` (the channel message that asked), the same id
    for every delivery of that request."""
    if request_key is None:
        return uuid4()
    name = f"{tenant_id}:{customer_id}:{request_key}:{professional_id}:{service_id}:"
    return uuid5(_REQUEST_NAMESPACE, name + start.astimezone(UTC).isoformat())


async def load_offer(
    repos: Repositories, tenant_id: UUID, professional_id: UUID, service_id: UUID
) -> tuple[Tenant, Professional, Service]:
    """The tenant, professional and service of a booking; the professional must offer it."""
    tenant = await repos.tenants.get(tenant_id)
    professional = await repos.professionals.get(tenant_id, professional_id)
    service = await repos.services.get(tenant_id, service_id)
    if not professional.offers(service.id):
        raise InvalidInputError("service_id", f"{professional.name} does not offer {service.name}")
    return tenant, professional, service


def check_start(tenant: Tenant, start: datetime, now: datetime) -> None:
    """``start`` is zoned and within the tenant's notice and horizon."""
    if start.tzinfo is None:
        raise InvalidInputError("start_time", "must include a time zone offset")
    earliest, latest = bookable_range(tenant.policy, now)
    if start < earliest:
        raise PolicyViolationError(
            f"bookings need {tenant.policy.minimum_notice_minutes} minutes of notice"
        )
    if start > latest:
        raise PolicyViolationError(
            f"bookings open at most {tenant.policy.booking_horizon_days} days ahead"
        )


def check_window(tenant: Tenant, appointment: Appointment, now: datetime) -> None:
    """Customers change an appointment only before the tenant's cancellation window."""
    window = timedelta(minutes=tenant.policy.cancellation_window_minutes)
    if appointment.start - now < window:
        raise PolicyViolationError(
            "changes must be made at least "
            f"{tenant.policy.cancellation_window_minutes} minutes before the appointment"
        )


def check_deadline(step: str) -> None:
    """Refuse to start ``step`` once the caller's deadline has passed."""
    if deadline.expired():
        raise DeadlineExceededError(f"the request's deadline passed before {step}; not booked")


class GetCustomerAppointment:
    """An appointment of this customer; anybody else's is not found."""

    def __init__(self, repos: Repositories) -> None:
        self._repos = repos

    async def execute(
        self, tenant_id: UUID, customer_id: UUID, appointment_id: UUID
    ) -> Appointment:
        appointment = await self._repos.appointments.get(tenant_id, appointment_id)
        if appointment.customer_id != customer_id:
            raise NotFoundError("appointment", appointment_id)
        return appointment


async def shielded(work: Coroutine[object, object, Appointment]) -> Appointment:
    """Run ``work`` to its end even if the caller is cancelled (its deadline passed, the
    client went away): a saga half done is worse than one finished late. The caller still
    sees its cancellation; the outcome is stored, and logged if it is an error."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.add_done_callback(_log_orphaned_outcome)
        raise


def _log_orphaned_outcome(task: asyncio.Future[Appointment]) -> None:
    if task.cancelled():
        log.warning("saga_cancelled_at_shutdown")
    elif task.exception() is not None:
        log.info("saga_finished_after_caller_left", outcome=type(task.exception()).__name__)
    else:
        log.info("saga_finished_after_caller_left", outcome="confirmed")
