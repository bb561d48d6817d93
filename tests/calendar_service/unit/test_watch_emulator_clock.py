"""The Google emulator's push channels expire on the emulator's clock (injected, never the
real one): a change notifies only channels whose expiration is still ahead."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakes.google_watch import Channel, WatchChannels

T0 = 1_900_000_000.0  # a fixed instant, seconds since the epoch


def channel(channel_id: str, calendar_id: str, expires_at: float) -> Channel:
    return Channel(
        channel_id=channel_id,
        calendar_id=calendar_id,
        address="https://receiver.test/google/notifications",
        token="t",
        resource_id=f"r-{channel_id}",
        resource_uri=f"https://emulator.test/calendars/{calendar_id}/events",
        expiration_ms=int(expires_at * 1000),
    )


def test_only_unexpired_channels_of_the_changed_calendar_are_notified(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [T0]
    watch = WatchChannels(clock=lambda: now[0])
    sent: list[tuple[str, str]] = []
    monkeypatch.setattr(watch, "_send", lambda c, state: sent.append((c.channel_id, state)))
    for made in (
        channel("a", "ana", T0 + 60),
        channel("b", "ana", T0 + 600),
        channel("c", "bia", T0 + 600),
    ):
        watch.channels[made.channel_id] = made
    watch.changed("ana")
    assert sent == [("a", "exists"), ("b", "exists")]
    now[0] = T0 + 60  # "a" expires exactly now
    watch.changed("ana")
    assert sent[2:] == [("b", "exists")]


def test_a_new_channel_expires_a_ttl_after_the_emulators_now(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    watch = WatchChannels(clock=lambda: T0)
    monkeypatch.setattr(watch, "_send", lambda c, state: None)
    body: dict[str, Any] = {
        "id": "ch-1",
        "type": "web_hook",
        "address": "https://receiver.test/google/notifications",
        "params": {"ttl": "120"},
    }
    opened = watch.watch("ana", body)
    assert opened["expiration"] == str(int((T0 + 120) * 1000))
