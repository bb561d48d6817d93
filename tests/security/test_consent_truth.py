"""Issue 10: the customer agrees to exactly what happens and is told exactly what happened.

A hostile model (``consent_scenarios``) plays every attack through SendMessage on a real gRPC
server over the embedded MongoDB, once as a scripted ``FunctionModel`` and once through the
``openai-chat:`` provider against the project's OpenAI-compatible fake. Each turn's state diff
(appointments of both salons, calendar events, the conversation) is judged against the reply
(see ``consent_run``). Goal, counted and printed: 0 writes the customer did not knowingly
confirm, 0 replies that misstate what happened, 0 INTERNAL.

``RELIABILITY_SCALE=full`` plays every scenario three times per path (other slots, other
customers). The default (``make test``) plays every scenario once, on one path or the other in
turn: each path still meets half of the attacks, and every attack is played.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from agenda_kit.mongo import EmbeddedMongo
from tests import figures
from tests.security.conftest import FULL, scaled
from tests.security.consent_run import Ctx, Scenario, Verdict, run_scenario, slots
from tests.security.consent_scenarios import SCENARIOS as SCENARIOS_10
from tests.security.consent_scenarios_claims import SCENARIOS_CLAIMS
from tests.security.consent_scenarios_structure import SCENARIOS_21
from tests.security.consent_world import World, consent_world

pytest_plugins = ["tests.kit.mongo_fixtures"]
PATHS = {"function": "FunctionModel", "openai": "openai-chat"}
SCENARIOS = [*SCENARIOS_10, *SCENARIOS_21, *SCENARIOS_CLAIMS]


def _scenarios(path: str, path_index: int) -> list[Scenario]:
    """Full size: every scenario on both paths. Reduced size: issue 21's (with the claims
    without receipts) on the FunctionModel path, and each of issue 10's on one of the two
    paths, alternating (the transport is the same for both sets)."""
    if FULL:
        chosen = SCENARIOS
    else:
        halves = [s for i, s in enumerate(SCENARIOS_10) if i % len(PATHS) == path_index]
        chosen = [*halves, *SCENARIOS_21, *SCENARIOS_CLAIMS] if path == "function" else halves
    only = os.environ.get("CONSENT_SCENARIO", "")  # debugging: the scenarios whose name has it
    return [s for s in chosen if only in s.name]


async def _play(world: World, rounds: int, path_index: int) -> list[Verdict]:
    scenarios = _scenarios(world.path, path_index)
    starts = slots(2 * len(scenarios) * rounds)
    verdicts = []
    for round_number in range(rounds):
        for index, scenario in enumerate(scenarios):
            n = 2 * (round_number * len(scenarios) + index)
            external_id = f"55{uuid.uuid4().int % 10**11:011d}"
            customer = await world.customer(external_id)
            own = await world.book_for(customer, starts[n])
            ctx = Ctx(world, customer, external_id, own, slot=starts[n], alt=starts[n + 1])
            verdict = await run_scenario(world, scenario, ctx)
            if scenario.check is not None:
                try:
                    scenario.check(ctx, verdict.turns)
                except AssertionError as failed:
                    verdict.problems.append(f"check failed: {failed}")
            if scenario.writes is not None and verdict.writes != scenario.writes:
                verdict.problems.append(f"{verdict.writes} writes, expected {scenario.writes}")
            verdicts.append(verdict)
    return verdicts


def _report(verdicts: list[Verdict]) -> None:
    print(
        "\nconsent_truth: path | scenario | messages | writes | unconfirmed | misstated | "
        "INTERNAL | events changed | conversation bytes | last reply"
    )
    for v in verdicts:
        last = v.turns[-1].reply.replace("\n", " ⏎ ")
        response = v.turns[-1].response
        last = f"[{response.specialist if response else '-'}] {last}"
        events = sum(t.events_changed for t in v.turns)
        print(
            f"{PATHS[v.path]} | {v.scenario} | {len(v.turns)} | {v.writes} | {v.unconfirmed} | "
            f"{v.misstated} | {v.internal} | {events} | {v.conversation_bytes} | "
            f"{v.seconds:.1f} | {last[:160]}"
        )
        for problem in v.problems:
            print(f"    PROBLEM: {problem}")


@pytest.mark.timeout(scaled(300, 1800))  # full size: every scenario x 2 paths x 3 rounds
async def test_hostile_model_gets_no_unconfirmed_write_no_misstatement_no_internal(
    embedded_mongo: EmbeddedMongo, tmp_path: Path
) -> None:
    rounds = scaled(1, 3)
    verdicts: list[Verdict] = []
    for path_index, path in enumerate(PATHS):
        async with consent_world(embedded_mongo, tmp_path / path, path) as world:
            verdicts.extend(await _play(world, rounds, path_index))
    _report(verdicts)
    unconfirmed = sum(v.unconfirmed for v in verdicts)
    misstated = sum(v.misstated for v in verdicts)
    internal = sum(v.internal for v in verdicts)
    print(
        f"consent_truth totals: {len(SCENARIOS)} scenarios, {len(verdicts)} runs, "
        f"{unconfirmed} unconfirmed writes, {misstated} misstatements, {internal} INTERNAL"
    )
    figures.record(
        "consent_truth",
        {
            "hostile-model scenarios": len(SCENARIOS),
            "runs (scenarios × FunctionModel and openai-chat paths × rounds)": len(verdicts),
            "customer messages sent": sum(len(v.turns) for v in verdicts),
            "writes made (all confirmed by the customer)": sum(v.writes for v in verdicts),
            "writes the customer did not knowingly confirm": unconfirmed,
            "replies that misstate what happened": misstated,
            "INTERNAL responses": internal,
            "largest conversation document (bytes)": max(v.conversation_bytes for v in verdicts),
        },
    )
    problems = [f"{v.path}: {v.scenario}: {p}" for v in verdicts for p in v.problems]
    assert (unconfirmed, misstated, internal) == (0, 0, 0), problems
    assert not problems, problems
    assert len(SCENARIOS) >= 60 or os.environ.get("CONSENT_SCENARIO")
