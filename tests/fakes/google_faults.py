"""Programmable faults, latency and call counters for the Google Calendar emulator."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field

ANY_API_ROUTE = "*"


@dataclass(frozen=True, slots=True, kw_only=True)
class Fault:
    """What to do to one request instead of (or after) answering it normally.

    ``status``/``reason``: answer with Google's error; ``delay``: sleep first (past the
    client's timeout); ``reset``: close the connection without an answer; ``drop_response``:
    run the real handler (store the event), then close the connection; ``body``: answer these
    bytes (with ``status``, default 200) instead of running the handler; ``garble``: run the
    real handler, then answer 200 with these bytes instead of its JSON. The last two are what
    a front end or proxy between the service and Google can send: a cut body, an HTML page.
    """

    status: int | None = None
    reason: str | None = None
    delay: float = 0.0
    reset: bool = False
    drop_response: bool = False
    retry_after: int | None = None
    """With ``status``: a ``Retry-After`` header of that many seconds."""
    retry_after_as_date: bool = False
    """The ``Retry-After`` as an HTTP date that many seconds after the answer's ``Date``."""
    body: bytes | None = None
    garble: bytes | None = None
    content_type: str = "application/json"

    @classmethod
    def error(
        cls, status: int, reason: str, *, retry_after: int | None = None, as_date: bool = False
    ) -> Fault:
        return cls(
            status=status, reason=reason, retry_after=retry_after, retry_after_as_date=as_date
        )

    @classmethod
    def slow(cls, delay: float) -> Fault:
        return cls(delay=delay)

    @classmethod
    def connection_reset(cls) -> Fault:
        return cls(reset=True)

    @classmethod
    def store_then_drop(cls) -> Fault:
        return cls(drop_response=True)

    @classmethod
    def answer(cls, body: bytes, *, status: int = 200, content_type: str = "text/html") -> Fault:
        """Answer ``body`` as is, without running the handler (nothing stored)."""
        return cls(status=status, body=body, content_type=content_type)

    @classmethod
    def store_then_garble(cls, body: bytes, *, content_type: str = "text/html") -> Fault:
        """Run the handler (store the write), then answer 200 with ``body``."""
        return cls(garble=body, content_type=content_type)


RETRYABLE_FAULTS: tuple[Fault, ...] = (
    Fault.error(429, "rateLimitExceeded"),
    Fault.error(503, "backendError"),
    Fault.error(500, "backendError"),
    Fault.error(403, "rateLimitExceeded"),
    Fault.error(403, "userRateLimitExceeded"),
    Fault.connection_reset(),
)


@dataclass(frozen=True, slots=True)
class Call:
    """One request as it arrived (monotonic clock, same as ``agenda_kit.deadline``)."""

    route: str
    method: str
    path: str
    at: float


@dataclass(slots=True)
class _RandomFaults:
    probability: float
    faults: tuple[Fault, ...]
    rng: random.Random


@dataclass
class FaultPlan:
    """Per-route faults (queued, permanent or random), fixed latency, and call records."""

    latency: float = 0.0
    calls: list[Call] = field(default_factory=list)
    in_flight: Counter[str] = field(default_factory=Counter)
    peak_in_flight: Counter[str] = field(default_factory=Counter)
    _queued: dict[str, deque[Fault]] = field(default_factory=dict)
    _always: dict[str, Fault] = field(default_factory=dict)
    _random: dict[str, _RandomFaults] = field(default_factory=dict)
    _arrived: dict[str, asyncio.Event] = field(default_factory=dict)
    _gates: dict[str, asyncio.Event] = field(default_factory=dict)

    def arrived(self, route: str) -> asyncio.Event:
        """Set as soon as a call of ``route`` reaches the emulator (from now on)."""
        return self._arrived.setdefault(route, asyncio.Event())

    def hold(self, route: str) -> asyncio.Event:
        """Calls of ``route`` wait (after being recorded) until the returned event is set."""
        return self._gates.setdefault(route, asyncio.Event())

    async def pass_gate(self, route: str) -> None:
        gate = self._gates.get(route)
        if gate is not None:
            await gate.wait()

    def fail_next(self, route: str, fault: Fault, times: int = 1) -> None:
        """The next ``times`` calls of ``route`` get ``fault``."""
        self._queued.setdefault(route, deque()).extend([fault] * times)

    def fail_always(self, route: str, fault: Fault) -> None:
        """Every call of ``route`` (``"*"``: every API route) gets ``fault`` until cleared."""
        self._always[route] = fault

    def fail_randomly(
        self,
        route: str,
        probability: float,
        *,
        seed: int = 0,
        faults: Sequence[Fault] = RETRYABLE_FAULTS,
    ) -> None:
        """A seeded share of calls of ``route`` (or ``"*"``) gets a fault drawn from ``faults``."""
        self._random[route] = _RandomFaults(probability, tuple(faults), random.Random(seed))

    def clear(self) -> None:
        self._queued.clear()
        self._always.clear()
        self._random.clear()

    def record(self, route: str, method: str, path: str) -> None:
        self.calls.append(Call(route, method, path, time.monotonic()))

    def enter(self, route: str) -> None:
        self.arrived(route).set()
        self.in_flight[route] += 1
        self.peak_in_flight[route] = max(self.peak_in_flight[route], self.in_flight[route])

    def leave(self, route: str) -> None:
        self.in_flight[route] -= 1

    def pick(self, route: str) -> Fault | None:
        """The fault for this call of ``route``, if any."""
        queued = self._queued.get(route)
        if queued:
            return queued.popleft()
        api = route != "token"
        fault = self._always.get(route) or (self._always.get(ANY_API_ROUTE) if api else None)
        if fault is not None:
            return fault
        chance = self._random.get(route) or (self._random.get(ANY_API_ROUTE) if api else None)
        if chance is not None and chance.rng.random() < chance.probability:
            return chance.rng.choice(chance.faults)
        return None

    def count(self, route: str) -> int:
        return sum(1 for call in self.calls if call.route == route)

    def counts(self) -> Counter[str]:
        return Counter(call.route for call in self.calls)
