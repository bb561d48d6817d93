"""The terminal chat as a person uses it, under a real pseudo-terminal against the real
services: a handoff says a human has the conversation and how to return it, ``/back`` hands
it back (the gateway's own token); a 5,000-character paste (the terminal cuts it at its line
limit, inside a character) and a cut UTF-8 sequence are answered and the chat goes on; the
prompt follows the conversation's language; and Ctrl-C stops the chat without an Enter."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.agent_processes import ZeroConfig, hermetic_env
from tests.e2e.processes import REPO

pytestmark = pytest.mark.slow
WAIT_SECONDS = 60.0
PASTE = "ç" * 5000  # 10,000 bytes: the terminal keeps 4,095 of them, ending in half a "ç"


class Terminal:
    """The master side of a pty: what the chat printed so far, waited on by substring."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.seen = ""

    def wait_for(self, text: str, after: int = 0) -> int:
        deadline = time.monotonic() + WAIT_SECONDS
        while text not in self.seen[after:]:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never came; the chat printed:\n{self.seen}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the chat exited
                    chunk = b""
                assert chunk, f"the chat exited before {text!r}:\n{self.seen}"
                self.seen += chunk.decode(errors="replace")
        return self.seen.index(text, after) + len(text)

    def type(self, line: str | bytes) -> None:
        os.write(self.master, (line.encode() if isinstance(line, str) else line) + b"\n")


def piped_chat(env: dict[str, str], lines: str) -> subprocess.CompletedProcess[str]:
    """``lines`` piped to the chat (each one customer message); it must end cleanly."""
    done = subprocess.run(
        [sys.executable, "-m", "agent_service", "chat"], input=lines,
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_chat_hands_off_returns_with_back_and_stops_on_ctrl_c(zero_config: ZeroConfig) -> None:
    env = hermetic_env(AGENDA_DATA_DIR=str(zero_config.data_dir), **zero_config.ports.env())
    seeded = subprocess.run(
        [sys.executable, "-m", "agent_service", "seed-demo"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert seeded.returncode == 0, seeded.stdout + seeded.stderr
    piped = piped_chat(env, "Quais serviços vocês têm?\nQual é o endereço?\n")
    assert "Corte feminino" in piped.stdout and "Rua das Flores" in piped.stdout, piped.stdout
    assert "[faq:" not in piped.stdout
    english = piped_chat(env, "Hello! What services do you have?\nWhat is the address?\n")
    # The chat's own words follow the conversation's language once the agent has told it.
    assert "you> What is the address?" in english.stdout, english.stdout
    assert (
        "assistant> " in english.stdout
        and "assistente>" not in english.stdout.split("you> What is the address?")[1]
    ), english.stdout
    master, slave = pty.openpty()
    chat = subprocess.Popen(
        [sys.executable, "-m", "agent_service", "chat", "--new"],
        cwd=REPO, env=env, stdin=slave, stdout=slave, stderr=slave,
    )  # fmt: skip
    os.close(slave)
    terminal = Terminal(master)
    try:
        at = terminal.wait_for("você>")
        terminal.type("Quero falar com um atendente humano")
        at = terminal.wait_for("/back", at)
        terminal.type("/back")
        at = terminal.wait_for("o assistente voltou", at)
        terminal.type(PASTE)
        at = terminal.wait_for("assistente>", at)
        terminal.type(b"Quais servi\xc3\xa7os voc\xc3")  # cut inside "ê"
        at = terminal.wait_for("assistente>", at)
        terminal.type("Quais serviços vocês têm?")
        at = terminal.wait_for("Corte feminino", at)
        terminal.wait_for("você>", at)
        chat.send_signal(signal.SIGINT)  # what Ctrl-C sends, while the prompt waits
        code = chat.wait(timeout=WAIT_SECONDS)  # no Enter is typed: it must end by itself
    finally:
        if chat.poll() is None:
            chat.kill()
        os.close(master)
    assert code == 130, terminal.seen
    assert "Traceback" not in terminal.seen, terminal.seen
    assert "Error" not in terminal.seen, terminal.seen


def test_chat_with_the_services_down_says_so_in_one_line(tmp_path: Path) -> None:
    env = hermetic_env(AGENDA_DATA_DIR=str(tmp_path), AGENT_AUTH_TOKENS="any-token")
    (tmp_path / "demo_tenant_id").write_text("00000000-0000-4000-8000-000000000001\n")
    down = subprocess.run(
        [sys.executable, "-m", "agent_service", "chat", "--address", "127.0.0.1:9"],
        input="Oi\n", cwd=REPO, env=env, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert down.returncode == 1, down.stdout + down.stderr
    assert "Traceback" not in down.stdout + down.stderr
    said = [line for line in (down.stdout + down.stderr).splitlines() if "127.0.0.1:9" in line]
    assert len(said) == 1 and "UNAVAILABLE" in said[0], down.stdout + down.stderr
