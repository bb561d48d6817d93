"""Reading what a person types or pipes: bytes in, text out, whatever the bytes.

A terminal cuts a long paste at its line limit (4,095 bytes on Linux), maybe inside a UTF-8
character; a pipe may carry anything. Every line is decoded as UTF-8 with invalid or cut
sequences replaced by U+FFFD, so no input can make reading — or the request built from it —
fail.
"""

from __future__ import annotations

import os
import select
import sys


def out(line: str) -> None:
    """One line on standard output, at once (the chat may be piped into another program)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


WAKE_SECONDS = 0.2
READ_BYTES = 65536


def decoded(raw: bytes) -> str:
    """A line of bytes as text: UTF-8, any invalid or cut sequence replaced by U+FFFD, the
    line ending dropped. Never fails, whatever the bytes."""
    return raw.decode("utf-8", errors="replace").rstrip("\r\n")


def prompt(text: str) -> str | None:
    """One line from the terminal (None at end of input). Waits in short ``select`` slices
    rather than one blocking read: a process-directed SIGINT may be delivered to one of gRPC's
    threads, and then only a main thread that wakes up runs Python's handler (a blocked read
    would wait for Enter). Reads bytes (``os.read``) and decodes them itself, so no input can
    make the read fail."""
    sys.stdout.write(text)
    sys.stdout.flush()
    fd = sys.stdin.fileno()
    chunks: list[bytes] = []
    while True:
        while not select.select([fd], [], [], WAKE_SECONDS)[0]:
            pass
        chunk = os.read(fd, READ_BYTES)
        if not chunk:  # end of input (Ctrl-D): what was typed on the line so far, if anything
            return decoded(b"".join(chunks)) if chunks else None
        chunks.append(chunk)
        if chunk.endswith(b"\n"):
            return decoded(b"".join(chunks))


def piped_lines() -> list[str]:
    """Every line of piped stdin, decoded as :func:`decoded` does (no input can fail)."""
    return [decoded(line) for line in sys.stdin.buffer.read().split(b"\n")]
