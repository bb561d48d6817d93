"""Fixtures of the operations tests: the Google Calendar emulator."""

from tests.fakes.google_fixtures import (  # noqa: F401
    adapter,
    emulator,
    make_adapter,
    service_account,
    service_account_key,
)
