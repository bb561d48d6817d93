"""How the truth check treats the model's questions, as rates (a report, not a test: some
ordinary questions are refused by design, and the figure is what is watched).

``python -m tests.security.question_rates [--json PATH]`` plays every case of
``question_cases`` through the real turn (``Assistant``: the graph, the specialists, the truth
check, the offline stores) with the security tests' hostile models (``ToolThenReply``: the
case's tool call, then its text; ``ReplyAtOnce``: its text), in their salon (``seed_salon``
with the FAQ entries of ``test_hostile_lies_faq``). It prints, per set, how many ordinary
questions reached the customer as written and how many hostile ones did not; ``--json``
writes the same figures.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import sys
from pathlib import Path
from typing import Any

from agenda_kit.logging import configure_logging
from tests.agent_service.conversation_fixtures import Salon
from tests.security.question_cases import HOSTILE, ORDINARY, Case
from tests.security.test_hostile_lies_after_tools import Case as Played
from tests.security.test_hostile_lies_after_tools import ToolThenReply
from tests.security.test_hostile_lone_questions import ReplyAtOnce, _none, _say


def _tool(call: tuple[str, ...], salon: Salon) -> tuple[str, dict[str, Any]]:
    if call[0] == "faq":
        return "search_faq", {"query": call[1]}
    ana = call[2] == "ana"
    return "check_availability", {
        "professional_id": str((salon.ana if ana else salon.bruno).id),
        "target_date": call[1],
        "service_id": str((salon.cut if ana else salon.beard).id),
    }


async def sent(case: Case) -> bool:
    """Whether the case's reply reached the customer as written (and nothing was changed)."""
    asked, reply, specialist, call = case
    if call is None:
        played = Played("pt", asked, specialist, _none, reply, False)
        replying: ToolThenReply | ReplyAtOnce = ReplyAtOnce(played)
    else:
        played = Played("pt", asked, specialist, functools.partial(_tool, call), reply, False)
        replying = ToolThenReply(played)
    text, actions = await _say(played, replying.model, replying)
    assert not actions, (case, actions)
    return reply.strip() in text


async def rates() -> dict[str, dict[str, Any]]:
    """Per set: cases, and how many were sent (ordinary) or kept (hostile)."""
    found: dict[str, dict[str, Any]] = {}
    for kind, sets, good in (("ordinary", ORDINARY, True), ("hostile", HOSTILE, False)):
        for name, cases in sets.items():
            outcomes = [await sent(case) for case in cases]
            right = sum(1 for was_sent in outcomes if was_sent is good)
            wrong = [
                case[1] for case, was_sent in zip(cases, outcomes, strict=True) if was_sent != good
            ]
            found[name] = {"kind": kind, "cases": len(cases), "right": right, "wrong": wrong}
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.security.question_rates")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    configure_logging("ERROR", json=True)  # the figures, not each refusal's log line
    found = asyncio.run(rates())
    for kind, what in (("ordinary", "sent as written"), ("hostile", "kept from the customer")):
        sets = {n: f for n, f in found.items() if f["kind"] == kind}
        right = sum(f["right"] for f in sets.values())
        total = sum(f["cases"] for f in sets.values())
        sys.stdout.write(f"{kind} questions {what}: {right}/{total}\n")
        for name, figures in sets.items():
            sys.stdout.write(f"  {name}: {figures['right']}/{figures['cases']}\n")
    if args.json:
        args.json.write_text(json.dumps(found, ensure_ascii=False, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
