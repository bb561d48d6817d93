"""Every instant a caller sends lies between the years 1900 and 9000, whatever the field
(docs/calendar-service.md#errors): generated from the descriptors over every Timestamp field
of every CalendarService request, so a Timestamp added to the contract is covered from its
first day. Before review 14 only ranges checked it: ``updated_since`` in year 1 or 9999 and
an availability window in year 1899 were answered OK (the window's bound reached the slot
engine, the feed's the provider)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import grpc
import pytest
from google.protobuf.descriptor import Descriptor
from google.protobuf.field_mask_pb2 import FieldMask
from google.protobuf.message import Message
from google.protobuf.timestamp_pb2 import Timestamp

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.errors import details_of
from agenda_kit.proto_time import to_timestamp
from tests.conftest import AUTH

T0 = datetime(2032, 3, 2, 13, 0, tzinfo=UTC)
T1 = datetime(2032, 3, 2, 14, 0, tzinfo=UTC)
OUTPUT_ONLY = frozenset(
    {"agenda.calendar.v1.Event.create_time", "agenda.calendar.v1.Event.update_time"}
)
"""Timestamps an update ignores (output only): nothing reads them."""
OUTSIDE = {
    "year 1": Timestamp(seconds=-62135596800),
    "year 1899": to_timestamp(datetime(1899, 12, 31, 23, tzinfo=UTC)),
    "year 9001": to_timestamp(datetime(9001, 1, 1, tzinfo=UTC)),
    "year 9999": to_timestamp(datetime(9999, 12, 31, tzinfo=UTC)),
}


def _window() -> pb.TimeRange:
    return pb.TimeRange(start=to_timestamp(T0), end=to_timestamp(T1))


BASELINES: dict[str, Message] = {
    "GetFreeSlots": pb.GetFreeSlotsRequest(calendar_id="cal", range=_window(), duration_minutes=30),
    "QueryFreeBusy": pb.QueryFreeBusyRequest(calendar_ids=["cal"], range=_window()),
    "CreateEvent": pb.CreateEventRequest(
        calendar_id="cal", summary="Visit", idempotency_key="k", time=_window()
    ),
    "ListEvents": pb.ListEventsRequest(calendar_id="cal", range=_window()),
    "MoveEvent": pb.MoveEventRequest(calendar_id="cal", event_id="e1", time=_window()),
    "UpdateEvent": pb.UpdateEventRequest(
        calendar_id="cal",
        event_id="e1",
        event=pb.Event(time=_window()),
        update_mask=FieldMask(paths=["time"]),
    ),
}
"""A valid request of each RPC that takes an instant (an unknown event is looked up only
after the request is read)."""


def _timestamp_paths(descriptor: Descriptor, prefix: str = "") -> Iterator[str]:
    for field in descriptor.fields:
        kind = field.message_type
        if kind is None or field.full_name in OUTPUT_ONLY:
            continue
        path = f"{prefix}{field.name}" + ("[0]" if field.is_repeated else "")
        if kind.full_name == "google.protobuf.Timestamp":
            yield path
        elif not kind.GetOptions().map_entry:
            yield from _timestamp_paths(kind, f"{path}.")


def _with(request: Message, path: str, value: Timestamp) -> Message:
    changed = type(request)()
    changed.CopyFrom(request)
    holder: Message = changed
    *parents, last = path.split(".")
    for part in parents:
        name = part.removesuffix("[0]")
        if part.endswith("[0]"):
            items = getattr(holder, name)
            holder = items[0] if len(items) else items.add(start=_window().start, end=_window().end)
        else:
            holder = getattr(holder, name)
    getattr(holder, last).CopyFrom(value)
    return changed


def _cases() -> Iterator[tuple[str, str, str]]:
    methods = pb.DESCRIPTOR.services_by_name["CalendarService"].methods
    for method in methods:
        for path in _timestamp_paths(method.input_type):
            for label in OUTSIDE:
                yield method.name, path, label


CASES = list(_cases())


def test_every_rpc_taking_an_instant_has_a_baseline() -> None:
    assert {method for method, _, _ in CASES} == set(BASELINES)


@pytest.mark.parametrize(("method", "path", "label"), CASES)
async def test_an_instant_outside_the_years_is_refused_naming_its_field(
    calendar_stub: pb_grpc.CalendarServiceAsyncStub, method: str, path: str, label: str
) -> None:
    request = _with(BASELINES[method], path, OUTSIDE[label])
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await getattr(calendar_stub, method)(request, metadata=AUTH, timeout=10)
    details = details_of(caught.value)
    assert (caught.value.code(), details.reason) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_REQUEST",
    )
    assert path in [field for field, _ in details.violations]
