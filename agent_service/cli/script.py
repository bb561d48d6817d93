"""The scripted demo conversation (``--script``, or nothing on stdin): greets, lists the
services, asks Ana's free times on her next working day, books the first one, confirms, lists
the booking and asks the address — in Portuguese, the demo salon's language."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from agent_service.cli.terminal import out

if TYPE_CHECKING:
    from agent_service.cli.chat import Session

_TIME = re.compile(r"\b(\d{2}:\d{2})\b")
DEMO_ZONE = ZoneInfo("America/Sao_Paulo")


def next_working_day(today: date) -> date:
    """The demo's Ana works Monday to Saturday: the first such day after today."""
    day = today + timedelta(days=1)
    return day if day.isoweekday() != 7 else day + timedelta(days=1)


async def scripted(session: Session) -> int:
    """Greets, asks services and Ana's free times, books the first free one, confirms, lists."""
    today = datetime.now(DEMO_ZONE).date()  # the demo salon's date, not this machine's
    day = next_working_day(today).strftime("%d/%m")
    turns = [
        "Olá!",
        "Quais serviços vocês têm?",
        f"Quais horários a Ana tem dia {day} para corte feminino?",
    ]
    last = ""
    for text in turns:
        last = await exchange(session, text)
    times = _TIME.findall(last)
    if not times:
        out("(no free time found on that day; nothing booked)")
        return 1
    await exchange(session, f"Quero agendar um corte feminino com a Ana dia {day} às {times[0]}")
    await exchange(session, "sim")
    await exchange(session, "Quais são meus agendamentos?")
    await exchange(session, "Qual é o endereço?")
    booked = [a for r in session.actions for a in r.actions if a.appointment.id]
    out(f"\nbooked appointments this session: {[a.appointment.id for a in booked]}")
    return 0 if booked else 1


async def exchange(session: Session, text: str) -> str:
    out(f"{session.says('you')}> {text}")
    reply = await session.say(text)
    out(f"{session.says('assistant')}> {reply}\n")
    return reply
