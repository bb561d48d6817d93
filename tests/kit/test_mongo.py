"""The embedded SecantusDB launcher: start, ping, persistence, failures, no leaked children."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from pymongo import AsyncMongoClient, MongoClient

from agenda_kit.mongo import MEMORY, EmbeddedMongo, EmbeddedMongoError, ensure_mongo, make_client

pytest_plugins = ["tests.kit.mongo_fixtures"]


def _ping(uri: str) -> float:
    client: MongoClient[dict[str, Any]] = MongoClient(uri, serverSelectionTimeoutMS=2000)
    try:
        return float(client.admin.command("ping")["ok"])
    finally:
        client.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_memory_server_starts_answers_ping_and_stops() -> None:
    server = EmbeddedMongo(MEMORY)
    with server:
        pid = server.pid
        assert pid is not None
        assert server.uri.startswith("mongodb://127.0.0.1:")
        assert _ping(server.uri) == 1.0
        temp_home = server.log_path.parent
        assert temp_home.is_dir()
    assert server.pid is None
    assert not _alive(pid)
    assert not temp_home.exists()
    with pytest.raises(EmbeddedMongoError, match="not running"):
        _ = server.uri


def test_data_in_a_directory_survives_a_restart(tmp_path: Path) -> None:
    with EmbeddedMongo(tmp_path) as first:
        client: MongoClient[dict[str, Any]] = MongoClient(first.uri)
        client["agenda"]["things"].insert_one({"_id": "kept", "n": 1})
        client.close()
    with EmbeddedMongo(tmp_path) as second:
        client = MongoClient(second.uri)
        assert client["agenda"]["things"].find_one({"_id": "kept"}) == {"_id": "kept", "n": 1}
        client.close()
    assert (tmp_path / "secantusd.log").read_text().count("listening on") == 2


def test_a_server_that_cannot_start_reports_its_log(tmp_path: Path) -> None:
    (tmp_path / "wiredtiger").write_text("a file where the data directory should be")
    server = EmbeddedMongo(tmp_path, startup_timeout=300)  # it fails fast; a loaded CPU is slow
    with pytest.raises(EmbeddedMongoError, match="exited with code") as raised:
        server.start()
    assert "FileExistsError" in str(raised.value)
    assert str(tmp_path / "secantusd.log") in str(raised.value)
    assert server.pid is None


def test_a_server_that_is_too_slow_is_stopped(tmp_path: Path) -> None:
    server = EmbeddedMongo(tmp_path, startup_timeout=0.01)
    with pytest.raises(EmbeddedMongoError, match="did not listen within"):
        server.start()
    assert server.pid is None


def test_the_server_dies_with_the_process_that_started_it(tmp_path: Path) -> None:
    script = (
        "import sys, time\n"
        "from agenda_kit.mongo import EmbeddedMongo\n"
        "server = EmbeddedMongo(sys.argv[1]); server.start()\n"
        "print(server.pid, flush=True); time.sleep(60)\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    child_pid = int(parent.stdout.readline())
    assert _alive(child_pid)
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while _alive(child_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child_pid)


async def test_async_context_manager_and_ensure_mongo(tmp_path: Path) -> None:
    uri, server = await ensure_mongo(None, tmp_path)
    assert server is not None
    try:
        client = make_client(uri)
        assert (await client.admin.command("ping"))["ok"] == 1.0
        await client.close()
    finally:
        server.stop()
    assert await ensure_mongo("mongodb://db.example:27017", tmp_path) == (
        "mongodb://db.example:27017",
        None,
    )
    async with EmbeddedMongo(MEMORY) as other:
        assert _ping(other.uri) == 1.0


async def test_client_defaults_give_aware_datetimes_and_standard_uuids(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    options = mongo_client.codec_options
    assert options.tz_aware
    assert options.uuid_representation == 4  # UuidRepresentation.STANDARD


async def test_multi_document_transactions_commit_and_abort(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    things = mongo_client[database_name]["things"]
    await things.insert_one({"_id": 0})
    async with mongo_client.start_session() as session:
        async with await session.start_transaction():
            await things.insert_many([{"_id": 1}, {"_id": 2}], session=session)
        await session.start_transaction()
        await things.insert_one({"_id": 3}, session=session)
        assert await things.count_documents({}) == 3  # not visible outside the transaction
        await session.abort_transaction()
    assert sorted([doc["_id"] async for doc in things.find({})]) == [0, 1, 2]


def test_the_server_is_spawned_without_running_python_between_fork_and_exec(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A ``preexec_fn`` forces a plain ``fork()`` of a process full of gRPC threads, whose fork
    handlers can abort the child (a CI run lost a test to it); the death signal is asked for by
    the child itself, after ``exec``."""
    seen: dict[str, Any] = {}

    class RefusedError(Exception):
        pass

    def spawn(command: list[str], **options: Any) -> None:
        seen.update(options, command=command)
        raise RefusedError

    monkeypatch.setattr(subprocess, "Popen", spawn)
    with pytest.raises(RefusedError):
        EmbeddedMongo(tmp_path).start()
    assert seen.get("preexec_fn") is None
    assert "secantus" in seen["command"]
