"""A time asked for by its way, not its value, after a proposal: "mais cedo?", "anything
later?", "¿se puede adelantar?", "nothing earlier that morning?" (``[times]`` earlier/later
words and verbs): the nearest free time that way is proposed (availability_flow.Wanted), never
the old time again (booking_flow). Words are the language data's; none is in this code."""

from __future__ import annotations

from datetime import datetime, time

from agent_service.infrastructure.agent.offline.context import OfflineContext
from agent_service.infrastructure.agent.offline.text import normalize
from agent_service.infrastructure.language.grammar import direction, parse_when, shift
from agent_service.infrastructure.language.grammar.asks import asks_another_time
from agent_service.infrastructure.language.grammar.vocabulary import any_of, union


def nudged(ctx: OfflineContext) -> tuple[int, time] | None:
    """ "mais cedo?", "anything later?", "nothing earlier that morning?": a follow-up that asks
    only for an earlier or a later time (``grammar.asks.asks_another_time``: a question, no
    word of another action — "devo chegar mais cedo?", "te confirmo depois?" are no such
    request), with no time, window, amount or pick of its own.
    Its way (-1 earlier, +1 later) and the time it is from: the proposal's it answers, else
    the newest time said before it."""
    texts = ctx.fresh_texts
    way = direction(ctx.text)
    folded = normalize(ctx.text)
    if way is None or len(texts) < 2 or not asks_another_time(folded):
        return None  # "falo mais tarde", "devo chegar mais cedo?": no time asked for
    said = parse_when(ctx.text, ctx.now)
    if said.at is not None or said.window is not None or _superlative(folded):
        return None
    if shift(ctx.text) is not None:
        return None  # "1 hora mais cedo": moved by that much (the booking flow's)
    proposal = ctx.pending or ctx.turned_down or {}
    start = proposal.get("arguments", {}).get("start_time")
    if isinstance(start, str):
        return way, datetime.fromisoformat(start).astimezone(ctx.zone).time()
    before = next((w.at for w in (parse_when(t, ctx.now) for t in texts[1:]) if w.at), None)
    return (way, before) if before is not None else None


def _superlative(folded: str) -> bool:
    """An earliest or latest phrase ("o mais cedo possível", "the latest slot") that is more
    than the earlier or later word itself (Portuguese "mais cedo" is both)."""
    ways = {w for key in ("earlier", "later") for w in union("times", key)}
    return any(
        m.group().strip() not in ways
        for key in ("earliest", "latest")
        for m in any_of("ranges", key).finditer(folded)
    )
