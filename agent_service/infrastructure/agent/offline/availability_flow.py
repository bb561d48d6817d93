"""Availability that answers the question: a part of the day ("de manhã", "afternoon"), any
professional ("tanto faz", "qualquer um", "any professional": the team's free times across
everyone who offers the service), and a short list of the nearest options with a hint on how
to see more."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from pydantic_ai.messages import ModelResponse, ToolCallPart

from agent_service.domain.availability import local_instant
from agent_service.infrastructure.agent.listings import more_times_clause, page
from agent_service.infrastructure.agent.offline import catalog
from agent_service.infrastructure.agent.offline.context import OfflineContext, ToolResult
from agent_service.infrastructure.agent.offline.intents import is_affirmative
from agent_service.infrastructure.agent.offline.intents import wants_anyone as anyone_said
from agent_service.infrastructure.agent.offline.matching import (
    bare_number,
    ordinal_choice,
    ordinal_words,
)
from agent_service.infrastructure.agent.offline.nudges import nudged
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.offline.responses import call, text
from agent_service.infrastructure.agent.offline.text import normalize
from agent_service.infrastructure.agent.tools.results import FreeTimes
from agent_service.infrastructure.language.grammar import (
    Window,
    day_range,
    parse_when,
    part_window,
)
from agent_service.infrastructure.language.grammar import part_of_day as grammar_part
from agent_service.infrastructure.language.grammar.asks import without_another_time
from agent_service.infrastructure.language.rules import language_rules

SHOWN = 5
PER_DAY = 3


def part_of_day(texts: list[str]) -> str | None:
    """``morning``/``afternoon``/``evening`` from the newest message that names one."""
    for candidate in texts:
        part = grammar_part(normalize(candidate))
        if part is not None:
            return part
    return None


@dataclass(frozen=True)
class Wanted:
    """What the customer said about the time besides a time itself, over the messages of the
    request (newest first): a window ("depois das 15h") and a part of the day hold until a
    newer message names another, and "the earliest" or an ordinal ("o primeiro", "the last
    one", "la primera") picks among the free times that fit them; "the latest" ("o último
    horário") picks the last of all that fit, never the last of a page. An ordinal counts
    over the page the customer saw (an earlier turn's availability check listed it); with no
    page seen, over all the times that fit: "the last one" of a page nobody saw is the day's
    last, never the fifth."""

    window: Window | None
    part: str | None
    pick_first: bool
    ordinal: str
    pick_last: bool = False
    listed: bool = True
    """The customer has seen a page of these times (an ordinal counts over it)."""
    hour: int | None = None
    """The message is a bare number ("11", "as 4"): after a listing, the free time at that hour
    (its o'clock, else the one time in it; the afternoon's when the morning's is not free) —
    a number that is also a position of the page picks only when both readings agree."""
    agreed: bool = False
    """The message says yes: to a listing of one time, that time."""

    @property
    def earliest(self) -> bool:
        """The customer asks for the first free time ("o mais cedo", "o primeiro horário
        livre"), not bound by their own window or part of the day."""
        first = self.pick_first or (bool(self.ordinal) and ordinal_choice(self.ordinal, 2) == 0)
        return first and not self.pick_last and not self.narrowed

    @property
    def narrowed(self) -> bool:
        """The customer's own words bound the times (a window, a part of the day)."""
        return self.window is not None or self.part is not None

    def fitting(self, times: list[str]) -> list[str]:
        return [t for t in times if self._fits(time.fromisoformat(t))]

    def _fits(self, at: time) -> bool:
        if self.window is not None and not self.window.holds(at):
            return False
        if self.part is None:
            return True
        first, last = part_window(self.part)
        return first <= at < last

    def pick(self, fitting: list[str]) -> str | None:
        """The free time the customer picked, if they picked one."""
        shown = page(fitting, SHOWN)
        if not shown:
            return None
        if self.pick_last:
            return fitting[-1]
        if self.narrowed and len(fitting) == 1:
            return fitting[0]  # the customer's window holds one free time: proposed, not listed
        among = shown if self.listed else fitting
        if self.agreed and self.listed and len(among) == 1:
            return among[0]  # "sim" to the one time listed
        choice = ordinal_choice(self.ordinal, len(among)) if self.ordinal else None
        if self.hour is not None and self.listed:
            # "11" after a listing: the time at that hour; a number that is also a position
            # of the page ("2": the second, or 14:00?) picks only when both readings agree
            at_hour = self._at_hour(shown if self.hour <= len(shown) else fitting)
            if choice is None or at_hour is None or at_hour == among[choice]:
                return at_hour if at_hour is not None else _at(among, choice)
            return None
        if choice is not None:
            return among[choice]
        return shown[0] if self.pick_first else None

    def _at_hour(self, fitting: list[str]) -> str | None:
        if self.hour is None:
            return None
        for hour in (self.hour, self.hour + 12):  # "4" is 16:00 when 04:00 is no free time
            at = [t for t in fitting if int(t[:2]) == hour]
            on_the_hour = [t for t in at if t.endswith(":00")]
            if on_the_hour or len(at) == 1:
                return (on_the_hour or at)[0]
        return None


def _at(times: list[str], index: int | None) -> str | None:
    return times[index] if index is not None else None


def wanted(ctx: OfflineContext) -> Wanted:
    texts = ctx.fresh_texts
    said = [parse_when(candidate, ctx.now) for candidate in texts]
    window = next((when.window for when in said if when.window is not None), None)
    if window is not None and window.done_by is not None:
        window = window.ending_by(catalog.checked_minutes([*ctx.earlier_results, *ctx.results]))
    current = said[0] if said else None
    ordinal = ""
    if current is not None and current.at is None:
        # "quinta, o primeiro": the date's own words are no ordinal ("la segunda" is, in
        # Spanish: no weekday of the conversation's language).
        day_text = "" if ordinal_not_day(current.day_text, ctx.language) else current.day_text
        ordinal = ctx.text.replace(day_text, " ") if day_text else ctx.text
    first, last = any(w.earliest for w in said), any(w.latest for w in said)
    listed = any(r.tool == "check_availability" for r in ctx.earlier_results)
    part = part_of_day(texts)
    nudge = nudged(ctx)
    if nudge is not None:  # the nearest free time that way: before it, or after it
        way, at = nudge
        after = (datetime.combine(date.min, at) + timedelta(minutes=1)).time()
        window = Window(end=at) if way < 0 else Window(start=after)
        first, last = way > 0, way < 0
        # "mais tarde?" names no afternoon; "nothing earlier that morning?" its morning
        part = grammar_part(without_another_time(normalize(ctx.text))) or part_of_day(texts[1:])
    return Wanted(
        window,
        part,
        first,
        ordinal,
        pick_last=last and not first,
        listed=listed,
        hour=bare_number(ctx.text, ctx.language),
        agreed=is_affirmative(ctx.text),
    )


def ordinal_not_day(day_text: str, language: str) -> bool:
    """Whether a day's words are an ordinal that names no weekday in the conversation's
    ``language`` ("segunda" to a Spanish speaker is "second", never Monday)."""
    words = normalize(day_text).split()
    if not words or not all(w in ordinal_words() for w in words):
        return False
    weekdays = {w for w, _ in language_rules().calendar(language).weekdays}
    return not weekdays.intersection(words)


def wants_anyone(texts: list[str]) -> bool:
    """Any professional will do, said in one of the request's messages."""
    return any(map(anyone_said, texts))


def listing(times: list[str], language: str) -> str:
    """``09:00, 09:30, …`` (a page of ``SHOWN``, :func:`listings.page`) plus how to see
    more, or ``""`` when none."""
    shown = page(times, SHOWN)
    if not shown:
        return ""
    # The templates end the times' sentence with a period: the hint is a clause of it.
    hint = more_times_clause(language) if len(times) > len(shown) else ""
    return ", ".join(shown) + hint


def team_step(
    ctx: OfflineContext,
    service: catalog.ServiceInfo,
    offering: list[catalog.ProfessionalInfo],
    day: date,
    at: time | None,
    *,
    anyone: bool = True,
) -> ModelResponse:
    """The team's times: check everyone who offers the service that day, then propose the time
    the customer asked ("às 9h") or picked ("o mais cedo") with the one professional free at
    it, else list the team's times. ``anyone``: the customer said anyone will do (the first
    free is proposed); else, when several are free at that time, they are asked which, among
    those free only."""
    checked = [r for r in ctx.results if r.tool == "check_availability"]
    if not checked:
        parts = [
            ToolCallPart(
                "check_availability",
                {"professional_id": p.id, "target_date": day.isoformat(), "service_id": service.id},
            )
            for p in offering
        ]
        return ModelResponse(parts=parts, model_name="offline")
    free = _free_by_name(checked)
    want = wanted(ctx)
    asked = at.strftime("%H:%M") if at is not None else want.pick(_union(free, want))
    if asked is not None:
        free_then = [person for person in offering if asked in free.get(person.name, [])]
        if free_then:
            return propose_among(ctx, service, free_then, day, asked, anyone=anyone)
    lines = [
        f"- {name}: {shown}"
        for name, times in free.items()
        if (shown := listing(want.fitting(times), ctx.language))
    ]
    shown_day = day.strftime("%d/%m" if ctx.language == "pt" else "%Y-%m-%d")
    if not lines:
        return text(say("team_none", ctx.language, service=service.name, day=shown_day))
    lead = "team_taken" if at is not None else "team_times"
    return text(
        say(lead, ctx.language, service=service.name, day=shown_day, items="\n".join(lines))
    )


def propose_among(
    ctx: OfflineContext,
    service: catalog.ServiceInfo,
    free_then: list[catalog.ProfessionalInfo],
    day: date,
    at: str,
    *,
    anyone: bool,
) -> ModelResponse:
    """The proposal of ``at`` on ``day`` with the one of ``free_then`` free then; several and
    not ``anyone``: asked which, among them only."""
    if len(free_then) > 1 and not anyone:
        names = ", ".join(person.name for person in free_then)
        return text(say("ask_professional", ctx.language, items=names))
    start = local_instant(day, time.fromisoformat(at), ctx.zone).astimezone(ctx.zone)
    return call(
        "book_appointment",
        professional_id=free_then[0].id,
        service_id=service.id,
        start_time=start.isoformat(),
    )


def _union(free: dict[str, list[str]], want: Wanted) -> list[str]:
    """Every free time of the team that fits what the customer said, in order."""
    return sorted({t for times in free.values() for t in want.fitting(times)})


def _free_by_name(results: list[ToolResult]) -> dict[str, list[str]]:
    free: dict[str, list[str]] = {}
    for result in results:
        if isinstance(result.data, FreeTimes) and result.data.days:
            day = result.data.days[0]
            free[day.professional] = list(day.times)
    return free


def date_range(text: str, today: date) -> tuple[date, date] | None:
    """The days a question spans (see ``language/grammar/ranges.py``), or ``None``."""
    return day_range(normalize(text), today)


def range_listing(result: ToolResult, language: str) -> str:
    """One line per day of a range result: the first ``PER_DAY`` free times of each."""
    days = result.data.days if isinstance(result.data, FreeTimes) else []
    lines = []
    for day in days:
        shown = ", ".join(day.times[:PER_DAY]) if day.times else say("none_free", language)
        label = date.fromisoformat(day.day).strftime("%d/%m" if language == "pt" else "%Y-%m-%d")
        lines.append(f"- {label}: {shown}")
    return "\n".join(lines)
