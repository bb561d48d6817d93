"""``python -m calendar_service``: serve the calendar service until SIGTERM/SIGINT."""

from __future__ import annotations

import asyncio

from agenda_kit.grpc.server import serve_until_signal
from agenda_kit.logging import configure_logging
from agenda_kit.metrics import serve_metrics
from agenda_kit.settings import SharedSettings
from agenda_kit.tracing import configure_tracing, shutdown_tracing
from calendar_service.bootstrap import bootstrap
from calendar_service.infrastructure.settings import CalendarSettings


async def main() -> None:
    shared = SharedSettings()
    settings = CalendarSettings()
    configure_logging(shared.log_level, json=shared.log_json)
    tracer_provider = configure_tracing("agenda-calendar", shared.tracing_mode())
    app = await bootstrap(settings, shared)
    serve_metrics(settings.metrics_port)
    try:
        await serve_until_signal(app.server, app.spec, settings.shutdown_grace_seconds)
    finally:
        await app.resources.aclose()
        shutdown_tracing(tracer_provider)


if __name__ == "__main__":
    asyncio.run(main())
