"""docs/examples/calendar_client.py runs against a real calendar server: it books, meets a
time taken by someone else and moves on, replays its retry, reads the change feed and finds
its event by its own reference."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from types import ModuleType

import pytest

from agenda_kit.calendar.port import EventDraft
from calendar_service.bootstrap import CalendarApp
from tests.conftest import TOKEN
from tests.fakes.in_memory_calendar import InMemoryCalendar

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "calendar_client.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("calendar_client_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


async def test_the_example_books_moves_past_a_taken_time_and_replays(
    calendar_app: CalendarApp,
    in_memory_calendar: InMemoryCalendar,
    capsys: pytest.CaptureFixture[str],
) -> None:
    example = load()
    start, end, rules = example.tomorrow_rules()
    original = in_memory_calendar.insert_event
    taken_once: list[datetime] = []

    async def someone_else_first(draft: EventDraft) -> tuple[object, bool]:
        if not taken_once:  # another product books the first slot just before the example
            taken_once.append(draft.start)
            await original(replace(draft, idempotency_key="x", owner="another-product", private={}))
        return await original(draft)

    in_memory_calendar.insert_event = someone_else_first  # type: ignore[method-assign,assignment]
    args = example.parse_args(
        ["--address", f"127.0.0.1:{calendar_app.port}", "--token", TOKEN, "--calendar", "demo"]
    )
    assert await example.main(args, None) == 0
    out = capsys.readouterr().out
    assert "was just taken" in out and "(created)" in out
    assert "retried: the same event" in out and "change feed: 2 change(s)" in out  # both
    mine = [e for e in in_memory_calendar.events.values() if e.idempotency_key == args.booking_id]
    assert f"found by its own reference: ['{mine[0].event_id}']" in out
    assert len(mine) == 1 and mine[0].start == taken_once[0] + timedelta(minutes=30)
    assert isinstance(start, datetime) and end > start and rules.weekly_hours
