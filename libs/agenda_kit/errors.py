"""Errors every entrypoint understands, and the one-table mapping of exceptions to gRPC codes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import grpc


class RequestValidationError(ValueError):
    """A request field is missing or malformed; ``field`` names it for the caller."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class ErrorRule:
    """How one exception type reaches the caller: a status code and a safe message."""

    exception: type[BaseException]
    code: grpc.StatusCode
    message: Callable[[BaseException], str] = str
    trailers: Callable[[BaseException], Sequence[tuple[str, str]]] | None = None
    """Trailing metadata for the caller (e.g. a retry hint), if any."""


class ErrorTable:
    """Maps exceptions to gRPC status codes, most specific class first (by MRO)."""

    def __init__(self, rules: Iterable[ErrorRule]) -> None:
        self._rules = {rule.exception: rule for rule in rules}

    def lookup(self, error: BaseException) -> tuple[grpc.StatusCode, str] | None:
        """The code and caller-facing message, or None for an unexpected error."""
        rule = self._rule(error)
        return None if rule is None else (rule.code, rule.message(error))

    def trailers(self, error: BaseException) -> tuple[tuple[str, str], ...]:
        """The trailing metadata the error's rule adds (none by default)."""
        rule = self._rule(error)
        if rule is None or rule.trailers is None:
            return ()
        return tuple(rule.trailers(error))

    def _rule(self, error: BaseException) -> ErrorRule | None:
        for klass in type(error).__mro__:
            rule = self._rules.get(klass)
            if rule is not None:
                return rule
        return None


RETRY_AFTER_KEY = "retry-after-ms"
"""Trailing metadata: milliseconds the caller should wait before retrying (RESOURCE_EXHAUSTED)."""
PUSHBACK_KEY = "grpc-retry-pushback-ms"
"""The same hint under gRPC's name (gRFC A6), honoured by gRPC clients' built-in retries."""


def retry_hint(seconds: float) -> tuple[tuple[str, str], ...]:
    """The trailing metadata of a retry hint of ``seconds``."""
    millis = str(max(0, round(seconds * 1000)))
    return ((RETRY_AFTER_KEY, millis), (PUSHBACK_KEY, millis))
