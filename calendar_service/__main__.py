"""``python -m calendar_service``: serve the calendar service until SIGTERM/SIGINT."""

from __future__ import annotations

from agenda_kit import event_loop
from agenda_kit.grpc.run import run_service
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import bootstrap
from calendar_service.infrastructure.settings import CalendarSettings


async def main() -> None:
    shared = SharedSettings()
    settings = CalendarSettings()
    await run_service(
        "agenda-calendar",
        shared,
        lambda: bootstrap(settings, shared),
        metrics_port=settings.metrics_port,
        grace=settings.shutdown_grace_seconds,
        settings_prefix="CALENDAR",
    )


if __name__ == "__main__":
    event_loop.run(main())
