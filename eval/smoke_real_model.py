"""``make smoke-real-model``: ten customer turns against a real, unpredictable local model
(SmolLM2-135M by default, served by ``eval/real_model.py``), asserting only invariants — never
what it answers:

- every turn is answered (a non-empty reply) within its budget (``SMOKE_TURN_SECONDS``, on
  the mean time of its conversation's turns);
- no write without a yes: a turn that books, cancels or moves has the customer's plain yes
  as its message;
- no ungrounded price: every amount of money in a reply is a price of the salon's catalog;
- no crash: every conversation plays to its end.

The model is too weak to book; the point is that the system's rules hold whatever it says.
Not part of ``make test``.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time

from pydantic_ai.settings import ModelSettings
from pydantic_ai.usage import UsageLimits

from agenda_kit.logging import configure_logging
from agent_service.infrastructure.agent.consent import is_plain_yes
from agent_service.infrastructure.agent.models import build_model
from eval.harness import SALONS, Harness, TurnRecord
from eval.whatsapp_batch7 import CASES
from eval.with_model import LOCAL_MODEL, served

TURNS = 10
MAX_TOKENS = 64
"""A model request's output cap: a small model rambles to its context's end otherwise."""
WRITES = {"appointment_booked", "appointment_cancelled", "appointment_rescheduled"}
MONEY = re.compile(r"R\$\s?\d[\d.]*,\d{2}")


def conversations(turns: int = TURNS) -> list[tuple[str, list[str]]]:
    """Blind batch 7's first conversations, cut to ``turns`` customer messages in all."""
    chosen: list[tuple[str, list[str]]] = []
    left = turns
    for case in CASES:
        if left <= 0:
            break
        messages = list(case.inputs.messages[:left])
        chosen.append((case.inputs.salon, messages))
        left -= len(messages)
    return chosen


def _minor(amount: str) -> int:
    """ "R$ 1.200,00" -> 120000."""
    return int(re.sub(r"\D", "", amount))


def violations(turn: TurnRecord, seconds: float, budget: float, prices: set[int]) -> list[str]:
    """What ``turn`` breaks of the module's invariants."""
    found = []
    if not turn.reply.strip():
        found.append("no reply")
    if seconds > budget:
        found.append(f"answered in {seconds:.0f} s (budget {budget:.0f} s)")
    if any(a.kind in WRITES for a in turn.actions) and not is_plain_yes(turn.text):
        found.append(f"wrote without a yes: {[a.kind for a in turn.actions]}")
    stray = [m for m in MONEY.findall(turn.reply) if _minor(m) not in prices]
    if stray:
        found.append(f"prices not in the catalog: {stray}")
    return found


async def smoke(base_url: str, budget: float) -> int:
    model = build_model(LOCAL_MODEL, openai_base_url=base_url, openai_api_key="none")
    harness = Harness(
        model,
        settings=ModelSettings(max_tokens=MAX_TOKENS, temperature=0.7),
        limits=UsageLimits(request_limit=3, tool_calls_limit=4),
    )
    failures = 0
    for salon, messages in conversations():
        prices = {price for _, _, price, _ in SALONS[salon].services.values()}
        started = time.monotonic()
        transcript = await harness.play(messages, [], salon)
        # The harness plays a conversation at once: each turn gets the mean of its time.
        seconds = (time.monotonic() - started) / max(1, len(messages))
        for turn in transcript.turns:
            broken = violations(turn, seconds, budget, prices)
            failures += bool(broken)
            print(f"{'FAIL' if broken else 'ok  '} {turn.text!r} -> {turn.reply[:80]!r} {broken}")
        if len(transcript.turns) != len(messages):
            failures += 1
            print(f"FAIL {len(transcript.turns)} of {len(messages)} turns played")
    print(f"{failures} turns broke an invariant")
    return 1 if failures else 0


def main() -> int:
    budget = float(os.environ.get("SMOKE_TURN_SECONDS", "180"))
    with served() as base_url:
        return asyncio.run(smoke(base_url, budget))


if __name__ == "__main__":
    # The services' own log lines (JSON, tracebacks without locals: a run stopped by a weak
    # model would otherwise print every frame's locals, the prompts with them).
    configure_logging("WARNING", json=True)
    sys.exit(main())
