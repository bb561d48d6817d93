"""Settings pieces both services share; each service reads its own settings once at start-up."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from agenda_kit.event_loop import EventLoop
from agenda_kit.tracing import TracingMode


def split_commas(value: object) -> object:
    """``"a, b"`` → ``["a", "b"]``; lists pass through."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


class SharedSettings(BaseSettings):
    """Unprefixed settings both services read (MongoDB, data directory, logging, health,
    tracing)."""

    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)

    mongodb_uri: str | None = Field(default=None, alias="MONGODB_URI")
    data_dir: Path = Field(default=Path(".data"), alias="AGENDA_DATA_DIR")
    log_level: str = Field(default="INFO", alias="LOG_LEVEL")
    log_json: bool = Field(default=True, alias="LOG_JSON")
    health_interval_seconds: float = Field(
        default=5.0, gt=0, alias="AGENDA_HEALTH_INTERVAL_SECONDS"
    )
    health_timeout_seconds: float = Field(default=2.0, gt=0, alias="AGENDA_HEALTH_TIMEOUT_SECONDS")
    tracing: TracingMode | None = Field(default=None, alias="AGENDA_TRACING")
    otlp_endpoint: str | None = Field(default=None, alias="OTEL_EXPORTER_OTLP_ENDPOINT")
    principals_file: Path | None = Field(default=None, alias="AGENDA_PRINCIPALS_FILE")
    event_loop: EventLoop = Field(default=EventLoop.UVLOOP, alias="AGENDA_EVENT_LOOP")
    """Read before the loop starts (``agenda_kit.event_loop.chosen``); declared here to be
    validated and documented with the others."""

    def tracing_mode(self) -> TracingMode:
        """``AGENDA_TRACING``, else OTLP when ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set, else off."""
        if self.tracing is not None:
            return self.tracing
        return TracingMode.OTLP if self.otlp_endpoint else TracingMode.OFF
