"""The project's own clients can receive whatever its servers may send: one shared limit."""

from __future__ import annotations

from agenda_kit.grpc.client import DEFAULT_CHANNEL_OPTIONS
from agenda_kit.grpc.limits import MAX_MESSAGE_BYTES
from agenda_kit.grpc.server import ServerSpec


def test_clients_receive_what_servers_send() -> None:
    sent = ServerSpec(services=[]).max_message_bytes
    assert sent == MAX_MESSAGE_BYTES
    # Both clients (AgentClient, GrpcCalendarAdapter) open their channels with open_channel.
    options = dict(DEFAULT_CHANNEL_OPTIONS)
    assert options["grpc.max_receive_message_length"] >= sent
