"""Service processes for tests, forked from one interpreter that has already imported the
services (a "zygote", as Android starts apps and gunicorn its preloaded workers).

Why: a ``python -m agent_service`` costs ~4 s of CPU before it serves, nearly all of it
importing langgraph, pydantic-ai & co.; a test run starts dozens of service processes (every
SIGKILL failpoint needs a fresh one), and on a busy 2-core machine those imports were a fifth
of ``make test``. A forked process skips them: it is still a real, separate OS process with its
own pid, environment, working directory, log file, sockets and MongoDB connections; signals
(SIGTERM, SIGKILL, SIGSTOP) and exit codes behave as for an exec'd one.

The rules that make forking safe and faithful:

- **The zygote is single-threaded when it forks** (checked after the imports: it refuses to
  serve otherwise): no lock or gRPC thread state is copied half-way. It only *imports*: no
  event loop, channel, server or client exists in it, and no module of ours reads a setting
  at import (settings, failpoints and logging are read when ``main()`` runs, in the child).
- **The child becomes the requested process**: environment replaced, working directory,
  stdin from ``/dev/null``, stdout and stderr to the log file, ``sys.argv``, a fresh random
  seed, default signal handlers (SIGPIPE and SIGXFSZ ignored, as an interpreter starts them:
  a write to a pipe nobody reads is ``BrokenPipeError``, not death); then ``runpy`` runs the
  module as ``__main__``, and the interpreter exits as it would (atexit, exit code, traceback
  on an uncaught exception).
- **Nothing outlives the run**: the zygote gets SIGKILL when the test process dies and each
  child when the zygote dies (``PR_SET_PDEATHSIG``); on end of input the zygote kills and
  reaps the children still alive.
- The zygote is the children's parent, so it reaps them: :class:`ForkedProcess` asks it for
  the exit status (``poll``/``wait``), and signals them directly by pid.

``AGENDA_TEST_FORKSERVER=0`` makes :func:`spawn_service` exec a fresh interpreter instead
(the behaviour to compare against when a forked start is in doubt). Tests of the commands
themselves (``make run``, the chat, the Kubernetes Job) always exec.
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import random
import runpy
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, Protocol

from tests.waiting import poll_sync

PRELOAD = ("agent_service.__main__", "agent_service.cli.serve", "calendar_service.__main__")
"""What the zygote imports before forking: both services' start-up paths. The ``__main__``
modules themselves are dropped again (``runpy`` runs them afresh in the child, as ``-m``
does); what they import stays."""
SWITCH = "AGENDA_TEST_FORKSERVER"
_PR_SET_PDEATHSIG = 1
_POLL_SECONDS = 0.02


class ServiceHandle(Protocol):
    """What tests use of a started service process (``subprocess.Popen`` has it too)."""

    pid: int

    @property
    def returncode(self) -> int | None: ...

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...

    def send_signal(self, sig: int) -> None: ...

    def terminate(self) -> None: ...

    def kill(self) -> None: ...


def spawn_service(module: str, env: Mapping[str, str], log_path: Path, cwd: Path) -> ServiceHandle:
    """``python -m module`` with exactly ``env``, in ``cwd``, stdin from ``/dev/null`` and
    stdout + stderr to ``log_path`` (truncated): forked from the zygote, or exec'd when
    ``AGENDA_TEST_FORKSERVER=0``."""
    if os.environ.get(SWITCH, "1") == "0":
        with log_path.open("wb") as log_file:
            return subprocess.Popen(
                [sys.executable, "-m", module],
                cwd=cwd,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
            )
    return _zygote().spawn(module, env, log_path, cwd)


class ForkedProcess:
    """A child of the zygote, seen from the test process (the ``Popen`` calls tests use)."""

    def __init__(self, zygote: Zygote, pid: int, module: str) -> None:
        self.pid = pid
        self.args = [sys.executable, "-m", module]
        self._zygote = zygote
        self._returncode: int | None = None

    @property
    def returncode(self) -> int | None:
        return self._returncode

    def poll(self) -> int | None:
        if self._returncode is None:
            self._returncode = self._zygote.status(self.pid)
        return self._returncode

    def wait(self, timeout: float | None = None) -> int:
        if poll_sync(lambda: self.poll() is not None, within=timeout, every=_POLL_SECONDS):
            assert self._returncode is not None
            return self._returncode
        raise subprocess.TimeoutExpired(self.args, timeout or 0)

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """The test process's end of the zygote: one request line out, one answer line back."""

    def __init__(self) -> None:
        repo = Path(__file__).resolve().parents[1]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self._process = subprocess.Popen(
            [sys.executable, "-m", "tests.forkserver", str(os.getpid())],
            cwd=repo,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self._lock = threading.Lock()
        ready = self._ask(None)
        if ready.get("ready") is not True:
            raise RuntimeError(f"the fork server did not start: {ready}")

    def _ask(self, request: dict[str, Any] | None) -> dict[str, Any]:
        with self._lock:
            stdin, stdout = self._process.stdin, self._process.stdout
            assert stdin is not None and stdout is not None
            if request is not None:
                stdin.write(json.dumps(request).encode() + b"\n")
                stdin.flush()
            line = stdout.readline()
        if not line:
            raise RuntimeError(f"the fork server exited with {self._process.wait()}")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the fork server refused: {answer['error']}")
        return answer

    def spawn(
        self, module: str, env: Mapping[str, str], log_path: Path, cwd: Path
    ) -> ForkedProcess:
        answer = self._ask(
            {"spawn": module, "env": dict(env), "log": str(log_path), "cwd": str(cwd)}
        )
        return ForkedProcess(self, int(answer["pid"]), module)

    def status(self, pid: int) -> int | None:
        code = self._ask({"status": pid})["code"]
        return None if code is None else int(code)


_ZYGOTE: Zygote | None = None
_ZYGOTE_LOCK = threading.Lock()


def _zygote() -> Zygote:
    global _ZYGOTE
    with _ZYGOTE_LOCK:
        if _ZYGOTE is None:
            _ZYGOTE = Zygote()
        return _ZYGOTE


# -- the zygote process -------------------------------------------------------------------


def _die_with(parent: int) -> None:
    """SIGKILL when ``parent`` exits; exit at once if it already has."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _answer(out: IO[bytes], **fields: Any) -> None:
    out.write(json.dumps(fields).encode() + b"\n")
    out.flush()


def _serve(parent: int) -> dict[str, Any] | None:
    """Answer requests until end of input; returns only in a forked child (its request)."""
    _die_with(parent)
    for name in PRELOAD:
        __import__(name)
    for name in PRELOAD:
        if name.endswith(".__main__"):
            del sys.modules[name]
    gc.freeze()  # the imported heap is shared: the collector leaves it alone in the children
    requests, out = sys.stdin.buffer, sys.stdout.buffer
    if threading.active_count() != 1:
        _answer(out, error=f"{threading.active_count()} threads after the imports")
        return None
    _answer(out, ready=True)
    children: dict[int, int | None] = {}
    for line in requests:
        request: dict[str, Any] = json.loads(line)
        if "status" in request:
            pid = int(request["status"])
            if pid in children and children[pid] is None:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    children[pid] = os.waitstatus_to_exitcode(status)
            _answer(out, code=children.get(pid))
            continue
        pid = os.fork()
        if pid == 0:
            return request
        children[pid] = None
        _answer(out, pid=pid)
    for pid, code in children.items():
        if code is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    return None


def _become(zygote: int, request: dict[str, Any]) -> None:
    """In the forked child: turn into ``python -m <module>`` as ``request`` describes."""
    _die_with(zygote)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    for sig in (signal.SIGPIPE, signal.SIGXFSZ):  # as an interpreter starts them
        signal.signal(sig, signal.SIG_IGN)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    null = os.open(os.devnull, os.O_RDONLY)
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(null)
    os.close(log)
    sys.stdin = open(0, closefd=False)  # noqa: SIM115 (the zygote's reader buffered its requests)
    random.seed()
    module = request["spawn"]
    sys.argv = [module]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


def main() -> None:
    zygote = os.getpid()
    request = _serve(int(sys.argv[1]))
    if request is not None:
        _become(zygote, request)


if __name__ == "__main__":
    main()
