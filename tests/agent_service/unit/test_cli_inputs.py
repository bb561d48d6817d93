"""The command-line tools' rules, checked for every input rather than for examples: any bytes
become a message protobuf can carry; one port setting moves a service and what dials it; every
language of the chat has all of its words; a test run never sees the developer's .data/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenda.agent.v1 import agent_service_pb2 as pb
from agent_service.cli import clients, devrun, terminal, wording

REPO = Path(__file__).resolve().parents[3]


@settings(max_examples=50)
@given(st.binary(max_size=10_000))
def test_any_bytes_read_are_text_a_request_can_carry(raw: bytes) -> None:
    text = terminal.decoded(raw)
    text.encode("utf-8")  # no surrogates: a terminal that cut a character cannot crash the chat
    request = pb.SendMessageRequest(text=text)
    assert pb.SendMessageRequest.FromString(request.SerializeToString()).text == text
    assert not text.endswith(("\n", "\r"))


def test_a_character_cut_by_the_terminal_becomes_a_replacement() -> None:
    cut = ("ç" * 5000).encode()[:4095]  # a terminal's line limit, inside the last "ç"
    assert terminal.decoded(cut) == "ç" * 2047 + "\ufffd"


def test_the_calendar_port_moves_what_dials_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CALENDAR_GRPC_PORT", "50061")
    monkeypatch.setenv("AGENT_GRPC_PORT", "50062")
    assert devrun.service_environments()["agent_service"]["AGENT_CALENDAR_ADDR"] == (
        "127.0.0.1:50061"
    )
    assert clients.agent_address() == "127.0.0.1:50062"
    monkeypatch.setenv("AGENT_CALENDAR_ADDR", "calendar.internal:443")  # said explicitly: kept
    assert devrun.service_environments()["agent_service"]["AGENT_CALENDAR_ADDR"] == (
        "calendar.internal:443"
    )


def test_every_language_has_every_word_and_the_default_exists() -> None:
    languages = wording.languages()
    assert wording.DEFAULT in languages and {"pt", "en", "es"} <= set(languages)
    keys = set(languages[wording.DEFAULT])
    for code, words in languages.items():
        assert set(words) == keys, code
        for key in keys - {"quit"}:
            wording.text(code, key, reason="r", address="a")  # every placeholder is known
    assert wording.words("pt-BR") == languages["pt"] and wording.words("xx") == languages["pt"]
    assert {"sair", "quit", "salir"} <= wording.quit_words()


def test_a_test_run_has_its_own_data_directory_and_no_exported_settings() -> None:
    data = clients.data_dir().resolve()
    assert data != (REPO / ".data").resolve() and data.name.startswith("agenda-test-data-")
    assert clients.demo_tenant_file().parent == clients.data_dir()
    for name in ("MONGODB_URI", "AGENT_AUTH_TOKENS", "AGENT_CALENDAR_ADDR", "CALENDAR_GRPC_PORT"):
        assert name not in os.environ, name
