"""Serve the agent service until SIGTERM/SIGINT."""

from __future__ import annotations

from agenda_kit.grpc.run import run_service
from agenda_kit.settings import SharedSettings
from agent_service.bootstrap import bootstrap
from agent_service.infrastructure.settings import AgentSettings


async def main() -> int:
    shared = SharedSettings()
    settings = AgentSettings()
    await run_service(
        "agenda-agent",
        shared,
        lambda: bootstrap(settings, shared),
        metrics_port=settings.metrics_port,
        grace=settings.shutdown_grace_seconds,
        settings_prefix="AGENT",
    )
    return 0
