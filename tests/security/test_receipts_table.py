"""The consent suite's receipt table is the message catalogs' (review 17: it listed Portuguese
and English only, so a correct Spanish write, "✅ Reservado: …", was judged "without its
receipt"). Every write kind's receipt, rendered in every catalog language, is recognized as that
kind's and counted once."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.messages import LOCALE_FILES
from tests.security.consent_run import EVERY_RECEIPT, RECEIPT_KEYS, RECEIPTS


@pytest.mark.parametrize("language", sorted(LOCALE_FILES))
@pytest.mark.parametrize("kind", sorted(RECEIPT_KEYS))
def test_every_languages_receipt_is_its_kinds_and_counted_once(language: str, kind: str) -> None:
    reply = messages.text(RECEIPT_KEYS[kind], language, what="Corte com Ana em 10/12 11:00")
    assert any(opening in reply for opening in RECEIPTS[kind]), (language, kind, reply)
    assert sum(reply.count(opening) for opening in EVERY_RECEIPT) == 1, (language, reply)


def test_the_spanish_receipts_are_known() -> None:
    assert "✅ Reservado:" in RECEIPTS["booked"]
    assert "✅ Cambiado:" in RECEIPTS["rescheduled"]
    assert "✅ Cancelado:" in RECEIPTS["cancelled"]
    assert "⏳ En curso:" in RECEIPTS["pending"]
