"""Wait for the event itself, never for a while: a test that needs something to have happened
(a log line written, a counter incremented, a task blocked where the test holds it) polls for
exactly that, with a bound.

The bound is how long a hung test may take to fail, not a margin the outcome depends on: on a
slow machine the wait is simply longer. (It is read from the monotonic clock of the event loop
or ``time.monotonic``, which no service under test sees.)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

BOUND_SECONDS = 60.0
"""Failure bound of every wait: far beyond any healthy run, even on a loaded machine."""


async def until(
    condition: Callable[[], T], *, what: str, within: float = BOUND_SECONDS, every: float = 0.005
) -> T:
    """Yield to the event loop until ``condition()`` is truthy; return it (``AssertionError``
    naming ``what`` after ``within`` seconds)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    while not (value := condition()):
        if loop.time() > give_up:
            raise AssertionError(f"{what}: still not the case after {within:.0f} s")
        await asyncio.sleep(every)
    return value


async def until_checked(
    check: Callable[[], Awaitable[bool]],
    *,
    what: str,
    within: float = BOUND_SECONDS,
    every: float = 0.05,
) -> None:
    """``until`` for a condition that must be awaited (a query, an RPC)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    while not await check():
        if loop.time() > give_up:
            raise AssertionError(f"{what}: still not the case after {within:.0f} s")
        await asyncio.sleep(every)


def until_sync(
    condition: Callable[[], T], *, what: str, within: float = BOUND_SECONDS, every: float = 0.05
) -> T:
    """``until`` for code outside an event loop (another process's log file, a metric)."""
    value = poll_sync(condition, within=within, every=every)
    if not value:
        raise AssertionError(f"{what}: still not the case after {within:.0f} s")
    return value


def poll_sync(condition: Callable[[], T], *, within: float | None, every: float = 0.05) -> T | None:
    """The first true value of ``condition``, polled every ``every`` seconds; None once
    ``within`` seconds passed (``within=None``: no bound)."""
    give_up = None if within is None else time.monotonic() + within
    while not (value := condition()):
        if give_up is not None and time.monotonic() >= give_up:
            return None
        time.sleep(every)
    return value
