"""Google API economy: how many Google Calendar calls the assistant spends, and how fast a
20-calendar availability question is, against the obvious alternatives.

(a) **Calls per availability question.** The scripted conversations of
:mod:`bench.conversations` (one salon, a different customer each, one after the other) run
through the routed graph with the offline model; the agent reaches the calendar through
``GrpcCalendarAdapter`` (its read cache) → the calendar service bootstrapped on the Google
backend (its free/busy cache) → the Google Calendar emulator. An *availability question* is
one free-slots lookup the agent makes for one professional on one day: the customer's
``check_availability`` and the booking tools' own checks (before asking for confirmation, and
the re-check right before the write). The naive way asks Google ``freeBusy`` once per
question per professional, with no cache. Run twice: turns back to back, and with 20 s of
customer "typing time" between turns on a simulated clock (both caches' short TTLs, 10 s and
15 s, then expire between turns; no real waiting). The service runs as deployed with push
notifications on: it opens an ``events.watch`` channel on each calendar it caches, and keeps
a followed calendar for ``CALENDAR_FREEBUSY_FOLLOWED_TTL_SECONDS`` (300 s) unless the
emulator pushes a change (every booking here, made through the service, is one).

(b) **20 professionals × one week**, emulator latency 150 ms on every request: one
``QueryFreeBusy`` RPC through the calendar service (one batched ``freeBusy`` with 20 items,
cold cache) against ``google-api-python-client`` calling the emulator directly — one
``freebusy.query`` per professional, one after the other (the straightforward way), and, for
reference, one ``freebusy.query`` carrying all 20 calendars (the best the REST API allows;
the library's HTTP batch endpoint is not emulated). The library is built from its own bundled
static discovery document (``static_discovery=True``: no network), pointed at the emulator.

``python -m bench.google_economy [--quick]`` prints the figures as JSON.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agenda_kit.calendar.grpc_client import GrpcCalendarAdapter
from agenda_kit.calendar.port import (
    CalendarEvent,
    EventDraft,
    ForwardingCalendarAdapter,
    FreeBusy,
    ICalendarAdapter,
    SlotRules,
)
from agenda_kit.logging import configure_logging
from agenda_kit.settings import SharedSettings
from agent_service.infrastructure.agent.agents import build_agents
from agent_service.infrastructure.agent.graph import build_graph
from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.agent.specialists import SPECIALISTS
from bench.conversations import CONVERSATIONS, Harness, assistant_now, prepare, run_conversation
from bench.harness import free_port
from bench.token_economy import prefixed
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.google.auth import ServiceAccountTokenSource
from calendar_service.infrastructure.google.watch import NOTIFICATIONS_PATH
from calendar_service.infrastructure.settings import Backend, CalendarSettings
from tests.fakes.google_calendar import Emulator, running_emulator
from tests.fakes.google_fixtures import ServiceAccountKey

TOKEN = "bench-google-economy"
GOAL_CALLS_RATIO = 0.3
THINK_SECONDS = 20.0
LATENCY = 0.150
PROFESSIONALS = 20
EVENTS_PER_CALENDAR = 12
WARM_REPEATS = 5
QUICK_CONVERSATIONS = 6
T = TypeVar("T")


# --- (a) calls per availability question -------------------------------------------------------


@dataclass
class Questions:
    """Availability questions as the agent asks them (through the calendar port)."""

    lookups: int = 0
    professionals: int = 0
    customer_asked: int = 0  # check_availability calls of the model
    fresh_lookups: int = 0  # the fresh read right before a write (create-if-free, no cache)
    fresh_professionals: int = 0
    fresh_freebusy: int = 0  # Google freeBusy calls those fresh reads made
    cached_freebusy: int = 0  # ... and the calls every other lookup made


class CountingCalendar(ForwardingCalendarAdapter):
    """The agent's calendar, counting availability lookups on the way through."""

    def __init__(
        self,
        inner: ICalendarAdapter,
        questions: Questions,
        freebusy_calls: Callable[[], int] = lambda: 0,
    ) -> None:
        super().__init__(inner)
        self._questions = questions
        self._freebusy_calls = freebusy_calls

    async def _counted(self, work: Awaitable[T], professionals: int, fresh: bool) -> T:
        """One lookup; the Google calls it caused go to the fresh or the cached line
        (conversations run one at a time, so the emulator's count delta is this lookup's)."""
        questions = self._questions
        questions.lookups += 1
        questions.professionals += professionals
        before = self._freebusy_calls()
        try:
            return await work
        finally:
            spent = self._freebusy_calls() - before
            if fresh:
                questions.fresh_lookups += 1
                questions.fresh_professionals += professionals
                questions.fresh_freebusy += spent
            else:
                questions.cached_freebusy += spent

    async def get_free_slots(
        self,
        calendar_id: str,
        start_date: datetime,
        end_date: datetime,
        duration_minutes: int,
        rules: SlotRules | None = None,
        *,
        fresh: bool = False,
    ) -> list[datetime]:
        return await self._counted(
            self._inner.get_free_slots(
                calendar_id, start_date, end_date, duration_minutes, rules, fresh=fresh
            ),
            1,
            fresh,
        )

    async def query_free_busy(
        self,
        calendar_ids: Sequence[str],
        start: datetime,
        end: datetime,
        *,
        fresh: bool = False,
    ) -> list[FreeBusy]:
        return await self._counted(
            self._inner.query_free_busy(calendar_ids, start, end, fresh=fresh),
            len(set(calendar_ids)),
            fresh,
        )

    async def insert_event(self, draft: EventDraft) -> tuple[CalendarEvent, bool]:
        """A booking's write: the calendar service's create-if-free reads the calendar's busy
        time fresh inside CreateEvent — the fresh line (what the agent's own re-check was)."""
        return await self._counted(self._inner.insert_event(draft), 1, True)


@dataclass
class SimulatedClock:
    """A monotonic clock that also jumps forward when told (customer think time)."""

    skipped: float = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skipped

    def skip(self, seconds: float) -> None:
        self.skipped += seconds


@dataclass
class GoogleStack:
    emulator: Emulator
    app: CalendarApp
    client: GrpcCalendarAdapter
    key_file: Path
    clock: SimulatedClock = field(default_factory=SimulatedClock)


@asynccontextmanager
async def google_stack(latency: float = 0.0) -> AsyncIterator[GoogleStack]:
    """Emulator → calendar service (Google backend, production settings) → gRPC client."""
    key = ServiceAccountKey.generate()
    with tempfile.TemporaryDirectory(prefix="bench-google-") as tmp:
        async with running_emulator(allow_any_calendar=True, latency=latency) as emulator:
            emulator.oauth.register(key.email, key.private_key.public_key(), frozenset())
            key_file = key.write(Path(tmp) / "service-account.json", emulator.token_uri)
            watch_port = free_port()
            settings = CalendarSettings(
                grpc_port=0,
                metrics_port=0,
                auth_tokens=[TOKEN],
                backend=Backend.GOOGLE,
                google_credentials_file=key_file,
                google_api_base=emulator.base_url,
                google_token_uri=emulator.token_uri,
                # Push notifications on (the emulator delivers to loopback over plain HTTP).
                google_watch_address=f"http://127.0.0.1:{watch_port}{NOTIFICATIONS_PATH}",
                google_watch_port=watch_port,
            )
            app = await bootstrap(settings, SharedSettings(AGENDA_DATA_DIR=Path(tmp)))
            await app.start()
            client = GrpcCalendarAdapter.connect(f"127.0.0.1:{app.port}", token=TOKEN)
            stack = GoogleStack(emulator, app, client, key_file)
            try:
                yield stack
            finally:
                await client.close()
                await app.stop(0)


def use_clock(stack: GoogleStack) -> None:
    """Point both caches (the client's and the service's) at the stack's simulated clock.

    Neither takes a clock after construction, so this sets their caches' clocks: a
    benchmark-only override that changes no behaviour except where time comes from.
    """
    stack.client.reads.slots.entries.clock = stack.clock
    stack.client.reads.busy.entries.clock = stack.clock
    stack.app.calendar.blocks.clock = stack.clock


def counting_model(questions: Questions) -> FunctionModel:
    """The offline model, counting the model's own ``check_availability`` calls."""

    def decide(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        response = offline_model_function(messages, info)
        questions.customer_asked += sum(
            1
            for part in response.parts
            if isinstance(part, ToolCallPart) and part.tool_name == "check_availability"
        )
        return response

    return FunctionModel(decide, model_name="offline")


async def conversation_calls(quick: bool, think_seconds: float) -> dict[str, Any]:
    conversations = CONVERSATIONS[:QUICK_CONVERSATIONS] if quick else CONVERSATIONS
    async with google_stack() as stack:
        use_clock(stack)
        questions = Questions()
        graph = build_graph(
            build_agents(counting_model(questions), SPECIALISTS, {}, 1), SPECIALISTS
        )
        counting = CountingCalendar(
            stack.client, questions, lambda: stack.emulator.faults.count("freeBusy")
        )
        harness = Harness(graph, counting, assistant_now())
        await harness.seed()
        customers = {c.name: f"55218{n:08d}" for n, c in enumerate(conversations)}
        for conversation in conversations:
            await prepare(harness, conversation, customers[conversation.name])
        stack.clock.skip(3600.0)  # set-up reads are long expired
        before = stack.emulator.faults.counts()
        asked_before = (questions.lookups, questions.professionals, questions.customer_asked)
        split_before = (
            questions.fresh_lookups,
            questions.fresh_professionals,
            questions.fresh_freebusy,
            questions.cached_freebusy,
        )
        bookings = wrong = 0
        for conversation in conversations:
            outcome = await run_conversation(
                harness,
                conversation,
                customers[conversation.name],
                between_turns=lambda: stack.clock.skip(think_seconds),
            )
            bookings += outcome.bookings
            wrong += outcome.bookings != conversation.bookings_expected
        calls = stack.emulator.faults.counts() - before
    lookups = questions.lookups - asked_before[0]
    naive = questions.professionals - asked_before[1]
    fresh_lookups = questions.fresh_lookups - split_before[0]
    fresh_naive = questions.fresh_professionals - split_before[1]
    fresh_calls = questions.fresh_freebusy - split_before[2]
    customer_calls = questions.cached_freebusy - split_before[3]
    customer_naive = naive - fresh_naive
    return {
        # Lookups a customer caused (questions, the tools' checks before asking to confirm):
        # the headline; the pre-write fresh re-check is its own line (no cache by design).
        "customer_lookups": lookups - fresh_lookups,
        "customer_naive_freebusy_calls": customer_naive,
        "customer_google_freebusy_calls": customer_calls,
        "customer_calls_ratio": (
            round(customer_calls / customer_naive, 3) if customer_naive else None
        ),
        "fresh_recheck_lookups": fresh_lookups,
        "fresh_recheck_google_freebusy_calls": fresh_calls,
        "think_seconds_between_turns": think_seconds,
        "availability_questions": lookups,
        "asked_by_customer": questions.customer_asked - asked_before[2],
        "naive_freebusy_calls": naive,
        "google_freebusy_calls": calls["freeBusy"],
        "google_calls_per_question": round(calls["freeBusy"] / lookups, 3) if lookups else None,
        "calls_ratio": round(calls["freeBusy"] / naive, 3) if naive else None,
        "google_event_writes": calls["events.insert"] + calls["events.delete"],
        "google_token_requests": calls["token"],
        # Push notifications: the channels the service opened (and stopped) over the whole
        # run, set-up included (they outlive it), and the notifications delivered to it.
        "google_watch_calls": sum(
            stack.emulator.faults.count(route) for route in ("events.watch", "channels.stop")
        ),
        "push_notifications": len(stack.emulator.watch.deliveries),
        "bookings": bookings,
        "conversations_not_as_scripted": wrong,
        "client_cache_hits": stack.client.cache_hits,
        "service_cache_hits": stack.app.calendar.hits,
    }


# --- (b) 20 professionals, one week ----------------------------------------------------------


def seed_calendars(emulator: Emulator, ids: list[str], weeks: int, start: datetime) -> None:
    """A dozen one-hour events per calendar per week, in working hours."""
    for number, calendar_id in enumerate(ids):
        emulator.state.add_calendar(calendar_id)
        for week in range(weeks):
            for n in range(EVENTS_PER_CALENDAR):
                day = (n + number) % 6
                at = start + timedelta(weeks=week, days=day, hours=12 + (n * 5 + number) % 9)
                emulator.state.insert(
                    calendar_id,
                    {
                        "summary": f"busy {n}",
                        "start": {"dateTime": at.isoformat()},
                        "end": {"dateTime": (at + timedelta(hours=1)).isoformat()},
                    },
                )


async def library_service(key_file: Path, emulator: Emulator) -> Any:
    """``google-api-python-client`` from its bundled discovery document, at the emulator.

    Its credentials carry a bearer token fetched with the same JWT-bearer grant the calendar
    service uses: google-auth's own service-account refresh signs its assertion for Google's
    real token endpoint, an audience the emulator (like Google) refuses for another token URI.
    """
    from google.oauth2.credentials import Credentials
    from googleapiclient.discovery import build

    source = ServiceAccountTokenSource.from_file(key_file, token_uri=None, subject=None)
    async with aiohttp.ClientSession() as session:
        token = await source.token(session)
    return build(
        "calendar",
        "v3",
        credentials=Credentials(token),  # type: ignore[no-untyped-call]
        static_discovery=True,
        cache_discovery=False,
        client_options={"api_endpoint": emulator.base_url + "/"},
    )


def library_per_professional(service: Any, ids: list[str], lo: datetime, hi: datetime) -> int:
    """One ``freebusy.query`` per professional, one after the other; busy intervals seen."""
    seen = 0
    for calendar_id in ids:
        answer = service.freebusy().query(body=_body([calendar_id], lo, hi)).execute(num_retries=0)
        seen += len(answer["calendars"][calendar_id]["busy"])
    return seen


def library_one_query(service: Any, ids: list[str], lo: datetime, hi: datetime) -> int:
    answer = service.freebusy().query(body=_body(ids, lo, hi)).execute(num_retries=0)
    return sum(len(answer["calendars"][calendar_id]["busy"]) for calendar_id in ids)


def _body(ids: list[str], lo: datetime, hi: datetime) -> dict[str, Any]:
    return {
        "timeMin": lo.isoformat(),
        "timeMax": hi.isoformat(),
        "items": [{"id": calendar_id} for calendar_id in ids],
    }


async def timed(work: Awaitable[T]) -> tuple[float, T]:
    """Seconds until ``work`` (a coroutine: it starts when awaited) is done, and its result."""
    began = time.perf_counter()
    result = await work
    return time.perf_counter() - began, result


async def week_of_twenty(quick: bool) -> dict[str, Any]:
    repeats = 1 if quick else 3
    ids = [f"pro-{n:02d}@bench.test" for n in range(PROFESSIONALS)]
    monday = datetime(2031, 3, 3, tzinfo=UTC)
    async with google_stack(latency=LATENCY) as stack:
        stack.client.reads.busy.entries.ttl = 0  # every RPC reaches the service
        seed_calendars(stack.emulator, ids, repeats + 2, monday)
        # Warm-ups outside the timings: both sides fetch their OAuth token first.
        await stack.client.query_free_busy(["warm-up@bench.test"], monday, monday + timedelta(1))
        service = await library_service(stack.key_file, stack.emulator)
        await asyncio.to_thread(
            library_one_query, service, ["warm-up@bench.test"], monday, monday + timedelta(1)
        )
        ours_cold, ours_warm, per_pro, one_query = [], [], [], []
        agree, batched_calls = True, 0
        for week in range(repeats):
            lo = monday + timedelta(weeks=week)
            hi = lo + timedelta(days=7)
            calls_before = stack.emulator.faults.count("freeBusy")
            took, answers = await timed(stack.client.query_free_busy(ids, lo, hi))
            batched_calls = stack.emulator.faults.count("freeBusy") - calls_before
            ours_cold.append(took)
            ours = sum(len(answer.busy) for answer in answers)
            for _ in range(WARM_REPEATS):
                took, _ = await timed(stack.client.query_free_busy(ids, lo, hi))
                ours_warm.append(took)
            took, sequential_busy = await timed(
                asyncio.to_thread(library_per_professional, service, ids, lo, hi)
            )
            per_pro.append(took)
            took, one_busy = await timed(asyncio.to_thread(library_one_query, service, ids, lo, hi))
            one_query.append(took)
            agree = agree and ours == sequential_busy == one_busy
    cold, warm = statistics.median(ours_cold), statistics.median(ours_warm)
    sequential, single = statistics.median(per_pro), statistics.median(one_query)
    return {
        "professionals": PROFESSIONALS,
        "emulator_latency_ms": LATENCY * 1000,
        "repeats": repeats,
        "query_free_busy_cold_ms": round(cold * 1000, 1),
        "query_free_busy_warm_ms": round(warm * 1000, 1),
        "query_free_busy_google_calls": batched_calls,
        "library_per_professional_ms": round(sequential * 1000, 1),
        "library_per_professional_google_calls": PROFESSIONALS,
        "library_one_query_ms": round(single * 1000, 1),
        "wall_time_ratio_vs_per_professional": round(cold / sequential, 3),
        "wall_time_ratio_vs_one_query": round(cold / single, 3),
        "same_busy_intervals_every_way": agree,
    }


# --- entry points ----------------------------------------------------------------------------


async def measure(quick: bool = False) -> dict[str, Any]:
    back_to_back = await conversation_calls(quick, 0.0)
    with_think_time = await conversation_calls(quick, THINK_SECONDS)
    twenty = await week_of_twenty(quick)
    ratio = back_to_back["customer_calls_ratio"]  # the headline: lookups a customer caused
    return {
        "customer_calls_ratio": ratio,
        "goal_calls_ratio": GOAL_CALLS_RATIO,
        "goal_met_calls": ratio is not None and ratio <= GOAL_CALLS_RATIO,
        "customer_calls_ratio_with_think_time": with_think_time["customer_calls_ratio"],
        "calls_ratio": back_to_back["calls_ratio"],  # every lookup, fresh re-checks included
        "calls_ratio_with_think_time": with_think_time["calls_ratio"],
        "fresh_rechecks": back_to_back["fresh_recheck_lookups"],
        "fresh_recheck_google_calls": back_to_back["fresh_recheck_google_freebusy_calls"],
        "wall_time_ratio_20_professionals": twenty["wall_time_ratio_vs_per_professional"],
        **prefixed("back_to_back", back_to_back),
        **prefixed("think_time", with_think_time),
        **prefixed("twenty_professionals", twenty),
    }


def run(quick: bool = False) -> dict[str, Any]:
    configure_logging("WARNING")  # the services' per-call info logs would drown the output
    return asyncio.run(measure(quick))


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(quick="--quick" in sys.argv[1:]), indent=2) + "\n")
