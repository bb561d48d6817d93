"""Ctrl-C at the chat's prompt stops it even when the process-directed SIGINT lands on one of
the process's other threads (gRPC's): the prompt must wake up to run the handler, not sit in a
blocking read until the next Enter. Reproduced deterministically with ``pthread_kill`` to a
non-main thread while the prompt waits on a terminal nobody types into."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

from tests.e2e.processes import REPO

CHILD = """
import select, signal, sys, threading
from agent_service.cli import terminal

# As the chat does: a process started in the background inherits SIGINT ignored.
signal.signal(signal.SIGINT, signal.default_int_handler)

waiting = threading.Event()
real_select = select.select

def watched_select(*args):
    waiting.set()  # the prompt is now waiting for input
    return real_select(*args)

terminal.select.select = watched_select

def poke() -> None:
    waiting.wait()
    signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # lands on this thread, not main

try:
    threading.Thread(target=poke, daemon=True).start()
    terminal.prompt("> ")
except KeyboardInterrupt:
    sys.stdout.write("interrupted\\n")
    sys.exit(0)
sys.exit(3)
"""


def test_ctrl_c_delivered_to_another_thread_still_interrupts_the_prompt() -> None:
    master, slave = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD],
            cwd=REPO, stdin=slave, capture_output=True, text=True, timeout=20, check=False,
        )  # fmt: skip
    finally:
        os.close(slave)
        os.close(master)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "interrupted" in done.stdout
