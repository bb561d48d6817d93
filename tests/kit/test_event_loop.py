"""``agenda_kit.event_loop``: which loop a service process runs on (``AGENDA_EVENT_LOOP``)."""

from __future__ import annotations

import asyncio

import pytest
import uvloop

from agenda_kit import event_loop
from agenda_kit.event_loop import EventLoop
from agenda_kit.settings import SharedSettings


@pytest.mark.parametrize(
    ("value", "loop"),
    [
        (None, EventLoop.UVLOOP),
        ("", EventLoop.UVLOOP),
        ("uvloop", EventLoop.UVLOOP),
        (" UVLOOP ", EventLoop.UVLOOP),
        ("asyncio", EventLoop.ASYNCIO),
        ("Asyncio", EventLoop.ASYNCIO),
    ],
)
def test_the_variable_names_the_loop(value: str | None, loop: EventLoop) -> None:
    environ = {} if value is None else {event_loop.VARIABLE: value}
    assert event_loop.chosen(environ) is loop


@pytest.mark.parametrize("value", ["trio", "uv loop", "1"])
def test_an_unknown_loop_ends_the_process_naming_the_variable_and_its_values(value: str) -> None:
    with pytest.raises(SystemExit) as ended:
        event_loop.chosen({event_loop.VARIABLE: value})
    message = str(ended.value)
    assert event_loop.VARIABLE in message and repr(value.strip().lower()) in message
    assert "uvloop" in message and "asyncio" in message


@pytest.mark.parametrize("loop", list(EventLoop))
def test_run_runs_the_coroutine_on_the_named_loop(loop: EventLoop) -> None:
    async def which() -> tuple[type[asyncio.AbstractEventLoop], EventLoop]:
        await asyncio.sleep(0)
        return type(asyncio.get_running_loop()), event_loop.running()

    kind, named = event_loop.run(which(), loop)
    assert named is loop
    assert (kind is uvloop.Loop) == (loop is EventLoop.UVLOOP)


def test_shared_settings_declare_the_same_variable_and_default() -> None:
    field = SharedSettings.model_fields["event_loop"]
    assert field.alias == event_loop.VARIABLE
    assert field.default is event_loop.chosen({})
