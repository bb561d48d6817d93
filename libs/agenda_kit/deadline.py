"""The caller's deadline, carried in a context variable from the gRPC edge to the adapters.

The server interceptor sets it from ``context.time_remaining()``; the Google adapter reads it
so that its whole retry budget fits inside the caller's deadline and no write starts after it.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Iterator
from contextlib import contextmanager

_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "agenda_deadline", default=None
)


def remaining() -> float | None:
    """Seconds left before the caller's deadline, or None when there is no deadline."""
    deadline = _deadline.get()
    if deadline is None:
        return None
    return deadline - time.monotonic()


def expired() -> bool:
    """True when a deadline is set and has passed."""
    left = remaining()
    return left is not None and left <= 0


@contextmanager
def deadline_after(seconds: float | None) -> Iterator[None]:
    """Run a block under a deadline ``seconds`` from now (None = keep the current one).

    A nested deadline never extends an outer one: the earlier of the two wins.
    """
    if seconds is None:
        yield
        return
    candidate = time.monotonic() + seconds
    current = _deadline.get()
    token = _deadline.set(candidate if current is None else min(current, candidate))
    try:
        yield
    finally:
        _deadline.reset(token)


@contextmanager
def own_deadline(seconds: float) -> Iterator[None]:
    """Run a block under its OWN deadline ``seconds`` from now, replacing the caller's.

    For work that must outlive its caller (a turn shielded from the caller's cancellation):
    what it calls is bounded by the server's budget, never by the caller's deadline, which
    may already have passed. Nested ``deadline_after`` blocks inside still only shorten it.
    """
    token = _deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)
