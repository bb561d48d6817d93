"""What an idempotency key promises: one key, one request (docs/calendar-service.md#idempotency).

A create is kept with the fingerprint of the request the client sent (every field that
changes what is written, the key and its scope aside: ``infrastructure.grpc.fingerprint``).
The same key sent again is a replay only with the same fingerprint, whatever the provider did
to the stored event since (normalized it, an update or a move); any other request under that
key is ``IDEMPOTENCY_KEY_REUSED``. A record kept before fingerprints existed (or a draft that
carries none: a port caller that is not the gRPC edge) is compared on what every record has:
start, end, summary and transparency."""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from agenda_kit.calendar.errors import IdempotencyConflictError
from agenda_kit.calendar.port import EventDraft


@dataclass(frozen=True, slots=True, kw_only=True)
class SentDraft(EventDraft):
    """A draft with the fingerprint of the request it came from (kept with its key), and the
    fingerprints earlier rules gave the same request (a key kept under one still replays)."""

    fingerprint: str = ""
    earlier_fingerprints: tuple[str, ...] = ()


def fingerprint_of(draft: EventDraft) -> str:
    """The draft's request fingerprint ("" when it carries none)."""
    return draft.fingerprint if isinstance(draft, SentDraft) else ""


def same_request(kept: str | None, draft: EventDraft, *, fields_match: bool) -> bool:
    """Whether ``draft`` repeats the request kept under its key: by fingerprint when both
    have one, else by the fields every record has (``fields_match``)."""
    sent = fingerprint_of(draft)
    if kept and sent:
        earlier = draft.earlier_fingerprints if isinstance(draft, SentDraft) else ()
        return any(hmac.compare_digest(kept, one) for one in (sent, *earlier))
    return fields_match


def key_reused() -> IdempotencyConflictError:
    """The refusal of a key sent again with another request."""
    return IdempotencyConflictError(
        "The idempotency key was already used for a different request; "
        "use a new key for a new event."
    )
