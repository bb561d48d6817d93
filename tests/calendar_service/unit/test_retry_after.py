"""``Retry-After`` in both of RFC 9110's forms (§10.2.3), counted from the answer's ``Date``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from calendar_service.infrastructure.google.responses import retry_seconds

ANSWERED = datetime(2031, 5, 5, 12, 0, tzinfo=UTC)
DATE = format_datetime(ANSWERED, usegmt=True)


def _after(seconds: float) -> str:
    return format_datetime(ANSWERED + timedelta(seconds=seconds), usegmt=True)


@pytest.mark.parametrize("seconds", [0, 1, 9, 59, 3600, 86_399])
def test_both_forms_name_the_same_wait(seconds: int) -> None:
    assert retry_seconds(str(seconds)) == retry_seconds(_after(seconds), DATE) == seconds


def test_a_date_already_past_means_now() -> None:
    assert retry_seconds(_after(-30), DATE) == 0.0


@pytest.mark.parametrize("header", ["", "soon", "-5", "86400", "1e9", _after(86_400)])
def test_no_hint_from_nonsense_or_a_wait_of_a_day_or_more(header: str) -> None:
    assert retry_seconds(header, DATE) is None


def test_the_obsolete_date_forms_are_read_too() -> None:
    """RFC 9110 recipients must accept RFC 850 and asctime dates as well."""
    assert retry_seconds("Monday, 05-May-31 12:00:09 GMT", DATE) == 9.0
    assert retry_seconds("Mon May  5 12:00:09 2031", DATE) == 9.0
