"""The WhatsApp-style sets end to end through the offline model: no wrong write (a booking,
cancel or move of the wrong professional, time, day or appointment), at least 95% task
success, and no raw tag or id in any reply."""

from __future__ import annotations

from agent_service.infrastructure.agent.models import build_model
from eval import (
    runner,
    whatsapp,
    whatsapp_batch3,
    whatsapp_batch4,
    whatsapp_batch5,
    whatsapp_batch6,
    whatsapp_lirio,
)
from eval.evaluators import reply_problems
from eval.harness import Harness

SETS = (
    *whatsapp.CASES,
    *whatsapp_lirio.CASES,
    *whatsapp_batch3.CASES,
    *whatsapp_batch4.CASES,
    *whatsapp_batch5.CASES,
    *whatsapp_batch6.CASES,
)
NAMES = [case.name for case in SETS if case.name]


async def test_whatsapp_sets_have_no_wrong_write_and_95_percent_success() -> None:
    report = await runner.run(Harness(build_model("offline")), NAMES, concurrency=4)
    numbers = runner.figures(report)
    assert numbers.cases == len(NAMES) and not report.failures
    assert numbers.wrong_writes == 0, runner.markdown(report, "offline", runner.now())
    assert numbers.task_rate >= 0.95, runner.failing_names(report)
    for case in report.cases:
        for turn in case.output.turns:
            leaks = [p for p in reply_problems(turn.reply, "pt") if "raw tag or id" in p]
            assert not leaks, (case.name, leaks)
