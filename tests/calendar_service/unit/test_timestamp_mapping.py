"""Slot starts are built as Timestamps directly; they must equal protobuf's own conversion."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from agenda_kit.proto_time import to_timestamp


def protobuf_own(value: datetime) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(value.astimezone(UTC))
    return stamp


@pytest.mark.parametrize(
    "value",
    [
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC),
        datetime(1969, 12, 31, 23, 59, 59, 500_000, tzinfo=UTC),  # negative, with nanos
        datetime(1970, 1, 1, tzinfo=UTC),
        datetime(2026, 3, 8, 1, 59, 59, 123_456, tzinfo=ZoneInfo("America/New_York")),
        datetime(2026, 11, 1, 1, 30, fold=1, tzinfo=ZoneInfo("America/New_York")),
        datetime(2026, 12, 1, 10, tzinfo=ZoneInfo("America/Sao_Paulo")),
    ],
)
def test_direct_timestamps_equal_protobufs_conversion(value: datetime) -> None:
    assert to_timestamp(value) == protobuf_own(value)


def test_a_day_of_slots_converts_identically() -> None:
    zone = ZoneInfo("Asia/Kolkata")
    starts = [datetime(2026, 12, 1, 8, tzinfo=zone) + timedelta(minutes=7 * i) for i in range(200)]
    assert [to_timestamp(s) for s in starts] == [protobuf_own(s) for s in starts]
