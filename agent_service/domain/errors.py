"""Business errors of the scheduling assistant; the gRPC edge maps each to one status code."""

from __future__ import annotations


class AgendaError(Exception):
    """Base of every business error."""


class InvalidInputError(AgendaError):
    """A field breaks a rule; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class NotFoundError(AgendaError):
    """The thing does not exist for this tenant (another tenant's ids are not found either)."""

    def __init__(self, kind: str, identifier: object) -> None:
        super().__init__(f"{kind} {identifier} not found")
        self.kind = kind
        self.identifier = identifier


class PolicyViolationError(AgendaError):
    """Allowed in general, not now: outside the booking horizon, past the cancellation window…"""


class SlotUnavailableError(AgendaError):
    """The time asked for is not free (taken, outside hours, or just booked by someone else)."""


class InvalidStateError(AgendaError):
    """The thing is not in a state that allows this (e.g. handing back a conversation no
    human has); retrying the same request will not help."""


class ConflictError(AgendaError):
    """The request conflicts with the stored state (e.g. a concurrent update; retry)."""


class StaleEtagError(ConflictError):
    """An update named a version (etag) of the entity that is no longer the stored one."""

    def __init__(self, kind: str, identifier: object) -> None:
        super().__init__(
            f"{kind} {identifier} changed concurrently: the etag is not the current one; "
            "read it again"
        )
        self.kind = kind
        self.identifier = identifier


class MessageIdTakenError(AgendaError):
    """A channel message id is already used by another customer of the tenant's channel."""

    def __init__(self) -> None:
        super().__init__("message_id was already used by another customer on this channel")


class MessageIdReusedError(AgendaError):
    """A channel message id arrived again with other content (text, sender): a gateway bug
    or a forged id; nothing runs and the first message's outcome stays."""

    def __init__(self) -> None:
        super().__init__("message_id was already used for a different message")


class RetryableTurnError(AgendaError):
    """A turn could not finish now, and nothing it would have told the customer was stored:
    sending the same message again (same message id) after ``retry_after_seconds`` runs it
    again. ``reason`` is the stable ``ErrorInfo.reason``."""

    reason = "TURN_FAILED"

    def __init__(self, message: str, *, retry_after_seconds: float = 1.0, cause: str = "") -> None:
        super().__init__(message)
        self.retry_after_seconds = max(0.0, retry_after_seconds)
        self.cause = cause


class ModelUnavailableError(RetryableTurnError):
    """The language model could not be reached or did not answer in time (connection refused,
    timeout, 5xx, rate limit, rejected credentials); ``cause`` says which."""

    reason = "MODEL_UNAVAILABLE"


class TurnBudgetExceededError(RetryableTurnError):
    """The turn ran out of its server-side budget (``AGENT_TURN_BUDGET_SECONDS``)."""

    reason = "TURN_BUDGET_EXCEEDED"


class MessageInProgressError(RetryableTurnError):
    """The first delivery of this message id is still being handled; retry to get its reply."""

    reason = "MESSAGE_IN_PROGRESS"


class StoredTurnFailureError(RetryableTurnError):
    """The stored outcome of this message id is a retryable failure (``TurnFailure``)."""

    def __init__(
        self, reason: str, message: str, *, retry_after_seconds: float, cause: str = ""
    ) -> None:
        super().__init__(message, retry_after_seconds=retry_after_seconds, cause=cause)
        self.reason = reason


class StorageUnavailableError(AgendaError):
    """The database cannot answer now (connection lost, timeout); the caller may retry."""

    def __init__(self, message: str = "storage is temporarily unavailable") -> None:
        super().__init__(message)


class CapacityExceededError(AgendaError):
    """Too much in flight for this tenant right now (its concurrency limit or message rate);
    retry after ``retry_after_seconds`` (sent to the caller as a retry hint)."""

    def __init__(self, message: str, *, retry_after_seconds: float = 1.0) -> None:
        super().__init__(message)
        self.retry_after_seconds = max(0.0, retry_after_seconds)


class DeadlineExceededError(AgendaError):
    """The caller's deadline passed before a step that must not start late; nothing was done."""


class BookingPendingError(AgendaError):
    """The calendar write's outcome is not known yet: the appointment stays pending, holding
    its slot, and the reconciler settles it; the customer is told through the outbox."""

    def __init__(self, appointment_id: object, cause: str) -> None:
        super().__init__(f"appointment {appointment_id} is being confirmed: {cause}")
        self.appointment_id = appointment_id
