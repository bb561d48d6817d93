# Over 300 lines: the booking dialogue is one ordered rule list; parsers are in when/matching.
"""The booking specialist's offline behaviour: fill service, professional, day and time from
the customer's words, check availability, ask for confirmation, book."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta

from pydantic_ai.messages import ModelResponse

from agent_service.application.consent_policy import read_answer
from agent_service.domain.availability import local_instant
from agent_service.infrastructure.agent import outcome_text
from agent_service.infrastructure.agent.listings import counted_key, listing_text
from agent_service.infrastructure.agent.offline import catalog
from agent_service.infrastructure.agent.offline.anchors import anchor_in, placed
from agent_service.infrastructure.agent.offline.availability_flow import (
    date_range,
    listing,
    ordinal_not_day,
    range_listing,
    team_step,
    wanted,
    wants_anyone,
)
from agent_service.infrastructure.agent.offline.context import OfflineContext, ToolResult
from agent_service.infrastructure.agent.offline.corrections import (
    affirmed,
    asks_for_another,
    negated,
    says_any,
)
from agent_service.infrastructure.agent.offline.exclusions import (
    excluded_days,
    excluded_people,
    first_day_at,
)
from agent_service.infrastructure.agent.offline.matching import (
    best_service,
    service_candidates,
    visit_parts,
)
from agent_service.infrastructure.agent.offline.nlu import (
    asks_for_times,
    best_person,
    classify_intent,
    is_affirmative,
    is_negative,
    is_reluctant,
    normalize,
    parse_when,
)
from agent_service.infrastructure.agent.offline.nudges import nudged
from agent_service.infrastructure.agent.offline.refusals import refusal_text
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.offline.responses import (
    call,
    calls,
    confirmation_summary,
    done_summary,
    failure_detail,
    text,
)
from agent_service.infrastructure.agent.offline.when import (
    When,
    disagreeing_days,
    has_when_mention,
    loose_time,
    shift,
    two_readings,
)
from agent_service.infrastructure.agent.tools.discovery import MAX_RANGE_DAYS
from agent_service.infrastructure.agent.tools.formatting import weekday_name
from agent_service.infrastructure.agent.tools.results import Failed, NotOffered, Proposed
from agent_service.infrastructure.language.grammar.asks import asks_another_time
from agent_service.infrastructure.language.grammar.vocabulary import any_of
from agent_service.infrastructure.language.rules import language_rules


@dataclass
class Request:
    service: catalog.ServiceInfo | None
    professional: catalog.ProfessionalInfo | None
    day: date | None
    at: time | None
    not_offered: catalog.ProfessionalInfo | None = None
    """A professional the customer named who does not offer the service (never substituted)."""
    other_week: When | None = None
    """The day was "next Tuesday" while Tuesday is this week: which one is asked, never guessed."""
    tied: list[catalog.ServiceInfo] = field(default_factory=list)
    """The services the customer's words may mean when they fit several ("a haircut"): asked."""


def booking_step(ctx: OfflineContext) -> ModelResponse:
    pending = ctx.pending or {}
    confirmed = pending.get("tool") == "book_appointment" and pending.get("confirmed")
    if confirmed and not ctx.called("book_appointment"):
        return call("book_appointment", **pending["arguments"])
    booked = ctx.result("book_appointment")
    if booked is not None:
        return _after_book(ctx, booked)
    if ctx.turned_down is not None and is_reluctant(ctx.text) and not _asks_something_new(ctx):
        # "não, obrigado, vou pensar": the message said no to the proposal (or held back) and
        # asks for nothing else (no day, time, service, professional, no change): left there.
        return text(say("declined", ctx.language))
    # "não, melhor às 15h" and "ah não, quero com a Patrícia" are corrections, not refusals:
    # they go on with the new value. A "no" that names nothing declines.
    if (
        is_negative(ctx.text)
        and not has_when_mention(ctx.text)
        and (
            not affirmed(ctx.text, ctx.language) or (ctx.knows_catalog() and not _names_entry(ctx))
        )
    ):
        return text(say("declined", ctx.language))
    if not ctx.knows_catalog():  # looked up once per task: the ids stay in its history
        return calls("list_services", "list_professionals")
    return _next_question_or_action(ctx)


def _day_name(day: date, language: str) -> str:
    """ "December 3" in English, "03/12" in Portuguese (unambiguous there)."""
    return f"{day:%B} {day.day}" if language == "en" else f"{day:%d/%m}"


def _names_entry(ctx: OfflineContext) -> bool:
    """Whether the message's affirmed part names a service or a professional."""
    services = catalog.services(ctx.catalog("list_services"))
    professionals = catalog.professionals(ctx.catalog("list_professionals"))
    said = affirmed(ctx.text, ctx.language)
    return bool(service_candidates(said, [s.words for s in services])) or (
        best_person(said, [p.words for p in professionals]) is not None
    )


def _next_question_or_action(ctx: OfflineContext) -> ModelResponse:
    services = catalog.services(ctx.catalog("list_services"))
    professionals = catalog.professionals(ctx.catalog("list_professionals"))
    anchor = anchor_in(ctx)
    # "com a mesma profissional do meu RPG", "logo depois da minha sessão": what describes the
    # customer's own appointment is no part of the request
    asked = replace(ctx, text=anchor.before) if anchor is not None else ctx
    request = _understand(asked, services, professionals)
    if anchor is not None:
        if ctx.result("list_my_appointments") is None:
            return call("list_my_appointments")
        place = placed(ctx, anchor, services, professionals)
        if place is not None:
            request.professional = place.professional or request.professional
            request.day, request.at = place.day or request.day, place.at or request.at
    visit = _visit(ctx, services, professionals, request)
    if visit:
        return _visit_step(ctx, visit, request)
    span = _span(ctx, request.day, request.at)
    excluded = excluded_days(negated(ctx.text, ctx.language), ctx.now)
    if request.day in excluded:
        request.day = None  # a day the customer excluded is never the request's
    if request.day is None and request.service is not None:
        # "qualquer dia menos terça às 7h", "this week at 7am": the first day of the span (or of
        # the coming days) that is not excluded and has the time free; "o primeiro horário
        # livre": the first free start (what the customer wants is read only then)
        if request.at is not None:
            first_day = span is not None or bool(excluded and says_any(ctx.text))
        else:
            first_day = wanted(ctx).earliest
        if first_day:
            return first_day_at(
                ctx, request.service, request.professional, professionals, request.at, span,
                excluded,
            )  # fmt: skip
    if span is not None and request.day is None:
        request.day = span[0]
    if request.not_offered is not None and request.service is not None:
        who = [p.name for p in professionals if request.service.name in p.services]
        return text(
            outcome_text.not_offered(
                request.not_offered.name, request.service.name, who, ctx.language
            )
        )
    if request.other_week is not None and request.day is not None:
        return text(_which_week(ctx, request.day, request.other_week))
    if request.day is not None and request.day < ctx.now.date():
        return _past_day(ctx, request.day, request.professional or next(iter(professionals), None))
    if (
        request.service is None
        and request.professional
        and request.day
        and asks_for_times(ctx.text)
    ):
        offered = [s for s in services if s.name in request.professional.services]
        if len({s.minutes for s in offered}) > 1:
            # The free times depend on the length: ask which service, never assume one.
            items = ", ".join(f"{s.name} ({s.minutes} min)" for s in offered)
            return text(say("ask_service_for_times", ctx.language,
                            professional=request.professional.name, items=items))  # fmt: skip
        return _windows(ctx, request.professional, request.day)
    if request.service is None:
        options = request.tied or services
        return text(say("ask_service", ctx.language, items=", ".join(s.name for s in options)))
    clash = _day_clash(ctx)
    if clash is not None:  # "sexta dia 5" when the 5th is a Saturday: asked, neither picked
        first, second = (
            f"{weekday_name(d, ctx.language)} {_day_name(d, ctx.language)}" for d in clash
        )
        return text(say("ask_day_disagrees", ctx.language, first=first, second=second))
    if request.professional is None:
        offering = [p for p in professionals if request.service.name in p.services]
        anyone = wants_anyone(ctx.texts)
        if anyone and request.day is None:
            return text(say("ask_day_anyone", ctx.language, service=request.service.name))
        if request.day is not None and request.day >= ctx.now.date():
            # A day said and nobody named: who is free then decides (asked among those free).
            return team_step(ctx, request.service, offering, request.day, request.at, anyone=anyone)
        names = [p.name for p in offering]
        return text(say("ask_professional", ctx.language, items=", ".join(names)))
    readings = two_readings(ctx.text, ctx.now)
    if request.day is None and readings is not None:
        written, month_first, day_first = readings
        first, second = (_day_name(d, ctx.language) for d in (month_first, day_first))
        return text(say("ask_day_two_readings", ctx.language, written=written,
                        first=first, second=second))  # fmt: skip
    if request.day is None:
        return text(
            say(
                "ask_day",
                ctx.language,
                service=request.service.name,
                professional=request.professional.name,
            )
        )
    if request.at is None:
        return _availability(ctx, request, span)
    if (
        ctx.pending is None
        and is_affirmative(ctx.text)
        and not has_when_mention(ctx.text)
        and shift(ctx.text) is None  # "pode ser 1 hora mais tarde?" says when
    ):
        # A "yes" to no question (e.g. after a refusal) never repeats the refused proposal.
        return text(say("ask_other_time", ctx.language))
    if _changes_nothing_said(ctx, services, professionals):
        # "muda o horário", "actually, another time": a change with no new value is asked,
        # never answered with the same proposal again.
        return text(say("ask_what_change", ctx.language))
    start = local_instant(request.day, request.at, ctx.zone).astimezone(ctx.zone)
    return call(
        "book_appointment",
        professional_id=request.professional.id,
        service_id=request.service.id,
        start_time=start.isoformat(),
    )


Part = tuple[list[catalog.ServiceInfo], catalog.ProfessionalInfo | None]


def _visit(
    ctx: OfflineContext,
    services: list[catalog.ServiceInfo],
    professionals: list[catalog.ProfessionalInfo],
    request: Request,
) -> list[Part]:
    """The services of one visit, from the newest message that names services: each with its
    candidates (one, or a tie the professional narrows) and its professional (named in its
    part, else the request's when they offer it, else the only one who does)."""
    names = [s.words for s in services]
    for candidate in (affirmed(t, ctx.language) for t in ctx.fresh_texts):
        parts = visit_parts(candidate, names)
        if not parts and not service_candidates(candidate, names):
            continue
        visit: list[Part] = []
        for part, found in parts:
            named = best_person(part, [p.words for p in professionals])
            person = professionals[named] if named is not None else request.professional
            options = [services[i] for i in found]
            if person is not None:
                options = [s for s in options if s.name in person.services] or options
            if len(options) == 1 and (person is None or options[0].name not in person.services):
                offering = [p for p in professionals if options[0].name in p.services]
                person = offering[0] if len(offering) == 1 else None
            visit.append((options, person))
        return visit
    return []


def _visit_step(ctx: OfflineContext, visit: list[Part], request: Request) -> ModelResponse:
    """Several services asked together: each one resolved, then one proposal of the whole
    visit, back to back (book_appointment's ``then``); never one of them silently dropped."""
    for options, person in visit:
        if len(options) > 1:
            return text(say("ask_service", ctx.language, items=", ".join(s.name for s in options)))
        if person is None:
            return text(say("ask_professional_for", ctx.language, service=options[0].name))
    listed = " + ".join(options[0].name for options, _ in visit)
    if request.day is None:
        return text(say("ask_day_visit", ctx.language, services=listed))
    if request.at is None:
        return text(say("ask_time_visit", ctx.language, services=listed))
    (first, *_), who = visit[0]
    assert who is not None
    then = ",".join(f"{options[0].id}:{person.id}" for options, person in visit[1:] if person)
    start = local_instant(request.day, request.at, ctx.zone).astimezone(ctx.zone)
    return call("book_appointment", professional_id=who.id, service_id=first.id,
                start_time=start.isoformat(), then=then)  # fmt: skip


def _span(ctx: OfflineContext, day: date | None, at: time | None) -> tuple[date, date] | None:
    """The days a question for free times covers: the range the message names ("semana que
    vem"); with no day and no time named at all (this message or before), the coming days,
    never a question back for the day. A time with no day is asked its day: it never becomes
    today's ("tem horário às 15h?")."""
    span = date_range(ctx.text, ctx.now.date())
    if span is None and day is None and at is None and asks_for_times(ctx.text):
        today = ctx.now.date()
        return today, today + timedelta(days=MAX_RANGE_DAYS - 1)  # one check covers them
    return span


def _availability(
    ctx: OfflineContext, request: Request, span: tuple[date, date] | None
) -> ModelResponse:
    assert request.professional is not None and request.service is not None
    assert request.day is not None
    checked = ctx.result("check_availability")
    if checked is None:
        return call(
            "check_availability",
            professional_id=request.professional.id,
            target_date=(span[0] if span else request.day).isoformat(),
            service_id=request.service.id,
            **({"end_date": span[1].isoformat()} if span else {}),
        )
    if span is not None and not checked.is_retry:
        listed = listing_text(checked.data, ctx.language)  # the system's words for the range
        if listed is not None:
            return text(listed)
        items = range_listing(checked, ctx.language)
        return text(say("range_times", ctx.language, professional=request.professional.name,
                        items=items))  # fmt: skip
    day = request.day.strftime("%d/%m" if ctx.language == "pt" else "%Y-%m-%d")
    times = catalog.free_times(checked)
    refusal = refusal_text(checked, ctx.language)
    if refusal is not None:
        return text(refusal)
    if checked.code in ("NOT_FOUND", "UNAVAILABLE") or checked.is_retry:
        return text(say("failed", ctx.language, detail=failure_detail(checked)))
    if not times:
        return text(_none_free(checked, ctx.language))
    want = wanted(ctx)
    fitting = want.fitting(times)
    picked = want.pick(fitting)
    if picked is not None:  # "o mais cedo", "the first one": that time, proposed
        start = local_instant(request.day, time.fromisoformat(picked), ctx.zone)
        return call(
            "book_appointment",
            professional_id=request.professional.id,
            service_id=request.service.id,
            start_time=start.astimezone(ctx.zone).isoformat(),
        )
    if not fitting:
        everything = listing(times, ctx.language)
        return text(say("times_part", ctx.language, professional=request.professional.name,
                        day=day, times=everything))  # fmt: skip
    shown = listing(fitting, ctx.language)
    key = counted_key("times", len(times)) if fitting == times else "times"  # a window's: no count
    name = request.professional.name
    return text(say(key, ctx.language, professional=name, day=day, times=shown, count=len(times)))


def _past_day(
    ctx: OfflineContext, day: date, professional: catalog.ProfessionalInfo | None
) -> ModelResponse:
    """A day already gone: the availability tool says so (its refusal is what the reply
    states, never the model's own reading of the clock)."""
    checked = ctx.result("check_availability")
    if checked is None and professional is not None:
        return call(
            "check_availability", professional_id=professional.id, target_date=day.isoformat()
        )
    refusal = refusal_text(checked, ctx.language) if checked is not None else None
    return text(refusal or say("try_other_day", ctx.language))


def _windows(
    ctx: OfflineContext, professional: catalog.ProfessionalInfo, day: date
) -> ModelResponse:
    """A professional's free times with no service named (the shortest service's length)."""
    checked = ctx.result("check_availability")
    if checked is None:
        return call(
            "check_availability", professional_id=professional.id, target_date=day.isoformat()
        )
    refusal = refusal_text(checked, ctx.language)
    if refusal is not None:
        return text(refusal)
    shown_day = day.strftime("%d/%m" if ctx.language == "pt" else "%Y-%m-%d")
    every = catalog.free_times(checked)
    if not every:
        return text(_none_free(checked, ctx.language))
    times = listing(wanted(ctx).fitting(every), ctx.language)
    if not times:
        return text(say("times_part", ctx.language, professional=professional.name,
                        day=shown_day, times=listing(every, ctx.language)))  # fmt: skip
    return text(
        say("windows", ctx.language, professional=professional.name, day=shown_day, times=times)
    )


def _none_free(checked: ToolResult, language: str) -> str:
    """A day with no free time: the system's own sentence (an absence is told in its words
    only), then asking for another day."""
    said = outcome_text.none_free(checked.data, language)
    return " ".join([*said, outcome_text.say("try_other_day", language)])


def _after_book(ctx: OfflineContext, result: ToolResult) -> ModelResponse:
    summary = confirmation_summary(result)
    if summary is not None:
        lead = say("confirm", ctx.language, summary=summary)
        intent, _ = classify_intent(ctx.text, ctx.language)
        if isinstance(result.data, Proposed) and intent == "discovery":
            # "quanto custa?" in the middle of a booking: the price, and the proposal again.
            prices = [say("service_price", ctx.language, service=i.service, price=i.price)
                      for i in result.data.items]  # fmt: skip
            return text(" ".join([*prices, lead]))
        return text(lead)
    done = done_summary(result)
    if done is not None:
        return text(say("booked", ctx.language, summary=done))
    if result.code == "PENDING":
        return text(say("pending", ctx.language))
    if result.code == "NOT_CONFIRMED_YET":  # the system's receipt says it is in progress
        return text(say("unsettled", ctx.language))
    refusal = refusal_text(result, ctx.language)
    if refusal is not None:
        return text(refusal)
    if isinstance(result.data, NotOffered):
        return text(_not_offered(ctx, result.data))
    if isinstance(result.data, Failed) and result.data.reason == "question_open":
        return text("")  # the system asks the open question again: its note is for a model
    return text(say("failed", ctx.language, detail=failure_detail(result)))


def _asks_something_new(ctx: OfflineContext) -> bool:
    """Whether the message asks for something besides turning the proposal down: a question,
    a day or a time, a change by name ("quero mudar") or a part of the day in what is left
    once its answer words, fillers and greetings are read (``consent_policy.read_answer``:
    "vou pensar, ok?", "vou pensar, boa tarde!" ask nothing), or a service or a professional."""
    rules = language_rules().consent_in(ctx.language)
    rest = read_answer(ctx.text, rules, "book").leftover
    folded = normalize(rest)
    return (
        ("?" in ctx.text and bool(folded))  # "não sei, tem mais tarde?": answered, not closed
        or has_when_mention(rest)
        or _names_entry(ctx)
        or any(any_of(*words).search(folded) for words in CHANGE_WORDS)
    )


CHANGE_WORDS = (
    ("intents", "change_request"),
    ("parts", "morning"),
    ("parts", "afternoon"),
    ("parts", "evening"),
)
"""A change asked for by name ("quero mudar", "another day", "otro día") or a part of the day
("não, à tarde")."""


def _not_offered(ctx: OfflineContext, data: NotOffered) -> str:
    return outcome_text.not_offered(data.professional, data.service, data.offered_by, ctx.language)


def _understand(
    ctx: OfflineContext,
    services: list[catalog.ServiceInfo],
    professionals: list[catalog.ProfessionalInfo],
) -> Request:
    # A correction replaces the earlier value: "com o Lucas não, com o Pedro" reads as Pedro,
    # and a name the customer just said no to is never taken from an earlier message.
    texts = [affirmed(candidate, ctx.language) for candidate in ctx.texts]
    refused = negated(ctx.text, ctx.language)
    named = _first_match(texts, [p.words for p in professionals], refused)
    person = professionals[named] if named is not None else None
    candidates = _first_services(texts, services, refused)
    if len(candidates) > 1 and person is not None:
        # "um corte com o Thiago": of the services the words may mean, the one they offer.
        offered = [i for i in candidates if services[i].name in person.services]
        candidates = offered if len(offered) == 1 else candidates
    chosen = services[candidates[0]] if len(candidates) == 1 else None
    day, at, other_week = _when(ctx)
    if chosen is None and person is not None and len(person.services) == 1:
        chosen = next((s for s in services if s.name == person.services[0]), None)
    if person is not None and chosen is not None and chosen.name not in person.services:
        # Never book someone else silently: say who does it instead.
        return Request(chosen, None, day, at, not_offered=person)
    excluded = excluded_people(refused, professionals)
    offering = [
        p
        for p in professionals
        if chosen is not None and chosen.name in p.services and p not in excluded
    ]
    names_now = best_person(texts[0], [p.words for p in professionals]) is not None
    if person is not None and not names_now and asks_for_another(ctx.text):
        # "mejor con la otra profe": someone else who does it, never the one named before
        others = [p for p in offering if p is not person]
        if others:  # with nobody else, what the one who does it has is said as before
            person = others[0] if len(others) == 1 else None
            offering = others
    if person is None and len(offering) == 1:
        person = offering[0]
    tied = [services[i] for i in candidates] if chosen is None and len(candidates) > 1 else []
    return Request(chosen, person, day, at, other_week=other_week, tied=tied)


def _day_clash(ctx: OfflineContext) -> tuple[date, date] | None:
    """A weekday and a date that are different days, in the newest message that names a day
    (the request's day comes from it: "sexta dia 5", then "com a Ana")."""
    for candidate in (affirmed(t, ctx.language) for t in ctx.fresh_texts):
        if parse_when(candidate, ctx.now).day is not None:
            return disagreeing_days(candidate, ctx.now)
    return None


def _first_services(
    texts: list[str], services: list[catalog.ServiceInfo], refused: str = ""
) -> list[int]:
    """The services the newest message that names any may mean (one, or a tie to ask about);
    one the customer just said no to only counts in the message that replaces it."""
    names = [s.words for s in services]
    said_no = best_service(refused, names) if refused else None
    for position, candidate in enumerate(texts):
        found = service_candidates(candidate, names)
        if found and (found != [said_no] or position == 0):
            return found
    return []


def _first_match(texts: list[str], names: list[tuple[str, ...]], refused: str = "") -> int | None:
    """The entry the newest message names; one named in ``refused`` (what the customer just
    said no to) only counts in the message that replaces it."""
    said_no = best_person(refused, names) if refused else None
    for position, candidate in enumerate(texts):
        index = best_person(candidate, names)
        if index is not None and (index != said_no or position == 0):
            return index
    return None


def _when(ctx: OfflineContext) -> tuple[date | None, time | None, When | None]:
    """The newest day mentioned and the newest time mentioned (a later message may change
    only the time, e.g. "11h then"), and the day's mention when it has another reading."""
    day = at = None
    other_week: When | None = None
    texts = [affirmed(candidate, ctx.language) for candidate in ctx.fresh_texts]
    if len(texts) > 1 and is_aside(texts[0]):
        texts = texts[1:]  # "nossa, tá calor hj né" does not move the request to today
    if asks_for_times(ctx.text):  # a new question for times never inherits an earlier time
        texts = texts[:1]
    moved_by = shift(texts[0]) if len(texts) > 1 else None
    for position, candidate in enumerate(texts):
        parsed = parse_when(candidate, ctx.now)
        later = position == 0 and len(texts) > 1  # a follow-up, not the request itself
        if later and moved_by is not None:
            continue  # "1 hora mais tarde": the earlier time, moved (below)
        if later and parsed.at is None and any_of("intents", "change").search(normalize(candidate)):
            # "tem como ser 10 e meia?", "make it 11 instead": a bare number that changes
            # the time is the new time (never the old one proposed again).
            parsed = When(parsed.day, loose_time(candidate), parsed.day_text, parsed.alternative)
        if parsed.day is not None and ordinal_not_day(parsed.day_text, ctx.language):
            parsed = replace(parsed, day=None, day_text="", alternative=None)  # "la segunda"
        if day is None and parsed.day is not None and parsed.alternative is not None:
            other_week = parsed
        day = day or parsed.day
        at = at or parsed.at
        if day and at:
            break
    if moved_by is not None and at is not None:
        at = (datetime.combine(_EPOCH.date(), at) + moved_by).time()
    current = parse_when(texts[0], ctx.now) if len(texts) > 1 else None
    superlative = current and current.at is None and (current.earliest or current.latest)
    if nudged(ctx) is not None or (superlative and asks_another_time(normalize(ctx.text))):
        # "mais cedo?": the nearest free time that way; "o mais cedo possível?": the first
        # (``Wanted``) — never the old time again
        at = None
    return day, at, other_week


def _which_week(ctx: OfflineContext, day: date, said: When) -> str:
    """Which of the two days a weekday may mean, in the conversation's language ("Friday Dec
    4 or Friday Dec 11", "sexta 04/12 ou sexta 11/12")."""
    assert said.alternative is not None

    def shown(value: date) -> str:
        return f"{value:%b} {value.day}" if ctx.language == "en" else f"{value:%d/%m}"

    weekday = weekday_name(day, ctx.language)
    first, second = sorted((day, said.alternative))
    return say("ask_which_week", ctx.language, day=weekday, first=shown(first),
               second=shown(second))  # fmt: skip


def _changes_nothing_said(
    ctx: OfflineContext,
    services: list[catalog.ServiceInfo],
    professionals: list[catalog.ProfessionalInfo],
) -> bool:
    """A follow-up asking for a change that names no new day, time, service or person."""
    if len(ctx.texts) < 2 or not any_of("intents", "change_request").search(normalize(ctx.text)):
        return False
    said = affirmed(ctx.text, ctx.language)
    if has_when_mention(said) or loose_time(said) is not None or shift(said) is not None:
        return False
    return not service_candidates(said, [s.words for s in services]) and (
        best_person(said, [p.words for p in professionals]) is None
    )


_IN_PASSING = frozenset({"hoje", "hj", "today", "tonight", "amanha", "amnh", "tomorrow", "tmrw"})


def is_aside(message: str) -> bool:
    """A later remark that says "today"/"tomorrow" in passing ("nossa, tá calor hj né",
    "amanhã tenho prova, mas tudo bem"): no time, no question, no word of change, more than
    four words. A weekday or a date is always meant; so is a short "e hoje?"."""
    words = normalize(message)
    when = parse_when(message, _EPOCH)
    return (
        normalize(when.day_text) in _IN_PASSING
        and when.at is None
        and "?" not in message
        and len(words.split()) > 4
        and any_of("intents", "change").search(words) is None
    )


_EPOCH = datetime(2000, 1, 3, tzinfo=UTC)
