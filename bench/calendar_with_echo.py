"""``python -m bench.calendar_with_echo``: the calendar service exactly as ``python -m
calendar_service`` wires it, plus the bench-only echo and probe handlers on the same server
(same interceptors, options and event loop), added before the server starts."""

from __future__ import annotations

from agenda_kit import event_loop
from agenda_kit.grpc.server import serve_until_signal
from agenda_kit.logging import configure_logging
from agenda_kit.settings import SharedSettings
from bench.harness import echo_handler, open_to_bench, probe_handler
from calendar_service.bootstrap import bootstrap
from calendar_service.infrastructure.settings import CalendarSettings


async def main() -> None:
    shared = SharedSettings()
    settings = CalendarSettings()
    configure_logging(shared.log_level, json=shared.log_json)
    app = await bootstrap(settings, shared)
    app.server.add_generic_rpc_handlers((echo_handler(), probe_handler()))
    open_to_bench(app.spec)
    try:
        await serve_until_signal(app.server, app.spec, settings.shutdown_grace_seconds)
    finally:
        await app.resources.aclose()


if __name__ == "__main__":
    event_loop.run(main())
