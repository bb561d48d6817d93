"""structlog configured for one JSON object per line on stderr.

Every line carries what is bound for the current call (``request_id``, ``rpc``, ``tenant_id``,
``conversation_id``, ``trace_id`` — see ``agenda_kit.grpc.context``) and, while a span is
recorded, the OpenTelemetry ``trace_id``/``span_id``. Standard-library loggers (pymongo,
httpx, grpc …) go through the same renderer, so their lines are JSON too.
"""

from __future__ import annotations

import logging
import sys

import structlog
from structlog.typing import EventDict, Processor, WrappedLogger

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
    _configure_stdlib(numeric, renderer)
    structlog.configure(
        processors=[
            *_shared_processors(),
            structlog.processors.StackInfoRenderer(),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )


def _configure_stdlib(level: int, renderer: Processor) -> None:
    handler = logging.StreamHandler(sys.stderr)
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
