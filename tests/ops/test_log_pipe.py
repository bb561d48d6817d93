"""A service whose log output is a pipe whose reader goes away (``python -m calendar_service
2>&1 | head``, and ``head`` exits) keeps serving: the lines it can no longer write are dropped
and counted (``agenda_log_lines_dropped_total``), it does not spin on the broken pipe, and
SIGTERM still ends it cleanly (docs/operations.md, "Logs"). Before ``agenda_kit.logging``'s
``LogStream``, each log call raised ``BrokenPipeError`` where it was made: every RPC failed with
UNKNOWN and the stop exited with 1.

The service is the real ``python -m calendar_service`` (both services configure their logs in
``agenda_kit.grpc.run``), its stdout and stderr the write end of a FIFO the test reads until
the service has started, then closes. Nothing here waits for a while: each step waits for its
event (a line read, an RPC answered, a counter reached, its exit)."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from agenda_kit.logging import LogStream
from tests.e2e.agent_processes import hermetic_env
from tests.e2e.processes import REPO, free_port
from tests.forkserver import ServiceHandle, spawn_service
from tests.waiting import until_sync

SERVING = health_pb2.HealthCheckResponse.SERVING
CHECKS_AFTER_THE_READER_LEFT = 5
"""Health checks made once nobody reads the logs: each logs an ``rpc`` line."""
BACKGROUND_LINES = 200
"""Lines the service's own loops may log meanwhile, however slow the machine (a few a second)."""


class Service:
    """``python -m calendar_service`` with stdout and stderr on a FIFO the test reads."""

    def __init__(self, process: ServiceHandle, reader: int, port: int, metrics_port: int):
        self.process = process
        self.reader = reader
        self.port = port
        self.metrics_port = metrics_port
        self.output = bytearray()

    def read_until(self, marker: bytes) -> None:
        """Read the service's output until ``marker`` shows (a closed pipe: nothing yet, or
        the process exited: then fail with what it wrote)."""

        def arrived() -> bool:
            with contextlib.suppress(BlockingIOError):  # nothing written since the last read
                self.output += os.read(self.reader, 1 << 16)
            if self.process.poll() is not None:
                text = self.output[-4000:].decode(errors="replace")
                raise AssertionError(f"exited with {self.process.returncode}:\n{text}")
            return marker in self.output

        until_sync(arrived, what=f"{marker!r} in the service's output", within=90)

    def health(self) -> int:
        with grpc.insecure_channel(f"127.0.0.1:{self.port}") as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=30
            )
        return int(reply.status)

    def dropped_lines(self) -> float:
        url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=10) as response:
            text = response.read().decode()
        return sum(
            sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
            if sample.name == "agenda_log_lines_dropped_total"
        )


@pytest.fixture(params=["true", "false"], ids=["json", "console"])
def service(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Service]:
    """The service on a FIFO, read until it has started; ``LOG_JSON``: both renderers (the
    console one renders tracebacks with rich)."""
    fifo = tmp_path / "output.fifo"
    os.mkfifo(fifo)
    # A reader first, so that the service's open for writing does not wait for one.
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    port, metrics_port = free_port(), free_port()
    env = hermetic_env(
        CALENDAR_GRPC_PORT=str(port),
        CALENDAR_METRICS_PORT=str(metrics_port),
        CALENDAR_AUTH_TOKENS="log-pipe-token",
        CALENDAR_BACKEND="local",
        AGENDA_DATA_DIR=str(tmp_path / "data"),
        LOG_JSON=request.param,
    )
    process = spawn_service("calendar_service", env, fifo, REPO)
    service = Service(process, reader, port, metrics_port)
    try:
        service.read_until(b"server_started")  # logged once it serves
        yield service
    finally:
        if service.reader >= 0:
            os.close(service.reader)
        if process.poll() is None:
            process.kill()
            process.wait(timeout=60)


def test_a_service_keeps_serving_when_its_log_reader_goes_away(service: Service) -> None:
    assert service.health() == SERVING
    os.close(service.reader)  # `head` exited: every write to the pipe now fails (EPIPE)
    service.reader = -1

    for _ in range(CHECKS_AFTER_THE_READER_LEFT):
        assert service.health() == SERVING  # and each check logs a line nobody can read

    # A server logs its rpc line after it answered: the counter is waited for.
    until_sync(
        lambda: service.dropped_lines() >= CHECKS_AFTER_THE_READER_LEFT,
        what="every rpc line after the reader left counted as dropped",
    )
    # Not spinning: more checks add about their own lines to the count, never a flood (a loop
    # on the broken stream counts a line per attempt, thousands between two answers).
    counted = service.dropped_lines()
    for _ in range(CHECKS_AFTER_THE_READER_LEFT):
        assert service.health() == SERVING
    assert service.dropped_lines() - counted <= CHECKS_AFTER_THE_READER_LEFT + BACKGROUND_LINES

    service.process.send_signal(signal.SIGTERM)  # its stop is logged too: nothing to fail on
    assert service.process.wait(timeout=60) == 0


def dropped(reason: str) -> float:
    return REGISTRY.get_sample_value("agenda_log_lines_dropped_total", {"reason": reason}) or 0.0


class FailingOnce(io.StringIO):
    """A stream that refuses its first write (a full disk), then takes every line."""

    def __init__(self) -> None:
        super().__init__()
        self.refused = False

    def write(self, text: str) -> int:
        if not self.refused:
            self.refused = True
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(text)


def test_a_line_the_stream_refuses_is_dropped_and_the_next_one_written() -> None:
    target = FailingOnce()
    stream = LogStream(target)
    before = dropped("write_failed")

    stream.write("first\n")
    stream.write("second\n")

    assert dropped("write_failed") == before + 1
    assert target.getvalue() == "second\n"
    assert not stream.gone


def test_once_the_reader_is_gone_no_line_is_written_and_the_descriptor_is_devnull() -> None:
    read_end, write_end = os.pipe()
    with open(write_end, "w") as target:
        stream = LogStream(target)
        stream.write("read\n")
        assert os.read(read_end, 100) == b"read\n"
        os.close(read_end)
        before = dropped("stream_gone")

        for line in ("a\n", "b\n", "c\n"):
            stream.write(line)  # raises nothing

        assert stream.gone
        assert dropped("stream_gone") == before + 3
        assert os.path.samestat(os.fstat(write_end), os.stat(os.devnull))
        target.write("the interpreter's own writes there succeed\n")
        target.flush()
