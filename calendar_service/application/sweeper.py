"""The background task that settles holds of writes that died (``SlotGuard.sweep``)."""

from __future__ import annotations

import asyncio
import contextlib

import structlog

from calendar_service.application.guard import SlotGuard

log = structlog.get_logger("agenda.calendar.sweeper")


class HoldSweeper:
    """Every ``interval`` seconds, one ``guard.sweep()``; a failed sweep is logged and the
    next one tries again (a hold is never lost: it only waits). Every replica sweeps; two
    sweeping the same hold reach the same verdict from the provider."""

    def __init__(self, guard: SlotGuard, interval: float) -> None:
        self._guard = guard
        self._interval = interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._interval)
            try:
                report = await self._guard.sweep()
            except Exception as error:  # noqa: BLE001 - logged; the next sweep retries
                log.warning("hold_sweep_failed", error=repr(error))
                continue
            if report.settled or report.released:
                log.info("hold_sweep", settled=report.settled, released=report.released)
