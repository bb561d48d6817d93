"""Settings of a calendar service on either backend, for tests that run on both."""

from __future__ import annotations

from typing import Any

from calendar_service.infrastructure.settings import Backend, CalendarSettings
from tests.fakes.google_calendar import Emulator
from tests.fakes.google_fixtures import ServiceAccount


def service_settings(
    backend: Backend, emulator: Emulator, service_account: ServiceAccount, **overrides: Any
) -> CalendarSettings:
    """Any free gRPC port, no metrics port; the Google backend through ``emulator`` with
    ``service_account``'s key, or the built-in calendar; plus ``overrides``."""
    base: dict[str, Any] = {"grpc_port": 0, "metrics_port": 0, "backend": backend}
    if backend is Backend.GOOGLE:
        base |= {
            "google_credentials_file": service_account.key_file,
            "google_api_base": emulator.base_url,
            "google_token_uri": emulator.token_uri,
        }
    return CalendarSettings(**(base | overrides))
