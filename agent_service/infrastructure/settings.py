"""Agent service settings (prefix ``AGENT_``), read once by ``bootstrap``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import BeforeValidator, Field
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from agenda_kit.settings import split_commas


class AgentSettings(BaseSettings):
    """Every ``AGENT_*`` setting (plus ``OPENAI_BASE_URL``/``OPENAI_API_KEY``);
    see docs/configuration.md."""

    model_config = SettingsConfigDict(env_prefix="AGENT_", extra="ignore", populate_by_name=True)

    grpc_host: str = "127.0.0.1"
    grpc_port: int = Field(default=50052, ge=0, le=65535)
    metrics_port: int = Field(default=9452, ge=0, le=65535)
    auth_tokens: Annotated[list[str], NoDecode, BeforeValidator(split_commas)] = []
    database: str = "agenda"
    calendar_addr: str = "127.0.0.1:50051"
    calendar_token: str | None = None
    calendar_timeout_seconds: float = Field(default=5.0, gt=0)
    calendar_tls_root_cert: Path | None = None
    model: str = "offline"
    openai_base_url: str | None = Field(default=None, alias="OPENAI_BASE_URL")
    openai_api_key: str | None = Field(default=None, alias="OPENAI_API_KEY")
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, gt=0, le=1)
    max_output_tokens: int | None = Field(default=None, gt=0)
    model_retries: int = Field(default=1, ge=0, le=5)
    request_limit: int = Field(default=8, ge=1, le=50)
    tool_calls_limit: int = Field(default=12, ge=1, le=100)
    enable_booking: bool = True
    enable_cancellation: bool = True
    enable_faq: bool = True
    enable_handoff: bool = True
    reconcile_interval_seconds: float = Field(default=60.0, gt=0)
    reconcile_grace_seconds: float = Field(default=120.0, ge=0)
    turn_lease_seconds: float = Field(default=60.0, gt=0)
    turn_budget_seconds: float = Field(default=120.0, gt=0, le=3600)
    model_timeout_seconds: float = Field(default=30.0, gt=0, le=600)
    tenant_max_concurrent_turns: int = Field(default=8, ge=1)
    tenant_slot_lease_seconds: float = Field(default=30.0, gt=0)
    tenant_messages_per_minute: float = Field(default=600.0, ge=0)
    tenant_message_burst: int = Field(default=200, ge=1)
    max_streams_per_principal: int = Field(default=100, ge=0)
    max_calls_per_tenant: int = Field(default=32, ge=0)
    confirmation_ttl_seconds: float = Field(default=900.0, gt=0, le=86_400)
    repeated_yes_seconds: float = Field(default=120.0, ge=0, le=3600)
    confirmation_read_seconds: float = Field(default=1.5, ge=0, le=60)
    handoff_timeout_seconds: float | None = Field(default=None, gt=0)
    max_reply_chars: int = Field(default=2000, ge=500, le=10_000)
    shutdown_grace_seconds: float = Field(default=10.0, ge=0)
    tls_cert_file: Path | None = None
    tls_key_file: Path | None = None
    tls_client_ca_file: Path | None = None

    def flags(self) -> dict[str, bool]:
        return {
            "enable_booking": self.enable_booking,
            "enable_cancellation": self.enable_cancellation,
            "enable_faq": self.enable_faq,
            "enable_handoff": self.enable_handoff,
        }
