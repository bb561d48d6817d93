"""The event loop a service process runs on.

``AGENDA_EVENT_LOOP=uvloop`` (the default): uvloop, the asyncio loop written in C over libuv.
A turn of the agent service steps dozens of tasks and callbacks (gRPC's, Pydantic AI's anyio
task groups, the MongoDB driver's); the standard loop runs each of them through Python code of
its own (``_run_once``, ``Handle._run``, the selector), uvloop does it in C. ``asyncio``: the
standard library's loop, for a platform without uvloop or to compare against.

The choice is read from the environment before any loop exists (``SharedSettings`` is read
inside the service's ``main``, which already runs on the loop); ``SharedSettings.event_loop``
declares the same variable so that it is validated and documented with the others. Both
services, ``make run`` and every test that starts a service process run on the chosen loop;
the benchmarks measure the frameworks' floor on it too (``bench.framework_floor``).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine, Mapping
from enum import StrEnum
from typing import Any, TypeVar

T = TypeVar("T")
VARIABLE = "AGENDA_EVENT_LOOP"


class EventLoop(StrEnum):
    UVLOOP = "uvloop"
    ASYNCIO = "asyncio"


def chosen(environ: Mapping[str, str] = os.environ) -> EventLoop:
    """The loop ``AGENDA_EVENT_LOOP`` names (uvloop when unset or empty); anything else ends
    the process with one line naming the variable and its values."""
    value = environ.get(VARIABLE, "").strip().lower()
    if not value:
        return EventLoop.UVLOOP
    try:
        return EventLoop(value)
    except ValueError:
        allowed = ", ".join(loop.value for loop in EventLoop)
        raise SystemExit(f"{VARIABLE} must be one of {allowed}, not {value!r}") from None


def loop_factory(loop: EventLoop) -> Callable[[], asyncio.AbstractEventLoop]:
    if loop is EventLoop.UVLOOP:
        import uvloop

        return uvloop.new_event_loop
    return asyncio.new_event_loop


def running() -> EventLoop:
    """The loop this coroutine runs on."""
    loop = type(asyncio.get_running_loop())
    return EventLoop.UVLOOP if loop.__module__.startswith("uvloop") else EventLoop.ASYNCIO


def run(main: Coroutine[Any, Any, T], loop: EventLoop | None = None) -> T:
    """``asyncio.run(main)`` on ``loop`` (default: :func:`chosen`)."""
    with asyncio.Runner(loop_factory=loop_factory(loop or chosen())) as runner:
        return runner.run(main)
