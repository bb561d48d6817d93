"""How the truth check treats the model's questions, as rates (a report, not a test: some
ordinary questions are refused by design, and the figure is what is watched).

``python -m tests.security.question_rates [--json PATH]`` plays every case of
``question_cases`` through the real turn (``Assistant``: the graph, the specialists, the truth
check, the offline stores) with a model that makes the case's one tool call, if any, then
replies with the case's text; the salon is ``seed_salon`` with the FAQ entries of
``test_hostile_lies_faq``. It prints, per set, how many ordinary questions reached the
customer as written and how many hostile ones did not; ``--json`` writes the same figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agenda_kit.logging import configure_logging
from agent_service.domain.catalog import FaqEntry
from tests.agent_service.conversation_fixtures import Assistant, Salon, seed_salon
from tests.security.question_cases import HOSTILE, ORDINARY, Call, Case
from tests.security.test_hostile_lies_faq import ENTRIES


class _Replying:
    """Routes to the case's specialist, makes its one tool call, then replies its text."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.salon: Salon | None = None
        self.called = False
        self.model = FunctionModel(self._respond, model_name="question-rates")

    def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        _, reply, specialist, call = self.case
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": specialist})])
        last = messages[-1]
        answered = isinstance(last, ModelRequest) and any(
            isinstance(part, ToolReturnPart) for part in last.parts
        )
        if call is not None and not answered and not self.called and self.salon is not None:
            self.called = True
            name, arguments = _tool(call, self.salon)
            return ModelResponse(parts=[ToolCallPart(name, arguments)])
        return ModelResponse(parts=[TextPart(reply)])


def _tool(call: Call, salon: Salon) -> tuple[str, dict[str, Any]]:
    assert call is not None
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
    replying = _Replying(case)
    assistant = Assistant(model=replying.model)
    replying.salon = await seed_salon(assistant.repos)
    for question, answer, tags in ENTRIES:
        await assistant.repos.faq.add(
            FaqEntry(
                tenant_id=replying.salon.tenant.id, question=question, answer=answer, tags=tags
            )
        )
    handled = await assistant.say(replying.salon.tenant.id, case[0])
    assert not handled.result.actions, (case, handled.result.actions)
    return case[1].strip() in handled.result.reply


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
