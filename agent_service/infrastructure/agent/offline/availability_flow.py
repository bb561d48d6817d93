"""Availability that answers the question: a part of the day ("de manhã", "afternoon"), any
professional ("tanto faz", "qualquer um", "any professional": the team's free times across
everyone who offers the service), and a short list of the nearest options with a hint on how
to see more."""

from __future__ import annotations

import re
from datetime import date, time, timedelta

from pydantic_ai.messages import ModelResponse, ToolCallPart

from agent_service.domain.availability import local_instant
from agent_service.infrastructure.agent.offline import catalog
from agent_service.infrastructure.agent.offline.context import OfflineContext, ToolResult
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.offline.responses import call, text
from agent_service.infrastructure.agent.offline.text import normalize

SHOWN = 5
_PARTS = {
    "morning": (time(0), time(12)),
    "afternoon": (time(12), time(18)),
    "evening": (time(18), time(23, 59)),
}
_PART_WORDS = re.compile(
    r"(?<![a-z])(?:(?P<morning>(?<!bom )(?:de |pela |na )?manha(?:zinha)?|(?:in the )?morning)"
    r"|(?P<afternoon>(?<!boa )(?:a |de |pela |na )?tarde(?:zinha)?|(?:in the )?afternoon|arvo"
    r"|after lunch|depois do almoco)"
    r"|(?P<evening>(?<!boa )(?:a |de |pela |na )?noite|(?:in the )?evening))(?![a-z])"
)
# The trades' own words count too ("qualquer barbeiro", "any barber is fine").
_ROLES = (
    r"profissional|pessoa|barbeir[oa]s?|cabeleireir[oa]s?|manicures?|atendente|funcionari[oa]"
    r"|professional|one|stylist|barber|hairdresser|manicurist|nail tech|staff|person"
)
_ANYONE = re.compile(
    r"(?<![a-z])(?:tanto faz|qualquer (?:um|uma|" + _ROLES + r")|quem estiver livre"
    r"|sem preferencia|nao tenho preferencia|any (?:" + _ROLES + r")|anyone|anybody"
    r"|whoever|no preference|doesn'?t matter|does not matter)(?![a-z])"
)
_HEADER = re.compile(r"^Free times for (.+?) on \d{4}-\d{2}-\d{2}", re.M)
_DAY_HEADER = re.compile(r"^Free times for .+? on (\d{4}-\d{2}-\d{2})", re.M)
_LONG_WEEKDAYS = {
    "segunda": 0, "terca": 1, "quarta": 2, "quinta": 3, "sexta": 4, "sabado": 5, "domingo": 6,
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6,
}  # fmt: skip
_WD = "(" + "|".join(_LONG_WEEKDAYS) + r")(?:[\s-]*feira)?"
_RANGE = re.compile(
    r"(?:de|from|entre|between)\s+(?:(?:a|o|the)\s+)?"
    + _WD
    + r"\s+(?:a|ate|e|to|through|and|until)\s+(?:(?:a|o|the)\s+)?"
    + _WD
)
_WEEK = re.compile(r"(?<![a-z])(?:(?:essa|esta|nesta|nessa) semana|this week)(?![a-z])")
_NEXT_WEEK = re.compile(
    r"(?<![a-z])(?:semana que vem|(?:proxima|na proxima) semana|next week)(?![a-z])"
)
_WEEKEND = re.compile(r"(?<![a-z])(?:fim de semana|final de semana|fds|weekend)(?![a-z])")
_UNTIL = re.compile(r"(?<![a-z])(?:ate|until|till|by|before) (?:a |o |the )?" + _WD)
_NEXT_DAYS = re.compile(
    r"(?<![a-z])(?:(?:nos )?proximos dias|(?:in )?the next (?:few )?days|next few days"
    r"|(?:the )?coming days)(?![a-z])"
)
_ANY_WEEKDAY = re.compile(r"(?<![a-z])" + _WD + r"(?![a-z])")
NEXT_DAYS = 3
""""nos próximos dias": today and the next three days."""
PER_DAY = 3


def part_of_day(texts: list[str]) -> str | None:
    """``morning``/``afternoon``/``evening`` from the newest message that names one."""
    for candidate in texts:
        match = _PART_WORDS.search(normalize(candidate))
        if match:
            return next(name for name, value in match.groupdict().items() if value)
    return None


def wants_anyone(texts: list[str]) -> bool:
    return any(_ANYONE.search(normalize(candidate)) for candidate in texts)


def shown_times(times: list[str], part: str | None) -> tuple[list[str], bool]:
    """Up to ``SHOWN`` times (those in ``part`` when given) and whether more exist."""
    if part is not None:
        first, last = _PARTS[part]
        times = [t for t in times if first <= time.fromisoformat(t) < last]
    return times[:SHOWN], len(times) > SHOWN


def listing(times: list[str], part: str | None, language: str) -> str:
    """``09:00, 09:30, …`` plus how to see more, or ``""`` when none fit."""
    shown, more = shown_times(times, part)
    if not shown:
        return ""
    hint = f" {say('more_times', language)}" if more else ""
    return ", ".join(shown) + hint


def team_step(
    ctx: OfflineContext,
    service: catalog.ServiceInfo,
    offering: list[catalog.ProfessionalInfo],
    day: date,
    at: time | None,
) -> ModelResponse:
    """Any professional: check everyone who offers the service, then book the first one free
    at the asked time (the confirmation question names them) or list the team's times."""
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
    if at is not None:
        wanted = at.strftime("%H:%M")
        for person in offering:
            if wanted in free.get(person.name, []):
                start = local_instant(day, at, ctx.zone).astimezone(ctx.zone)
                return call(
                    "book_appointment",
                    professional_id=person.id,
                    service_id=service.id,
                    start_time=start.isoformat(),
                )
    part = part_of_day(ctx.fresh_texts)
    lines = [
        f"- {name}: {shown}"
        for name, times in free.items()
        if (shown := listing(times, part, ctx.language))
    ]
    shown_day = day.strftime("%d/%m" if ctx.language == "pt" else "%Y-%m-%d")
    if not lines:
        return text(say("team_none", ctx.language, service=service.name, day=shown_day))
    lead = "team_taken" if at is not None else "team_times"
    return text(
        say(lead, ctx.language, service=service.name, day=shown_day, items="\n".join(lines))
    )


def _free_by_name(results: list[ToolResult]) -> dict[str, list[str]]:
    free: dict[str, list[str]] = {}
    for result in results:
        header = _HEADER.search(result.text)
        if header:
            free[header.group(1)] = catalog.free_times(result.text)
    return free


def date_range(text: str, today: date) -> tuple[date, date] | None:
    """The days a question spans, or ``None`` (one day or none):

    * "de quinta a sábado", "from Thursday to Saturday", "between Monday and Wednesday": the
      next such days; "até sexta"/"until Friday": today to the next Friday;
    * "essa semana"/"this week": today to Saturday; "semana que vem"/"next week": next
      Monday to Saturday (not "terça da semana que vem", which is one day);
    * "fim de semana"/"this weekend": the next Saturday and Sunday;
    * "nos próximos dias"/"the next few days": today and the next ``NEXT_DAYS`` days."""
    folded = normalize(text)
    match = _RANGE.search(folded)
    if match:
        first = _next(today, _LONG_WEEKDAYS[match.group(1)])
        last = _next(first, _LONG_WEEKDAYS[match.group(2)])
        return first, last
    until = _UNTIL.search(folded)
    if until:
        return today, _next(today, _LONG_WEEKDAYS[until.group(1)])
    if _WEEK.search(folded):
        return today, today + timedelta(days=max(0, 5 - today.weekday()))
    if _NEXT_WEEK.search(folded) and not _ANY_WEEKDAY.search(folded):
        monday = today + timedelta(days=7 - today.weekday())
        return monday, monday + timedelta(days=5)
    if _WEEKEND.search(folded):
        saturday = today if today.weekday() == 6 else _next(today, 5)
        return saturday, saturday + timedelta(days=1 if saturday.weekday() == 5 else 0)
    if _NEXT_DAYS.search(folded):
        return today, today + timedelta(days=NEXT_DAYS)
    return None


def _next(start: date, weekday: int) -> date:
    return start + timedelta(days=(weekday - start.weekday()) % 7)


def range_listing(result: str, language: str) -> str:
    """One line per day of a range result: the first ``PER_DAY`` free times of each."""
    lines = []
    for section in result.split("\n\n"):
        header = _DAY_HEADER.search(section)
        if header is None:
            continue
        day = date.fromisoformat(header.group(1))
        times = catalog.free_times(section)
        shown = ", ".join(times[:PER_DAY]) if times else say("none_free", language)
        label = day.strftime("%d/%m" if language == "pt" else "%Y-%m-%d")
        lines.append(f"- {label}: {shown}")
    return "\n".join(lines)
