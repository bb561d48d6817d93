"""Calendar service settings (prefix ``CALENDAR_``), read once by ``bootstrap``."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

from pydantic import BeforeValidator, Field
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from agenda_kit.settings import split_commas


class Backend(StrEnum):
    LOCAL = "local"
    GOOGLE = "google"


class CalendarSettings(BaseSettings):
    """Every ``CALENDAR_*`` setting; see docs/configuration.md."""

    model_config = SettingsConfigDict(env_prefix="CALENDAR_", extra="ignore")

    grpc_host: str = "127.0.0.1"
    grpc_port: int = Field(default=50051, ge=0, le=65535)
    metrics_port: int = Field(default=9451, ge=0, le=65535)
    backend: Backend = Backend.LOCAL
    auth_tokens: Annotated[list[str], NoDecode, BeforeValidator(split_commas)] = []
    database: str = "agenda_calendar"
    local_busy_by_day_keys: bool = True
    """Local backend: read busy time by the events' UTC day keys (an index lookup); False
    reads by the overlap filter — the first step of a rolling upgrade from a build that did
    not write day keys (see docs/architecture.md#the-built-in-local-calendar)."""
    freebusy_cache_ttl_seconds: float = Field(default=15.0, ge=0)
    freebusy_prefetch_days: int = Field(default=7, ge=1, le=60)
    freebusy_followed_ttl_seconds: float = Field(default=300.0, ge=0)
    shutdown_grace_seconds: float = Field(default=10.0, ge=0)
    max_calls_per_principal: int = Field(default=256, ge=0)
    """Calls one caller (a product) may have in flight in this process (0: no limit): a
    flood of one is refused (``TOO_MANY_CALLS``) while the others keep their share of the
    provider's connections."""
    google_credentials_file: Path | None = None
    google_subject: str | None = None
    google_api_base: str = "https://www.googleapis.com/calendar/v3"
    google_token_uri: str | None = None
    google_request_timeout_seconds: float = Field(default=10.0, gt=0)
    google_max_attempts: int = Field(default=5, ge=1, le=10)
    google_quota_threshold: int = Field(default=8, ge=1, le=100)
    google_quota_cooldown_seconds: float = Field(default=1.0, gt=0)
    google_quota_max_cooldown_seconds: float = Field(default=300.0, gt=0)
    google_usage_cooldown_seconds: float = Field(default=600.0, gt=0)
    google_credentials_cooldown_seconds: float = Field(default=30.0, gt=0)
    google_watch_address: str | None = None
    google_watch_host: str = "127.0.0.1"
    google_watch_port: int = Field(default=9453, ge=0, le=65535)
    """Not 9452: that is ``AGENT_METRICS_PORT``'s default (both run on one host in make run)."""
    hold_lease_seconds: float = Field(default=120.0, ge=1)
    """How long a write's holds stay "writing" before the sweeper may settle them; a guarded
    write is stopped at half of it (its outcome then unknown: ``UNAVAILABLE``, retry with the
    same key), leaving the other half for a request the provider received to apply."""
    hold_sweep_interval_seconds: float = Field(default=30.0, ge=0)
    """How often each replica sweeps holds of writes that died (0: never)."""
    tls_cert_file: Path | None = None
    tls_key_file: Path | None = None
    tls_client_ca_file: Path | None = None
