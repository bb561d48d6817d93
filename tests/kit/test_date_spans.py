"""The calendar client reads all-day dates as strictly as the service checks them
(review 10, F4's leftover: ``agenda_kit``'s ``date_span`` used ``date.fromisoformat`` and took
ISO week, basic and other spellings the contract does not have). Generated (seeded) over
dates and spellings: the kit accepts exactly what the service's validator accepts, with the
same dates, and refuses the rest naming the field."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, timedelta

import pytest

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda_kit.calendar import event_messages as messages
from agenda_kit.calendar.errors import InvalidCalendarRequestError
from agenda_kit.errors import RequestValidationError
from calendar_service.domain.validation import InvalidRequestError
from calendar_service.infrastructure.grpc import mappers

_FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
_ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def _week(day: date) -> str:
    year, week, weekday = day.isocalendar()
    return f"{year:04}-W{week:02}-{weekday}"


SPELLINGS: dict[str, Callable[[date], str]] = {
    "YYYY-MM-DD": lambda d: d.isoformat(),
    "basic": lambda d: d.strftime("%Y%m%d"),
    "ISO week": _week,
    "ISO week, basic": lambda d: _week(d).replace("-", ""),
    "ordinal": lambda d: f"{d.year:04}-{d.timetuple().tm_yday:03}",
    "full-width digits": lambda d: d.isoformat().translate(_FULLWIDTH),
    "Arabic-Indic digits": lambda d: d.isoformat().translate(_ARABIC),
    "with a time": lambda d: f"{d.isoformat()}T00:00",
    "with a space": lambda d: f" {d.isoformat()}",
    "slashes": lambda d: d.isoformat().replace("-", "/"),
}


def _service(span: pb.DateSpan) -> tuple[date, date] | str:
    try:
        read = mappers.date_span("all_day", span)
    except (RequestValidationError, InvalidRequestError) as error:
        return error.field
    return read.start, read.end


def _kit(span: pb.DateSpan) -> tuple[date, date] | str:
    try:
        read = messages.date_span("all_day", span)
    except InvalidCalendarRequestError as error:
        return error.field
    return read.start, read.end


def test_the_kit_reads_dates_as_the_service_checks_them() -> None:
    rng = random.Random(20261211)
    cases = 300
    differ = []
    for _ in range(cases):
        start = date(1900, 1, 1) + timedelta(days=rng.randrange(2_000_000))
        end = start + timedelta(days=rng.randrange(1, 32))
        spell_start, spell_end = (
            rng.choice(list(SPELLINGS.values())),
            rng.choice(list(SPELLINGS.values())),
        )
        span = pb.DateSpan(start_date=spell_start(start), end_date=spell_end(end))
        if _kit(span) != _service(span):
            differ.append(span)
    assert not differ, f"{len(differ)} of {cases} generated spans read otherwise by the kit"


@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_every_spelling_but_the_contracts_is_refused(name: str) -> None:
    span = pb.DateSpan(start_date=SPELLINGS[name](date(2031, 4, 2)), end_date="2031-04-03")
    if name == "YYYY-MM-DD":
        assert _kit(span) == (date(2031, 4, 2), date(2031, 4, 3))
    else:
        assert _kit(span) == "all_day.start_date"
