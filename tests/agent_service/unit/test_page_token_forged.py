"""A forged page token is INVALID_INPUT, whatever its position holds (session 44, blind
attacker review: "²" or "³" as the position passed ``str.isdigit`` and ``int`` raised, an
INTERNAL on ListServices, ListProfessionals and ListFaqEntries). Generated: every Unicode
character that is a digit, a decimal or a numeric of another script, and signs and spaces."""

from __future__ import annotations

import base64
import json
import sys
import unicodedata
import uuid
from dataclasses import dataclass

import pytest

from agent_service.application.paging import page, scope_of
from agent_service.domain.errors import InvalidInputError


@dataclass(frozen=True)
class Item:
    id: uuid.UUID


ITEMS = [Item(uuid.UUID(int=i)) for i in range(5)]
SCOPE = scope_of("tenant", 2)


def _numerals() -> list[str]:
    """Every character ``str`` calls a digit, decimal or numeric, but ASCII's."""
    return [
        chr(c)
        for c in range(sys.maxunicode + 1)
        if chr(c).isdigit() or chr(c).isdecimal() or chr(c).isnumeric()
        if not ("0" <= chr(c) <= "9")
    ]


def _forged(position: str) -> str:
    raw = json.dumps({"k": [str(uuid.uuid4()), position], "s": SCOPE}).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_every_non_ascii_numeral_or_sign_is_an_invalid_token() -> None:
    numerals = _numerals()
    forged = [*numerals, *(f"1{c}" for c in numerals[:50]), "-1", "+1", " 1", "1_0", ""]
    for position in forged:
        with pytest.raises(InvalidInputError):
            page(ITEMS, 2, _forged(position), SCOPE)
    assert len(numerals) > 100, [unicodedata.name(c, "?") for c in numerals[:3]]


def test_a_token_the_service_made_still_pages() -> None:
    first, token = page(ITEMS, 2, None, SCOPE)
    second, _ = page(ITEMS, 2, token, SCOPE)
    assert [i.id for i in first + second] == [i.id for i in ITEMS[:4]]
