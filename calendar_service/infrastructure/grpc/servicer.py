"""``agenda.calendar.v1.CalendarService``: proto → use case → proto, nothing more."""

from __future__ import annotations

import math
from dataclasses import dataclass

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.auth.context import current_principal
from agenda_kit.calendar import event_messages as messages
from agenda_kit.calendar.grpc_mappers import calendar_busy
from agenda_kit.grpc.handlers import Context
from agenda_kit.resilience import TtlCache
from calendar_service.application import event_writes, use_cases
from calendar_service.application.slot_versions import SlotsVersion
from calendar_service.domain.slots import SlotResult
from calendar_service.domain.validation import InvalidRequestError
from calendar_service.infrastructure.grpc import mappers
from calendar_service.infrastructure.grpc.update_mappers import to_event_update

REPLY_ENTRIES = 256
"""Finished GetFreeSlots replies kept (least recently used go first; at most 500 slots, a
few tens of KiB, each); each is reused only while the free/busy answer it was built from is
the cached one (``CachingCalendarAdapter.is_current``)."""


@dataclass(frozen=True, slots=True)
class KeptReply:
    """A finished GetFreeSlots reply, its mapped request, and the answer it was built from
    (``result``: a later equal answer to the same request has the very same reply)."""

    version: SlotsVersion
    reply: pb.GetFreeSlotsResponse
    query: use_cases.FreeSlotsQuery
    result: SlotResult


@dataclass(frozen=True, slots=True)
class CalendarUseCases:
    """Every use case the servicer needs, wired by ``bootstrap``."""

    get_free_slots: use_cases.GetFreeSlots
    query_free_busy: use_cases.QueryFreeBusy
    create_event: event_writes.CreateEvent
    get_event: use_cases.GetEvent
    cancel_event: event_writes.CancelEvent
    list_events: use_cases.ListEvents
    move_event: event_writes.MoveEvent
    update_event: event_writes.UpdateEvent


class CalendarServicer(pb_grpc.CalendarServiceServicer):
    """Thin servicer; errors are mapped to status codes by the error-table interceptor."""

    def __init__(self, cases: CalendarUseCases, *, max_replies: int = REPLY_ENTRIES) -> None:
        self._cases = cases
        self._replies: TtlCache[bytes, KeptReply] = TtlCache(math.inf, max_entries=max_replies)

    async def GetFreeSlots(
        self, request: pb.GetFreeSlotsRequest, context: Context
    ) -> pb.GetFreeSlotsResponse:
        """A request seen before (same bytes, so already validated and mapped) gets the reply
        built then while the use case says its answer is current, or when the answer it
        computes is the very one that reply was built from (identical requests that shared
        one free/busy read) or an equal one (the same slots); a fresh read never gets a kept
        reply."""
        cases = self._cases.get_free_slots
        key = b"" if request.read_mode == pb.READ_MODE_FRESH else request.SerializeToString()
        kept = self._replies.get(key) if key else None
        if kept is not None and cases.is_current(kept.version):
            return kept.reply
        query = kept.query if kept is not None else mappers.to_free_slots_query(request)
        result, version = await cases.execute_versioned(query)
        latest = self._replies.get(key) if key else None
        if latest is not None and latest.version is version:
            return latest.reply
        if latest is not None and latest.result == result:  # the same slots: the same bytes
            reply = latest.reply
        else:
            reply = pb.GetFreeSlotsResponse(
                duration_minutes=request.duration_minutes, truncated=result.truncated
            )
            add = reply.slot_starts.add  # seconds straight from the engine's minutes
            for minute in result.minutes:
                add(seconds=minute * 60)
        if key:
            self._replies.put(key, KeptReply(version, reply, query, result))
        return reply

    async def QueryFreeBusy(
        self, request: pb.QueryFreeBusyRequest, context: Context
    ) -> pb.QueryFreeBusyResponse:
        start, end = mappers.to_range("range", request.range, present=request.HasField("range"))
        answers = await self._cases.query_free_busy.execute(
            list(request.calendar_ids), start, end, fresh=mappers.is_fresh(request.read_mode)
        )
        return pb.QueryFreeBusyResponse(calendars=[calendar_busy(a) for a in answers])

    async def CreateEvent(
        self, request: pb.CreateEventRequest, context: Context
    ) -> pb.CreateEventResponse:
        draft = mappers.to_event_draft(request, owner=current_principal().name)
        event, created = await self._cases.create_event.execute(draft)
        return pb.CreateEventResponse(event=mappers.event_message(event), created=created)

    async def GetEvent(self, request: pb.GetEventRequest, context: Context) -> pb.GetEventResponse:
        caller = _caller(request.calendar_id)
        event = await self._cases.get_event.execute(request.calendar_id, request.event_id, caller)
        return pb.GetEventResponse(event=mappers.event_message(event))

    async def CancelEvent(
        self, request: pb.CancelEventRequest, context: Context
    ) -> pb.CancelEventResponse:
        send = messages.enum_value("send_updates", messages.SEND_UPDATES, request.send_updates)
        cancelled = await self._cases.cancel_event.execute(
            request.calendar_id,
            request.event_id,
            _caller(request.calendar_id, write=True),
            etag=request.etag or None,
            send_updates=send,
        )
        return pb.CancelEventResponse(cancelled=cancelled)

    async def ListEvents(
        self, request: pb.ListEventsRequest, context: Context
    ) -> pb.ListEventsResponse:
        listing = mappers.to_event_listing(request)
        page = await self._cases.list_events.execute(listing, _caller(request.calendar_id))
        return pb.ListEventsResponse(
            events=[
                *(mappers.event_message(event) for event in page.events),
                *(mappers.deletion_message(gone) for gone in page.deleted),
            ],
            next_page_token=page.next_page_token or "",
            next_sync_token=page.next_sync_token or "",
        )

    async def MoveEvent(
        self, request: pb.MoveEventRequest, context: Context
    ) -> pb.MoveEventResponse:
        move = mappers.to_event_move(request)
        event = await self._cases.move_event.execute(move, _caller(request.calendar_id, write=True))
        return pb.MoveEventResponse(event=mappers.event_message(event))

    async def UpdateEvent(
        self, request: pb.UpdateEventRequest, context: Context
    ) -> pb.UpdateEventResponse:
        update = to_event_update(request)
        caller = _caller(request.calendar_id, write=True)
        try:
            event = await self._cases.update_event.execute(update, caller)
        except InvalidRequestError as error:
            raise _under_event(error) from None
        return pb.UpdateEventResponse(event=mappers.event_message(event))


_REQUEST_FIELDS = frozenset({"calendar_id", "event_id", "etag", "update_mask"})


def _under_event(error: InvalidRequestError) -> InvalidRequestError:
    """An update's refusal naming an event field by the request's own path (``event.time``:
    UpdateEventRequest holds the event's fields under ``event``; the use case's checks name
    them as CreateEvent's)."""
    root = error.field.split(".")[0].split("[")[0]
    if root in _REQUEST_FIELDS or error.field.startswith("event."):
        return error
    return InvalidRequestError(f"event.{error.field}", error.message)


def _caller(calendar_id: str, *, write: bool = False) -> use_cases.Caller:
    """The calling principal, as the event use cases see it on ``calendar_id`` (``write``:
    for a change or a cancel, which another owner's event needs a grant to write it for)."""
    principal = current_principal()
    others = principal.sees_all_owners(calendar_id, write=write)
    return use_cases.Caller(principal.name, all_owners=others)
