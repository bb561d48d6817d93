"""How a played conversation is judged: task success (the outcome, checked in the stores, and
no side effect beyond it) and trajectory match (the expected tools, in order)."""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime

from pydantic_evals.evaluators import EvaluationReason, Evaluator, EvaluatorContext

from agent_service.infrastructure.agent.tools.faq import marked_quotation
from agent_service.infrastructure.language import data_detector
from eval.dataset import WRITE_TOOLS, Conversation, Expected
from eval.harness import (
    CANCELLED,
    CONFIRMED,
    HANDED_OFF,
    IPE,
    SALONS,
    AppointmentRecord,
    SalonSpec,
    Transcript,
)

TASK_SUCCESS = "task_success"
TRAJECTORY_MATCH = "trajectory_match"


def _states(reply: str, key: str, salon: SalonSpec) -> bool:
    return any(fold(fact) in fold(reply) for fact in salon.faq_facts[key])


def fold(text: str) -> str:
    """Lowercase without accents, for lenient "the reply mentions X" checks."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


@dataclass
class TaskSuccess(Evaluator[Conversation, Transcript, Expected]):
    """The expected outcome happened and nothing else changed."""

    def evaluate(
        self, ctx: EvaluatorContext[Conversation, Transcript, Expected]
    ) -> dict[str, EvaluationReason]:
        assert ctx.metadata is not None
        problems = task_problems(ctx.output, ctx.metadata, SALONS[ctx.inputs.salon])
        reason = "; ".join(problems) if problems else f"{ctx.metadata.outcome} as expected"
        return {TASK_SUCCESS: EvaluationReason(value=not problems, reason=reason)}


@dataclass
class TrajectoryMatch(Evaluator[Conversation, Transcript, Expected]):
    """The expected tools were called in order; the writing tools exactly as often."""

    def evaluate(
        self, ctx: EvaluatorContext[Conversation, Transcript, Expected]
    ) -> dict[str, EvaluationReason]:
        assert ctx.metadata is not None
        problem = trajectory_problem(ctx.output.tools, ctx.metadata.tools)
        reason = problem or f"tools {list(ctx.output.tools)}"
        return {TRAJECTORY_MATCH: EvaluationReason(value=problem is None, reason=reason)}


def trajectory_problem(actual: list[str], expected: tuple[str, ...]) -> str | None:
    """None when ``expected`` is an ordered subsequence of ``actual`` and every writing tool
    is called as often as expected; else what is wrong."""
    remaining = iter(actual)
    missing = [tool for tool in expected if not any(tool == seen for seen in remaining)]
    if missing:
        return f"expected {list(expected)} in order, got {actual}"
    for tool in sorted(WRITE_TOOLS):
        want, got = expected.count(tool), actual.count(tool)
        if want != got:
            return f"{tool} called {got}x, expected {want}x (tools {actual})"
    return None


def task_problems(out: Transcript, want: Expected, salon: SalonSpec = IPE) -> list[str]:
    """Everything that differs from the expected outcome (empty: success)."""
    if out.error is not None:
        return [f"the conversation failed: {out.error}"]
    problems: list[str] = []
    new = [a for a in out.appointments if not a.preexisting]
    confirmed_new = [a for a in new if a.status == CONFIRMED]
    old = [a for a in out.appointments if a.preexisting]
    kinds = [action.kind for action in out.actions]
    last_reply = out.turns[-1].reply if out.turns else ""

    if want.outcome == "booked":
        problems += _booked(confirmed_new, want, kinds, salon)
    elif want.outcome in ("cancelled", "rescheduled"):
        problems += _changed(old, confirmed_new, want, kinds, salon)
    else:
        if confirmed_new:
            problems.append(f"unexpected booking: {_describe(confirmed_new)}")
        changed = [a for a in old if a.status != CONFIRMED]
        if changed:
            problems.append(f"an existing appointment changed: {_describe(changed)}")
    live = len([a for a in out.appointments if a.status == CONFIRMED])
    if out.calendar_events != live:
        problems.append(f"{out.calendar_events} calendar events for {live} appointments")

    handed = "handed_off" in kinds or out.status == HANDED_OFF
    if want.outcome == "handoff":
        if "handed_off" not in kinds:
            problems.append("no handed_off action")
        if out.status != HANDED_OFF:
            problems.append(f"conversation is {out.status}, not handed_off")
    elif handed:
        problems.append("handed off to a human unexpectedly")

    if want.outcome == "faq":
        problems += _faq(last_reply, want, salon)
    elif want.outcome == "no_answer":
        cited = [key for key in salon.faq_facts if _states(last_reply, key, salon)]
        if "[faq:" in last_reply or cited:
            problems.append(f"answered from the FAQ anyway: {last_reply[:120]!r}")
    elif want.outcome == "info":
        missing = [m for m in want.mentions if fold(m) not in fold(last_reply)]
        if missing:
            problems.append(f"reply does not mention {missing}: {last_reply[:160]!r}")
        unstated = [group for group in want.facts if not states_one(last_reply, group)]
        if unstated:
            problems.append(f"reply states none of {unstated}: {last_reply[:160]!r}")
        cited = [key for key in salon.faq_facts if _states(last_reply, key, salon)]
        if want.faq_free and ("[faq:" in last_reply or cited):
            problems.append(f"answered from an unrelated FAQ entry: {last_reply[:120]!r}")
    if want.distinct_replies:
        problems += _repeats(out)
    if want.outcome != "handoff" and not last_reply.strip():
        problems.append("empty reply")
    spoken = _spoken_language(out, want)
    problems += [
        problem for turn in out.turns for problem in reply_problems(turn.reply, spoken, salon)
    ]
    return problems


def states_one(reply: str, spellings: tuple[str, ...]) -> bool:
    """Whether ``reply`` has one of ``spellings`` (one starting with a digit must not follow
    another digit: "8h" is not in "18h")."""
    folded = fold(reply)
    for spelling in spellings:
        wanted = fold(spelling)
        guard = r"(?<!\d)" if wanted[:1].isdigit() else ""
        if re.search(guard + re.escape(wanted), folded):
            return True
    return False


def _repeats(out: Transcript) -> list[str]:
    """Consecutive turns that got the very same reply (the conversation was stuck)."""
    replies = [" ".join(turn.reply.split()) for turn in out.turns]
    return [
        f"the same reply twice in a row (turns {n} and {n + 1}): {now[:100]!r}"
        for n, (before, now) in enumerate(itertools.pairwise(replies), 1)
        if now and before == now
    ]


_RAW_TAG = re.compile(r"\[(?:faq|id|tool)[:=]|\bid=", re.I)
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_SENTENCE = re.compile(r"[^.!?\n]+")


def _spoken_language(out: Transcript, want: Expected) -> str:
    """The case's language; the salon's own (pt) while no customer message shows any
    (e.g. "xyzzy plugh": nothing says the customer speaks English)."""
    judge = data_detector()
    evident = any(judge.conversation_language(t.text, None, "pt")[1] for t in out.turns)
    return want.language if evident else "pt"


def reply_problems(reply: str, language: str, salon: SalonSpec = IPE) -> list[str]:
    """What a customer must never read: a raw tag, an id, or a sentence in the other language
    than the conversation's (a sentence with clear evidence of the other language), except
    inside a FAQ answer quoted under its lead-in ("The salon has this answer only in
    Portuguese: “…”")."""
    problems = []
    if _RAW_TAG.search(reply) or _UUID.search(reply):
        problems.append(f"raw tag or id in a reply: {reply[:120]!r}")
    unquoted = _without_names(marked_quotation(language).sub(" ", reply), salon)
    judge = data_detector()
    for sentence in _SENTENCE.findall(unquoted):
        said, settled = judge.conversation_language(sentence, None, "pt")
        if settled and said != language and _clearly(sentence, said, language):
            problems.append(f"a sentence in {said} in a {language} reply: {sentence!r}")
    return problems


def _without_names(reply: str, salon: SalonSpec) -> str:
    """The reply without the salon's own names and professionals' specialties, its catalog
    data as the business wrote it (a Portuguese service name or specialty is not a sentence)."""
    names = [*(s[0] for s in salon.services.values())]
    names += [text for p in salon.professionals.values() for text in p[:2] if text]
    for name in names:
        reply = reply.replace(name, "")
    return reply


def _clearly(sentence: str, language: str, expected: str) -> bool:
    """At least two more function words of ``language`` than of the ``expected`` one."""
    return data_detector().conversation_language(sentence, expected, expected)[0] == language


def _wanted_visit(want: Expected, salon: SalonSpec) -> list[tuple[str, str, datetime]]:
    """(service name, professional name, start) of every appointment the case wants booked."""
    if want.outcome != "booked" or not (want.service and want.professional and want.start):
        return []
    first = (want.service, want.professional, want.start)
    return [
        (salon.services[service][0], salon.professionals[professional][0], start)
        for service, professional, start in (first, *want.also)
    ]


def _booked(
    confirmed: list[AppointmentRecord], want: Expected, kinds: list[str], salon: SalonSpec
) -> list[str]:
    wanted = _wanted_visit(want, salon)
    assert wanted
    described = "; ".join(f"{s} with {p} at {t:%a %d/%m %H:%M}" for s, p, t in wanted)
    if not confirmed:
        return [f"nothing booked (wanted {described})"]
    problems = []
    got = sorted((a.service, a.professional, a.start) for a in confirmed)
    if got != sorted(wanted):
        problems.append(f"booked {_describe(confirmed)}, wanted {described}")
    if "appointment_booked" not in kinds:
        problems.append("no appointment_booked action")
    return problems


def _changed(
    old: list[AppointmentRecord],
    confirmed_new: list[AppointmentRecord],
    want: Expected,
    kinds: list[str],
    salon: SalonSpec,
) -> list[str]:
    assert want.service
    service = salon.services[want.service][0]
    target = [a for a in old if _is_target(a, want, salon)]
    others = [a for a in old if not _is_target(a, want, salon) and a.status != CONFIRMED]
    problems = [f"another appointment changed: {_describe(others)}"] if others else []
    if confirmed_new:
        problems.append(f"unexpected booking: {_describe(confirmed_new)}")
    if want.outcome == "cancelled":
        if not target or target[0].status != CANCELLED:
            status = target[0].status if target else "?"
            problems.append(f"the {service} appointment is still {status}")
        if "appointment_cancelled" not in kinds:
            problems.append("no appointment_cancelled action")
        return problems
    # A reschedule moves the appointment: it keeps its id (and its event) at the new time.
    assert want.start
    if not [a for a in target if a.status == CONFIRMED and a.start == want.start]:
        problems.append(
            f"the {service} appointment was not moved to {want.start:%a %d/%m %H:%M} "
            f"(now: {_describe(target) or 'none'})"
        )
    if "appointment_rescheduled" not in kinds:
        problems.append("no appointment_rescheduled action")
    return problems


def _is_target(old: AppointmentRecord, want: Expected, salon: SalonSpec) -> bool:
    """The existing appointment the case wants cancelled or moved."""
    if want.service is None or old.service != salon.services[want.service][0]:
        return False
    return want.target is None or old.booked_at == want.target


def _faq(reply: str, want: Expected, salon: SalonSpec) -> list[str]:
    assert want.faq
    if _states(reply, want.faq, salon):
        return []
    question = salon.faq[want.faq][0]
    return [f"did not answer {question!r} from the FAQ: {reply[:160]!r}"]


def _describe(appointments: list[AppointmentRecord]) -> str:
    return ", ".join(
        f"{a.service} with {a.professional} at {a.start:%a %d/%m %H:%M} ({a.status})"
        for a in appointments
    )


def wrong_writes(conversation: Conversation, out: Transcript, want: Expected) -> int:
    """Writes the customer did not ask for: a booking with another service, professional or
    time than wanted (or any booking when none was wanted), an existing appointment cancelled
    or moved when it should not be, or moved to another time than asked."""
    salon = SALONS[conversation.salon]
    new = [a for a in out.appointments if not a.preexisting and a.status == CONFIRMED]
    wanted = _wanted_visit(want, salon)
    wrong = sum(1 for a in new if (a.service, a.professional, a.start) not in wanted)
    before = {item.start for item in conversation.booked}
    for old in (a for a in out.appointments if a.preexisting):
        target = _is_target(old, want, salon)
        if target and want.outcome == "cancelled":
            continue
        if target and want.outcome == "rescheduled":
            wrong += old.status != CONFIRMED or old.start not in {want.start, *before}
        elif old.status != CONFIRMED or old.start not in before:
            wrong += 1
    return wrong
