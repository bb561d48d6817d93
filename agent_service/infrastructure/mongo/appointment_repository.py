"""``BeanieAppointmentRepository``: appointments and their slot holds, in one transaction.

Why a transaction (not compensating deletes): SecantusDB and MongoDB replica sets support
multi-document transactions, so an appointment and its holds are stored together or not at
all — no crash window can leave a pending appointment with half its holds. A refused hold
(unique index) aborts the transaction; the appointment is then stored as ``failed`` so that
its id answers ``get`` and a retried ``reserve`` is refused the same way.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from beanie.odm.enums import SortDirection
from beanie.odm.utils.dump import get_dict
from pymongo.asynchronous.client_session import AsyncClientSession
from pymongo.errors import PyMongoError

from agent_service.application.ports import AppointmentFilter
from agent_service.domain.appointments import Appointment, AppointmentStatus, hold_units
from agent_service.domain.errors import ConflictError, NotFoundError, SlotUnavailableError
from agent_service.infrastructure.mongo.booking_documents import (
    AppointmentDocument,
    SlotHoldDocument,
)
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
    """Rules: every query filters by tenant (except the reconciler's ``stale_pending``); an
    active appointment holds one document per 5-minute unit, unique per professional, so
    overlapping bookings are impossible; holds go when it stops being active."""

    @guarded
    async def reserve(self, appointment: Appointment) -> None:
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
            await self._refuse(appointment)

    async def _refuse(self, appointment: Appointment) -> None:
        """The id is already reserved (an idempotent retry: fine), or the slot is taken."""
        stored = await AppointmentDocument.find_one(
            {"_id": appointment.id, "tenant_id": appointment.tenant_id}
        )
        if stored is not None and stored.to_domain().is_active:
            return
        if stored is None:
            failed = appointment.model_copy(update={"status": AppointmentStatus.FAILED})
            await _insert_ignoring_duplicate(AppointmentDocument.from_domain(failed))
        raise SlotUnavailableError(
            f"{appointment.start.isoformat()} is no longer free for this professional"
        )

    @guarded
    async def save(self, appointment: Appointment) -> Appointment:
        document = AppointmentDocument.from_domain(appointment)
        body = _body(document)
        mine = {"_id": appointment.id, "tenant_id": appointment.tenant_id}
        expected = {"status": {"$in": [s.value for s in PREVIOUS_STATUSES[appointment.status]]}}

        async def replace(session: AsyncClientSession) -> None:
            result = await _appointments().replace_one(mine | expected, body, session=session)
            if result.matched_count == 0:
                raise _NoMatchError
            if not appointment.is_active:
                await _holds().delete_many({"appointment_id": appointment.id}, session=session)

        try:
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
    async def stale_pending(self, older_than: datetime, limit: int) -> list[Appointment]:
        documents = (
            await AppointmentDocument.find(
                {"status": AppointmentStatus.PENDING.value, "updated_at": {"$lt": older_than}}
            )
            .sort([("updated_at", SortDirection.ASCENDING)])
            .limit(limit)
            .to_list()
        )
        return [document.to_domain() for document in documents]

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
