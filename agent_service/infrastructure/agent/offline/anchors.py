"""A request placed by one of the customer's own appointments: "com a mesma profissional do meu
RPG de terça" (that appointment's professional), "logo depois da minha sessão de quarta",
"right after my RPG on Tuesday", "justo después del drenaje del viernes" (that appointment's
day, at its end).

Rules (words: ``[anchors]`` of the language data, every spoken language):

* An anchor is a ``same_as`` word not followed by a ``same_as_not`` word ("mesmo horário" asks
  for a time, never a person), or a ``right_after`` phrase; what follows it in the message
  must name exactly one of the customer's upcoming appointments (its service's kind or its day,
  as ``upcoming.names_item`` reads them), else there is no anchor.
* The appointments are then listed (``list_my_appointments``) and the one the words describe is
  chosen as a cancellation's is (``appointments_flow.choose``); none or several: no anchor.
* ``same_as``: the request's professional is that appointment's. ``right_after``: the request's
  day is that appointment's and its time the appointment's end (its service's length from the
  catalog), whatever day or time the description itself said. ``same_day`` ("no mesmo dia da
  minha adaptação de lentes, às 17h", "the same day as my hearing test"): the request's day is
  that appointment's; a time said after the phrase is the request's, unless it is the
  appointment's own (then it described the appointment).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from agent_service.infrastructure.agent.offline import catalog
from agent_service.infrastructure.agent.offline.appointments_flow import choose
from agent_service.infrastructure.agent.offline.context import OfflineContext
from agent_service.infrastructure.agent.offline.text import fold_with_map, normalize
from agent_service.infrastructure.agent.offline.upcoming import anchor_phrase, names_item
from agent_service.infrastructure.agent.offline.when import parse_when
from agent_service.infrastructure.language.lexicon import service_lexicon

__all__ = ["Anchor", "anchor_in", "placed"]


@dataclass(frozen=True, slots=True)
class Anchor:
    kind: str
    """``same_as``, ``same_day`` or ``right_after``."""
    described: str
    """The words after the anchor phrase, which describe the appointment."""
    before: str
    """The message before the anchor phrase, as written: the request itself (the service and
    the day it names are not the anchored appointment's)."""


def anchor_in(ctx: OfflineContext) -> Anchor | None:
    """The anchor of the customer's message, if what follows it names one of their upcoming
    appointments (see the module)."""
    if not ctx.upcoming:
        return None
    folded, index = fold_with_map(ctx.text)
    phrase = anchor_phrase(folded)
    if phrase is None:
        return None
    kind, found = phrase
    described = folded[found.end() :]
    # the appointments the memory lists may be the first few only: a service or a day said
    # after the phrase is enough to look (the listing then decides)
    names = any(names_item(described, item, ctx.now) for item in ctx.upcoming)
    if names or service_lexicon().kinds_in(described) or parse_when(described, ctx.now).day:
        return Anchor(kind, normalize(described), ctx.text[: index[found.start()]])
    return None


@dataclass(frozen=True, slots=True)
class Placed:
    professional: catalog.ProfessionalInfo | None = None
    day: date | None = None
    at: time | None = None


def placed(
    ctx: OfflineContext,
    anchor: Anchor,
    services: list[catalog.ServiceInfo],
    professionals: list[catalog.ProfessionalInfo],
) -> Placed | None:
    """What the anchored appointment places, once the appointments are listed (see the
    module); ``None`` when the words describe none or several of them."""
    mine = catalog.appointments(ctx.result("list_my_appointments"))
    described, rest = anchor.described, ""
    own = choose([described], mine, ctx.now, language=ctx.language)
    if own is None and anchor.kind == "same_day":
        # "no mesmo dia da minha adaptação de lentes, às 17h": the fewest words right after the
        # phrase that name one appointment describe it; what follows is the request's (its time)
        words = described.split()
        for size in range(1, len(words)):
            own = choose([" ".join(words[:size])], mine, ctx.now, language=ctx.language)
            if own is not None:
                rest = " ".join(words[size:])
                break
    if own is None or own.day is None or own.at is None:
        return None
    if anchor.kind == "same_as":
        return Placed(
            professional=next((p for p in professionals if p.id == own.professional_id), None)
        )
    if anchor.kind == "same_day":
        at = parse_when(rest or described, ctx.now).at
        return Placed(day=own.day, at=at if at != own.at else None)
    minutes = next((s.minutes for s in services if s.id == own.service_id), None)
    if minutes is None:
        return None
    end = datetime.combine(own.day, own.at) + timedelta(minutes=minutes)
    return Placed(day=end.date(), at=end.time())
