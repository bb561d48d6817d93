"""Run the dataset with pydantic-evals against a model and write the Markdown report."""

from __future__ import annotations

import traceback
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pydantic_evals import Dataset
from pydantic_evals.reporting import EvaluationReport, ReportCase, ReportCaseFailure

from eval.dataset import Conversation, EvalCase, Expected
from eval.evaluators import (
    TASK_SUCCESS,
    TRAJECTORY_MATCH,
    TaskSuccess,
    TrajectoryMatch,
    wrong_writes,
)
from eval.harness import Harness, Transcript
from eval.suites import CASES

Report = EvaluationReport[Conversation, Transcript, Expected]


def dataset(
    names: Iterable[str] | None = None, cases: Sequence[EvalCase] = CASES
) -> Dataset[Conversation, Transcript, Expected]:
    """The dataset, or only the cases named (an unknown name is an error); ``cases``: where
    they are looked up (default: every case ``make eval`` plays)."""
    wanted = None if names is None else set(names)
    if wanted is not None:
        unknown = wanted - {case.name for case in cases}
        if unknown:
            raise ValueError(f"unknown case names: {', '.join(sorted(unknown))}")
    return Dataset(
        name="agenda-conversations",
        cases=[case for case in cases if wanted is None or case.name in wanted],
        evaluators=[TaskSuccess(), TrajectoryMatch()],
    )


async def run(
    harness: Harness,
    names: Iterable[str] | None = None,
    *,
    concurrency: int = 4,
    progress: bool = False,
    model_name: str = "",
    cases: Sequence[EvalCase] = CASES,
) -> Report:
    """Play every case (a failing conversation is recorded in its transcript, not raised)."""

    async def play(conversation: Conversation) -> Transcript:
        try:
            return await harness.play(
                list(conversation.messages), list(conversation.booked), conversation.salon
            )
        except Exception as error:  # noqa: BLE001 - the report says which case broke and how
            detail = "".join(traceback.format_exception_only(error)).strip()
            return Transcript(error=detail[:500])

    return await dataset(names, cases).evaluate(
        play,
        name=model_name or "agent",
        max_concurrency=concurrency,
        progress=progress,
        metadata={"model": model_name},
    )


@dataclass
class Figures:
    """Task success and trajectory match over the cases, overall and per group."""

    cases: int = 0
    task_success: int = 0
    trajectory_match: int = 0
    wrong_writes: int = 0
    """Bookings, cancels or moves nobody asked for (wrong professional, time or service)."""
    groups: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))

    @property
    def task_rate(self) -> float:
        return self.task_success / self.cases if self.cases else 0.0

    @property
    def trajectory_rate(self) -> float:
        return self.trajectory_match / self.cases if self.cases else 0.0


def _passed(case: ReportCase[Conversation, Transcript, Expected], key: str) -> bool:
    result = case.assertions.get(key)
    return bool(result is not None and result.value)


def figures(report: Report) -> Figures:
    result = Figures(cases=len(report.cases) + len(report.failures))
    for case in report.cases:
        success, trajectory = _passed(case, TASK_SUCCESS), _passed(case, TRAJECTORY_MATCH)
        result.task_success += success
        result.trajectory_match += trajectory
        assert case.metadata is not None
        result.wrong_writes += wrong_writes(case.inputs, case.output, case.metadata)
        suite = f"suite:{case.inputs.salon}"
        for group in (
            case.metadata.category,
            case.metadata.language,
            suite,
            f"{suite}:{case.metadata.language}",
        ):
            counts = result.groups[group]
            counts[0] += 1
            counts[1] += success
            counts[2] += trajectory
    return result


def _reason(case: ReportCase[Conversation, Transcript, Expected], key: str) -> str:
    result = case.assertions.get(key)
    if result is None:
        return "not evaluated"
    return (result.reason or "").replace("\n", " ").replace("|", "\\|")


def _transcript(case: ReportCase[Conversation, Transcript, Expected]) -> list[str]:
    lines = []
    for turn in case.output.turns:
        tools = ", ".join(turn.tools) or "no tools"
        reply = " ".join(turn.reply.split())[:240]
        lines.append(f"  - **customer:** {turn.text}")
        lines.append(f"    **{turn.specialist or '?'}** ({tools}): {reply}")
    return lines


def markdown(report: Report, model_name: str, started: datetime) -> str:
    """The report: figures, groups, then every failing case with why and its transcript."""
    numbers = figures(report)
    lines = [
        f"# Agent eval: {model_name}",
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC, {numbers.cases} conversations "
        "(datasets: `eval/dataset.py`, `eval/whatsapp.py`).",
        "",
        "| metric | value |",
        "| --- | --- |",
        f"| task success | {numbers.task_success}/{numbers.cases} ({numbers.task_rate:.1%}) |",
        f"| trajectory match | {numbers.trajectory_match}/{numbers.cases} "
        f"({numbers.trajectory_rate:.1%}) |",
        f"| wrong writes | {numbers.wrong_writes} |",
        "",
        "| group | cases | task success | trajectory match |",
        "| --- | --- | --- | --- |",
    ]
    for group in sorted(numbers.groups):
        total, success, trajectory = numbers.groups[group]
        lines.append(f"| {group} | {total} | {success} | {trajectory} |")
    failing = [
        case
        for case in report.cases
        if not (_passed(case, TASK_SUCCESS) and _passed(case, TRAJECTORY_MATCH))
    ]
    lines += ["", f"## Failing cases ({len(failing) + len(report.failures)})", ""]
    if not failing and not report.failures:
        lines.append("None.")
    for case in failing:
        lines.append(f"### {case.name}")
        lines.append("")
        if not _passed(case, TASK_SUCCESS):
            lines.append(f"- task: {_reason(case, TASK_SUCCESS)}")
        if not _passed(case, TRAJECTORY_MATCH):
            lines.append(f"- trajectory: {_reason(case, TRAJECTORY_MATCH)}")
        lines += ["- transcript:", *_transcript(case), ""]
    for failure in report.failures:
        lines += [f"### {failure.name}", "", f"- error: {failure.error_message}", ""]
    return "\n".join(lines) + "\n"


def failing_names(report: Report) -> list[str]:
    names = [
        case.name
        for case in report.cases
        if not (_passed(case, TASK_SUCCESS) and _passed(case, TRAJECTORY_MATCH))
    ]
    return names + [failure.name for failure in _failures(report)]


def _failures(report: Report) -> list[ReportCaseFailure[Conversation, Transcript, Expected]]:
    return list(report.failures)


def write(report: Report, model_name: str, started: datetime, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown(report, model_name, started), encoding="utf-8")


def now() -> datetime:
    return datetime.now(UTC)
