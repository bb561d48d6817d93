"""The system's own words for a listing a tool returned, per language (the ``listings`` part
of each locale file): the salon's services, its professionals, the customer's appointments,
free times, an FAQ answer (the salon's own words) or the opening hours.

**A listing ends the run** when the model asks for it: a read tool called with
``show_customer`` records its result for the turn (``TurnState.shown``), and the next model
request of the run is not made — the run ends with :func:`shown_reply` as its output
(``agents.SystemReplies``). The model spends no request on copying a list out, and nothing in
the list can be misquoted: every word is a field of the tool's structured result, or this
file's frame around it, so it is sent as rendered (``TurnState.system_text``, truth.py); the
same words from a model are judged like any other.

The offline model says the same words for the same results when it writes them itself.
A result that is no listing (a refusal, a failure, a question, free times with none free)
renders nothing here: the model then answers as usual, with the result in front of it — and
so it does when any of the results it asked to show renders nothing (a failure is never left
untold beside a listing).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from agent_service.infrastructure.agent.messages import Sentences
from agent_service.infrastructure.agent.outcome_text import local_day, refusal
from agent_service.infrastructure.agent.outcome_text import say as outcome
from agent_service.infrastructure.agent.tools.discovery import SHORTEST_SERVICE
from agent_service.infrastructure.agent.tools.results import (
    AnyResult,
    Appointments,
    DayHours,
    DayTimes,
    FaqAnswer,
    FreeTimes,
    NoMatch,
    OpeningHours,
    ProfessionalItem,
    Professionals,
    ServiceItem,
    Services,
)

say = Sentences("listings")
"""The listing sentence ``key`` in ``language`` (English when unknown), filled in."""


def shown_reply(results: Iterable[AnyResult | None], language: str) -> str | None:
    """The reply for the results the model asked to show, in the order it called the tools;
    ``None`` when one of them is no listing (the model then answers itself)."""
    parts = [listing_text(data, language) for data in results]
    if not parts or any(part is None for part in parts):
        return None
    return "\n\n".join(dict.fromkeys(part for part in parts if part))


def listing_text(data: AnyResult | None, language: str) -> str | None:
    """What the customer reads for ``data``; ``None`` when it is no listing."""
    if isinstance(data, Services) and data.services:
        return _services(data.services, language)
    if isinstance(data, Professionals) and data.professionals:
        return _professionals(data.professionals, language)
    if isinstance(data, Appointments):
        if not data.appointments:
            return outcome("no_appointments", language)
        return say("appointments", language, items=appointment_items(data.appointments, language))
    if isinstance(data, FreeTimes):
        return free_times_text(data, language)
    if isinstance(data, FaqAnswer):
        if data.entries:
            return "\n".join(entry.answer for entry in data.entries[: data.answering])
        week = opening_hours_text(data.hours, language) if data.hours and data.hours.days else None
        if data.services and data.hours and data.hours.professional:  # one professional's card
            items = "\n".join(_service_lines(data.services, language))
            does = say("professional_services", language, professional=data.hours.professional,
                       items=items)  # fmt: skip
            return "\n\n".join(filter(None, [does, week]))
        if data.services:  # a kind of service and who does it
            people = [_professionals(data.professionals, language)] if data.professionals else []
            return "\n\n".join([_services(data.services, language), *people])
        return week
    if isinstance(data, NoMatch):
        return outcome("faq_unknown", language)
    return None


class Listed(Protocol):
    """An appointment as listed: a tool's item, or what the offline model read of one."""

    @property
    def service(self) -> str: ...
    @property
    def professional(self) -> str: ...
    @property
    def when(self) -> str: ...


def _services(services: Iterable[ServiceItem], language: str) -> str:
    return say("services", language, items="\n".join(_service_lines(services, language)))


def _service_lines(services: Iterable[ServiceItem], language: str) -> list[str]:
    return [
        say("service_item", language, name=s.name, minutes=s.minutes, price=s.price)
        for s in services
    ]


def _professionals(professionals: Iterable[ProfessionalItem], language: str) -> str:
    items = [_professional(p, language) for p in professionals]
    return say("professionals", language, items="\n".join(items))


def _professional(person: ProfessionalItem, language: str) -> str:
    key = "professional_item" if person.specialty else "professional_item_plain"
    return say(
        key,
        language,
        name=person.name,
        specialty=person.specialty,
        services=", ".join(person.services),
    )


def appointment_items(appointments: Iterable[Listed], language: str) -> str:
    """``1. Corte — Ana — terça-feira 01/12/2026 10:00``, one line each."""
    return "\n".join(
        say(
            "appointment_item",
            language,
            number=number,
            service=a.service,
            professional=a.professional,
            when=a.when,
        )
        for number, a in enumerate(appointments, 1)
    )


MAX_TIMES_A_DAY = 12
"""Free times shown for one day (a range shows ``MAX_TIMES_A_DAY_IN_RANGE`` a day): a reply
stays short enough to read, and is never cut mid-list by the reply's length limit."""
MAX_TIMES_A_DAY_IN_RANGE = 6


def free_times_text(data: FreeTimes, language: str) -> str | None:
    """One professional's free times: one day in a sentence, several one line each, the
    earliest of each day; when some are left out, how to see others (a clause of the times,
    :func:`more_times_clause`). A closed day is said as the refusal it is; results of several
    professionals, or none, are no listing (the model says them)."""
    if len({day.professional for day in data.days}) != 1:
        return None
    if not any(day.times for day in data.days) and not all(day.closed for day in data.days):
        return None  # none free: what to offer instead is the model's to say
    professional = data.days[0].professional
    if not any(day.times for day in data.days):  # every day closed: the refusal
        return refusal(data, None, language)
    for_service = _for_service(data.days, language)
    if len(data.days) == 1:
        day = data.days[0]
        listed = say(
            counted_key("free_times", len(day.times)),
            language,
            professional=professional,
            for_service=for_service,
            day=day_label(day, language),
            times=_first(day.times, MAX_TIMES_A_DAY, language),
            count=len(day.times),
        )
        return f"{listed} {say('which_time', language)}"
    lines = [
        say(
            counted_key("free_day", len(day.times)),
            language,
            day=day_label(day, language),
            count=len(day.times),
            times=_first(day.times, MAX_TIMES_A_DAY_IN_RANGE, language)
            or say("no_free_time", language),
        )
        for day in data.days
    ]
    listed = say(
        "free_days",
        language,
        professional=professional,
        for_service=for_service,
        items="\n".join(lines),
    )
    return f"{listed}\n{say('which_time', language)}"


def counted_key(key: str, count: int) -> str:
    """The listing that says how many times there are (``key`` + ``_counted``: "11 horários
    livres com Ana…"), when there are two or more: any question of how many is answered
    whatever its words, and a page that leaves some out says how many it left."""
    return f"{key}_counted" if count >= 2 else key


def _for_service(days: list[DayTimes], language: str) -> str:
    """ " para Corte feminino": the service the times are for, when one was named."""
    services = {day.service for day in days}
    if len(services) != 1 or SHORTEST_SERVICE in services:
        return ""
    return say("for_service", language, service=services.pop())


SMALL_TAIL = 2
"""A page never leaves out this many times or fewer: they are shown with it (session 40's
blind batch: "a partir das 15h" hid the sixth and last time, 17:30, behind "see others")."""


def page(times: list[str], size: int) -> list[str]:
    """The times a listing of ``size`` shows: the first ``size``, or all of them when only a
    small tail (``SMALL_TAIL``) would be left out."""
    return times if len(times) <= size + SMALL_TAIL else times[:size]


def _first(times: list[str], shown: int, language: str) -> str:
    """The page of ``times`` (:func:`page`), and how to see the others when some are left
    out."""
    listed = page(times, shown)
    more = more_times_clause(language) if len(times) > len(listed) else ""
    return ", ".join(listed) + more


def more_times_clause(language: str) -> str:
    """ "— para ver outros, diga um período (manhã, tarde) ou outro horário": how to see more
    free times, as a clause that ends the times' sentence (a sentence of its own would be a
    statement no tool told, which the truth rules take out of a model's reply)."""
    more = outcome("more_times", language).rstrip(".")
    return f" — {more[:1].lower()}{more[1:]}"


day_label = local_day


def opening_hours_text(hours: OpeningHours, language: str) -> str:
    """ "Abrimos segunda, das 08:00 às 18:00; terça a sexta, das 08:00 às 19:00. Fechado:
    domingo." — consecutive days with the same hours said as a range, other days with the
    same hours listed together ("segunda, quarta, sexta, das 09:00 às 18:00"): a range is
    never said over a day that is not worked with those hours."""
    runs: list[list[DayHours]] = []
    for day in hours.days:
        last = runs[-1][-1] if runs else None
        if last is not None and _same_run(last, day):
            runs[-1].append(day)
        else:
            runs.append([day])
    by_hours: dict[tuple[str, str], list[str]] = {}
    for run in runs:
        by_hours.setdefault((run[0].opens, run[0].closes), []).append(
            run[0].weekday
            if len(run) == 1
            else say("opening_range", language, first=run[0].weekday, last=run[-1].weekday)
        )
    spans = [
        say("opening_day", language, opens=opens, closes=closes, days=", ".join(days))
        for (opens, closes), days in by_hours.items()
    ]
    days = "; ".join(spans)
    if hours.professional:
        reply = say("working_hours", language, professional=hours.professional, days=days)
        off = "days_off"
    else:
        reply, off = say("opening_hours", language, days=days), "closed_days"
    if hours.closed:
        reply += " " + say(off, language, days=", ".join(hours.closed))
    return reply


def _same_run(last: DayHours, day: DayHours) -> bool:
    """Whether ``day`` follows ``last`` in the week, with the same hours."""
    same = (last.opens, last.closes) == (day.opens, day.closes)
    return same and bool(last.day) and day.day == last.day + 1
