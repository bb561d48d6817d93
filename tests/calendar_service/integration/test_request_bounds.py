"""Issue 24 §5, calendar side, as a rule over the contract: every string and list field (at
any depth) of every CalendarService request has a bound (``CALENDAR_BOUNDS``, found from the
descriptors, so a field added to the proto is bounded without a test change).

- the table: at its bound a field passes the edge check, one more is refused naming its path,
  a NUL is refused; the table names only real fields and equals the domain's limits;
- through a real server: every field over its bound, or holding a NUL, in an otherwise valid
  request is INVALID_ARGUMENT with ``ErrorInfo`` INVALID_REQUEST and a ``BadRequest`` naming
  that field — never INTERNAL, never OK, and nothing is written.
"""

from __future__ import annotations

from datetime import timedelta

import grpc
import pytest
from google.protobuf import descriptor_pool
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.errors import RequestValidationError
from calendar_service.domain import validation as rules
from calendar_service.infrastructure.grpc.bounds import CALENDAR_BOUNDS
from calendar_service.infrastructure.grpc.mappers import time_range
from tests.calendar_service.integration.test_edge_validation import answer
from tests.calendar_service.integration.test_servicer import MONDAY, event_request, slots_request
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.security.test_request_bounds import _set, fields

SERVICE = pb.DESCRIPTOR.services_by_name["CalendarService"]
WINDOW = time_range(MONDAY, MONDAY + timedelta(hours=1))
CASES = [
    (method.name, path)
    for method in SERVICE.methods
    for path in fields(method.input_type)
    if not any(f.message_type and f.message_type.GetOptions().map_entry for f in path)
]
MAPS = [
    (method.name, path)
    for method in SERVICE.methods
    for path in fields(method.input_type)
    if path[-1].message_type and path[-1].message_type.GetOptions().map_entry
]
"""Maps (private properties): as many entries as their bound, keys and values as theirs."""


def _label(method: str, path: tuple[FieldDescriptor, ...]) -> str:
    return f"{method}.{'.'.join(f.name for f in path)}"


def _bound(field: FieldDescriptor) -> int:
    return (
        CALENDAR_BOUNDS.list_bound(field)
        if field.is_repeated
        else CALENDAR_BOUNDS.string_bound(field)
    )


def valid(method: str) -> Message:
    """A request of ``method`` the service answers OK (or NOT_FOUND for absent events)."""
    requests: dict[str, Message] = {
        "GetFreeSlots": slots_request(),
        "QueryFreeBusy": pb.QueryFreeBusyRequest(calendar_ids=["ana"], range=WINDOW),
        "CreateEvent": event_request(),
        "GetEvent": pb.GetEventRequest(calendar_id="ana", event_id="e1"),
        "CancelEvent": pb.CancelEventRequest(calendar_id="ana", event_id="e1"),
        "ListEvents": pb.ListEventsRequest(calendar_id="ana", range=WINDOW),
        "MoveEvent": pb.MoveEventRequest(calendar_id="ana", event_id="e1", time=WINDOW),
        "UpdateEvent": pb.UpdateEventRequest(
            calendar_id="ana", event_id="e1", event=pb.Event(summary="s")
        ),
    }
    return requests[method]


@pytest.mark.parametrize(("method", "path"), CASES, ids=[_label(*c) for c in CASES])
def test_every_field_has_a_bound_at_the_edge(
    method: str, path: tuple[FieldDescriptor, ...]
) -> None:
    request_type: Descriptor = SERVICE.methods_by_name[method].input_type
    last, dotted = path[-1], ".".join(f.name for f in path)
    at_bound, over = GetMessageClass(request_type)(), GetMessageClass(request_type)()
    _set(at_bound, path, _bound(last))
    _set(over, path, _bound(last) + 1)
    CALENDAR_BOUNDS.check(at_bound)
    with pytest.raises(RequestValidationError) as refused:
        CALENDAR_BOUNDS.check(over)
    assert refused.value.field == dotted
    if not last.is_repeated:
        nul = GetMessageClass(request_type)()
        _set(nul, path, 1, "a\x00")
        with pytest.raises(RequestValidationError, match="NUL"):
            CALENDAR_BOUNDS.check(nul)


def _fill(request: Message, path: tuple[FieldDescriptor, ...], part: str, size: int) -> None:
    """A map at ``path`` with ``size`` entries (part "entries"), or one entry whose key or
    value (part "key"/"value") is ``size`` characters."""
    holder: Message = request
    for field in path[:-1]:
        holder = getattr(holder, field.name)
    entries = getattr(holder, path[-1].name)
    if part == "entries":
        entries.update({f"k{i}": "v" for i in range(size)})
    elif part == "key":
        entries["k" * size] = "v"
    else:
        entries["k"] = "v" * size


def _map_bound(path: tuple[FieldDescriptor, ...], part: str) -> int:
    entry = path[-1].message_type
    assert entry is not None
    if part == "entries":
        return CALENDAR_BOUNDS.list_bound(path[-1])
    return CALENDAR_BOUNDS.string_bound(entry.fields_by_name[part])


PARTS = ("entries", "key", "value")


@pytest.mark.parametrize(("method", "path"), MAPS, ids=[_label(*c) for c in MAPS])
def test_every_map_has_bounds_at_the_edge(method: str, path: tuple[FieldDescriptor, ...]) -> None:
    request_type: Descriptor = SERVICE.methods_by_name[method].input_type
    for part in PARTS:
        at_bound, over = GetMessageClass(request_type)(), GetMessageClass(request_type)()
        _fill(at_bound, path, part, _map_bound(path, part))
        _fill(over, path, part, _map_bound(path, part) + 1)
        CALENDAR_BOUNDS.check(at_bound)
        with pytest.raises(RequestValidationError) as refused:
            CALENDAR_BOUNDS.check(over)
        assert refused.value.field == ".".join(f.name for f in path), part


def test_the_table_names_real_fields_and_the_domains_limits() -> None:
    pool = descriptor_pool.Default()
    for name in (*CALENDAR_BOUNDS.strings, *CALENDAR_BOUNDS.lists):
        pool.FindFieldByName(name)  # KeyError for a typo
    field = pool.FindFieldByName
    assert (
        CALENDAR_BOUNDS.string_bound(field("agenda.calendar.v1.CreateEventRequest.idempotency_key"))
        == 256
    )
    assert (
        CALENDAR_BOUNDS.list_bound(field("agenda.calendar.v1.GetFreeSlotsRequest.weekly_hours"))
        == 7 * 8
    )
    assert (
        CALENDAR_BOUNDS.string_bound(field("agenda.calendar.v1.CreateEventRequest.description"))
        == rules.MAX_DESCRIPTION
    )
    print(f"\nFIGURE calendar request bounds: {len(CASES)} string/list fields bounded")


def _refusals(method: str, path: tuple[FieldDescriptor, ...]) -> list[tuple[str, Message]]:
    last, over = path[-1], valid(method)
    _set(over, path, _bound(last) + 1)
    cases = [("over", over)]
    if not last.is_repeated:
        nul = valid(method)
        _set(nul, path, 1, "a\x00")
        cases.append(("nul", nul))
    return cases


async def test_a_real_server_refuses_every_field_over_its_bound_by_name(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, in_memory_calendar: InMemoryCalendar
) -> None:
    wrong = []
    for method, path in CASES:
        dotted = ".".join(f.name for f in path)
        for kind, request in _refusals(method, path):
            got = await answer(getattr(calendar_stub, method), request)
            if got != (grpc.StatusCode.INVALID_ARGUMENT, dotted, "INVALID_REQUEST"):
                wrong.append((method, dotted, kind, got))
    for method, path in MAPS:
        dotted = ".".join(f.name for f in path)
        for part in PARTS:
            request = valid(method)
            _fill(request, path, part, _map_bound(path, part) + 1)
            got = await answer(getattr(calendar_stub, method), request)
            if got != (grpc.StatusCode.INVALID_ARGUMENT, dotted, "INVALID_REQUEST"):
                wrong.append((method, dotted, part, got))
    assert wrong == []
    assert in_memory_calendar.events == {}  # nothing was written
