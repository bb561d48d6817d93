# Over 300 lines: every reading of the turn's tool returns a no-change reply is judged by.
"""What a reply of a turn that changed nothing may repeat as told (``application/statements``):
this turn's tool returns as the model read them and their text values, the words of those
values (not of the system's notes to the model), the system's sentences for the structured
results the conversation holds (``outcome_text.told``), and the values of this turn's
structured results with the item each belongs to (``application/relations``) — and the one
place a no-change turn's statement judge is built from them (``no_change_statements``)."""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from agent_service.application.fact_spans import (
    COUNTED_FIELDS,
    DURATION_FIELD,
    FactReader,
    Kind,
)
from agent_service.application.grounding import Grounding
from agent_service.application.relations import DAY_ROLE, Relations, ToldValue
from agent_service.application.statements import Statements
from agent_service.application.text import normalize
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.listings import listing_text
from agent_service.infrastructure.agent.outcome_text import Held, told
from agent_service.infrastructure.agent.statement_words import plain_and_denials, statement_rules
from agent_service.infrastructure.agent.tools.results import FaqAnswer, read_result, read_retry


def told_texts(texts: Sequence[ToolText], codes: Sequence[str], has_upcoming: bool) -> list[str]:
    """What a no-change reply may repeat as told (``statements``): this turn's tool returns,
    their text values and the system's listing of each (``listings``), and the system's
    sentences for the structured results the conversation holds (``outcome_text.told``)."""
    found: list[str] = []
    held = []
    for item in texts:
        values = _text_values(item.text)
        if item.this_turn:
            data = read_result(item.text)
            shown = (listing_text(data, code) for code in codes)  # the system's own listing
            found += [item.text, *values, *(text for text in shown if text)]
        held.append(_held(item))
    return found + told(held, codes, has_upcoming)


def told_words(texts: Sequence[ToolText]) -> frozenset[str]:
    """The folded words of this turn's tool returns — their values, not their notes (a note
    is the system's instruction to the model, not something a tool found) nor a service's
    ``kinds`` (the lexicon's identifiers that help the model match the customer's words:
    "haircut" is no name of a service, so "The haircut is R$ 40,00" is not told) nor an FAQ
    entry's question and answer: the salon's prose is told only in its own sentences, whole
    (its words rearranged drop its conditions: "Estacionamento: gratuito!" of "gratuito por
    2 horas")."""
    found: set[str] = set()
    for item in texts:
        if item.this_turn:
            values = _json_values(item.text, skip=NOTE_KEYS | KIND_KEYS | FAQ_KEYS)
            for value in [item.text] if values is None else values:
                found.update(_WORD.findall(normalize(value)))
    return frozenset(found)


def faq_answers(texts: Sequence[ToolText]) -> list[str]:
    """The FAQ answers this turn's searches returned: told only whole (``Statements``)."""
    found = []
    for item in texts:
        data = read_result(item.text) if item.this_turn else None
        if isinstance(data, FaqAnswer):
            found += [entry.answer for entry in data.entries[: data.answering]]
    return found


NOTE_KEYS = frozenset({"note"})
KIND_KEYS = frozenset({"kinds"})
FAQ_KEYS = frozenset({"question", "answer"})
_WORD = re.compile(r"[^\W\d_]+")


def _text_values(text: str) -> list[str]:
    """The strings inside a JSON tool return (an FAQ answer as the salon wrote it, unescaped);
    none for a plain text."""
    return _json_values(text) or []


def _json_values(text: str, skip: frozenset[str] = frozenset()) -> list[str] | None:
    """The strings inside ``text`` read as JSON, but those under a ``skip`` key; ``None`` when
    ``text`` is no JSON."""
    data = _parsed(text)
    if data is None:
        return None
    found: list[str] = []
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            stack.extend(v for k, v in value.items() if k not in skip)
        elif isinstance(value, list):
            stack.extend(value)
    return found


def this_turn_outcomes(texts: Sequence[ToolText], language: str) -> list[str]:
    """The system's sentences for this turn's structured outcomes in ``language`` (what a
    refused reply is replaced by: ``truth``)."""
    held = [_held(item) for item in texts if item.this_turn]
    return told(held, (language,), True, catalog=False)


def _held(item: ToolText) -> Held:
    """``item``'s structured result, or its tool's retry as it returned (or wrapped as a tool
    error's text)."""
    data = read_result(item.text)
    if data is not None:
        return Held(data, None, item.this_turn)
    retries = (read_retry(t) for t in (item.text, *_text_values(item.text)))
    return Held(None, next((r for r in retries if r is not None), None), item.this_turn)


REFUSALS = frozenset(
    {"NOT_FOUND", "UNAVAILABLE", "NOT_BOOKED", "NOT_CANCELLED", "NOT_RESCHEDULED", "NOT_DONE",
     "NO_MATCH"}
)  # fmt: skip
"""Results that say something was not done: none of their values is held in an item."""
UNTOLD_KEYS = frozenset({"note", "result", "id", "utc_offset", "time_zone", "quoted", "kinds"})
_PROFESSIONAL_KEYS = frozenset({"professional", "offered_by", "working_that_day"})
_NAME_KEYS = frozenset({"name", "aliases"})
_SERVICE_PARENTS = frozenset({"services", "options"})


def told_values(texts: Sequence[ToolText]) -> list[ToldValue]:
    """The values of this turn's structured tool returns, each with its role and the item of
    the result it belongs to (``application/relations``): every object of a result is an
    item, with the plain values of the objects around it (a day's free times with the
    result's professional). A refusal's values — the asked time that is not free, the
    professional who does not offer the service, a day not worked, a result of something not
    done — belong to no item; the day of an asked time that is not free is its item's when
    free times near it are (they are that day's: "às 11h na terça" after 10:00 refused)."""
    found: list[ToldValue] = []
    items = itertools.count()
    for item in texts:
        data = _json_object(item.text) if item.this_turn else None
        if data is not None:
            _item_values(data, (), [], found, items, _refused_keys(data), _days_kept(data))
    return found


CLOSED_KEY = "closed"
"""A day's flag that it is not worked, or the list of the days a week does not work
(``OpeningHours.closed``): their values are no fact of what is open."""
NOT_WORKED_FLAGS = (CLOSED_KEY, "day_off")
"""A day's flags that it is not worked: the business is closed, or the professional's day off
(``tools.results.DayTimes``). Such a day's values (its professional, weekday and date) are
told in no item: "A Carla trabalha segunda" after Carla's day off on Monday relates what the
result refuses (review 14: sent before)."""


def _json_object(text: str) -> dict[str, Any] | None:
    data = _parsed(text)
    return data if isinstance(data, dict) else None


@functools.lru_cache(maxsize=256)  # one judge reads each tool return three ways, turn after turn
def _parsed(text: str) -> Any:
    """``text`` read as JSON (an object or a list), or ``None``; never mutated by its readers."""
    if not text.startswith(("{", "[")):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _refused_keys(data: dict[str, Any]) -> frozenset[str] | None:
    """The keys of ``data`` whose values are a refusal's (``None``: all of them)."""
    code = data.get("result")
    if code in REFUSALS:
        return None
    if code == "NOT_AVAILABLE":
        return frozenset({"asked"} if data.get("nearest") else {"asked", "professional"})
    if code == "NOT_OFFERED":
        return frozenset({"professional"})
    return frozenset()


def _days_kept(data: dict[str, Any]) -> frozenset[str]:
    """The refused keys of ``data`` whose day its item still tells (``told_values``): the
    asked time that is not free, when the free times near it (that day's) are listed."""
    listed = data.get("result") == "NOT_AVAILABLE" and data.get("nearest")
    return frozenset({"asked"} if listed else ())


def _item_values(
    node: dict[str, Any],
    path: tuple[str, ...],
    around: list[tuple[str, tuple[str, ...], Any]],
    found: list[ToldValue],
    items: Iterator[int],
    refused: frozenset[str] | None,
    days: frozenset[str] = frozenset(),
) -> None:
    item = next(items)
    own: list[tuple[str, tuple[str, ...], Any]] = []
    children: list[tuple[str, dict[str, Any]]] = []
    plain: list[tuple[str, tuple[str, ...], Any]] = []
    for key, value in node.items():
        if key in UNTOLD_KEYS or key.endswith("_id") or isinstance(value, bool):
            continue
        if isinstance(value, dict):
            children.append((key, value))
        elif isinstance(value, list):
            children += [(key, v) for v in value if isinstance(v, dict)]
            own += [(key, path, v) for v in value if isinstance(v, str | int)]
            if key in COUNTED_FIELDS:  # how many: the item's, and its own items' too
                count = (f"{COUNT_KEY}{COUNTED_FIELDS[key]}", path, len(value))
                own.append(count)
                plain.append(count)
        elif isinstance(value, str | int):
            own.append((key, path, value))
            plain.append((key, path, value))
    closed = any(node.get(flag) is True for flag in NOT_WORKED_FLAGS)
    for key, where, value in [*own, *around]:
        # a day not worked (``closed``: a day's flag, or the list of a week's days off)
        untold = closed or key == CLOSED_KEY or refused is None or (not where and key in refused)
        found.append(_told_value(key, where, value, None if untold else item))
        if untold and not where and key in days and not closed:
            found.append(ToldValue(DAY_ROLE, str(value), item))  # its date and weekday only
    for key, child in children:
        _item_values(child, (*path, key), [*around, *plain], found, items, refused)


COUNT_KEY = "#count:"
"""A counted list's length (``fact_spans.COUNTED_FIELDS``), told as a count of its class."""


def _told_value(key: str, path: tuple[str, ...], value: str | int, item: int | None) -> ToldValue:
    if key.startswith(COUNT_KEY) and isinstance(value, int):
        what = key.removeprefix(COUNT_KEY)
        return ToldValue(Kind.COUNT.value, str(value), item, ((Kind.COUNT, (what, value)),))
    role = _role(key, path[-1] if path else "")
    if isinstance(value, int):
        readings = ((Kind.DURATION, value),) if key == DURATION_FIELD else ()
        return ToldValue(role, str(value), item, readings)
    return ToldValue(role, value, item)


def _role(key: str, parent: str) -> str:
    """A name's entity (``professional``, ``service``) by the result's field; else the field."""
    if key in _PROFESSIONAL_KEYS or (key in _NAME_KEYS and parent == "professionals"):
        return "professional"
    if key in ("service", "services") or (key in _NAME_KEYS and parent in _SERVICE_PARENTS):
        return "service"
    return key


def no_change_statements(
    grounding: Grounding,
    reader: FactReader,
    codes: tuple[str, ...],
    texts: Sequence[ToolText],
    upcoming: Sequence[str],
    asked: bool,
    entities: frozenset[str],
    catalog: Sequence[ToldValue] = (),
    open_days: frozenset[int] | None = None,
) -> Statements:
    """The judge of a no-change turn's statements (``application/statements``, its facts'
    relations by ``application/relations``), from the turn's tool texts; ``entities``: the
    folded words of the tenant's professional and service names; ``catalog``: the tenant's
    services as items (a question relates names, prices and lengths as they do); ``open_days``:
    the weekdays someone works (a question offers no other)."""
    return Statements(
        grounding,
        reader,
        statement_rules(codes),
        upcoming,
        asked,
        told_texts(texts, codes, bool(upcoming)),
        told_words_of=lambda: told_words(texts),
        whole=faq_answers(texts),
        heard=entities,
        relations_of=lambda: _relations(reader, codes, told_values(texts), entities),
        pairs_of=lambda: _relations(reader, codes, [*told_values(texts), *catalog], entities),
        earliest_of=lambda: _relations(reader, codes, told_values(_first_times(texts)), entities),
        open_days=open_days,
    )


def _first_times(texts: Sequence[ToolText]) -> list[ToolText]:
    """This turn's structured returns with every day's free times cut to the first: what
    "the first free time" of a professional's day may be (``Statements``)."""
    cut = []
    for item in texts:
        data = _json_object(item.text) if item.this_turn else None
        days = data.get("days") if data is not None else None
        if data is None or not isinstance(days, list):
            continue
        first = [
            {**day, "times": day["times"][:1]}
            for day in days
            if isinstance(day, dict) and isinstance(day.get("times"), list)
        ]
        cut.append(ToolText(item.tool, json.dumps({**data, "days": first}), True))
    return cut


def _relations(
    reader: FactReader,
    codes: tuple[str, ...],
    values: Sequence[ToldValue],
    entities: frozenset[str],
) -> Relations:
    plain, denials = plain_and_denials(codes)
    return Relations(reader, values, entities, plain, denials, statement_rules(codes).undated)
