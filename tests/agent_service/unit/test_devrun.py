"""``make run`` after a Ctrl-C: the services of the last run (still stopping) are waited for,
and what outlives the wait is killed — only processes that are our services."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agent_service.cli import devrun


def _started(command: list[str]) -> subprocess.Popen[bytes]:
    """``command`` started and running its own program: until it prints, /proc shows the
    parent's command line (forked, not yet exec'd), and no check by command line may run."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdout.readline() == b"ready\n"
    return process


def test_the_next_run_waits_for_the_last_runs_services(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENDA_DATA_DIR", str(tmp_path))
    hang = "import time; print('ready', flush=True); time.sleep(120)"
    service = _started([sys.executable, "-c", hang, "agent_service"])  # one of ours
    other = _started([sys.executable, "-c", hang, "something-else"])
    try:
        (tmp_path / devrun.RUN_FILE).write_text(f"{service.pid}\n{other.pid}\n")
        devrun._wait_for_previous(timeout=0.5)  # still running after the wait: killed
        assert service.wait(timeout=30) != 0
        assert other.poll() is None  # not ours: left alone
        assert not (tmp_path / devrun.RUN_FILE).exists()
        devrun._wait_for_previous(timeout=0.5)  # nothing remembered: returns at once
    finally:
        other.kill()
        service.kill()
        other.wait()
        service.wait()
        for process in (other, service):
            if process.stdout is not None:
                process.stdout.close()
