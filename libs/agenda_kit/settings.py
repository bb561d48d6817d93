"""Settings pieces both services share; each service reads its own settings once at start-up."""

from __future__ import annotations

import secrets
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

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

    def tracing_mode(self) -> TracingMode:
        """``AGENDA_TRACING``, else OTLP when ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set, else off."""
        if self.tracing is not None:
            return self.tracing
        return TracingMode.OTLP if self.otlp_endpoint else TracingMode.OFF


def tokens_or_generated(tokens: list[str], token_file: Path) -> list[str]:
    """The configured tokens, or one generated and written (mode 0600) to ``token_file``.

    A server never runs without authentication: with nothing configured, the operator
    reads the generated token from the file.
    """
    if tokens:
        return tokens
    if token_file.exists():
        existing = token_file.read_text().strip()
        if existing:
            return [existing]
    token_file.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    token_file.touch(mode=0o600)
    token_file.write_text(token + "\n")
    return [token]
