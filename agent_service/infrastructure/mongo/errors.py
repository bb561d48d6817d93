"""Driver failures that mean "the database cannot answer now" become
``StorageUnavailableError`` at the repositories' edge; everything else propagates."""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

import structlog
from pymongo.errors import ConnectionFailure, ExecutionTimeout, PyMongoError, WTimeoutError

from agent_service.domain.errors import StorageUnavailableError

log = structlog.get_logger("agenda.agent.storage")
P = ParamSpec("P")
R = TypeVar("R")


def is_unavailable(error: PyMongoError) -> bool:
    """Connection loss, server selection and operation timeouts."""
    return isinstance(error, ConnectionFailure | ExecutionTimeout | WTimeoutError) or bool(
        error.timeout
    )


def guarded(method: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """Wrap a repository method so that unavailability surfaces as a domain error."""

    @functools.wraps(method)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except PyMongoError as error:
            if not is_unavailable(error):
                raise
            log.warning("storage_unavailable", operation=method.__qualname__, error=repr(error))
            raise StorageUnavailableError() from error

    return run
