"""Capture structlog event dicts as rendered in production (context and trace ids merged)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import structlog
from structlog.typing import EventDict, WrappedLogger


@contextmanager
def captured_events(level: int = logging.INFO) -> Iterator[list[dict[str, Any]]]:
    """Every event at ``level`` or above, after all processors but the renderer.

    The live processor list is changed in place, so loggers cached on first use see it too.
    """
    events: list[dict[str, Any]] = []

    def capture(_logger: WrappedLogger, method: str, event: EventDict) -> EventDict:
        if logging.getLevelNamesMapping().get(method.upper(), logging.INFO) >= level:
            events.append(dict(event))
        return event

    processors = structlog.get_config()["processors"]
    processors.insert(len(processors) - 1, capture)
    try:
        yield events
    finally:
        processors.remove(capture)
