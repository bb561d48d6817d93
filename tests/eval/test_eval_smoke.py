"""``make eval`` cannot rot: the dataset's shape, the judges on known-good and known-bad runs,
and a handful of cases through the offline model end to end."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.infrastructure.agent.models import build_model
from eval import runner
from eval.__main__ import main, parse_args
from eval.dataset import CASES
from eval.evaluators import trajectory_problem
from eval.harness import Harness
from eval.suites import CASES as SUITE

SMOKE = [
    "pt-book-all-in-one",
    "en-book-step-by-step",
    "pt-book-declined",
    "en-faq-address",
    "pt-handoff-complaint",
    "pt-cancel-one-of-two",
    "en-reschedule",
    "pt-services-and-prices",
    "en-cancel-without-appointments",
    # issue 12: never another professional, check before asking, refusals, any professional,
    # part of day, aliases, routing that recovers, one language
    "pt-wrong-professional-not-substituted",
    "en-reschedule-to-closed-day-checks-first",
    "pt-declined-time-does-not-resurface",
    "pt-refusal-break",
    "en-any-professional-busy-first",
    "pt-part-tarde",
    "en-names-nails",
    "pt-route-faq-then-when",
    "en-language-short-no",
    # the WhatsApp-style sets (other salons): corrections, which appointment, next-week asks
    "wa-pt-fix-professional",
    "wa-en-fix-professional",
    "wa-pt-cancel-ambiguous-asks",
    "wa-pt-move-corte-de-terca",
    "wl-pt-fix-person",
    "wl-pt-depilacao-terca-que-vem",
]


def test_the_dataset_has_150_conversations_in_both_languages_with_expectations() -> None:
    assert len(CASES) >= 150
    assert len({case.name for case in CASES}) == len(CASES)
    languages = Counter(case.metadata.language for case in CASES if case.metadata)
    assert languages["pt"] >= 90 and languages["en"] >= 45
    categories = {case.metadata.category for case in CASES if case.metadata}
    assert {
        "typos-slang", "service-names", "corrections", "refusal", "trust", "any-professional",
        "part-of-day", "routing", "language",
    } <= categories  # fmt: skip
    outcomes = {case.metadata.outcome for case in CASES if case.metadata}
    assert {"booked", "cancelled", "rescheduled", "faq", "handoff"} <= outcomes
    for case in CASES:
        assert case.metadata is not None and case.inputs.messages, case.name
        if case.metadata.outcome == "booked":
            assert case.metadata.start and case.metadata.service and case.metadata.professional


def test_the_whatsapp_sets_are_independent_salons_with_50_conversations() -> None:
    from eval import whatsapp, whatsapp_lirio
    from eval.harness import SALONS

    cases = [*whatsapp.CASES, *whatsapp_lirio.CASES]
    languages = Counter(case.metadata.language for case in cases if case.metadata)
    assert len(cases) >= 50 and languages["pt"] >= 30 and languages["en"] >= 15
    assert {case.inputs.salon for case in cases} == {"bigode", "lirio"}
    names = {SALONS[key].name for key in ("ipe", "bigode", "lirio")}
    assert len(names) == 3  # named unlike each other (and unlike the demo's, checked below)
    assert "Salão Bela Vista" not in names
    assert {case.name for case in cases} <= {case.name for case in SUITE}


def test_trajectory_is_an_ordered_subsequence_with_exact_writes() -> None:
    book = "book_appointment"
    assert trajectory_problem(["list_services", book, "list_services", book], (book, book)) is None
    assert trajectory_problem(["search_faq"], ("search_faq",)) is None
    assert trajectory_problem([book], (book, book)) is not None
    assert trajectory_problem([book, book, book], (book, book)) is not None
    assert trajectory_problem(["check_availability", book], (book, "check_availability"))


async def test_offline_model_passes_the_smoke_cases() -> None:
    report = await runner.run(Harness(build_model("offline")), SMOKE, concurrency=4)
    numbers = runner.figures(report)
    assert numbers.cases == len(SMOKE)
    assert runner.failing_names(report) == [], runner.markdown(report, "offline", runner.now())
    assert numbers.task_rate == numbers.trajectory_rate == 1.0
    assert numbers.wrong_writes == 0


def _does_nothing(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    if any(tool.name == "route_to" for tool in info.output_tools):
        return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": "discovery"})])
    return ModelResponse(parts=[TextPart("ok")])


async def test_a_model_that_does_nothing_fails_and_the_report_says_why(tmp_path: Path) -> None:
    report = await runner.run(Harness(FunctionModel(_does_nothing)), SMOKE[:2], concurrency=2)
    assert runner.figures(report).task_success == 0
    path = tmp_path / "report.md"
    runner.write(report, "does-nothing", runner.now(), path)
    text = path.read_text()
    assert "## Failing cases (2)" in text
    assert "nothing booked (wanted Corte e escova with Júlia Prado" in text
    assert "**customer:** Quero agendar um corte feminino com a Júlia amanhã às 10h" in text


async def test_the_command_writes_the_report_and_applies_the_threshold(tmp_path: Path) -> None:
    report = tmp_path / "latest.md"
    argv = ["--case", "pt-faq-pix", "--report", str(report), "--model", "offline"]
    assert await main(parse_args(argv)) == 0
    assert "| task success | 1/1 (100.0%) |" in report.read_text()
    assert await main(parse_args([*argv, "--min-success", "1.01"])) == 1


def test_wrong_writes_count_bookings_and_moves_nobody_asked_for() -> None:
    from datetime import datetime, time
    from uuid import uuid4

    from eval.dataset import CUT_THURSDAY, FRI, THU, TUE, Conversation, Expected
    from eval.evaluators import wrong_writes
    from eval.harness import AppointmentRecord, Transcript, local

    def record(professional: str, start: datetime, *, old: bool = False) -> AppointmentRecord:
        return AppointmentRecord(
            uuid4(), "Corte e escova", professional, start, "confirmed", preexisting=old
        )

    want = Expected(
        category="booking", language="pt", outcome="booked", tools=(), service="corte",
        professional="ana", start=local(TUE, time(10)),
    )  # fmt: skip
    right = Transcript(appointments=[record("Júlia Prado", local(TUE, time(10)))])
    other_person = Transcript(appointments=[record("Paulo Reis", local(TUE, time(10)))])
    other_time = Transcript(appointments=[record("Júlia Prado", local(TUE, time(11)))])
    empty = Conversation(("x",))
    assert wrong_writes(empty, right, want) == 0
    assert wrong_writes(empty, other_person, want) == 1
    assert wrong_writes(empty, other_time, want) == 1
    move = Expected(
        category="appointments", language="pt", outcome="rescheduled", tools=(), service="corte",
        start=local(FRI, time(16)),
    )  # fmt: skip
    had = Conversation(("x",), (CUT_THURSDAY,))
    moved_wrong = Transcript(appointments=[record("Júlia Prado", local(FRI, time(15)), old=True)])
    untouched = Transcript(appointments=[record("Júlia Prado", local(THU, time(10)), old=True)])
    assert wrong_writes(had, moved_wrong, move) == 1
    assert wrong_writes(had, untouched, move) == 0  # not done is a failure, not a wrong write
