"""Multi-document transactions with the driver's retry rule, and duplicate-key detection.

SecantusDB and MongoDB replica sets both report a write that races another open transaction
as ``WriteConflict`` labelled ``TransientTransactionError``: the other transaction may still
abort, so the whole transaction is retried (with jittered backoff) until it either commits or
meets a committed duplicate (``E11000``).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

from pymongo import AsyncMongoClient
from pymongo.asynchronous.client_session import AsyncClientSession
from pymongo.errors import BulkWriteError, DuplicateKeyError, PyMongoError

MAX_ATTEMPTS = 16
_BACKOFF_CAP = 0.25
_DUPLICATE_KEY = 11000
_WRITE_CONFLICT = 112


class TransactionGaveUpError(Exception):
    """Still conflicting with concurrent transactions after ``MAX_ATTEMPTS``."""


def is_duplicate_key(error: PyMongoError) -> bool:
    """A unique index refused a write (single insert or any write of a bulk insert)."""
    if isinstance(error, DuplicateKeyError):
        return True
    return isinstance(error, BulkWriteError) and any(
        item.get("code") == _DUPLICATE_KEY for item in error.details.get("writeErrors", [])
    )


def _is_transient(error: PyMongoError) -> bool:
    if error.has_error_label("TransientTransactionError"):
        return True
    if error.has_error_label("UnknownTransactionCommitResult"):
        return True
    return isinstance(error, BulkWriteError) and any(
        item.get("code") == _WRITE_CONFLICT for item in error.details.get("writeErrors", [])
    )


async def in_transaction(
    client: AsyncMongoClient[Any], work: Callable[[AsyncClientSession], Awaitable[None]]
) -> None:
    """Run ``work`` in one transaction; retried on transient errors, others propagate."""
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            async with client.start_session() as session, await session.start_transaction():
                await work(session)
            return
        except PyMongoError as error:
            if not _is_transient(error) or is_duplicate_key(error):
                raise
            await asyncio.sleep(_backoff(attempt))
    raise TransactionGaveUpError(f"transaction still conflicting after {MAX_ATTEMPTS} attempts")


def _backoff(attempt: int) -> float:
    """Full jitter, growing exponentially to 250 ms: under a pile-up of transactions that
    conflict on overlapping holds, a fixed small pause makes them abort each other in lockstep
    until all give up; spreading the retries lets one commit and the others see its holds."""
    return random.uniform(0.0, min(_BACKOFF_CAP, 0.004 * 2**attempt))  # noqa: S311
