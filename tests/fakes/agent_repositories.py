"""Hand-written in-memory repositories of the agent service, with the Beanie ones' rules.

The same contract tests run on both (``tests/agent_service/integration/test_repositories.py``):
tenant scoping, idempotent ``add``, optimistic conversation versions,
one claim per channel message, keyset page tokens. Stored instants are kept as MongoDB keeps
them (UTC, whole milliseconds), so both return equal entities.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from uuid import UUID

from pydantic import BaseModel

from agent_service.application.bursts import QueuedMessage
from agent_service.application.customers import merge_profile
from agent_service.application.faq_ranking import rank
from agent_service.application.ports import AppointmentFilter, StoredTurn
from agent_service.application.repositories import Repositories
from agent_service.domain.appointments import (
    Appointment,
    AppointmentStatus,
)
from agent_service.domain.catalog import Customer, FaqEntry, Professional, Service, Tenant
from agent_service.domain.conversations import (
    Conversation,
    ConversationStatus,
    TurnFailure,
    TurnResult,
)
from agent_service.domain.errors import (
    ConflictError,
    NotFoundError,
)
from agent_service.domain.outbox import OutboxCursor, OutboxMessage
from agent_service.infrastructure.mongo.appointment_repository import PREVIOUS_STATUSES
from agent_service.infrastructure.mongo.paging import (
    Cursor,
    check_page_size,
    decode_token,
    encode_token,
)
from tests.fakes.lane_repository import InMemoryLanes

M = TypeVar("M", bound=BaseModel)


def _stored_value(value: Any) -> Any:
    if isinstance(value, datetime):
        utc = value.astimezone(UTC)
        return utc.replace(microsecond=utc.microsecond // 1000 * 1000)
    if isinstance(value, dict):
        return {key: _stored_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_stored_value(item) for item in value]
    return value


def as_stored(entity: M) -> M:
    """``entity`` as a database round trip returns it (UTC, millisecond instants)."""
    return type(entity).model_validate(_stored_value(entity.model_dump()))


def _page(items: list[M], page_size: int, key: str | None) -> tuple[list[M], str | None]:
    page = items[:page_size]
    if len(items) <= page_size:
        return page, None
    last = page[-1]
    return page, encode_token(Cursor(None if key is None else getattr(last, key), last.id))  # type: ignore[attr-defined]


def _after(items: list[M], token: str | None, key: str | None) -> list[M]:
    if not token:
        return items
    cursor = decode_token(token, keyed=key is not None)

    def later(item: M) -> bool:
        if key is None or cursor.key is None:
            return bool(item.id > cursor.id)  # type: ignore[attr-defined]
        value = getattr(item, key)
        return bool(value > cursor.key or (value == cursor.key and item.id > cursor.id))  # type: ignore[attr-defined]

    return [item for item in items if later(item)]


class _Scoped:
    """Entities by id, each visible only to its tenant."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.items: dict[UUID, Any] = {}

    def add(self, entity: Any) -> Any:
        stored = self.items.get(entity.id)
        if stored is not None:
            if stored.tenant_id != entity.tenant_id:
                raise ConflictError(f"{self.kind} id {entity.id} cannot be used")
            return stored
        self.items[entity.id] = as_stored(entity)
        return self.items[entity.id]

    def get(self, tenant_id: UUID, entity_id: UUID) -> Any:
        stored = self.items.get(entity_id)
        if stored is None or stored.tenant_id != tenant_id:
            raise NotFoundError(self.kind, entity_id)
        return stored

    def update(self, entity: Any) -> Any:
        """Conditional on ``revision`` for the entities that have one, as in MongoDB."""
        stored = self.get(entity.tenant_id, entity.id)
        if hasattr(entity, "revision"):
            if stored.revision != entity.revision:
                raise ConflictError(f"{self.kind} {entity.id} changed concurrently")
            entity = entity.model_copy(update={"revision": entity.revision + 1})
        self.items[entity.id] = as_stored(entity)
        return self.items[entity.id]

    def delete(self, tenant_id: UUID, entity_id: UUID) -> bool:
        stored = self.items.get(entity_id)
        if stored is None or stored.tenant_id != tenant_id:
            return False
        del self.items[entity_id]
        return True

    def of(self, tenant_id: UUID) -> list[Any]:
        return [item for item in self.items.values() if item.tenant_id == tenant_id]


class InMemoryTenantRepository:
    def __init__(self) -> None:
        self.items: dict[UUID, Tenant] = {}

    async def add(self, tenant: Tenant) -> Tenant:
        return self.items.setdefault(tenant.id, as_stored(tenant))

    async def get(self, tenant_id: UUID, *, fresh: bool = False) -> Tenant:
        if tenant_id not in self.items:
            raise NotFoundError("tenant", tenant_id)
        return self.items[tenant_id]

    async def update(self, tenant: Tenant) -> Tenant:
        stored = await self.get(tenant.id)
        if stored.revision != tenant.revision:
            raise ConflictError(f"tenant {tenant.id} changed concurrently")
        self.items[tenant.id] = as_stored(
            tenant.model_copy(
                update={"created_at": stored.created_at, "revision": tenant.revision + 1}
            )
        )
        return self.items[tenant.id]

    async def list(
        self, *, page_size: int, page_token: str | None
    ) -> tuple[list[Tenant], str | None]:
        check_page_size(page_size)
        ordered = sorted(self.items.values(), key=lambda t: (t.created_at, t.id))
        return _page(_after(ordered, page_token, "created_at"), page_size, "created_at")


class InMemoryServiceRepository:
    def __init__(self) -> None:
        self.store = _Scoped("service")

    async def add(self, service: Service) -> Service:
        result: Service = self.store.add(service)
        return result

    async def get(self, tenant_id: UUID, service_id: UUID, *, fresh: bool = False) -> Service:
        result: Service = self.store.get(tenant_id, service_id)
        return result

    async def update(self, service: Service) -> Service:
        result: Service = self.store.update(service)
        return result

    async def delete(self, tenant_id: UUID, service_id: UUID) -> bool:
        return self.store.delete(tenant_id, service_id)

    async def list(self, tenant_id: UUID) -> list[Service]:
        return sorted(self.store.of(tenant_id), key=lambda s: (s.name, s.id))


class InMemoryProfessionalRepository:
    def __init__(self) -> None:
        self.store = _Scoped("professional")

    async def add(self, professional: Professional) -> Professional:
        result: Professional = self.store.add(professional)
        return result

    async def get(
        self, tenant_id: UUID, professional_id: UUID, *, fresh: bool = False
    ) -> Professional:
        result: Professional = self.store.get(tenant_id, professional_id)
        return result

    async def update(self, professional: Professional) -> Professional:
        result: Professional = self.store.update(professional)
        return result

    async def delete(self, tenant_id: UUID, professional_id: UUID) -> bool:
        return self.store.delete(tenant_id, professional_id)

    async def list(self, tenant_id: UUID, *, service_id: UUID | None = None) -> list[Professional]:
        found = [p for p in self.store.of(tenant_id) if service_id is None or p.offers(service_id)]
        return sorted(found, key=lambda p: (p.name, p.id))


class InMemoryFaqRepository:
    def __init__(self) -> None:
        self.store = _Scoped("faq entry")

    async def add(self, entry: FaqEntry) -> FaqEntry:
        result: FaqEntry = self.store.add(entry)
        return result

    async def get(self, tenant_id: UUID, entry_id: UUID, *, fresh: bool = False) -> FaqEntry:
        result: FaqEntry = self.store.get(tenant_id, entry_id)
        return result

    async def update(self, entry: FaqEntry) -> FaqEntry:
        result: FaqEntry = self.store.update(entry)
        return result

    async def delete(self, tenant_id: UUID, entry_id: UUID) -> bool:
        return self.store.delete(tenant_id, entry_id)

    async def search(self, tenant_id: UUID, query: str, limit: int = 3) -> list[FaqEntry]:
        return rank(query, self.store.of(tenant_id), limit)

    async def list(self, tenant_id: UUID) -> list[FaqEntry]:
        return sorted(self.store.of(tenant_id), key=lambda e: (e.question, e.id))


class InMemoryCustomerRepository:
    def __init__(self) -> None:
        self.store = _Scoped("customer")

    async def upsert(
        self, customer: Customer, *, likely_new: bool = False
    ) -> tuple[Customer, bool]:
        for stored in self.store.of(customer.tenant_id):
            if (stored.channel, stored.external_id) == (customer.channel, customer.external_id):
                return self.store.update(merge_profile(stored, customer)), False
        if customer.id in self.store.items:
            raise ConflictError(f"customer id {customer.id} cannot be used")
        return self.store.add(customer), True

    async def get(self, tenant_id: UUID, customer_id: UUID) -> Customer:
        result: Customer = self.store.get(tenant_id, customer_id)
        return result

    async def update(self, customer: Customer) -> Customer:
        result: Customer = self.store.update(customer)
        return result

    async def list(
        self, tenant_id: UUID, *, page_size: int, page_token: str | None
    ) -> tuple[list[Customer], str | None]:
        check_page_size(page_size)
        ordered = sorted(self.store.of(tenant_id), key=lambda c: c.id)
        return _page(_after(ordered, page_token, None), page_size, None)


StoreClock = Callable[[], datetime]


class TickingClock:
    """The stores' default clock: a fixed instant that moves one millisecond per reading, so
    stamps are ordered and no test depends on today's date or on how long it ran (a test that
    needs time to pass injects its own clock)."""

    def __init__(self, start: datetime = datetime(2026, 11, 30, 12, tzinfo=UTC)) -> None:
        self._next = start

    def __call__(self) -> datetime:
        now, self._next = self._next, self._next + timedelta(milliseconds=1)
        return now


class InMemoryAppointmentRepository:
    """Every method is atomic (no await inside); no slot holds (the calendar decides whether a
    time is free). ``clock`` plays the database's clock: it stamps ``updated_at``."""

    def __init__(self, clock: StoreClock | None = None) -> None:
        self.store = _Scoped("appointment")
        self.clock = clock or TickingClock()

    def _stamped(self, appointment: Appointment) -> Appointment:
        return appointment.model_copy(update={"updated_at": self.clock()})

    async def reserve(self, appointment: Appointment) -> Appointment | None:
        appointment = self._stamped(appointment)
        stored = self.store.items.get(appointment.id)
        if stored is not None and stored.tenant_id == appointment.tenant_id:
            earlier: Appointment = stored
            return earlier
        if stored is not None:
            raise ConflictError(f"appointment {appointment.id} cannot be stored")
        self.store.items[appointment.id] = as_stored(appointment)
        return None

    async def save(self, appointment: Appointment) -> Appointment:
        appointment = self._stamped(appointment)
        stored: Appointment = self.store.get(appointment.tenant_id, appointment.id)
        if stored.status not in PREVIOUS_STATUSES[appointment.status]:
            raise ConflictError(f"appointment {appointment.id} changed concurrently; reload it")
        self.store.items[appointment.id] = as_stored(appointment)
        result: Appointment = self.store.items[appointment.id]
        return result

    async def get(self, tenant_id: UUID, appointment_id: UUID) -> Appointment:
        result: Appointment = self.store.get(tenant_id, appointment_id)
        return result

    def _all(self) -> list[Appointment]:
        return list(self.store.items.values())

    def _update(self, appointment: Appointment, **changes: Any) -> Appointment:
        updated = as_stored(appointment.model_copy(update=changes))
        self.store.items[appointment.id] = updated
        return updated

    async def due_pending(self, grace: timedelta, limit: int) -> list[Appointment]:
        now = self.clock()

        def due(a: Appointment) -> bool:
            if a.next_attempt_at is None:
                return a.updated_at <= now - grace
            return a.next_attempt_at <= now

        found = [a for a in self._all() if a.status is AppointmentStatus.PENDING and due(a)]
        return sorted(found, key=lambda a: (a.attempts, a.updated_at))[:limit]

    async def defer(self, appointment: Appointment, delay: timedelta) -> None:
        stored = self.store.items.get(appointment.id)
        if stored is not None and stored.status is AppointmentStatus.PENDING:
            self._update(stored, attempts=stored.attempts + 1, next_attempt_at=self.clock() + delay)

    async def stale_moves(self, grace: timedelta, limit: int) -> list[Appointment]:
        now = self.clock()
        return [
            a
            for a in self._all()
            if a.status is AppointmentStatus.CONFIRMED
            and a.moving_to is not None
            and a.updated_at <= now - grace
        ][:limit]

    async def with_orphan_events(self, limit: int) -> list[Appointment]:
        return [a for a in self._all() if a.orphan_event_id is not None][:limit]

    async def due_event_checks(self, grace: timedelta, limit: int) -> list[Appointment]:
        now = self.clock()
        return [a for a in self._all() if a.event_check_due and a.updated_at <= now - grace][:limit]

    async def clear_event_check(self, tenant_id: UUID, appointment_id: UUID) -> None:
        self._update(self.store.get(tenant_id, appointment_id), event_check_due=False)

    async def set_orphan_event(
        self, tenant_id: UUID, appointment_id: UUID, event_id: str | None
    ) -> None:
        self._update(self.store.get(tenant_id, appointment_id), orphan_event_id=event_id)

    async def settled_awaiting_notice(self, limit: int) -> list[Appointment]:
        settled = (AppointmentStatus.CONFIRMED, AppointmentStatus.FAILED)
        return [
            a
            for a in self._all()
            if a.awaiting_notice and a.status in settled and a.moving_to is None
        ][:limit]

    async def clear_awaiting_notice(self, tenant_id: UUID, appointment_id: UUID) -> None:
        self._update(self.store.get(tenant_id, appointment_id), awaiting_notice=False)

    async def begin_move(self, appointment: Appointment, new_start: datetime) -> Appointment:
        stored: Appointment = self.store.get(appointment.tenant_id, appointment.id)
        if (
            stored.status is not AppointmentStatus.CONFIRMED
            or stored.start != appointment.start
            or stored.moving_to is not None
        ):
            raise ConflictError(f"appointment {appointment.id} changed meanwhile")
        moving = self._stamped(stored.model_copy(update={"moving_to": new_start}))
        return self._update(moving)

    async def finish_move(self, appointment: Appointment) -> Appointment:
        assert appointment.moving_to is not None
        moved = appointment.model_copy(
            update={
                "start": appointment.moving_to,
                "end": appointment.moving_to + appointment.duration,
                "moving_to": None,
                "previous_starts": (*appointment.previous_starts, appointment.start),
            }
        )
        return self._end_move(appointment, moved)

    async def abort_move(self, appointment: Appointment) -> Appointment:
        return self._end_move(appointment, appointment.model_copy(update={"moving_to": None}))

    def _end_move(self, moving: Appointment, result: Appointment) -> Appointment:
        stored: Appointment = self.store.get(moving.tenant_id, moving.id)
        if (
            stored.status is not AppointmentStatus.CONFIRMED
            or stored.moving_to != moving.moving_to
            or stored.start != moving.start
        ):
            return stored
        return self._update(self._stamped(result))

    async def list(
        self,
        tenant_id: UUID,
        selection: AppointmentFilter,
        *,
        page_size: int,
        page_token: str | None,
    ) -> tuple[list[Appointment], str | None]:
        check_page_size(page_size)
        found = [a for a in self.store.of(tenant_id) if _selected(a, selection)]
        ordered = sorted(found, key=lambda a: (a.start, a.id))
        return _page(_after(ordered, page_token, "start"), page_size, "start")


def _selected(appointment: Appointment, selection: AppointmentFilter) -> bool:
    checks = (
        selection.professional_id in (None, appointment.professional_id),
        selection.customer_id in (None, appointment.customer_id),
        not selection.statuses or appointment.status in selection.statuses,
        selection.start_after is None or appointment.start >= selection.start_after,
        selection.start_before is None or appointment.start < selection.start_before,
    )
    return all(checks)


class InMemoryConversationRepository:
    def __init__(self) -> None:
        self.store = _Scoped("conversation")

    async def add(self, conversation: Conversation) -> Conversation:
        result: Conversation = self.store.add(conversation)
        return result

    async def get(self, tenant_id: UUID, conversation_id: UUID) -> Conversation:
        result: Conversation = self.store.get(tenant_id, conversation_id)
        return result

    async def find_open(
        self, tenant_id: UUID, customer_id: UUID, channel: str
    ) -> Conversation | None:
        candidates = [
            c
            for c in self.store.of(tenant_id)
            if (c.customer_id, c.channel) == (customer_id, channel)
            and c.status is not ConversationStatus.ENDED
        ]
        return max(candidates, key=lambda c: (c.updated_at, c.id), default=None)

    async def save(self, conversation: Conversation) -> Conversation:
        if conversation.version == 0:  # its first save creates it (another tenant's id: conflict)
            self.store.add(conversation)
        stored: Conversation = self.store.get(conversation.tenant_id, conversation.id)
        if stored.version != conversation.version:
            raise ConflictError(f"conversation {conversation.id} was updated concurrently")
        saved = conversation.model_copy(update={"version": conversation.version + 1})
        result: Conversation = self.store.update(saved)
        return result


@dataclass
class _Claim:
    lease_until: datetime | None
    digest: str = ""
    sender: str = ""
    """``customer_ref`` of who claimed it ("" as for a claim of an older replica)."""
    result: TurnResult | None = None
    failure: TurnFailure | None = None
    # the lane (see ``tests.fakes.lane_repository``)
    lane: str = ""
    queued: QueuedMessage | None = None
    arrived: int = 0
    running_until: datetime | None = None
    newcomers: bool = False

    @property
    def open(self) -> bool:
        return self.result is None and self.failure is None


class InMemoryTurnRepository:
    """Claims are leases of ``lease`` in ``clock``'s time, as in MongoDB."""

    def __init__(
        self, clock: StoreClock | None = None, lease: timedelta = timedelta(seconds=60)
    ) -> None:
        self.claims: dict[tuple[UUID, str, str], _Claim] = {}
        self.clock = clock or TickingClock()
        self.lease = lease

    async def claim(
        self, tenant_id: UUID, channel: str, message_id: str, digest: str = "", sender: str = ""
    ) -> bool:
        key = (tenant_id, channel, message_id)
        now = self.clock()
        held = self.claims.get(key)
        if held is not None:
            free = held.failure is not None or held.lease_until is None or held.lease_until < now
            same = not held.digest or held.digest == digest
            if held.result is not None or not free or not same:
                return False
        if held is None:
            self.claims[key] = _Claim(now + self.lease, digest, sender=sender)
        else:  # taken over: the lane fields stay, as in MongoDB
            held.lease_until, held.failure = now + self.lease, None
            held.digest = digest or held.digest
            held.sender = sender or held.sender
        return True

    async def renew(self, tenant_id: UUID, channel: str, message_id: str) -> None:
        held = self.claims.get((tenant_id, channel, message_id))
        if held is not None and held.result is None and held.failure is None:
            held.lease_until = self.clock() + self.lease

    async def complete(
        self, tenant_id: UUID, channel: str, message_id: str, result: TurnResult
    ) -> None:
        held = self.claims.setdefault((tenant_id, channel, message_id), _Claim(None))
        held.result, held.failure = as_stored(result), None

    async def fail(
        self, tenant_id: UUID, channel: str, message_id: str, failure: TurnFailure
    ) -> None:
        held = self.claims.get((tenant_id, channel, message_id))
        if held is not None and held.result is None:
            held.failure, held.lease_until = failure, None

    async def stored(self, tenant_id: UUID, channel: str, message_id: str) -> StoredTurn | None:
        held = self.claims.get((tenant_id, channel, message_id))
        return (
            None
            if held is None
            else StoredTurn(held.result, held.failure, held.digest, held.sender)
        )

    async def result(self, tenant_id: UUID, channel: str, message_id: str) -> TurnResult | None:
        held = self.claims.get((tenant_id, channel, message_id))
        return None if held is None else held.result

    async def release(self, tenant_id: UUID, channel: str, message_id: str) -> None:
        """A completed turn is kept, as in MongoDB."""
        key = (tenant_id, channel, message_id)
        held = self.claims.get(key)
        if held is not None and held.result is None:
            del self.claims[key]


class InMemoryOutboxRepository:
    """As ``BeanieOutboxRepository``, with ``settle`` in ``clock``'s time."""

    def __init__(self, clock: StoreClock | None = None, settle: timedelta = timedelta(0)) -> None:
        self.messages: dict[UUID, OutboxMessage] = {}
        self.clock = clock or TickingClock()
        self.settle = settle

    async def add(self, message: OutboxMessage) -> bool:
        if message.id in self.messages:
            return False
        now = self.clock()
        message = message.model_copy(
            update={"created_at": now, "deliver_at": message.deliver_at or now}
        )
        self.messages[message.id] = as_stored(message)
        return True

    async def due(
        self,
        tenant_id: UUID,
        after: OutboxCursor | None,
        limit: int,
        *,
        channels: frozenset[str] | None = None,
    ) -> list[OutboxMessage]:
        horizon = self.clock() - self.settle
        found = sorted(
            (
                m
                for m in self.messages.values()
                if m.tenant_id == tenant_id
                and m.acked_at is None
                and m.due_at <= horizon
                and (channels is None or m.channel in channels)
            ),
            key=lambda m: (m.due_at, m.id),
        )
        if after is not None:
            found = [m for m in found if (m.due_at, m.id) > (after.deliver_at, after.message_id)]
        return found[:limit]

    async def ack(
        self, tenant_id: UUID, message_ids: list[UUID], *, channels: frozenset[str] | None = None
    ) -> int:
        acked = 0
        for message_id in message_ids:
            message = self.messages.get(message_id)
            if (
                message is not None
                and message.tenant_id == tenant_id
                and message.acked_at is None
                and (channels is None or message.channel in channels)
            ):
                self.messages[message_id] = as_stored(
                    message.model_copy(update={"acked_at": self.clock()})
                )
                acked += 1
        return acked


def in_memory_repositories(clock: StoreClock | None = None) -> Repositories:
    """Fresh, empty in-memory repositories; ``clock`` plays the database's clock (one
    ``TickingClock`` for them all by default)."""
    clock = clock or TickingClock()
    turns = InMemoryTurnRepository(clock)
    return Repositories(
        tenants=InMemoryTenantRepository(),
        services=InMemoryServiceRepository(),
        professionals=InMemoryProfessionalRepository(),
        faq=InMemoryFaqRepository(),
        customers=InMemoryCustomerRepository(),
        appointments=InMemoryAppointmentRepository(clock),
        conversations=InMemoryConversationRepository(),
        turns=turns,
        outbox=InMemoryOutboxRepository(clock),
        lanes=InMemoryLanes(turns),
    )
