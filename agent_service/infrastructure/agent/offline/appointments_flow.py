# Over 300 lines: the appointments dialogue is one rule list (which one, where to, its answer).
"""The my-appointments specialist's offline behaviour: list, then cancel or reschedule the one
the customer means, after confirmation.

Which one (:func:`choose`): an ordinal ("o segundo") wins; else the customer's words narrow the
list by service (its name or aliases: "minha unha", "my nails appointment"), professional
("o horário com a Fernanda"), day and time ("o corte de sábado", "the 10am one"), reading the
current message and the one before. Exactly one left is the one; none or several is a question
("Qual deles?"), never a guess. A single appointment with no description is that one.

A move (:func:`move_parts`): "passar meu corte de terça pra quinta às 16h" — what comes before
the last "pra/para/pro/to/for" + a day or time describes the appointment, what follows is the
new time; a move by an amount ("uma hora mais tarde", "push it back an hour", "adiantar em 1
hora": ``[times]`` ``later``/``earlier`` and their verbs) is from the appointment's own time.
"""

from __future__ import annotations

import functools
import re
from datetime import UTC, date, datetime, time, timedelta

from pydantic_ai.messages import ModelResponse

from agent_service.domain.availability import local_instant
from agent_service.infrastructure.agent.listings import appointment_items
from agent_service.infrastructure.agent.listings import say as listing_say
from agent_service.infrastructure.agent.offline import catalog
from agent_service.infrastructure.agent.offline.context import OfflineContext, ToolResult
from agent_service.infrastructure.agent.offline.corrections import affirmed
from agent_service.infrastructure.agent.offline.intents import cancels_in_other_words
from agent_service.infrastructure.agent.offline.matching import best_service, ordinal_words
from agent_service.infrastructure.agent.offline.nlu import (
    best_match_group,
    is_negative,
    normalize,
    ordinal_choice,
    parse_when,
)
from agent_service.infrastructure.agent.offline.refusals import refusal_text
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.agent.offline.responses import (
    call,
    confirmation_summary,
    done_summary,
    failure_detail,
    is_pending,
    text,
)
from agent_service.infrastructure.agent.offline.text import detect_language, fold_with_map
from agent_service.infrastructure.agent.offline.upcoming import about_upcoming, intent_of
from agent_service.infrastructure.agent.offline.when import (
    has_when_mention,
    next_or_previous_day,
    shift,
)
from agent_service.infrastructure.language.grammar import part_of_day
from agent_service.infrastructure.language.grammar.asks import moves_own
from agent_service.infrastructure.language.grammar.vocabulary import (
    alternation,
    any_of,
    bounded,
    union,
    vocabularies,
)
from agent_service.infrastructure.language.rules import language_rules

_CANCEL = any_of("appointments", "cancel_words")
_MOVE = any_of("appointments", "move_words")
_CANT_MAKE_IT = any_of("appointments", "cant_make_it")
WRITES = ("cancel_appointment", "reschedule_appointment")


def appointments_step(ctx: OfflineContext) -> ModelResponse:
    pending = ctx.pending or {}
    confirmed = pending.get("tool") in WRITES and pending.get("confirmed")
    if confirmed and not ctx.called(pending["tool"]):
        return call(pending["tool"], **pending["arguments"])
    for tool in WRITES:
        result = ctx.result(tool)
        if result is not None:
            return _after_write(ctx, tool, result)
    if _declines(ctx) and not ctx.results:
        return text(say("declined", ctx.language))
    listed = ctx.result("list_my_appointments")
    if listed is None:
        # only to see them: the listing is the reply (the system shows it, listings.py)
        return call("list_my_appointments", show_customer=_wants(ctx) == (False, False))
    return _act(ctx, catalog.appointments(listed))


def _declines(ctx: OfflineContext) -> bool:
    """A "no" declines a pending confirmation; with none pending, a message that reads as
    negative only because it starts with "cancel" ("Cancel my appointment") is the request."""
    if not is_negative(ctx.text):
        return False
    return ctx.pending is not None or intent_of(ctx)[0] != "appointments"


def _wants(ctx: OfflineContext) -> tuple[bool, bool]:
    """(a move, a cancellation): what the current message and the one before ask for."""
    words = " ".join(normalize(t) for t in ctx.texts[:2])
    # "can we do my Thursday wash 30 min earlier?": an amount of time earlier or later, said
    # to the appointments specialist, moves one of them
    shifted = shift(ctx.text) is not None and not _CANCEL.search(normalize(ctx.text))
    wants_move = bool(_MOVE.search(words)) or moves_own(words, ctx.language) or shifted
    said_cancel = bool(_CANCEL.search(words)) or any(map(cancels_in_other_words, ctx.texts[:2]))
    if not said_cancel and ctx.pending is None and _CANT_MAKE_IT.search(normalize(ctx.text)):
        # "não vou conseguir ir no corte de quinta": not going to one of them, by name
        said_cancel = about_upcoming(ctx.text, ctx.upcoming, ctx.now, ctx.language)
    return wants_move, said_cancel and not wants_move


def _act(ctx: OfflineContext, appointments: list[catalog.AppointmentInfo]) -> ModelResponse:
    if not appointments:
        return text(say("no_appointments", ctx.language))
    wants_move, wants_cancel = _wants(ctx)
    items = appointment_items(appointments, ctx.language)
    if not (wants_move or wants_cancel):
        return text(listing_say("appointments", ctx.language, items=items))
    several = every_one(ctx.text, appointments, ctx.now) if wants_cancel else None
    if several is not None:
        rest = ",".join(a.id for a in several[1:])
        return call("cancel_appointment", appointment_id=several[0].id, also=rest)
    said = [acted_on(ctx.text, _CANCEL if wants_cancel else _MOVE), *ctx.texts[1:2]]
    chosen = choose(said, appointments, ctx.now, moving=wants_move, language=ctx.language)
    if chosen is None:
        return text(say("which_appointment", ctx.language, items=items))
    if wants_cancel:
        return call("cancel_appointment", appointment_id=chosen.id)
    return _reschedule(ctx, chosen)


_KEEP = bounded(alternation([*union("consent", "no_cancel"), *union("consent", "no_reschedule")]))


def acted_on(text: str, act: re.Pattern[str]) -> str:
    """The part of ``text`` that tells which appointment to act on: when a clause of it asks
    for the act (``act``: a cancel or move word) and refuses nothing, the clauses that refuse
    or keep ("o banho não, esse fica. cancela a vacina de quinta", "la vacuna no, esa la
    mantengo; cancela el baño") describe the ones to leave alone and are left out. A clause
    that asks for the act and refuses it ("não cancela o banho") is one of those."""
    clauses = [c for c in _CLAUSE.split(text) if c.strip()]
    refusing = [_refuses(c) for c in clauses]
    acting = [
        not r and bool(act.search(normalize(c))) for c, r in zip(clauses, refusing, strict=True)
    ]
    if not any(acting) or not any(refusing):
        return text
    return ", ".join(c for c, r in zip(clauses, refusing, strict=True) if not r)


_ALL = any_of("appointments", "all_words")
_BOTH = any_of("appointments", "both_words")


def every_one(
    text: str, appointments: list[catalog.AppointmentInfo], now: datetime
) -> list[catalog.AppointmentInfo] | None:
    """The appointments a cancellation of several names: with an all word in a clause that
    cancels ("cancela todos os meus horários", "cancel everything"), every one its words
    describe (all of them, or all the groomings: "cancel all my baths"); with a both word,
    the two there are. ``None`` when the message names no several (a "tudo bem" before
    "cancela a vacina" is in another clause) or a both word meets another number."""
    clauses = [c for c in map(normalize, _CLAUSE.split(text)) if _CANCEL.search(c)]
    every = any(_ALL.search(c) for c in clauses)
    both = any(_BOTH.search(c) for c in clauses)
    if not (every or both):
        return None
    said = _described(" ".join(clauses), now)
    left = list(appointments)
    for pick in (_by_service, _by_professional, _by_day):
        narrowed = pick(said, left)
        left = narrowed if narrowed else left
    if both and not every:
        return left if len(left) == 2 else None
    return left if len(left) >= 2 else None


def _refuses(clause: str) -> bool:
    """Whether a clause keeps an appointment or says no to one. A clause that starts with a
    cancel word ("cancel the bath": a negative start in a message) asks for the cancellation,
    and one that says the customer cannot make it ("não vou poder ir quinta") is its reason."""
    folded = normalize(clause)
    if _KEEP.search(folded):
        return True
    return (
        is_negative(clause)
        and not _CANCEL.match(folded.strip())
        and not _CANT_MAKE_IT.search(folded)
    )


_NEXT_OR_PREVIOUS_DAY = bounded(
    alternation([*union("dates", "next_day"), *union("dates", "previous_day")])
)
_CLAUSE = re.compile(r"[,.;:!?¿¡]+")
_INFINITIVE = re.compile(r"[a-z]{2,}(?:ar|er|ir)\b")
"""A Portuguese or Spanish infinitive ("jogar", "passar", "cambiar"): "pra"/"para" before
one is "in order to", never where an appointment goes."""
_WORD = re.compile(r"[a-z0-9]+")
_SAME_TIME = any_of("appointments", "same_time")
_SAME_DAY = any_of("appointments", "same_day")
_WEEK_LATER = any_of("appointments", "week_later")


def new_time(
    text: str, chosen: catalog.AppointmentInfo, now: datetime
) -> tuple[date | None, time | None]:
    """Where a move goes: the day and time after "pra/to"; "no mesmo horário"/"same time"
    keeps the appointment's time, "mesmo dia"/"same day" its day. Never the appointment's
    own day and time: "Thursday doesn't work anymore, Saturday 10am?" names its day first,
    so the day named after it is where it goes."""
    described, wanted = move_parts(text)
    targeted = bool(described)
    day, at = _new_time(wanted, chosen, now, targeted)
    if day is not None and day == chosen.day and at in (None, chosen.at):
        named = normalize(parse_when(wanted, now).day_text)
        folded = normalize(wanted)
        after = folded[folded.find(named) + len(named) :] if named and named in folded else ""
        later = _new_time(after, chosen, now, targeted) if after else (None, None)
        if later[0] is not None and later[0] != chosen.day:
            return later[0], later[1] or at
    return day, at


def _new_time(
    wanted: str, chosen: catalog.AppointmentInfo, now: datetime, targeted: bool
) -> tuple[date | None, time | None]:
    when, moved = parse_when(wanted, now), shift(wanted)
    if moved is not None and not targeted and next_or_previous_day(wanted):
        moved = None  # "the day after" counts only after "pra/to" ("I fly out the day after")
    if moved is not None and not targeted and _MOVE.search(normalize(wanted)):
        # with no "pra/to", an amount moves only in the clause of a move word: "passar meu
        # corte 1 dia mais tarde", not "quero remarcar, preciso avisar dois dias antes?" (with
        # no move word at all, the amount is the move)
        clauses = _CLAUSE.split(wanted)
        moved = next((m for c in clauses if _MOVE.search(normalize(c)) and (m := shift(c))), None)
    if moved is not None and when.at is None and chosen.day and chosen.at:  # "1 hora mais tarde"
        start = datetime.combine(when.day or chosen.day, chosen.at) + moved  # "pra quinta, ..."
        return start.date(), start.time()
    folded = normalize(wanted)
    same_time, same_day = _SAME_TIME.search(folded), _SAME_DAY.search(folded)
    # "the same time next week": a week later. "next week" alone names no day: asked.
    week_later = bool(_WEEK_LATER.search(folded)) and bool(same_time or same_day)
    day = when.day
    if day is None and chosen.day is not None and (week_later or same_day):
        day = chosen.day + timedelta(days=7 if week_later else 0)
    at = when.at or (chosen.at if same_time else None)
    return day, at


def _reschedule(ctx: OfflineContext, chosen: catalog.AppointmentInfo) -> ModelResponse:
    day, at = new_time(ctx.text, chosen, ctx.now)
    if day is None and at is not None and len(ctx.texts) > 1:
        # "sim, mas prefiro às 11h" after "remarca ... pra sábado às 10h": the day said before
        day = new_time(ctx.texts[1], chosen, ctx.now)[0]
    if day is None and at is not None and at != chosen.at and move_parts(ctx.text)[0]:
        # "muda minha barba pras 15h": a time after "pra/to" alone keeps the day (the
        # question says it in full); a time with no "pra" may describe the appointment
        day = chosen.day
    if at is None and day is not None and day != chosen.day and _day_alone(ctx.text):
        # "joga minha barba de sexta pro sábado": a day after "pra/to" alone keeps the time
        at = chosen.at
    if day is None or at is None:
        return text(say("ask_new_time", ctx.language, service=chosen.service))
    start = local_instant(day, at, ctx.zone).astimezone(ctx.zone)
    return call(
        "reschedule_appointment", appointment_id=chosen.id, new_start_time=start.isoformat()
    )


def _day_alone(text: str) -> bool:
    """A new day after "pra/to" with nothing about the time: no part of the day, window,
    earliest or latest ("pro sábado à tarde" asks which time, never the old one)."""
    new = move_parts(text)
    if not new[0]:
        return False
    when = parse_when(new[1], datetime(2026, 1, 5, 12, tzinfo=UTC))
    return not (when.window or when.earliest or when.latest or part_of_day(normalize(new[1])))


@functools.cache
def _to_words(language: str) -> re.Pattern[str]:
    """Where a move's new time starts ("pra", "to", "al"), in the message's language (a word
    of another language — Spanish "a" — is no boundary in an English message)."""
    spoken = [v for v in vocabularies() if v.code == language] or list(vocabularies())
    return bounded(alternation(p for v in spoken for p in v.patterns("appointments", "to_words")))


@functools.cache
def _booking_order() -> re.Pattern[str]:
    """ "o último que eu marquei", "the one I booked last", "lo último que reservé": a word
    for the last and a booked-verb within a few words, in either order."""
    last = alternation(union("appointments", "last_words"))
    booked = alternation(union("appointments", "booked_verbs"))
    near = r"\s+(?:[a-z0-9']+\s+){0,3}"
    return bounded(
        rf"(?:{last}){near}(?:{booked})|(?:{booked}){near}(?:{last})|(?:{last})\s+(?:{booked})|(?:{booked})\s+(?:{last})"
    )


def move_parts(text: str) -> tuple[str, str]:
    """``(describes the appointment, the new time)``: split before the last "pra/para/to"
    that is followed by a day or time ("da pra passar ... pra quinta"), or before an earlier
    one when only a day stands between the two ("al viernes a la misma hora", "al día
    siguiente, a la misma hora"); with none, the whole message is the new time."""
    folded, index = fold_with_map(text)
    words = _to_words(detect_language(text, ""))
    split: tuple[int, int] | None = None
    for match in reversed(list(words.finditer(folded))):
        start, end = index[match.start()], index[match.end() - 1] + 1
        if _MOVE.match(folded, match.end() + 1) or _INFINITIVE.match(folded, match.end() + 1):
            continue  # "I need to move ...", "dá pra jogar ...": a verb's "to", no target
        if split is None:
            if has_when_mention(text[end:]) or _relative_move(text[end:]):
                split = start, end
            elif has_when_mention(text[start:]):
                split = start, start  # the word is the time's own ("a las 15"): it stays
            continue
        between = text[end : split[0]]
        if not _only_a_day(between) and shift(between) is None:
            break
        split = start, end
    return (text[: split[0]], text[split[1] :]) if split else ("", text)


def _only_a_day(text: str) -> bool:
    """Whether ``text`` is a day and nothing else ("viernes", "sexta-feira"); which words name
    a day does not depend on the instant it is read at."""
    named = parse_when(text, datetime(2026, 1, 5, 12, tzinfo=UTC)).day_text
    words = set(_WORD.findall(normalize(text))) - set(_WORD.findall(normalize(named)))
    return bool(named) and not words  # punctuation is no word: "viernes," is a day


def _relative_move(text: str) -> bool:
    """ "the same time next week", "mesmo horário", "same day", "uma hora mais tarde": a new
    time said relative to the appointment's own."""
    folded = normalize(text)
    patterns = (_SAME_TIME, _SAME_DAY, _WEEK_LATER)
    return any(p.search(folded) for p in patterns) or shift(text) is not None


def choose(
    texts: list[str],
    appointments: list[catalog.AppointmentInfo],
    now: datetime,
    *,
    moving: bool = False,
    language: str | None = None,
) -> catalog.AppointmentInfo | None:
    """The appointment ``texts`` (newest first) describe; ``None`` when none or several fit.
    ``language``: the conversation's (its weekday names are read as days, ``_as_a_day``)."""
    if not appointments:
        return None
    if texts and _booking_order().search(normalize(texts[0])):
        # The list is by date; when each was booked is not known here: ask among several.
        return appointments[0] if len(appointments) == 1 else None
    index = ordinal_choice(texts[0], len(appointments)) if texts else None
    on_day = _as_a_day(texts[0], appointments, language) if index is not None else []
    if index is not None and (not on_day or appointments[index] in on_day):
        return appointments[index]
    # A clause that says no to an appointment does not describe the one meant ("not the
    # vaccine, cancel the Friday check-up"); one that cannot make it does ("não vou conseguir
    # ir no corte de quinta").
    kept = [t if _CANT_MAKE_IT.search(normalize(t)) else affirmed(t, language) for t in texts]
    described = [_described(_describing(t) if moving else t, now) for t in kept]
    left = list(appointments)
    said = False
    for pick in (_by_service, _by_professional, _by_day, _by_time):
        narrowed = next((pick(d, left) for d in described if pick(d, left) is not None), None)
        if narrowed is not None:
            said, left = True, narrowed
    if not said:
        return appointments[0] if len(appointments) == 1 else None
    if index is not None and not _said_besides_the_day(described, left):
        return None  # "a segunda": the second, or Monday's? Asked, never guessed
    return left[0] if len(left) == 1 else None


def _said_besides_the_day(described: list[Described], left: list[catalog.AppointmentInfo]) -> bool:
    """Whether the message tells the appointment by more than its day (its service or its
    professional: "cancela a lavagem de quinta")."""
    return any(
        pick(d, left) is not None for pick in (_by_service, _by_professional) for d in described
    )


def _as_a_day(
    text: str, appointments: list[catalog.AppointmentInfo], language: str | None
) -> list[catalog.AppointmentInfo]:
    """The appointments on the weekday a word of ``text`` names that is an ordinal too
    (Portuguese "quinta", the fifth and Thursday), in the conversation's ``language``; none
    when no such word is there or a digit or an ordinal mark says a position ("a 2ª")."""
    folded = normalize(text)
    if any(c.isdigit() for c in folded):
        return []
    rules = language_rules()
    codes = (language,) if language else rules.in_play("")  # "la segunda" is no lunes
    weekdays = {w: i for code in codes for w, i in rules.calendar(code).weekdays}
    named = {weekdays[w] for w in _WORD.findall(folded) if w in weekdays and w in ordinal_words()}
    return [a for a in appointments if a.day is not None and a.day.weekday() in named]


Described = tuple[str, date | None, time | None]


def _describing(text: str) -> str:
    """The part of a move's message that describes the appointment: before where it goes
    ("passa a barba de sexta pro sábado"); with nowhere named but an amount of time, the whole
    message ("joga o banho de quinta meia hora mais tarde": the amount says no day or time)."""
    described, wanted = move_parts(text)
    if not described and shift(wanted) is not None:
        return wanted
    return described


def _described(text: str, now: datetime) -> Described:
    when = parse_when(text, now) if text else None
    return text, (when.day if when else None), (when.at if when else None)


def _by_service(
    said: Described, left: list[catalog.AppointmentInfo]
) -> list[catalog.AppointmentInfo] | None:
    names = sorted({a.service: a.words for a in left}.items())
    index = best_service(said[0], [words for _name, words in names])
    return None if index is None else [a for a in left if a.service == names[index][0]]


def _by_professional(
    said: Described, left: list[catalog.AppointmentInfo]
) -> list[catalog.AppointmentInfo] | None:
    names = sorted({a.professional for a in left})
    index = best_match_group(said[0], [(name,) for name in names])
    return None if index is None else [a for a in left if a.professional == names[index]]


def _by_day(
    said: Described, left: list[catalog.AppointmentInfo]
) -> list[catalog.AppointmentInfo] | None:
    return None if said[1] is None else [a for a in left if a.day == said[1]]


def _by_time(
    said: Described, left: list[catalog.AppointmentInfo]
) -> list[catalog.AppointmentInfo] | None:
    return None if said[2] is None else [a for a in left if a.at == said[2]]


def _after_write(ctx: OfflineContext, tool: str, result: ToolResult) -> ModelResponse:
    summary = confirmation_summary(result)
    if summary is not None:
        key = "confirm_cancel" if tool == "cancel_appointment" else "confirm_reschedule"
        return text(say(key, ctx.language, summary=summary))
    done = done_summary(result)
    if done is not None:
        key = "cancelled" if tool == "cancel_appointment" else "rescheduled"
        return text(say(key, ctx.language, summary=done))
    if is_pending(result):
        return text(say("pending", ctx.language))
    refusal = refusal_text(result, ctx.language)
    if refusal is not None:
        return text(refusal)
    return text(say("failed", ctx.language, detail=failure_detail(result)))
