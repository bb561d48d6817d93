"""Message size limits shared by the servers and the project's own clients, so a client can
always receive what a server may send (and send what it may receive)."""

from __future__ import annotations

from typing import Any, Final

MAX_MESSAGE_BYTES: Final = 4 * 1024 * 1024
MESSAGE_SIZE_OPTIONS: Final[tuple[tuple[str, Any], ...]] = (
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
)
