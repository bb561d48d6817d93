"""``BeanieAppointmentRepository``: appointments, each one document written conditionally.

The agent keeps no slot holds: whether a time is free is the calendar service's
create-if-free (docs/calendar-service.md#conflict-policy), one guarantee for every client
of a calendar. ``reserve`` stores the pending appointment under its unique id (a redelivery
finds it); every status change is one conditional write of that document (the stored status
must be one the new one may replace), atomic without a transaction. The ``slot_holds``
collection earlier versions wrote is no longer read or written (docs/operations.md,
"Migrations").
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from beanie.odm.enums import SortDirection
from beanie.odm.utils.dump import get_dict
from pymongo.errors import PyMongoError

from agent_service.application.ports import AppointmentFilter
from agent_service.domain.appointments import Appointment, AppointmentStatus
from agent_service.domain.errors import ConflictError, NotFoundError
from agent_service.infrastructure.mongo.base import stored_instant
from agent_service.infrastructure.mongo.booking_documents import AppointmentDocument
from agent_service.infrastructure.mongo.clock import DatabaseClock
from agent_service.infrastructure.mongo.errors import guarded
from agent_service.infrastructure.mongo.paging import (
    Cursor,
    check_page_size,
    decode_token,
    encode_token,
)
from agent_service.infrastructure.mongo.transactions import is_duplicate_key

S = AppointmentStatus
PREVIOUS_STATUSES: dict[AppointmentStatus, frozenset[AppointmentStatus]] = {
    S.PENDING: frozenset({S.PENDING}),
    S.CONFIRMED: frozenset({S.PENDING, S.CONFIRMED}),
    S.CANCELLED: frozenset({S.CONFIRMED, S.CANCELLED}),
    S.FAILED: frozenset({S.PENDING, S.FAILED}),
}
"""The stored status a saved status may replace: the domain's transitions, plus itself.
A save from any other status lost a race (e.g. the reconciler failed it): ``ConflictError``."""

_BY_START = [("start", SortDirection.ASCENDING), ("_id", SortDirection.ASCENDING)]


class BeanieAppointmentRepository:
    """Rules: every query filters by tenant (except the reconciler's queries); a status
    change is refused (``ConflictError``) unless the stored status may become the new one.
    ``updated_at`` and ``next_attempt_at`` are in the database's clock."""

    def __init__(self, clock: DatabaseClock) -> None:
        self._clock = clock

    async def _stamped(self, appointment: Appointment) -> Appointment:
        return appointment.model_copy(update={"updated_at": await self._clock.now()})

    @guarded
    async def reserve(self, appointment: Appointment) -> Appointment | None:
        appointment = await self._stamped(appointment)
        try:
            await AppointmentDocument.from_domain(appointment).insert()
        except PyMongoError as error:
            if not is_duplicate_key(error):
                raise
            stored = await AppointmentDocument.find_one(
                {"_id": appointment.id, "tenant_id": appointment.tenant_id}
            )
            if stored is None:  # the id is another tenant's: never shown, never resumed
                raise ConflictError(f"appointment {appointment.id} cannot be stored") from None
            return stored.to_domain()
        return None

    @guarded
    async def save(self, appointment: Appointment) -> Appointment:
        appointment = await self._stamped(appointment)
        document = AppointmentDocument.from_domain(appointment)
        mine = {"_id": appointment.id, "tenant_id": appointment.tenant_id}
        expected = {"status": {"$in": [s.value for s in PREVIOUS_STATUSES[appointment.status]]}}
        result = await _appointments().replace_one(mine | expected, _body(document))
        if result.matched_count == 0:
            if await AppointmentDocument.find_one(mine) is None:
                raise NotFoundError("appointment", appointment.id)
            raise ConflictError(f"appointment {appointment.id} changed concurrently; reload it")
        return document.to_domain()

    @guarded
    async def get(self, tenant_id: UUID, appointment_id: UUID) -> Appointment:
        document = await AppointmentDocument.find_one(
            {"_id": appointment_id, "tenant_id": tenant_id}
        )
        if document is None:
            raise NotFoundError("appointment", appointment_id)
        return document.to_domain()

    @guarded
    async def due_pending(self, grace: timedelta, limit: int) -> list[Appointment]:
        now = await self._clock.now()
        query = {
            "status": AppointmentStatus.PENDING.value,
            "$or": [
                {"next_attempt_at": None, "updated_at": {"$lte": now - grace}},
                {"next_attempt_at": {"$lte": now}},
            ],
        }
        order = [("attempts", SortDirection.ASCENDING), ("updated_at", SortDirection.ASCENDING)]
        documents = await AppointmentDocument.find(query).sort(order).limit(limit).to_list()
        return [document.to_domain() for document in documents]

    @guarded
    async def defer(self, appointment: Appointment, delay: timedelta) -> None:
        now = await self._clock.now()
        await _appointments().update_one(
            _mine(appointment) | {"status": AppointmentStatus.PENDING.value},
            {"$inc": {"attempts": 1}, "$set": {"next_attempt_at": now + delay}},
        )

    @guarded
    async def stale_moves(self, grace: timedelta, limit: int) -> list[Appointment]:
        now = await self._clock.now()
        query = {
            "status": AppointmentStatus.CONFIRMED.value,
            "moving_to": {"$ne": None},
            "updated_at": {"$lte": now - grace},
        }
        documents = await AppointmentDocument.find(query).limit(limit).to_list()
        return [document.to_domain() for document in documents]

    @guarded
    async def with_orphan_events(self, limit: int) -> list[Appointment]:
        query = {"orphan_event_id": {"$ne": None}}
        documents = await AppointmentDocument.find(query).limit(limit).to_list()
        return [document.to_domain() for document in documents]

    @guarded
    async def due_event_checks(self, grace: timedelta, limit: int) -> list[Appointment]:
        now = await self._clock.now()
        query = {"event_check_due": True, "updated_at": {"$lte": now - grace}}
        documents = await AppointmentDocument.find(query).limit(limit).to_list()
        return [document.to_domain() for document in documents]

    @guarded
    async def clear_event_check(self, tenant_id: UUID, appointment_id: UUID) -> None:
        await _appointments().update_one(
            {"_id": appointment_id, "tenant_id": tenant_id}, {"$set": {"event_check_due": False}}
        )

    @guarded
    async def set_orphan_event(
        self, tenant_id: UUID, appointment_id: UUID, event_id: str | None
    ) -> None:
        await _appointments().update_one(
            {"_id": appointment_id, "tenant_id": tenant_id},
            {"$set": {"orphan_event_id": event_id}},
        )

    @guarded
    async def settled_awaiting_notice(self, limit: int) -> list[Appointment]:
        query = {
            "awaiting_notice": True,
            "status": {"$in": [AppointmentStatus.CONFIRMED.value, AppointmentStatus.FAILED.value]},
            "moving_to": None,
        }
        documents = await AppointmentDocument.find(query).limit(limit).to_list()
        return [document.to_domain() for document in documents]

    @guarded
    async def clear_awaiting_notice(self, tenant_id: UUID, appointment_id: UUID) -> None:
        await _appointments().update_one(
            {"_id": appointment_id, "tenant_id": tenant_id},
            {"$set": {"awaiting_notice": False}},
        )

    @guarded
    async def begin_move(self, appointment: Appointment, new_start: datetime) -> Appointment:
        moving = await self._stamped(appointment.model_copy(update={"moving_to": new_start}))
        guard = _mine(appointment) | {
            "status": AppointmentStatus.CONFIRMED.value,
            "start": stored_instant(appointment.start),
            "moving_to": None,
        }
        change = {
            "moving_to": stored_instant(new_start),
            "updated_at": stored_instant(moving.updated_at),
        }
        result = await _appointments().update_one(guard, {"$set": change})
        if result.matched_count == 0:
            raise ConflictError(
                f"appointment {appointment.id} changed meanwhile (another change won)"
            )
        return moving

    @guarded
    async def finish_move(self, appointment: Appointment) -> Appointment:
        assert appointment.moving_to is not None
        moved = await self._stamped(
            appointment.model_copy(
                update={
                    "start": appointment.moving_to,
                    "end": appointment.moving_to + appointment.duration,
                    "moving_to": None,
                    "previous_starts": (*appointment.previous_starts, appointment.start),
                }
            )
        )
        return await self._end_move(appointment, moved)

    @guarded
    async def abort_move(self, appointment: Appointment) -> Appointment:
        return await self._end_move(
            appointment, await self._stamped(appointment.model_copy(update={"moving_to": None}))
        )

    async def _end_move(self, moving: Appointment, result: Appointment) -> Appointment:
        """Store ``result`` if ``moving`` is still the stored move. Already ended (or
        cancelled meanwhile) → the stored one."""
        assert moving.moving_to is not None
        guard = _mine(moving) | {
            "status": AppointmentStatus.CONFIRMED.value,
            "moving_to": stored_instant(moving.moving_to),
            "start": stored_instant(moving.start),
        }
        document = AppointmentDocument.from_domain(result)
        done = await _appointments().replace_one(guard, _body(document))
        if done.matched_count == 0:
            return await self.get(moving.tenant_id, moving.id)
        return document.to_domain()

    @guarded
    async def list(
        self,
        tenant_id: UUID,
        selection: AppointmentFilter,
        *,
        page_size: int,
        page_token: str | None,
    ) -> tuple[list[Appointment], str | None]:
        check_page_size(page_size)
        query = _query(tenant_id, selection)
        if page_token:
            cursor = decode_token(page_token, keyed=True)
            query["$or"] = [
                {"start": {"$gt": cursor.key}},
                {"start": cursor.key, "_id": {"$gt": cursor.id}},
            ]
        documents = (
            await AppointmentDocument.find(query).sort(_BY_START).limit(page_size + 1).to_list()
        )
        found = [document.to_domain() for document in documents[:page_size]]
        if len(documents) <= page_size:
            return found, None
        return found, encode_token(Cursor(found[-1].start, found[-1].id))


def _mine(appointment: Appointment) -> dict[str, Any]:
    return {"_id": appointment.id, "tenant_id": appointment.tenant_id}


def _query(tenant_id: UUID, selection: AppointmentFilter) -> dict[str, Any]:
    query: dict[str, Any] = {"tenant_id": tenant_id}
    if selection.professional_id is not None:
        query["professional_id"] = selection.professional_id
    if selection.customer_id is not None:
        query["customer_id"] = selection.customer_id
    if selection.statuses:
        query["status"] = {"$in": [status.value for status in selection.statuses]}
    start: dict[str, datetime] = {}
    if selection.start_after is not None:
        start["$gte"] = selection.start_after
    if selection.start_before is not None:
        start["$lt"] = selection.start_before
    if start:
        query["start"] = start
    return query


def _body(document: AppointmentDocument) -> dict[str, Any]:
    body: dict[str, Any] = get_dict(document, to_db=True)
    return body


def _appointments() -> Any:
    return AppointmentDocument.get_pymongo_collection()
