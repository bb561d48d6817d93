"""Fixtures every test may use: a real calendar gRPC server on port 0 over a fake backend.

Also the rules of the whole run, set before any test module is imported:

- **Tiers.** Every test gets the marker of its tier from its folder (``TIERS``), and the heavy
  tiers run first (``HEAVY_FIRST``): ``make
  test-unit`` is ``-m unit``, ``make test-integration`` ``-m integration`` and so on;
  ``benchmark`` tests (minutes of load; ``make bench-smoke``) are deselected by default
  (``addopts`` in pyproject.toml) and never part of ``make test``.
- **Byte-code.** Every process the run starts shares one byte-code cache,
  ``PYTHONPYCACHEPREFIX`` (``make`` sets ``.tools/pycache``, which ``make setup`` fills; a plain
  ``pytest`` gets the same), and ``PYTHONDONTWRITEBYTECODE`` is dropped for them: otherwise each
  service process compiles langgraph, pydantic-ai & co. again, ~8 s of CPU.
- **Garbage collector.** Once the tests are collected, each worker settles its heap as a server
  does after start-up (``agenda_kit.grpc.server.settle_heap``): everything imported so far
  (langgraph, pydantic-ai & co., the test modules: ~300,000 objects that live as long as the
  run) is frozen, so a full collection walks only what the tests made (~0.15 s of CPU each
  otherwise, dozens per worker), and the young generation is collected as seldom as in the
  services. Cyclic garbage is still collected.
- **Properties.** Under ``make test`` (reduced size) every Hypothesis property draws the same
  examples run after run (``derandomize``): a property that holds today cannot fail a landing
  tomorrow on an example nobody drew before. ``RELIABILITY_SCALE=full`` draws new ones each run
  (that is where new counterexamples are found; each becomes a test of its own).
- **Isolation.** The run gets its own data directory (``AGENDA_DATA_DIR``, removed at the end)
  and forgets every Agenda setting a developer exported (``MONGODB_URI``, ports, tokens): no
  test reads or writes the developer's ``.data/`` (``make run``'s demo tenant, tokens,
  conversations) or talks to their services.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from hypothesis import settings as hypothesis_settings
from hypothesis.internal.conjecture import providers as _providers

from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.grpc.server import settle_heap
from agenda_kit.logging import configure_logging
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.settings import CalendarSettings
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.fakes.in_memory_holds import InMemoryHolds
from tests.scale import FULL

# No deadline: a test never depends on wall-clock time (a first example that builds a cache on
# a busy CI core took 328 ms against hypothesis's default 200 ms and failed as "flaky").
hypothesis_settings.register_profile("reduced", derandomize=True, deadline=None)
hypothesis_settings.register_profile("full", derandomize=False, deadline=None)
hypothesis_settings.load_profile("full" if FULL else "reduced")
if not FULL:
    # Derandomized draws must not depend on which modules a worker happened to import: Hypothesis
    # also draws constants it reads from the project's loaded modules (a string literal of
    # eval/harness.py, "location", was drawn beside a people word only in the worker that had
    # imported it, and failed a landing). The reduced run draws from the strategies alone.
    _providers.GLOBAL_CONSTANTS  # noqa: B018 - the module this relies on, checked at import
    _providers._get_local_constants = lambda: _providers._local_constants

TOKEN = "test-token-calendar"
TESTS = Path(__file__).resolve().parent
PYCACHE = TESTS.parent / ".tools" / "pycache"
"""The byte-code cache ``make`` uses (``PYTHONPYCACHEPREFIX`` in the Makefile)."""

TIERS: dict[str, str] = {
    "agent_service/unit": "unit",
    "calendar_service/unit": "unit",
    "docs": "unit",
    "deploy": "unit",
    "agent_service/integration": "integration",
    "calendar_service/integration": "integration",
    "kit": "integration",
    "ops": "integration",
    "eval": "integration",
    "e2e": "e2e",
    "reliability": "reliability",
    "security": "security",
    "bench": "bench",
}
"""Folder under tests/ → tier marker (the longest matching folder wins)."""

SETTING_PREFIXES = ("MONGODB_", "AGENT_", "CALENDAR_", "AGENDA_", "OPENAI_")
"""Environment variables the services read; a test run starts without any of them."""
RUN_CONTROLS = frozenset({"AGENDA_RECORD_FIGURES", "AGENDA_TEST_FORKSERVER"})
"""Agenda variables that steer the test run itself, kept."""


def tier_of(path: Path) -> str | None:
    """The tier of a test file, from its folder under tests/ (None outside tests/)."""
    try:
        relative = path.resolve().relative_to(TESTS).parent.as_posix()
    except ValueError:
        return None
    matches = [folder for folder in TIERS if f"{relative}/".startswith(f"{folder}/")]
    return TIERS[max(matches, key=len)] if matches else None


def pytest_configure(config: pytest.Config) -> None:
    """Plain JSON logs as in production (structlog's default console renderer pretty-prints
    tracebacks with rich, which is very slow on large frames); an environment of its own."""
    configure_logging("INFO", json=True)
    for name in [n for n in os.environ if n.startswith(SETTING_PREFIXES)]:
        if name not in RUN_CONTROLS:
            del os.environ[name]
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(PYCACHE))
    data_dir = tempfile.mkdtemp(prefix="agenda-test-data-")
    os.environ["AGENDA_DATA_DIR"] = data_dir
    config.stash[_DATA_DIR] = Path(data_dir)


_DATA_DIR = pytest.StashKey[Path]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """The module docstring's "Garbage collector"."""
    settle_heap()


def pytest_unconfigure(config: pytest.Config) -> None:
    data_dir = config.stash.get(_DATA_DIR, None)
    if data_dir is not None:
        shutil.rmtree(data_dir, ignore_errors=True)


HEAVY_FIRST = ("reliability", "security", "e2e")
"""Tiers run first, in this order (the rest keep their order after them): the xdist workers
(``make test``) start on the minute-long files, and the last ones to finish are short. (xdist's
own order, the files with the most tests first, would end the run on the one-test files of a
minute each: ``make test`` passes ``--no-loadscope-reorder``.)"""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tiers = {}
    for item in items:
        tier = tier_of(item.path)
        tiers[item.nodeid] = tier
        if tier is not None:
            item.add_marker(tier)
    rank = {tier: n for n, tier in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(tiers[item.nodeid] or "", len(rank)))


AUTH = (("authorization", f"Bearer {TOKEN}"),)


@pytest.fixture
def in_memory_calendar() -> InMemoryCalendar:
    return InMemoryCalendar()


@pytest.fixture
async def calendar_app(
    in_memory_calendar: InMemoryCalendar, tmp_path: Path
) -> AsyncIterator[CalendarApp]:
    settings = CalendarSettings(grpc_port=0, auth_tokens=[TOKEN], metrics_port=0)
    shared = SharedSettings(AGENDA_DATA_DIR=tmp_path)
    app = await bootstrap(settings, shared, backend=in_memory_calendar, holds=InMemoryHolds())
    await app.start()
    yield app
    await app.stop(0)


@pytest.fixture
async def calendar_channel(calendar_app: CalendarApp) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{calendar_app.port}") as channel:
        yield channel


@pytest.fixture
def calendar_stub(calendar_channel: grpc.aio.Channel) -> pb_grpc.CalendarServiceAsyncStub:
    return pb_grpc.CalendarServiceStub(calendar_channel)
