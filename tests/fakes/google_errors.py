"""Google's JSON error envelope, as the Calendar v3 API sends it."""

from __future__ import annotations

from aiohttp import web

STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    409: "ALREADY_EXISTS",
    410: "NOT_FOUND",
    412: "FAILED_PRECONDITION",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
}
MESSAGES = {
    "rateLimitExceeded": "Rate Limit Exceeded",
    "userRateLimitExceeded": "User Rate Limit Exceeded",
    "backendError": "Backend Error",
    "forbidden": "Forbidden",
    "notFound": "Not Found",
    "deleted": "Resource has been deleted",
    "duplicate": "The requested identifier already exists.",
    "authError": "Invalid Credentials",
    "invalid": "Invalid Value",
    "badRequest": "Bad Request",
    "quotaExceeded": "Calendar usage limits exceeded.",
    "dailyLimitExceeded": "Daily Limit Exceeded",
    "requiredAccessLevel": "You need to have writer access to this calendar.",
    "forbiddenForNonOrganizer": "Shared properties can only be changed by the organizer of "
    "the event.",
    "forbiddenForServiceAccounts": "Service accounts cannot invite attendees without "
    "Domain-Wide Delegation of Authority.",
    "insufficientPermissions": "Insufficient Permission",
    "conditionNotMet": "Precondition Failed",
    "fullSyncRequired": "Sync token is no longer valid, a full sync is required.",
}
USAGE_LIMIT_REASONS = frozenset(
    {"rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded", "dailyLimitExceeded"}
)


class EmulatorError(Exception):
    """Raised by the emulated API; the middleware renders it as Google's error JSON."""

    def __init__(self, code: int, reason: str, message: str | None = None) -> None:
        super().__init__(message or MESSAGES.get(reason, reason))
        self.code = code
        self.reason = reason
        self.message = message or MESSAGES.get(reason, reason)


def error_body(code: int, reason: str, message: str | None = None) -> dict[str, object]:
    text = message or MESSAGES.get(reason, reason)
    domain = "usageLimits" if reason in USAGE_LIMIT_REASONS else "global"
    entry: dict[str, str] = {"domain": domain, "reason": reason, "message": text}
    if reason == "authError":
        entry |= {"locationType": "header", "location": "Authorization"}
    return {
        "error": {
            "code": code,
            "message": text,
            "errors": [entry],
            "status": STATUS_NAMES.get(code, "UNKNOWN"),
        }
    }


def error_response(code: int, reason: str, message: str | None = None) -> web.Response:
    return web.json_response(error_body(code, reason, message), status=code)
