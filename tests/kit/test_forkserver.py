"""Service processes forked from the tests' zygote behave as exec'd ones (tests/forkserver.py):
exactly the given environment and working directory, output to the log, exit codes, signals,
``wait`` timeouts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.forkserver import SWITCH, spawn_service

REPO = Path(__file__).resolve().parents[2]


def _started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forked: bool, **env: str
) -> dict[str, Any]:
    monkeypatch.setenv(SWITCH, "1" if forked else "0")
    log = tmp_path / f"probe-{forked}.log"
    process = spawn_service(
        "tests.forkserver_probe", {"PATH": os.environ["PATH"], **env}, log, tmp_path
    )
    code = process.wait(timeout=120)
    lines = log.read_text().splitlines()
    return {"code": code, "started": json.loads(lines[0]), "rest": lines[1:]}


@pytest.mark.parametrize("exit_code", ["0", "3"])
def test_a_forked_process_is_started_as_an_execd_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exit_code: str
) -> None:
    forked = _started(tmp_path, monkeypatch, True, PROBE_EXIT=exit_code, ONLY_THIS="yes")
    execd = _started(tmp_path, monkeypatch, False, PROBE_EXIT=exit_code, ONLY_THIS="yes")
    assert forked["code"] == execd["code"] == int(exit_code)
    assert forked["rest"] == execd["rest"] == ["to stderr"]
    assert forked["started"]["cwd"] == execd["started"]["cwd"] == str(tmp_path)
    assert forked["started"]["argv0"].endswith("forkserver_probe.py")
    # a write to a pipe nobody reads raises BrokenPipeError, it does not kill the process
    assert forked["started"]["sigpipe_ignored"] is execd["started"]["sigpipe_ignored"] is True
    extra = {"PATH", "PROBE_EXIT", "ONLY_THIS"}
    interpreter = {"PYTHONUNBUFFERED", "LC_CTYPE"}  # the zygote's -u; PEP 538's coercion
    assert set(forked["started"]["env"]) - interpreter == set(execd["started"]["env"]) - interpreter
    assert set(forked["started"]["env"]) - interpreter <= extra
    assert forked["started"]["env"]["ONLY_THIS"] == "yes"


def test_signals_reach_it_and_wait_times_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SWITCH, "1")
    env = {"PATH": os.environ["PATH"], "PROBE_EXIT": "wait"}
    process = spawn_service("tests.forkserver_probe", env, tmp_path / "log", REPO)
    assert process.poll() is None
    with pytest.raises(subprocess.TimeoutExpired):
        process.wait(timeout=0.05)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=120) == -signal.SIGTERM
    assert process.returncode == -signal.SIGTERM
    process.kill()  # a finished process: nothing to signal, no error
