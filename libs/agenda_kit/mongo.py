"""The embedded MongoDB-wire server (SecantusDB) for development and tests, and the client factory.

``MONGODB_URI`` unset means "run SecantusDB as a child" (docs/architecture.md#storage). The child:

- listens on ``127.0.0.1`` on a port the OS picks (``--port 0``); the port is read back from
  the ``secantus listening on HOST:PORT`` line of its log, so there is no bind-then-release race;
- keeps its data under ``data_dir/wiredtiger`` and its log in ``data_dir/secantusd.log``; with
  ``":memory:"`` both the data (WiredTiger ``in_memory``) and the log live in a temporary
  directory removed on ``stop()``;
- on Linux receives ``SIGKILL`` when the thread that started it dies (``PR_SET_PDEATHSIG``), so
  a crashed test run never leaks servers. The signal is tied to the *spawning thread*, which is
  why the process is always spawned in the caller's thread, never in a worker thread;
- reads only the empty ``secantusd.toml`` written next to its log, never a config file found in
  the working directory or the home directory.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from pymongo import AsyncMongoClient, MongoClient
from pymongo.errors import PyMongoError

MEMORY = ":memory:"
DEFAULT_DATA_DIR = Path(".data/mongo")
_LISTENING = re.compile(r"secantus listening on ([^\s:]+|\[[^\]]+\]):(\d+)")
_PR_SET_PDEATHSIG = 1
_LOG_TAIL_LINES = 30


class EmbeddedMongoError(RuntimeError):
    """The embedded server did not start (the message carries the tail of its log)."""


def make_client(uri: str, **kw: Any) -> AsyncMongoClient[dict[str, Any]]:
    """An ``AsyncMongoClient`` with the project's settings: aware datetimes, standard UUIDs and
    timeouts short enough that an unreachable server fails a request instead of hanging it.
    Keyword arguments override the defaults."""
    options: dict[str, Any] = {
        "tz_aware": True,
        "uuidRepresentation": "standard",
        "serverSelectionTimeoutMS": 5_000,
        "connectTimeoutMS": 5_000,
        "appname": "agenda",
    }
    options.update(kw)
    return AsyncMongoClient(uri, **options)


_BOOT = f"""
import ctypes, os, runpy, signal, sys
ctypes.CDLL(None, use_errno=True).prctl({_PR_SET_PDEATHSIG}, signal.SIGKILL, 0, 0, 0)
if os.getppid() != int(sys.argv[1]):
    os._exit(1)
sys.argv = sys.argv[2:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""
"""The child's first lines (Linux): ask for SIGKILL when the parent thread exits, exit at once if
the parent is already gone, then run the server module. This runs after ``exec``, not in a
``preexec_fn``: a ``preexec_fn`` forces a plain ``fork()`` of the whole test or service process,
whose gRPC threads' fork handlers can abort the child (seen: SIGABRT, "epoll_wait error: Bad
file descriptor"); without one, ``subprocess`` uses ``vfork``, which runs no fork handlers."""


def _server_command(*args: str) -> list[str]:
    if sys.platform != "linux":
        return [sys.executable, "-m", "secantus", *args]
    return [sys.executable, "-c", _BOOT, str(os.getpid()), "secantus", *args]


def _log_tail(log_path: Path) -> str:
    try:
        lines = log_path.read_text(errors="replace").splitlines()
    except FileNotFoundError:
        return "(no log written)"
    return "\n".join(lines[-_LOG_TAIL_LINES:]) or "(log is empty)"


class EmbeddedMongo:
    """A SecantusDB child process: ``start()`` returns once it answers ``ping``; ``stop()`` ends
    it (SIGTERM, then SIGKILL after ``stop_timeout`` seconds). Usable with ``with`` and
    ``async with``."""

    def __init__(
        self,
        data_dir: Path | str = DEFAULT_DATA_DIR,
        *,
        startup_timeout: float = 30.0,
        stop_timeout: float = 10.0,
    ) -> None:
        self.in_memory = str(data_dir) == MEMORY
        self.data_dir = None if self.in_memory else Path(data_dir).resolve()
        self.startup_timeout = startup_timeout
        self.stop_timeout = stop_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._tempdir: Path | None = None
        self._log_path: Path | None = None
        self._port: int | None = None
        self._log_offset = 0

    @property
    def uri(self) -> str:
        """``mongodb://127.0.0.1:PORT/?directConnection=true`` of the running server."""
        return f"mongodb://127.0.0.1:{self.port}/?directConnection=true"

    @property
    def port(self) -> int:
        if self._port is None:
            raise EmbeddedMongoError("the embedded MongoDB server is not running")
        return self._port

    @property
    def log_path(self) -> Path:
        if self._log_path is None:
            raise EmbeddedMongoError("the embedded MongoDB server was never started")
        return self._log_path

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def start(self) -> str:
        """Start the server and block until it answers ``ping``; returns its URI."""
        self._spawn()
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self.uri

    async def astart(self) -> str:
        """``start()`` for async callers: spawn here (see the module note on PDEATHSIG), wait in
        a worker thread."""
        self._spawn()
        try:
            await asyncio.to_thread(self._wait_ready)
        except BaseException:
            await asyncio.to_thread(self.stop)
            raise
        return self.uri

    def stop(self) -> None:
        """End the process and remove a ``:memory:`` temp dir.

        A server with a data directory gets SIGTERM, so WiredTiger closes cleanly, and SIGKILL
        only after ``stop_timeout`` seconds; a ``:memory:`` server has nothing to save and is
        killed at once (its graceful stop costs ~2 s).
        """
        process, self._process, self._port = self._process, None, None
        if process is not None and process.poll() is None:
            if not self.in_memory:
                process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(self.stop_timeout)
            if process.poll() is None:
                process.kill()
            process.wait()
        if self._tempdir is not None:
            shutil.rmtree(self._tempdir, ignore_errors=True)
            self._tempdir = None

    def _spawn(self) -> None:
        if self._process is not None:
            raise EmbeddedMongoError("the embedded MongoDB server is already running")
        home = self._prepare_home()
        self._log_path = home / "secantusd.log"
        config = home / "secantusd.toml"
        config.write_text("# Written by agenda_kit.mongo: every setting comes from flags.\n")
        storage = MEMORY if self.in_memory else str(home / "wiredtiger")
        command = _server_command(
            *("--config", str(config), "--host", "127.0.0.1", "--port", "0"),
            *("--storage-path", storage, "--log-level", "INFO"),
        )
        with self._log_path.open("ab") as log:
            self._log_offset = log.tell()
            self._process = subprocess.Popen(  # noqa: S603 - fixed argv, no shell
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def _prepare_home(self) -> Path:
        if self.data_dir is None:
            self._tempdir = Path(tempfile.mkdtemp(prefix="agenda-mongo-"))
            return self._tempdir
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return self.data_dir

    def _wait_ready(self) -> None:
        """Wait for the ``listening`` log line, then for a successful ``ping``."""
        deadline = time.monotonic() + self.startup_timeout
        self._port = self._wait_for_port(deadline)
        remaining_ms = max(100, int((deadline - time.monotonic()) * 1000))
        client: MongoClient[dict[str, Any]] = MongoClient(
            self.uri, serverSelectionTimeoutMS=remaining_ms
        )
        try:
            client.admin.command("ping")
        except PyMongoError as error:
            raise self._startup_error(f"did not answer ping ({error})") from error
        finally:
            client.close()

    def _wait_for_port(self, deadline: float) -> int:
        process = self._process
        assert process is not None
        while time.monotonic() < deadline:
            match = _LISTENING.search(self._new_log_text())
            if match:
                return int(match.group(2))
            if process.poll() is not None:
                raise self._startup_error(f"exited with code {process.returncode}")
            time.sleep(0.02)
        raise self._startup_error(f"did not listen within {self.startup_timeout:g} s")

    def _new_log_text(self) -> str:
        """What this run logged (a persistent log also holds earlier runs)."""
        with contextlib.suppress(FileNotFoundError), self.log_path.open("rb") as log:
            log.seek(self._log_offset)
            return log.read().decode(errors="replace")
        return ""

    def _startup_error(self, what: str) -> EmbeddedMongoError:
        tail = _log_tail(self.log_path)
        return EmbeddedMongoError(f"embedded MongoDB (SecantusDB) {what}; {self.log_path}:\n{tail}")

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    async def __aenter__(self) -> Self:
        await self.astart()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await asyncio.to_thread(self.stop)


async def ensure_mongo(uri: str | None, data_dir: Path) -> tuple[str, EmbeddedMongo | None]:
    """The URI to use: ``uri`` when configured, else that of a freshly started embedded server,
    whose handle is returned so the caller can ``stop()`` it on shutdown."""
    if uri is not None:
        return uri, None
    server = EmbeddedMongo(data_dir)
    await server.astart()
    return server.uri, server
