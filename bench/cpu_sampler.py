"""A CPU sampler for the serving process's main thread (the event loop's), with no profiler
hook on every call.

``setitimer(ITIMER_PROF)`` sends the process ``SIGPROF`` each time it has used ``interval``
seconds of CPU; Python runs the handler in the main thread at its next bytecode boundary,
with the frame that was running. The handler adds the main thread's CPU since the previous
sample (``thread_time``) to that stack's component (see ``harness.COMPONENTS``): the
innermost frame of a known library or of the service, so a standard-library frame (``json``,
``dataclasses``, ``copy``…) counts for whoever called it, and a C function (no frame of its
own) for the Python frame that called it — BSON encoding for the MongoDB driver, protobuf
parsing for gRPC. While the thread waits in ``epoll`` it uses no CPU, so no sample lands
there unless another thread of the process used the CPU meanwhile.

Two kinds of frame are split further by what runs under them: an event-loop callback
(``asyncio.events.Handle._run``) running gRPC's Cython code counts as gRPC, and the loop's
socket transports (``asyncio/selector_events.py``: ``send``/``recv`` system calls) as socket
I/O. What remains under "event loop" is the loop itself: ``epoll``, scheduling callbacks and
stepping tasks (C code with no frames).

Unlike cProfile, whose own cost is paid on every call (so call-heavy code such as the event
loop and Pydantic AI look larger than they are), sampling leaves the sampled code's speed
nearly alone, and the samples add up to the main thread's CPU time in the window.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

Classify = Callable[[str, str], str]
SOCKET_IO = "socket I/O"
GRPC = "gRPC + protobuf"


class CpuSampler:
    """Samples the main thread between ``start`` and ``stop`` (both called from it)."""

    def __init__(self, classify: Classify, other: str, interval: float = 0.0005) -> None:
        self._classify = classify
        self._other = other
        self._interval = interval
        self._last = 0.0
        self._previous: Any = None
        self.components: dict[str, float] = {}
        self.functions: dict[str, float] = {}
        self.samples = 0

    def start(self) -> None:
        self._last = time.thread_time()
        self._previous = signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self._interval, self._interval)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, self._previous or signal.SIG_DFL)

    def _sample(self, _signum: int, frame: FrameType | None) -> None:
        now = time.thread_time()
        spent, self._last = now - self._last, now
        if frame is None or spent <= 0:
            return
        self.samples += 1
        component, leaf = self._place(frame)
        self.components[component] = self.components.get(component, 0.0) + spent
        where = f"{component} | {leaf}"
        self.functions[where] = self.functions.get(where, 0.0) + spent

    def _place(self, frame: FrameType) -> tuple[str, str]:
        """The stack's component and its innermost function, ``path:line(name)``."""
        code = frame.f_code
        leaf = f"{code.co_filename}:{code.co_firstlineno}({code.co_name})"
        if code.co_filename.startswith("<") and frame.f_back is not None:
            # generated code (a dataclass's ``__init__``, a namedtuple's ``__new__``): name the
            # function that called it, or every class's constructor is one line of the report
            caller = frame.f_back.f_code
            leaf += f" from {caller.co_filename}:{caller.co_firstlineno}({caller.co_name})"
        if code.co_filename.endswith("asyncio/selector_events.py"):
            return SOCKET_IO, leaf
        if code.co_name == "_run" and code.co_filename.endswith("asyncio/events.py"):
            callback = getattr(frame.f_locals.get("self"), "_callback", None)
            if "grpc" in str(getattr(callback, "__module__", "") or callback):
                return GRPC, leaf
        current: FrameType | None = frame
        while current is not None:
            component = self._classify(current.f_code.co_filename, current.f_code.co_name)
            if component != self._other:
                return component, leaf
            current = current.f_back
        return self._other, leaf


def largest(seconds: dict[str, float], limit: int | None = None) -> list[tuple[str, float]]:
    return sorted(seconds.items(), key=lambda item: item[1], reverse=True)[:limit]
