"""What the free/busy cache needs from a backend that can push its changes (Google watch
channels): whether a calendar's changes are being pushed, and for how long that is sure."""

from __future__ import annotations

from typing import Protocol


class ChangeFeed(Protocol):
    """Push notifications of changes to calendars, made anywhere (people editing Google
    Calendar included). The feed calls the cache's ``invalidate`` when one arrives."""

    def assured_seconds(self, calendar_id: str) -> float:
        """For how many seconds from now a change to ``calendar_id`` is sure to be pushed
        (0: not followed, or its channel is about to end)."""
        ...

    def follow(self, calendar_id: str) -> None:
        """Start following ``calendar_id`` in the background (idempotent, never raises)."""
        ...

    def heard_within(self, calendar_id: str, seconds: float) -> bool:
        """Whether a notification of ``calendar_id``'s channel (a change, its opening
        ``sync``, or the push of our own write) arrived in the last ``seconds``: evidence the
        channel delivers, without which cached busy time lives only the plain TTL."""
        ...
