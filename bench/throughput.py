"""Calendar service throughput: ``GetFreeSlots`` against a bare echo RPC on the same server.

The calendar service runs as its own process (``bench.calendar_with_echo``: the service's own
``bootstrap`` — local backend on its embedded MongoDB, auth and request-context interceptors,
JSON request logs — plus ``/bench.Echo/Echo`` on the same server). One calendar holds 200
busy events in the queried week. Warm: the free/busy cache is warmed by a first call and its
TTL raised so that it stays warm. Cold: a second service with the cache off (TTL 0), so every
call reads the busy events from MongoDB (by their day keys, an index lookup; identical calls in
flight at once share one read, and a read of unchanged busy time reuses the slot answer and
its reply while the clock allows); and a third on the Google backend with the cache off,
against the Google Calendar emulator answering after ``GOOGLE_LATENCY`` (every call is one
``freeBusy`` round trip: the cold path a real deployment has). Load comes from a separate process
(``bench.load_worker``) at each concurrency, echo and GetFreeSlots alternating in 1-second
phases; RPS is the median over the rounds and the RPS ratio the median of the per-round
ratios (this machine is shared, so absolute figures drift). Benchmarks report; they do not assert.

``python -m bench.throughput [--quick]`` prints the figures as JSON and saves
``bench/results/throughput_rps.png``.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from bench.harness import (
    ECHO_METHOD,
    REPO,
    bearer,
    calendar_spec,
    free_port,
    probe,
    services,
)
from tests.fakes.google_calendar import running_emulator
from tests.fakes.google_fixtures import ServiceAccountKey

RESULTS = Path(__file__).resolve().parent / "results"
PLOT = RESULTS / "throughput_rps.png"
TOKEN = "bench-calendar-token"
CALENDAR = "bench-professional"
ZONE = ZoneInfo("America/Sao_Paulo")
SLOTS_METHOD = "/agenda.calendar.v1.CalendarService/GetFreeSlots"
CONCURRENCY = (1, 16, 64)
BUSY_EVENTS = 200
GOOGLE_LATENCY = 0.05
"""Seconds the Google emulator waits on every request in the Google-backed cold run."""


def week_start(now: datetime) -> datetime:
    """Local midnight of the Monday at least a week ahead (no slot is cut by notice)."""
    today = now.astimezone(ZONE).date() + timedelta(days=7)
    monday = today + timedelta(days=(7 - today.weekday()) % 7)
    return datetime(monday.year, monday.month, monday.day, tzinfo=ZONE)


def _stamp(value: datetime) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(value)
    return stamp


def _range(start: datetime, end: datetime) -> pb.TimeRange:
    return pb.TimeRange(start=_stamp(start), end=_stamp(end))


def busy_events(start: datetime, count: int, rng: random.Random) -> list[pb.CreateEventRequest]:
    """``count`` events of 10-40 minutes, Monday to Saturday, bunched in four hours of the day
    (08, 11, 14, 17 h; some overlap) so that the rest of the working day stays bookable."""
    events = []
    for index in range(count):
        hour = start + timedelta(days=rng.randrange(6), hours=rng.choice((8, 11, 14, 17)))
        begin = hour + timedelta(minutes=5 * rng.randrange(12))
        end = begin + timedelta(minutes=rng.choice((10, 15, 20, 30, 40)))
        events.append(
            pb.CreateEventRequest(
                calendar_id=CALENDAR,
                summary=f"busy {index}",
                time=_range(begin, end),
                time_zone=str(ZONE),
                idempotency_key=f"bench-busy-{index}",
                conflict_policy=pb.CONFLICT_POLICY_ALLOW_OVERLAP,  # some overlap on purpose
            )
        )
    return events


def slots_request(start: datetime) -> pb.GetFreeSlotsRequest:
    """A realistic question: a week, 30-minute slots every 15, 5-minute buffers."""
    return pb.GetFreeSlotsRequest(
        calendar_id=CALENDAR,
        range=_range(start, start + timedelta(days=7)),
        duration_minutes=30,
        time_zone=str(ZONE),
        weekly_hours=[
            pb.WeeklyHours(day_of_week=day, start_time="08:00", end_time="20:00")
            for day in range(1, 7)
        ],
        step_minutes=15,
        buffer_before_minutes=5,
        buffer_after_minutes=5,
        minimum_notice_minutes=60,
    )


async def prepare(address: str, events: int) -> dict[str, Any]:
    """Create the busy events, then ask once (which fills the free/busy cache)."""
    start = week_start(datetime.now(ZONE))
    async with grpc.aio.insecure_channel(address) as channel:
        stub = pb_grpc.CalendarServiceStub(channel)
        drafts = busy_events(start, events, random.Random(3))
        for batch in range(0, len(drafts), 25):
            await asyncio.gather(
                *(
                    stub.CreateEvent(draft, metadata=bearer(TOKEN), timeout=30)
                    for draft in drafts[batch : batch + 25]
                )
            )
        request = slots_request(start)
        reply = await stub.GetFreeSlots(request, metadata=bearer(TOKEN), timeout=30)
    return {
        "request": request.SerializeToString(),
        "slots": len(reply.slot_starts),
        "reply_bytes": reply.ByteSize(),
    }


def load(
    address: str, payload: Path, concurrency: int, quick: bool, pid: int
) -> dict[str, dict[str, Any]]:
    """One ``bench.load_worker`` process at ``concurrency``: echo and GetFreeSlots alternate."""
    duration, warmup, rounds = ("0.3", "0.2", "1") if quick else ("1", "1", "4")
    completed = subprocess.run(
        [
            *(sys.executable, "-m", "bench.load_worker", "--address", address),
            *("--method", ECHO_METHOD, "--method", SLOTS_METHOD, "--payload-file", str(payload)),
            *("--token", TOKEN, "--concurrency", str(concurrency), "--server-pid", str(pid)),
            *("--duration", duration, "--warmup", warmup, "--rounds", rounds),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    by_method: dict[str, dict[str, Any]] = json.loads(completed.stdout)
    return {"echo": by_method[ECHO_METHOD], "get_free_slots": by_method[SLOTS_METHOD]}


async def _probe(address: str, name: str, **args: Any) -> Any:
    async with grpc.aio.insecure_channel(address) as channel:
        return await probe(channel, name, TOKEN, **args)


def profiled(address: str, payload: Path, quick: bool) -> list[dict[str, Any]]:
    """cProfile of the server's event loop during a GetFreeSlots-only phase at 16 concurrent:
    the top functions by own time (where a GetFreeSlots call's extra cost over echo goes)."""
    asyncio.run(_probe(address, "ProfileStart"))
    subprocess.run(
        [
            *(sys.executable, "-m", "bench.load_worker", "--address", address),
            *("--method", SLOTS_METHOD, "--payload-file", str(payload), "--token", TOKEN),
            *("--concurrency", "16", "--duration", "0.3" if quick else "1.5"),
            *("--warmup", "0", "--rounds", "1"),
        ],
        cwd=REPO,
        capture_output=True,
        timeout=120,
        check=True,
    )
    stats = asyncio.run(_probe(address, "ProfileStop", limit=15))
    rows: list[dict[str, Any]] = stats["tottime"]
    return rows


def plot(rows: dict[str, dict[int, dict[str, Any]]], path: Path = PLOT) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (rps_axis, p99_axis) = plt.subplots(1, 2, figsize=(10, 4))
    for name, by_concurrency in rows.items():
        levels = sorted(by_concurrency)
        rps_axis.plot(levels, [by_concurrency[c]["rps"] for c in levels], marker="o", label=name)
        p99_axis.plot(levels, [by_concurrency[c]["p99_ms"] for c in levels], marker="o", label=name)
    for axis, label in ((rps_axis, "requests / s"), (p99_axis, "p99 latency (ms)")):
        axis.set_xscale("log", base=2)
        axis.set_xticks(list(CONCURRENCY), [str(c) for c in CONCURRENCY])
        axis.set_xlabel("concurrent requests (one load process)")
        axis.set_ylabel(label)
        axis.grid(True, alpha=0.3)
        axis.legend()
    rps_axis.set_title("Calendar service: GetFreeSlots vs echo")
    p99_axis.set_title(f"p99 latency ({BUSY_EVENTS} busy events, warm cache)")
    fig.tight_layout()
    RESULTS.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_path(quick: bool) -> Path:
    """Quick runs (smoke tests) never overwrite the published plot."""
    return PLOT.with_stem(PLOT.stem + "_quick") if quick else PLOT


def measured(
    quick: bool, ttl_seconds: str, with_profile: bool, **backend: str
) -> tuple[dict[str, dict[int, dict[str, Any]]], dict[str, Any], list[dict[str, Any]]]:
    """Echo and GetFreeSlots rows per concurrency on a fresh calendar service whose free/busy
    cache TTL is ``ttl_seconds`` ("0": every call reads the backend — the cold path); the
    local backend on MongoDB unless ``backend`` settings say otherwise."""
    port = free_port()
    spec = calendar_spec(port, TOKEN, CALENDAR_FREEBUSY_CACHE_TTL_SECONDS=ttl_seconds, **backend)
    rows: dict[str, dict[int, dict[str, Any]]] = {"echo": {}, "get_free_slots": {}}
    profile: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="agenda-bench-") as tmp:
        data_dir = Path(tmp)
        with services(data_dir, [spec]) as started:
            calendar = started["calendar"]
            prepared = asyncio.run(prepare(calendar.address, 20 if quick else BUSY_EVENTS))
            payload = data_dir / "get_free_slots.bin"
            payload.write_bytes(prepared["request"])
            for concurrency in CONCURRENCY:
                by_method = load(
                    calendar.address, payload, concurrency, quick, calendar.process.pid
                )
                for name, row in by_method.items():
                    rows[name][concurrency] = row
            if with_profile:
                profile = profiled(calendar.address, payload, quick)
    return rows, prepared, profile


@contextmanager
def google_emulator(latency: float) -> Iterator[dict[str, str]]:
    """The Google Calendar emulator (``latency`` seconds on every request) served from a
    thread of this process, and the calendar-service settings that point the Google backend
    at it (a generated service-account key; the emulator checks its signed assertion)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="google-emulator", daemon=True)
    thread.start()
    serving = running_emulator(allow_any_calendar=True, latency=latency)
    emulator = asyncio.run_coroutine_threadsafe(serving.__aenter__(), loop).result(30)
    key = ServiceAccountKey.generate()
    emulator.oauth.register(key.email, key.private_key.public_key(), frozenset())
    try:
        with tempfile.TemporaryDirectory(prefix="agenda-bench-google-") as tmp:
            key_file = key.write(Path(tmp) / "service-account.json", emulator.token_uri)
            yield {
                "CALENDAR_BACKEND": "google",
                "CALENDAR_GOOGLE_CREDENTIALS_FILE": str(key_file),
                "CALENDAR_GOOGLE_API_BASE": emulator.base_url,
                "CALENDAR_GOOGLE_TOKEN_URI": emulator.token_uri,
            }
    finally:
        asyncio.run_coroutine_threadsafe(serving.__aexit__(None, None, None), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


def ratios(rows: dict[str, dict[int, dict[str, Any]]]) -> tuple[dict[int, float], dict[int, float]]:
    """GetFreeSlots over echo: median per-round RPS ratio, and p99 ratio, per concurrency."""
    echo, slots = rows["echo"], rows["get_free_slots"]
    rps_ratio = {
        c: round(
            statistics.median(
                mine / theirs
                for mine, theirs in zip(slots[c]["rps_rounds"], echo[c]["rps_rounds"], strict=True)
            ),
            3,
        )
        for c in CONCURRENCY
    }
    p99_ratio = {c: round(slots[c]["p99_ms"] / echo[c]["p99_ms"], 2) for c in CONCURRENCY}
    return rps_ratio, p99_ratio


def per_concurrency(rows: dict[str, dict[int, dict[str, Any]]], key: str) -> dict[str, Any]:
    return {name: {c: row[key] for c, row in by.items()} for name, by in rows.items()}


def run(quick: bool = False) -> dict[str, Any]:
    rows, prepared, profile = measured(quick, "3600", with_profile=True)
    cold_rows, _, _ = measured(quick, "0", with_profile=False)
    with google_emulator(GOOGLE_LATENCY) as google:
        google_rows, _, _ = measured(quick, "0", with_profile=False, **google)
    google_rps_ratio, google_p99_ratio = ratios(google_rows)
    plot(rows, plot_path(quick))
    rps_ratio, p99_ratio = ratios(rows)
    cold_rps_ratio, cold_p99_ratio = ratios(cold_rows)
    return {
        "busy_events": 20 if quick else BUSY_EVENTS,
        "free_slots_per_reply": prepared["slots"],
        "request_bytes": len(prepared["request"]),
        "reply_bytes": prepared["reply_bytes"],
        "rps": per_concurrency(rows, "rps"),
        "p50_ms": per_concurrency(rows, "p50_ms"),
        "p99_ms": per_concurrency(rows, "p99_ms"),
        "server_cpu_us_per_request": per_concurrency(rows, "server_cpu_us_per_request"),
        "errors": sum(row["errors"] for by in rows.values() for row in by.values()),
        "rps_ratio_vs_echo": rps_ratio,
        "p99_ratio_vs_echo": p99_ratio,
        "cold_rps_ratio_vs_echo": cold_rps_ratio,
        "cold_p99_ratio_vs_echo": cold_p99_ratio,
        "cold_server_cpu_us_per_request": per_concurrency(cold_rows, "server_cpu_us_per_request"),
        "cold_errors": sum(row["errors"] for by in cold_rows.values() for row in by.values()),
        "cold_google_latency_ms": GOOGLE_LATENCY * 1000,
        "cold_google_rps_ratio_vs_echo": google_rps_ratio,
        "cold_google_p99_ratio_vs_echo": google_p99_ratio,
        "cold_google_rps": per_concurrency(google_rows, "rps"),
        "cold_google_errors": sum(
            row["errors"] for by in google_rows.values() for row in by.values()
        ),
        "goal_cold_google_rps_ratio_min_0_5": min(google_rps_ratio.values()) >= 0.5,
        "goal_rps_ratio_min_0_5": min(rps_ratio.values()) >= 0.5,
        "goal_cold_rps_ratio_min_0_5": min(cold_rps_ratio.values()) >= 0.5,
        "goal_p99_at_64_within_3x": p99_ratio[64] <= 3.0,
        "plot": str(plot_path(quick).relative_to(REPO)),
        "profile_get_free_slots_tottime": profile,
        "runs": {name: {str(c): row for c, row in by.items()} for name, by in rows.items()},
    }


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(quick="--quick" in sys.argv[1:]), indent=2) + "\n")
