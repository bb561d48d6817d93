"""``FreeBusy.error`` on the wire: the enum field, and the deprecated text older peers use."""

from __future__ import annotations

import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.calendar.grpc_mappers import calendar_busy, free_busy
from agenda_kit.calendar.port import FreeBusy, FreeBusyError
from calendar_service.infrastructure.google.mapping import calendar_error


@pytest.mark.parametrize("error", [*FreeBusyError, None])
def test_every_error_survives_the_round_trip(error: FreeBusyError | None) -> None:
    answer = FreeBusy(calendar_id="cal", error=error)
    message = calendar_busy(answer)
    assert free_busy(message) == answer
    assert bool(message.error) == (error is not None)  # older clients still see the text


@pytest.mark.parametrize(
    ("legacy", "expected"),
    [
        ("notFound", FreeBusyError.NOT_FOUND),
        ("forbidden", FreeBusyError.FORBIDDEN),
        ("missing", FreeBusyError.MISSING),
        ("backendError", FreeBusyError.UNAVAILABLE),
        ("", None),
    ],
)
def test_an_older_server_is_read_by_its_text(legacy: str, expected: FreeBusyError | None) -> None:
    assert free_busy(pb.CalendarBusy(calendar_id="cal", error=legacy)).error is expected


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        ("notFound", FreeBusyError.NOT_FOUND),
        ("forbidden", FreeBusyError.FORBIDDEN),
        ("internalError", FreeBusyError.UNAVAILABLE),
        ("backendError", FreeBusyError.UNAVAILABLE),
    ],
)
def test_google_reasons_are_mapped_in_the_google_adapter(
    reason: str, expected: FreeBusyError
) -> None:
    assert calendar_error({"errors": [{"domain": "global", "reason": reason}]}) is expected
    assert calendar_error({"busy": []}) is None
