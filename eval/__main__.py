"""``python -m eval`` (``make eval``): play the dataset against ``AGENT_MODEL`` (default
``offline``) and write ``eval/results/latest.md``.

Exit status 1 when task success is below ``--min-success`` (default 0.9 for the offline model,
no threshold for others, whose figures are for comparison).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from pydantic_ai.settings import ModelSettings
from pydantic_ai.usage import UsageLimits

from agenda_kit.logging import configure_logging
from agent_service.infrastructure.agent.models import OFFLINE, build_model
from agent_service.infrastructure.settings import AgentSettings
from eval import (
    dataset,
    runner,
    whatsapp,
    whatsapp_batch3,
    whatsapp_batch4,
    whatsapp_batch5,
    whatsapp_batch6,
    whatsapp_batch7,
    whatsapp_batch8,
    whatsapp_batch9,
    whatsapp_batch10,
    whatsapp_batch11,
    whatsapp_batch12,
    whatsapp_batch13,
    whatsapp_batch14,
    whatsapp_batch15,
    whatsapp_batch16,
    whatsapp_batch17,
    whatsapp_batch18,
    whatsapp_lirio,
)
from eval.harness import Harness
from eval.suites import CASES

DEFAULT_REPORT = Path(__file__).resolve().parent / "results" / "latest.md"
OFFLINE_MIN_SUCCESS = 0.9
SUITES = {
    "main": dataset.CASES,
    "whatsapp": [
        *whatsapp.CASES,
        *whatsapp_lirio.CASES,
        *whatsapp_batch3.CASES,
        *whatsapp_batch4.CASES,
        *whatsapp_batch5.CASES,
        *whatsapp_batch6.CASES,
        *whatsapp_batch7.CASES,
        *whatsapp_batch8.CASES,
        *whatsapp_batch9.CASES,
        *whatsapp_batch10.CASES,
    ],
    "whatsapp-bigode": whatsapp.CASES,
    "whatsapp-lirio": whatsapp_lirio.CASES,
    "whatsapp-batch3": whatsapp_batch3.CASES,
    "whatsapp-batch4": whatsapp_batch4.CASES,
    "whatsapp-batch5": whatsapp_batch5.CASES,
    "whatsapp-batch6": whatsapp_batch6.CASES,
    "whatsapp-batch7": whatsapp_batch7.CASES,
    "whatsapp-batch8": whatsapp_batch8.CASES,
    "whatsapp-batch9": whatsapp_batch9.CASES,
    "whatsapp-batch10": whatsapp_batch10.CASES,
    "whatsapp-batch11": whatsapp_batch11.CASES,
    "whatsapp-batch12": whatsapp_batch12.CASES,
    "whatsapp-batch13": whatsapp_batch13.CASES,
    "whatsapp-batch14": whatsapp_batch14.CASES,
    "whatsapp-batch15": whatsapp_batch15.CASES,
    "whatsapp-batch16": whatsapp_batch16.CASES,
    "whatsapp-batch17": whatsapp_batch17.CASES,
    "whatsapp-batch18": whatsapp_batch18.CASES,
}
# Held out: played by name (--suite, --case), never by the default run (the cases of eval.suites).
HELD_OUT = [
    *whatsapp_batch11.CASES,
    *whatsapp_batch12.CASES,
    *whatsapp_batch13.CASES,
    *whatsapp_batch14.CASES,
    *whatsapp_batch15.CASES,
    *whatsapp_batch16.CASES,
    *whatsapp_batch17.CASES,
    *whatsapp_batch18.CASES,
]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m eval", description=__doc__)
    parser.add_argument("--model", help="overrides AGENT_MODEL (e.g. offline, openai:gpt-4.1-mini)")
    parser.add_argument("--case", action="append", dest="cases", help="run only this case")
    parser.add_argument(
        "--suite",
        choices=sorted(SUITES),
        help="run only this set (main: eval/dataset.py; whatsapp: eval/whatsapp*.py)",
    )
    parser.add_argument("--concurrency", type=int, default=4, help="conversations at once")
    parser.add_argument("--report", type=Path, default=DEFAULT_REPORT, help="Markdown report")
    parser.add_argument("--min-success", type=float, help="fail below this task success rate")
    return parser.parse_args(argv)


def harness_for(settings: AgentSettings) -> Harness:
    """The model and limits the agent service would use with these settings."""
    model = build_model(
        settings.model,
        openai_base_url=settings.openai_base_url,
        openai_api_key=settings.openai_api_key,
    )
    model_settings = ModelSettings()
    if settings.temperature is not None:
        model_settings["temperature"] = settings.temperature
    if settings.max_output_tokens is not None:
        model_settings["max_tokens"] = settings.max_output_tokens
    limits = UsageLimits(
        request_limit=settings.request_limit, tool_calls_limit=settings.tool_calls_limit
    )
    return Harness(model, settings=model_settings, retries=settings.model_retries, limits=limits)


async def main(args: argparse.Namespace) -> int:
    settings = AgentSettings()
    if args.model:
        settings = settings.model_copy(update={"model": args.model})
    started = runner.now()
    names = args.cases
    if args.suite:
        names = [*(names or []), *(case.name for case in SUITES[args.suite])]
    report = await runner.run(
        harness_for(settings),
        names,
        concurrency=max(1, args.concurrency),
        progress=sys.stderr.isatty(),
        model_name=settings.model,
        cases=CASES if names is None else [*CASES, *HELD_OUT],
    )
    runner.write(report, settings.model, started, args.report)
    numbers = runner.figures(report)
    print(
        f"{settings.model}: task success {numbers.task_success}/{numbers.cases} "
        f"({numbers.task_rate:.1%}), trajectory match {numbers.trajectory_match}/{numbers.cases} "
        f"({numbers.trajectory_rate:.1%}), wrong writes {numbers.wrong_writes}"
    )
    for name in runner.failing_names(report):
        print(f"  failing: {name}")
    print(f"report: {args.report}")
    threshold = args.min_success
    if threshold is None and settings.model == OFFLINE:
        threshold = OFFLINE_MIN_SUCCESS
    if settings.model == OFFLINE and numbers.wrong_writes:
        print(f"{numbers.wrong_writes} wrong writes (must be 0)", file=sys.stderr)
        return 1
    if threshold is not None and numbers.task_rate < threshold:
        print(f"task success {numbers.task_rate:.1%} is below {threshold:.0%}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    configure_logging("ERROR", json=True)
    sys.exit(asyncio.run(main(parse_args())))
