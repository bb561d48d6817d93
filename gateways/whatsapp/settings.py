"""The gateway's settings (prefix ``WHATSAPP_``), read once by ``__main__``; secrets are read
from files, never from the environment itself, and never logged."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

GRAPH_API = "https://graph.facebook.com"


class WhatsAppSettings(BaseSettings):
    """Every ``WHATSAPP_*`` setting; see docs/gateways.md#settings."""

    model_config = SettingsConfigDict(env_prefix="WHATSAPP_", extra="ignore")

    listen_host: str = "127.0.0.1"
    listen_port: int = Field(default=8085, ge=0, le=65535)
    verify_token_file: Path
    app_secret_file: Path
    access_token_file: Path
    phone_number_id: str = Field(min_length=1, max_length=64, pattern=r"^[0-9]+$")
    graph_api_base: str = GRAPH_API
    graph_api_version: str = Field(default="v21.0", pattern=r"^v[0-9]+\.[0-9]+$")
    tenant_id: str = Field(min_length=36, max_length=36)
    agent_addr: str = "127.0.0.1:50052"
    agent_token_file: Path
    agent_timeout_seconds: float = Field(default=150.0, gt=0)
    retry_budget_seconds: float = Field(default=300.0, gt=0)
    outbox_wait_seconds: int = Field(default=20, ge=0, le=20)
    outbox_retry_seconds: float = Field(default=60.0, gt=0)


def secret(path: Path) -> str:
    """A secret's value: the file's content without its trailing newline."""
    return path.read_text(encoding="utf-8").strip()
