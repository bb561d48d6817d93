"""CircuitBreaker state machine and TtlCache, driven by a fake clock."""

from __future__ import annotations

import asyncio

import pytest

from agenda_kit.resilience import BreakerState, CircuitBreaker, CircuitOpenError, TtlCache


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class UpstreamDownError(Exception):
    """The upstream is unavailable."""


class RequestRejectedError(Exception):
    """The upstream answered: the request itself was wrong."""


def _state(breaker: CircuitBreaker) -> BreakerState:
    """The breaker's state, read through a call so mypy does not narrow it between asserts."""
    return breaker.state


def _is_down(error: BaseException) -> bool:
    return isinstance(error, UpstreamDownError)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def transitions() -> list[tuple[BreakerState, BreakerState]]:
    return []


@pytest.fixture
def breaker(
    clock: FakeClock, transitions: list[tuple[BreakerState, BreakerState]]
) -> CircuitBreaker:
    return CircuitBreaker(
        failure_threshold=3,
        reset_timeout=10,
        is_failure=_is_down,
        clock=clock,
        on_state_change=lambda old, new: transitions.append((old, new)),
    )


async def _fail(breaker: CircuitBreaker, error: Exception) -> None:
    async def boom() -> None:
        raise error

    with pytest.raises(type(error)):
        await breaker.call(boom)


async def _succeed(breaker: CircuitBreaker) -> str:
    async def ok() -> str:
        return "ok"

    return await breaker.call(ok)


async def test_opens_after_threshold_consecutive_failures(breaker: CircuitBreaker) -> None:
    for _ in range(2):
        await _fail(breaker, UpstreamDownError())
    assert _state(breaker) is BreakerState.CLOSED
    await _fail(breaker, UpstreamDownError())
    assert _state(breaker) is BreakerState.OPEN


async def test_success_resets_the_consecutive_count(breaker: CircuitBreaker) -> None:
    await _fail(breaker, UpstreamDownError())
    await _fail(breaker, UpstreamDownError())
    assert await _succeed(breaker) == "ok"
    await _fail(breaker, UpstreamDownError())
    await _fail(breaker, UpstreamDownError())
    assert _state(breaker) is BreakerState.CLOSED
    assert breaker.consecutive_failures == 2


async def test_errors_outside_the_predicate_never_open_it(breaker: CircuitBreaker) -> None:
    for _ in range(10):
        await _fail(breaker, RequestRejectedError())
    assert _state(breaker) is BreakerState.CLOSED
    assert breaker.consecutive_failures == 0


async def test_open_rejects_without_calling_until_reset_timeout(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    for _ in range(3):
        await _fail(breaker, UpstreamDownError())
    calls = 0

    async def counted() -> None:
        nonlocal calls
        calls += 1

    clock.advance(9.9)
    with pytest.raises(CircuitOpenError) as raised:
        await breaker.call(counted)
    assert calls == 0
    assert raised.value.retry_after == pytest.approx(0.1)


async def test_trial_success_closes(
    breaker: CircuitBreaker,
    clock: FakeClock,
    transitions: list[tuple[BreakerState, BreakerState]],
) -> None:
    for _ in range(3):
        await _fail(breaker, UpstreamDownError())
    clock.advance(10)
    assert await _succeed(breaker) == "ok"
    assert _state(breaker) is BreakerState.CLOSED
    assert transitions == [
        (BreakerState.CLOSED, BreakerState.OPEN),
        (BreakerState.OPEN, BreakerState.HALF_OPEN),
        (BreakerState.HALF_OPEN, BreakerState.CLOSED),
    ]


async def test_trial_failure_reopens_for_a_full_timeout(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    for _ in range(3):
        await _fail(breaker, UpstreamDownError())
    clock.advance(10)
    await _fail(breaker, UpstreamDownError())
    assert _state(breaker) is BreakerState.OPEN
    clock.advance(9)
    with pytest.raises(CircuitOpenError):
        await _succeed(breaker)
    clock.advance(1)
    assert await _succeed(breaker) == "ok"


async def test_a_non_failure_error_in_the_trial_closes(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    for _ in range(3):
        await _fail(breaker, UpstreamDownError())
    clock.advance(10)
    await _fail(breaker, RequestRejectedError())
    assert _state(breaker) is BreakerState.CLOSED


async def test_half_open_lets_exactly_one_trial_through_under_concurrency(
    breaker: CircuitBreaker, clock: FakeClock
) -> None:
    for _ in range(3):
        await _fail(breaker, UpstreamDownError())
    clock.advance(10)
    release = asyncio.Event()
    entered = 0

    async def slow() -> str:
        nonlocal entered
        entered += 1
        await release.wait()
        return "ok"

    trial = asyncio.create_task(breaker.call(slow))
    await asyncio.sleep(0)
    others = await asyncio.gather(*(breaker.call(slow) for _ in range(10)), return_exceptions=True)
    assert all(isinstance(outcome, CircuitOpenError) for outcome in others)
    assert _state(breaker) is BreakerState.HALF_OPEN
    release.set()
    assert await trial == "ok"
    assert entered == 1
    assert _state(breaker) is BreakerState.CLOSED


async def test_a_cancelled_trial_frees_the_slot(breaker: CircuitBreaker, clock: FakeClock) -> None:
    for _ in range(3):
        await _fail(breaker, UpstreamDownError())
    clock.advance(10)
    trial = asyncio.create_task(breaker.call(asyncio.Event().wait))
    await asyncio.sleep(0)
    trial.cancel()
    with pytest.raises(asyncio.CancelledError):
        await trial
    assert _state(breaker) is BreakerState.HALF_OPEN
    assert await _succeed(breaker) == "ok"
    assert _state(breaker) is BreakerState.CLOSED


async def test_guard_predicate_overrides_the_breakers(breaker: CircuitBreaker) -> None:
    for _ in range(3):
        with pytest.raises(RequestRejectedError):
            async with breaker.guard(lambda error: isinstance(error, RequestRejectedError)):
                raise RequestRejectedError
    assert _state(breaker) is BreakerState.OPEN


def test_cache_returns_fresh_values_and_counts(clock: FakeClock) -> None:
    cache: TtlCache[str, int] = TtlCache(5, clock=clock)
    assert cache.get("a") is None
    cache.put("a", 1)
    clock.advance(4.9)
    assert cache.get("a") == 1
    clock.advance(0.1)
    assert cache.get("a") is None
    assert (cache.hits, cache.misses) == (1, 2)


def test_cache_evicts_expired_then_least_recently_used(clock: FakeClock) -> None:
    cache: TtlCache[str, int] = TtlCache(10, max_entries=3, clock=clock)
    cache.put("old", 0)
    clock.advance(6)
    cache.put("a", 1)
    cache.put("b", 2)
    clock.advance(5)  # "old" has expired
    cache.put("c", 3)
    assert len(cache) == 3
    assert cache.get("a") == 1  # "a" is now more recent than "b"
    cache.put("d", 4)
    assert cache.get("b") is None
    assert [cache.get(key) for key in ("a", "c", "d")] == [1, 3, 4]


def test_cache_invalidates_by_prefix_and_predicate(clock: FakeClock) -> None:
    cache: TtlCache[str, int] = TtlCache(10, clock=clock)
    for key in ("cal-1:x", "cal-1:y", "cal-2:x"):
        cache.put(key, 1)
    assert cache.invalidate("cal-1:") == 2
    assert cache.get("cal-2:x") == 1
    assert cache.invalidate(lambda key: key.endswith(":x")) == 1
    assert len(cache) == 0


def test_zero_ttl_disables_the_cache(clock: FakeClock) -> None:
    cache: TtlCache[str, int] = TtlCache(0, clock=clock)
    cache.put("a", 1)
    assert cache.get("a") is None
