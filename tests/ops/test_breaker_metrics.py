"""The calendar client's circuit breaker state is exported as ``agenda_circuit_breaker_state``."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from agenda_kit.calendar.errors import CalendarUnavailableError
from agenda_kit.calendar.grpc_client import BREAKER_NAME, GrpcCalendarAdapter
from tests.e2e.processes import free_port


def state(name: str) -> float | None:
    return REGISTRY.get_sample_value(
        "agenda_circuit_breaker_state", {"breaker": BREAKER_NAME, "state": name}
    )


async def test_breaker_state_follows_the_client() -> None:
    client = GrpcCalendarAdapter.connect(
        f"127.0.0.1:{free_port()}", token=None, timeout=0.5, max_attempts=1
    )
    try:
        assert (state("closed"), state("open"), state("half_open")) == (1, 0, 0)
        for _ in range(client.breaker.failure_threshold):
            with pytest.raises(CalendarUnavailableError):
                await client.get_event("cal", "event")
        assert (state("closed"), state("open"), state("half_open")) == (0, 1, 0)
        assert not await client.check_health()
    finally:
        await client.close()
