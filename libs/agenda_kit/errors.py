"""Errors every entrypoint understands, and the one-table mapping of exceptions to gRPC status.

An error reaches the caller as a ``google.rpc.Status`` (AIP-193): the gRPC code, an English,
product-neutral message, and details a client can act on without parsing prose —
exactly one ``ErrorInfo`` (a stable UPPER_SNAKE ``reason``, the table's ``domain``, metadata),
a ``RetryInfo`` when waiting helps, a ``BadRequest`` naming the fields at fault. The details
travel in the ``grpc-status-details-bin`` trailer; read them with :func:`details_of`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status


class RequestValidationError(ValueError):
    """A request field is missing or malformed; ``field`` names it for the caller."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


Violation = tuple[str, str]
"""``(field path, description)`` of one invalid request field."""


class EdgeRefusalError(Exception):
    """A call refused at the edge, before any handler: ``reason`` is its stable
    ``ErrorInfo.reason`` (the message never names who or what exists)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class CallerUnauthenticatedError(EdgeRefusalError):
    """No credential (``CREDENTIAL_MISSING``) or one that authenticates no one
    (``CREDENTIAL_INVALID``) → UNAUTHENTICATED."""


class CallerNotAllowedError(EdgeRefusalError):
    """The policy refuses the call (``METHOD_NOT_ALLOWED``, ``TENANT_NOT_ALLOWED``,
    ``CHANNEL_NOT_ALLOWED``, ``CALENDAR_NOT_GRANTED``, ``PLATFORM_SCOPE_REQUIRED``) →
    PERMISSION_DENIED. Only for what the request itself names: a stored resource outside the
    scope is NOT_FOUND, like an absent one."""


class TooManyCallsError(EdgeRefusalError):
    """The caller has too many calls or streams open (``TOO_MANY_CALLS``,
    ``TOO_MANY_STREAMS``) → RESOURCE_EXHAUSTED with a retry hint."""

    def __init__(self, reason: str, message: str, *, retry_after_seconds: float) -> None:
        super().__init__(reason, message)
        self.retry_after_seconds = retry_after_seconds


@dataclass(frozen=True, slots=True)
class ErrorRule:
    """How one exception type reaches the caller: a status code, a safe message and details.

    ``reason`` is the ``ErrorInfo.reason`` (a constant or computed from the error; default: the
    code's name); ``metadata`` the ``ErrorInfo.metadata`` (lowerCamelCase keys, strings);
    ``retry_after`` seconds for ``RetryInfo`` and the retry-hint trailers (None: no hint);
    ``violations`` the ``BadRequest`` field violations (default: the error's ``field``, if any).
    """

    exception: type[BaseException]
    code: grpc.StatusCode
    message: Callable[[BaseException], str] = str
    trailers: Callable[[BaseException], Sequence[tuple[str, str]]] | None = None
    """Extra trailing metadata for the caller, if any."""
    reason: str | Callable[[BaseException], str] | None = None
    metadata: Callable[[BaseException], Mapping[str, str]] | None = None
    retry_after: Callable[[BaseException], float | None] | None = None
    violations: Callable[[BaseException], Sequence[Violation]] | None = None


@dataclass(frozen=True, slots=True)
class MappedError:
    """What the caller receives for one error."""

    code: grpc.StatusCode
    message: str
    reason: str
    metadata: Mapping[str, str] = field(default_factory=dict)
    retry_after: float | None = None
    violations: Sequence[Violation] = ()
    trailers: Sequence[tuple[str, str]] = ()


class ErrorTable:
    """Maps exceptions to gRPC status, most specific class first (by MRO).

    ``domain`` is the ``ErrorInfo.domain`` of every error of the service (e.g.
    ``calendar.agenda``).
    """

    def __init__(self, rules: Iterable[ErrorRule], *, domain: str = "agenda") -> None:
        self._rules = {rule.exception: rule for rule in (*EDGE_ERROR_RULES, *rules)}
        self.domain = domain

    def lookup(self, error: BaseException) -> tuple[grpc.StatusCode, str] | None:
        """The code and caller-facing message, or None for an unexpected error."""
        rule = self._rule(error)
        return None if rule is None else (rule.code, rule.message(error))

    def map(self, error: BaseException) -> MappedError | None:
        """Everything the caller receives for ``error``, or None for an unexpected error."""
        rule = self._rule(error)
        if rule is None:
            return None
        retry_after = rule.retry_after(error) if rule.retry_after is not None else None
        trailers = tuple(rule.trailers(error)) if rule.trailers is not None else ()
        if retry_after is not None:
            trailers = (*trailers, *retry_hint(retry_after))
        return MappedError(
            code=rule.code,
            message=rule.message(error),
            reason=_reason(rule, error),
            metadata=dict(rule.metadata(error)) if rule.metadata is not None else {},
            retry_after=retry_after,
            violations=tuple(_violations(rule, error)),
            trailers=_unique(trailers),
        )

    def trailers(self, error: BaseException) -> tuple[tuple[str, str], ...]:
        """The trailing metadata the error's rule adds (none by default)."""
        mapped = self.map(error)
        return () if mapped is None else tuple(mapped.trailers)

    def status(self, mapped: MappedError) -> grpc.Status:
        """The ``grpc.Status`` to abort with: code, message, details and trailers."""
        return rich_status(mapped, self.domain)

    def _rule(self, error: BaseException) -> ErrorRule | None:
        for klass in type(error).__mro__:
            rule = self._rules.get(klass)
            if rule is not None:
                return rule
        return None


def _reason(rule: ErrorRule, error: BaseException) -> str:
    if rule.reason is None:
        return rule.code.name
    return rule.reason if isinstance(rule.reason, str) else rule.reason(error)


def _violations(rule: ErrorRule, error: BaseException) -> Sequence[Violation]:
    if rule.violations is not None:
        return rule.violations(error)
    field_name = getattr(error, "field", None)
    if isinstance(field_name, str) and field_name:
        return ((field_name, str(getattr(error, "message", error))),)
    return ()


def _unique(trailers: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    seen: dict[str, str] = {}
    for key, value in trailers:
        seen.setdefault(key, value)
    return tuple(seen.items())


def rich_status(mapped: MappedError, domain: str) -> grpc.Status:
    """``mapped`` as a ``google.rpc.Status`` carried by a ``grpc.Status``."""
    status = status_pb2.Status(code=mapped.code.value[0], message=mapped.message)
    info = error_details_pb2.ErrorInfo(reason=mapped.reason, domain=domain)
    info.metadata.update(mapped.metadata)
    _pack(status, info)
    if mapped.retry_after is not None:
        delay = duration_pb2.Duration()
        delay.FromMilliseconds(max(0, round(mapped.retry_after * 1000)))
        _pack(status, error_details_pb2.RetryInfo(retry_delay=delay))
    if mapped.violations:
        request = error_details_pb2.BadRequest()
        for path, description in mapped.violations:
            request.field_violations.add(field=path, description=description)
        _pack(status, request)
    converted = rpc_status.to_status(status)
    trailing = (*converted.trailing_metadata, *mapped.trailers)
    return _Status(converted.code, converted.details, trailing)


def _pack(status: status_pb2.Status, message: Any) -> None:
    holder = any_pb2.Any()
    holder.Pack(message)
    status.details.append(holder)


class _StatusFields(NamedTuple):
    code: grpc.StatusCode
    details: str
    trailing_metadata: tuple[tuple[str, str | bytes], ...]


class _Status(_StatusFields, grpc.Status):
    """A ``grpc.Status`` with extra trailers (as ``grpc_status`` builds its own)."""


@dataclass(frozen=True, slots=True)
class ErrorDetails:
    """The details of a failed call, as a client reads them (see :func:`details_of`)."""

    reason: str = ""
    domain: str = ""
    metadata: Mapping[str, str] = field(default_factory=dict)
    retry_delay: float | None = None
    violations: tuple[Violation, ...] = ()


def details_of(error: grpc.RpcError) -> ErrorDetails:
    """The ``google.rpc`` details of a failed call (empty when it carried none)."""
    try:
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
    except ValueError:  # details inconsistent with the call's own code/message
        return ErrorDetails()
    if status is None:
        return ErrorDetails()
    found = ErrorDetails()
    for holder in status.details:
        found = _read(holder, found)
    return found


def _read(holder: any_pb2.Any, found: ErrorDetails) -> ErrorDetails:
    if holder.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
        info = error_details_pb2.ErrorInfo()
        holder.Unpack(info)
        return replace(found, reason=info.reason, domain=info.domain, metadata=dict(info.metadata))
    if holder.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
        retry = error_details_pb2.RetryInfo()
        holder.Unpack(retry)
        return replace(found, retry_delay=retry.retry_delay.ToMilliseconds() / 1000)
    if holder.Is(error_details_pb2.BadRequest.DESCRIPTOR):
        request = error_details_pb2.BadRequest()
        holder.Unpack(request)
        violations = tuple((v.field, v.description) for v in request.field_violations)
        return replace(found, violations=violations)
    return found


def _edge_reason(error: BaseException) -> str:
    assert isinstance(error, EdgeRefusalError)
    return error.reason


def _edge_retry(error: BaseException) -> float:
    assert isinstance(error, TooManyCallsError)
    return error.retry_after_seconds


EDGE_ERROR_RULES: tuple[ErrorRule, ...] = (
    ErrorRule(CallerUnauthenticatedError, grpc.StatusCode.UNAUTHENTICATED, reason=_edge_reason),
    ErrorRule(CallerNotAllowedError, grpc.StatusCode.PERMISSION_DENIED, reason=_edge_reason),
    ErrorRule(
        TooManyCallsError,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        reason=_edge_reason,
        retry_after=_edge_retry,
    ),
)
"""The rows of the edge's own refusals; every ``ErrorTable`` has them."""


RETRY_AFTER_KEY = "retry-after-ms"
"""Trailing metadata: milliseconds the caller should wait before retrying (RESOURCE_EXHAUSTED)."""
PUSHBACK_KEY = "grpc-retry-pushback-ms"
"""The same hint under gRPC's name (gRFC A6), honoured by gRPC clients' built-in retries."""


def retry_hint(seconds: float) -> tuple[tuple[str, str], ...]:
    """The trailing metadata of a retry hint of ``seconds``."""
    millis = str(max(0, round(seconds * 1000)))
    return ((RETRY_AFTER_KEY, millis), (PUSHBACK_KEY, millis))
