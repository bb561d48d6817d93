"""structlog configured for one JSON object per line on stderr.

Every line carries what is bound for the current call (``request_id``, ``rpc``, ``tenant_id``,
``conversation_id``, ``trace_id`` — see ``agenda_kit.grpc.context``) and, while a span is
recorded, the OpenTelemetry ``trace_id``/``span_id``. Standard-library loggers (pymongo,
httpx, grpc …) go through the same renderer, so their lines are JSON too.

Both write through one :class:`LogStream`, which never raises into the code that logs: a line
that cannot be written is dropped and counted, and once the stream's reader is gone (a pipe
whose reader exited) nothing is written to it again.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sys
import threading
from typing import TextIO

import structlog
from structlog.typing import EventDict, Processor, WrappedLogger

from agenda_kit.metrics import LOG_LINES_DROPPED
from agenda_kit.tracing import current_span_ids

QUIET_LIBRARIES = ("httpx", "httpcore", "openai")
"""Libraries that log every HTTP request at INFO: WARNING and above unless ``LOG_LEVEL=DEBUG``."""


def add_trace_ids(_logger: WrappedLogger, _name: str, event: EventDict) -> EventDict:
    """The current span's ids (a bound ``trace_id`` is kept: it is the same one)."""
    for key, value in current_span_ids().items():
        event.setdefault(key, value)
    return event


def _shared_processors() -> list[Processor]:
    return [
        structlog.contextvars.merge_contextvars,
        add_trace_ids,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]


def configure_logging(level: str = "INFO", *, json: bool = True) -> None:
    """Configure structlog and the standard library to emit JSON lines at ``level``."""
    numeric = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    renderer: Processor = (
        structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer()
    )
    stream = LogStream(sys.stderr)
    line_logger = LineLogger(stream)
    _configure_stdlib(numeric, renderer, stream)
    structlog.configure(
        processors=[
            *_shared_processors(),
            structlog.processors.StackInfoRenderer(),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=lambda *_names: line_logger,
        cache_logger_on_first_use=True,
    )


def _configure_stdlib(level: int, renderer: Processor, stream: LogStream) -> None:
    handler = logging.StreamHandler(stream)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[
                *_shared_processors(),
                structlog.stdlib.add_logger_name,
                structlog.stdlib.ExtraAdder(),
            ],
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                renderer,
            ],
        )
    )
    logging.basicConfig(level=level, handlers=[handler], force=True)
    quiet = logging.NOTSET if level <= logging.DEBUG else logging.WARNING
    for name in QUIET_LIBRARIES:
        logging.getLogger(name).setLevel(quiet)


class LogStream:
    """The stream the log lines of the process go to (structlog's and the standard library's),
    one ``write`` per line. A write never raises into the code that logs — had it, the error
    would be logged through the same broken stream, or end the RPC or loop that logged:

    - a line the stream does not take (a full disk, a non-blocking pipe that is full) is
      dropped and counted (``agenda_log_lines_dropped_total{reason="write_failed"}``); the next
      line is tried again;
    - once the reader is gone (EPIPE: ``2>&1 | head`` and ``head`` exited; or the descriptor or
      file was closed) no line is written to it again: each is dropped and counted
      (``reason="stream_gone"``), and the descriptor, with every standard descriptor open on the
      same pipe, is pointed at ``/dev/null`` (as CPython's documentation advises on SIGPIPE),
      so the interpreter's own writes there (an unraisable error's report, the flush at exit)
      do not fail either.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self._gone = False

    @property
    def gone(self) -> bool:
        """Whether the stream's reader is gone (nothing is written to it any more)."""
        return self._gone

    def write(self, line: str) -> int:
        """Write ``line`` (with its newline) and flush; never raises."""
        with self._lock:
            if self._gone:
                LOG_LINES_DROPPED.labels("stream_gone").inc()
                return 0
            try:
                self._stream.write(line)
                self._stream.flush()
            except (OSError, ValueError) as error:  # ValueError: the file object was closed
                self._failed(error)
                return 0
            return len(line)

    def _failed(self, error: OSError | ValueError) -> None:
        if isinstance(error, OSError) and error.errno not in _GONE:
            LOG_LINES_DROPPED.labels("write_failed").inc()
            return
        self._gone = True
        LOG_LINES_DROPPED.labels("stream_gone").inc()
        if isinstance(error, OSError):
            _to_devnull(self._stream)

    def flush(self) -> None:
        """Nothing to do: each write is flushed (the standard library's handler calls it)."""


_GONE = frozenset({errno.EPIPE, errno.EBADF})
"""A write's errors that mean no later write can succeed: the reader is gone, or the
descriptor was closed."""


def _to_devnull(stream: TextIO) -> None:
    """Point the descriptor of ``stream``, and each standard descriptor (1, 2) open on the same
    file, at ``/dev/null`` (a stream without a descriptor, or no descriptor left to open
    ``/dev/null``: nothing is done)."""
    try:
        broken = stream.fileno()
        descriptors = {broken, *(fd for fd in (1, 2) if _same_file(fd, broken))}
        devnull = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        return
    try:
        with contextlib.suppress(OSError):
            for fd in descriptors:
                os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _same_file(fd: int, other: int) -> bool:
    try:
        return os.path.sameopenfile(fd, other)
    except OSError:  # closed
        return False


class LineLogger:
    """structlog's logger: each rendered event is one line of a :class:`LogStream` (as
    structlog's ``PrintLogger``, whose ``print`` raises into the caller)."""

    def __init__(self, stream: LogStream) -> None:
        self._stream = stream

    def msg(self, message: str) -> None:
        self._stream.write(message + "\n")

    log = debug = info = warn = warning = msg
    fatal = failure = err = error = critical = exception = msg
