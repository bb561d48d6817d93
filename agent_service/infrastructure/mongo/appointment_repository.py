# Over 300 lines: the one adapter of the AppointmentRepository port; its transactions share helpers.
"""``BeanieAppointmentRepository``: appointments and their slot holds, in one transaction.

Why a transaction (not compensating deletes): SecantusDB and MongoDB replica sets support
multi-document transactions, so an appointment and its holds are stored together or not at
all — no crash window can leave a pending appointment with half its holds. A refused hold
(unique index) aborts the transaction; the appointment is then stored as ``failed`` so that
its id answers ``get`` and a retried ``reserve`` is refused the same way. A save that keeps
the appointment active (pending → confirmed) leaves its holds as they are: it is one
conditional write of one document, atomic without a transaction; a save that ends it (failed,
cancelled) changes the status and releases the holds in one transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from beanie.odm.enums import SortDirection
from beanie.odm.utils.dump import get_dict
from pymongo.asynchronous.client_session import AsyncClientSession
from pymongo.errors import PyMongoError

from agent_service.application.ports import AppointmentFilter
from agent_service.domain.appointments import (
    Appointment,
    AppointmentStatus,
    held_units,
    hold_units,
)
from agent_service.domain.errors import ConflictError, NotFoundError, SlotUnavailableError
from agent_service.infrastructure.mongo.base import stored_instant
from agent_service.infrastructure.mongo.booking_documents import (
    AppointmentDocument,
    SlotHoldDocument,
)
from agent_service.infrastructure.mongo.clock import DatabaseClock
from agent_service.infrastructure.mongo.errors import guarded
from agent_service.infrastructure.mongo.paging import (
    Cursor,
    check_page_size,
    decode_token,
    encode_token,
)
from agent_service.infrastructure.mongo.transactions import (
    TransactionGaveUpError,
    in_transaction,
    is_duplicate_key,
)

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
    """Rules: every query filters by tenant (except the reconciler's queries); an active
    appointment holds one document per 5-minute unit, unique per CALENDAR (across professionals
    and tenants sharing it), so overlapping bookings are impossible; holds go when it stops
    being active. ``updated_at`` and ``next_attempt_at`` are in the database's clock."""

    def __init__(self, clock: DatabaseClock) -> None:
        self._clock = clock

    async def _stamped(self, appointment: Appointment) -> Appointment:
        return appointment.model_copy(update={"updated_at": await self._clock.now()})

    @guarded
    async def reserve(self, appointment: Appointment) -> Appointment | None:
        appointment = await self._stamped(appointment)
        document = AppointmentDocument.from_domain(appointment)
        holds = [
            SlotHoldDocument.for_unit(appointment, unit)
            for unit in hold_units(appointment.start, appointment.end)
        ]

        async def insert_all(session: AsyncClientSession) -> None:
            await document.insert(session=session)
            await SlotHoldDocument.insert_many(holds, session=session, ordered=True)

        try:
            await in_transaction(_client(), insert_all)
        except (PyMongoError, TransactionGaveUpError) as error:
            if isinstance(error, PyMongoError) and not is_duplicate_key(error):
                raise
            return await self._refuse(appointment)
        return None

    async def _refuse(self, appointment: Appointment) -> Appointment:
        """The id is already stored (returned as stored), or the slot is taken."""
        stored = await AppointmentDocument.find_one(
            {"_id": appointment.id, "tenant_id": appointment.tenant_id}
        )
        if stored is not None:
            return stored.to_domain()
        failed = appointment.model_copy(update={"status": AppointmentStatus.FAILED})
        await _insert_ignoring_duplicate(AppointmentDocument.from_domain(failed))
        raise SlotUnavailableError(
            f"{appointment.start.isoformat()} is no longer free for this professional"
        )

    @guarded
    async def save(self, appointment: Appointment) -> Appointment:
        appointment = await self._stamped(appointment)
        document = AppointmentDocument.from_domain(appointment)
        body = _body(document)
        mine = {"_id": appointment.id, "tenant_id": appointment.tenant_id}
        expected = {"status": {"$in": [s.value for s in PREVIOUS_STATUSES[appointment.status]]}}

        async def replace(session: AsyncClientSession | None) -> None:
            result = await _appointments().replace_one(mine | expected, body, session=session)
            if result.matched_count == 0:
                raise _NoMatchError
            if not appointment.is_active:
                await _holds().delete_many({"appointment_id": appointment.id}, session=session)

        try:
            if appointment.is_active:  # one document's conditional write: atomic by itself
                await replace(None)
            else:  # the status and the released holds change together
                await in_transaction(_client(), replace)
        except _NoMatchError:
            if await AppointmentDocument.find_one(mine) is None:
                raise NotFoundError("appointment", appointment.id) from None
            raise ConflictError(
                f"appointment {appointment.id} changed concurrently; reload it"
            ) from None
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
        own = set(hold_units(appointment.start, appointment.end))
        new_units = [u for u in held_units(moving) if u not in own]
        holds = [SlotHoldDocument.for_unit(moving, unit) for unit in new_units]
        guard = _mine(appointment) | {
            "status": AppointmentStatus.CONFIRMED.value,
            "start": stored_instant(appointment.start),
            "moving_to": None,
        }
        change = {
            "moving_to": stored_instant(new_start),
            "updated_at": stored_instant(moving.updated_at),
        }

        async def hold(session: AsyncClientSession) -> None:
            result = await _appointments().update_one(guard, {"$set": change}, session=session)
            if result.matched_count == 0:
                raise _NoMatchError
            if holds:
                await SlotHoldDocument.insert_many(holds, session=session, ordered=True)

        try:
            await in_transaction(_client(), hold)
        except (_NoMatchError, TransactionGaveUpError):
            raise ConflictError(
                f"appointment {appointment.id} changed meanwhile (another change won)"
            ) from None
        except PyMongoError as error:
            if not is_duplicate_key(error):
                raise
            raise SlotUnavailableError(f"{new_start.isoformat()} is not free") from None
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
        """Store ``result`` if ``moving`` is still the stored move; release the holds
        ``result`` does not need. Already ended (or cancelled meanwhile) → the stored one."""
        assert moving.moving_to is not None
        guard = _mine(moving) | {
            "status": AppointmentStatus.CONFIRMED.value,
            "moving_to": stored_instant(moving.moving_to),
            "start": stored_instant(moving.start),
        }
        document = AppointmentDocument.from_domain(result)
        keep = [stored_instant(u) for u in held_units(result)]

        async def replace(session: AsyncClientSession) -> None:
            done = await _appointments().replace_one(guard, _body(document), session=session)
            if done.matched_count == 0:
                raise _NoMatchError
            await _holds().delete_many(
                {"appointment_id": moving.id, "unit_start": {"$nin": keep}}, session=session
            )

        try:
            await in_transaction(_client(), replace)
        except _NoMatchError:
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


class _NoMatchError(Exception):
    """No stored appointment in an expected status (decided outside the transaction)."""


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


async def _insert_ignoring_duplicate(document: AppointmentDocument) -> None:
    try:
        await document.insert()
    except PyMongoError as error:
        if not is_duplicate_key(error):
            raise


def _body(document: AppointmentDocument) -> dict[str, Any]:
    body: dict[str, Any] = get_dict(document, to_db=True)
    return body


def _appointments() -> Any:
    return AppointmentDocument.get_pymongo_collection()


def _holds() -> Any:
    return SlotHoldDocument.get_pymongo_collection()


def _client() -> Any:
    return AppointmentDocument.get_pymongo_collection().database.client
