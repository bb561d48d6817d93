"""Errors every entrypoint understands, and the one-table mapping of exceptions to gRPC codes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
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


class ErrorTable:
    """Maps exceptions to gRPC status codes, most specific class first (by MRO)."""

    def __init__(self, rules: Iterable[ErrorRule]) -> None:
        self._rules = {rule.exception: rule for rule in rules}

    def lookup(self, error: BaseException) -> tuple[grpc.StatusCode, str] | None:
        """The code and caller-facing message, or None for an unexpected error."""
        for klass in type(error).__mro__:
            rule = self._rules.get(klass)
            if rule is not None:
                return rule.code, rule.message(error)
        return None
