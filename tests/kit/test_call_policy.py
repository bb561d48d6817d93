"""The kit's one client call policy: metadata and deadline rewriting, and ``retrying``."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
import structlog

from agenda_kit.deadline import deadline_after
from agenda_kit.grpc.client import CallDeadline, CallMetadata
from agenda_kit.retrying import RetryPolicy, retrying


def _details(*, timeout: float | None = None, metadata: Any = None) -> Any:
    return grpc.aio.ClientCallDetails("/pkg.Service/Method", timeout, metadata, None, None)


def test_metadata_adds_the_token_and_the_bound_request_id() -> None:
    with structlog.contextvars.bound_contextvars(request_id="bound-1"):
        details = CallMetadata("secret").rewrite(_details(metadata=grpc.aio.Metadata()))
    assert list(details.metadata) == [
        ("authorization", "Bearer secret"),
        ("x-request-id", "bound-1"),
    ]
    assert details.method == "/pkg.Service/Method"


def test_metadata_keeps_the_calls_own_request_id_and_sends_no_empty_token() -> None:
    own = grpc.aio.Metadata(("x-request-id", "mine"))
    with structlog.contextvars.bound_contextvars(request_id="bound-1"):
        details = CallMetadata(None).rewrite(_details(metadata=own))
    assert list(details.metadata) == [("x-request-id", "mine")]


def test_deadline_fills_the_default_and_never_outlives_the_callers_deadline() -> None:
    policy = CallDeadline(5.0)
    assert policy.rewrite(_details()).timeout == 5.0
    assert policy.rewrite(_details(timeout=2.0)).timeout == 2.0
    with deadline_after(1.0):
        capped = policy.rewrite(_details(timeout=30.0)).timeout
    assert 0 < capped <= 1.0


def test_deadline_refuses_a_non_positive_default() -> None:
    with pytest.raises(ValueError, match="positive"):
        CallDeadline(0)


class FlakyError(Exception):
    """The failure worth retrying in these tests."""


async def _run(policy: RetryPolicy, outcomes: list[Exception], **options: Any) -> list[int]:
    """Attempt numbers tried; raises what the last attempt raised."""
    tried: list[int] = []
    async for attempt in retrying(policy, retry_if=lambda e: isinstance(e, FlakyError), **options):
        with attempt:
            tried.append(attempt.retry_state.attempt_number)
            outcome = outcomes[len(tried) - 1]
            raise outcome
    return tried


async def test_retrying_stops_after_max_attempts_and_reraises_the_last_error() -> None:
    retried: list[tuple[int, float]] = []
    policy = RetryPolicy(max_attempts=3, backoff_base=0)
    with pytest.raises(FlakyError, match="third"):
        await _run(
            policy,
            [FlakyError("first"), FlakyError("second"), FlakyError("third")],
            remaining=lambda: None,
            on_retry=lambda n, pause: retried.append((n, pause)),
        )
    assert retried == [(1, 0.0), (2, 0.0)]


async def test_retrying_leaves_other_errors_alone() -> None:
    with pytest.raises(KeyError):
        await _run(RetryPolicy(max_attempts=5, backoff_base=0), [KeyError("x")])


async def test_retrying_starts_no_attempt_the_budget_cannot_hold() -> None:
    retried: list[int] = []
    with pytest.raises(FlakyError, match="first"):
        await _run(
            RetryPolicy(max_attempts=5, backoff_base=0),
            [FlakyError("first"), FlakyError("second")],
            remaining=lambda: 0.01,
            min_attempt_s=0.02,
            on_retry=lambda n, _pause: retried.append(n),
        )
    assert retried == []


def test_backoff_is_capped_and_jittered() -> None:
    policy = RetryPolicy(max_attempts=9, backoff_base=0.1, backoff_cap=0.3)
    assert 0.05 <= policy.backoff(1) <= 0.1
    assert 0.15 <= policy.backoff(5) <= 0.3
    with pytest.raises(ValueError, match="max_attempts"):
        RetryPolicy(max_attempts=0)
