"""A move by an amount of time ("meia hora mais tarde", "back 30 minutes", "media hora") names
no new day or time, so the whole message describes which appointment moves (session 43,
blind batch 8: "da pra jogar o banho de quinta meia hora mais tarde?" listed the customer's
three appointments and asked which, although "banho de quinta" is one of them; the "pra" of
"dá pra" was read as where the appointment goes). Generated: each appointment described by
its service and day, with each amount phrasing, in pt/en/es: that one is chosen, and moved
by the amount."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest

from agent_service.infrastructure.agent.offline.appointments_flow import choose, new_time
from agent_service.infrastructure.agent.offline.catalog import AppointmentInfo

ZONE = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZONE)


def _appointment(service: str, day: int, at: int, n: int) -> AppointmentInfo:
    start = datetime(2026, 12, day, at, 0, tzinfo=ZONE)
    return AppointmentInfo(
        service=service, professional="P", when="", status="confirmed", id=f"a{n}",
        professional_id="p", service_id=f"s{n}", start=start.isoformat(),
    )  # fmt: skip


BOOKED = [
    _appointment("Consulta Veterinária", 2, 15, 1),  # Wednesday
    _appointment("Banho Porte Pequeno", 3, 10, 2),  # Thursday
    _appointment("Banho Porte Pequeno", 5, 9, 3),  # Saturday
]
ASKED = {
    "pt": [
        ("da pra jogar o banho de {day} {amount}?", {"quinta": 1, "sabado": 2}),
        ("consegue passar a consulta de {day} {amount}", {"quarta": 0}),
    ],
    "en": [
        ("could you push {day}'s bath back {amount}?", {"Thursday": 1, "Saturday": 2}),
        ("can you push the vet consultation on {day} back {amount}", {"Wednesday": 0}),
    ],
    "es": [
        ("puedes atrasar {amount} el baño del {day}", {"jueves": 1, "sabado": 2}),
        ("atrasar {amount} la consulta del {day}", {"miércoles": 0}),
    ],
}
AMOUNTS = {
    "pt": ["meia hora mais tarde", "30 minutos pra frente", "uma hora mais tarde"],
    "en": ["30 minutes", "half an hour", "an hour"],  # after "back"
    "es": ["media hora", "30 minutos", "una hora"],
}


@pytest.mark.parametrize("language", sorted(ASKED))
def test_an_amount_moves_the_appointment_the_message_describes(language: str) -> None:
    for template, days in ASKED[language]:
        for day, which in days.items():
            for amount in AMOUNTS[language]:
                said = template.format(day=day, amount=amount)
                chosen = choose([said], BOOKED, NOW, moving=True)
                assert chosen is BOOKED[which], said
                moved_day, moved_at = new_time(said, chosen, NOW)
                assert chosen.at is not None and moved_at is not None, said
                assert moved_day == chosen.day and moved_at > chosen.at, (said, moved_at)
                assert moved_at in (time(chosen.at.hour, 30), time(chosen.at.hour + 1)), said
