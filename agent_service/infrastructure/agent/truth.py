"""Truth: the customer is told exactly what happened.

The reply of a turn is composed here, in this order:

1. the model's words, unless they claim a write that did not happen this turn (or deny one
   that did) — then the system's truthful text replaces them (nothing changed, with the
   customer's upcoming appointments from the stored records; or "here is what was done");
   an empty or stopped run gets the fallback (which never hides a write);
2. one system-rendered receipt line per write outcome of the turn (booked, cancelled,
   rescheduled, declined, failed, pending-unknown, handed off), from the same data as the
   turn's ``actions``;
3. the system-rendered confirmation question of the pending action, verbatim, last.

The whole reply is at most ``max_chars``: the model's words are cut to fit, the system's
lines never are.
"""

from __future__ import annotations

import re

from agent_service.application.text import normalize
from agent_service.domain.conversations import ActionKind, TurnAction
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction

WRITES = frozenset(
    {
        ActionKind.APPOINTMENT_BOOKED,
        ActionKind.APPOINTMENT_CANCELLED,
        ActionKind.APPOINTMENT_RESCHEDULED,
    }
)


def _words(*patterns: str) -> re.Pattern[str]:
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(patterns) + r")(?![a-z0-9])")


_BOOK = ActionKind.APPOINTMENT_BOOKED
_CANCEL = ActionKind.APPOINTMENT_CANCELLED
_MOVE = ActionKind.APPOINTMENT_RESCHEDULED
# Claim words (folded: lowercase, no accents) and the write kinds that make each claim true.
CLAIMS: tuple[tuple[re.Pattern[str], frozenset[ActionKind]], ...] = (
    (
        _words(
            r"agendad[oa]s?", r"agendei", r"agendamos", r"marcad[oa]s?", r"marquei",
            r"marcamos", r"reservad[oa]s?", r"reservei", r"booked", r"reserved", r"scheduled",
        ),
        frozenset({_BOOK, _MOVE}),
    ),
    (
        _words(
            r"cancelad[oa]s?", r"cancelei", r"cancelamos", r"desmarcad[oa]s?", r"desmarquei",
            r"cancell?ed",
        ),
        frozenset({_CANCEL, _MOVE}),
    ),
    (
        _words(
            r"remarcad[oa]s?", r"remarquei", r"remarcamos", r"reagendad[oa]s?", r"reagendei",
            r"rescheduled", r"moved",
        ),
        frozenset({_MOVE}),
    ),
    (
        _words(r"confirmad[oa]s?", r"confirmei", r"confirmamos", r"confirmed"),
        frozenset(WRITES),
    ),
)  # fmt: skip
_WRITE_STEM = r"(?:agend|marc|reserv|cancel|desmarc|remarc|reagend|confirm|book|schedul|mov)\w*"
# Phrases denying a write ("não consegui agendar", "was not booked", "nada foi alterado").
_NEGATION = (
    r"(?:nao|nem|not|never|cannot|couldn'?t|can'?t|didn'?t|wasn'?t|weren'?t|isn'?t|won'?t"
    r"|unable to|failed to)"
)
DENIALS = _words(
    _NEGATION + r"(?: \w+){0,3} " + _WRITE_STEM,
    _WRITE_STEM + r"(?: \w+){0,3} " + _NEGATION,
    r"nada (?:foi |ficou )?(?:alterado|feito|mudado)",
    r"nao (?:alterei|mudei|fiz)",
    r"nothing (?:was |has been )?(?:changed|done|booked|cancell?ed)",
    r"(?:changed|did) nothing",
)


_SEGMENT = re.compile(r"[^.!?;:\n|]+")
MIN_QUOTE_CHARS = 12


def misstates(
    text: str,
    actions: list[TurnAction] | tuple[TurnAction, ...],
    quoted: list[str] | tuple[str, ...] = (),
) -> bool:
    """Whether ``text`` claims a write that did not happen this turn, or denies one that did.

    Segments copied from this turn's read-tool results (``quoted``: FAQ answers, the
    customer's appointment list) are stored data, not claims.
    """
    done = {a.kind for a in actions if a.kind in WRITES}
    folded = _unquoted(normalize(text), [normalize(q) for q in quoted])
    if done and DENIALS.search(folded):
        return True
    claims = DENIALS.sub(" ", folded)  # "não foi agendado" is not a claim
    return any(pattern.search(claims) and not (kinds & done) for pattern, kinds in CLAIMS)


def _unquoted(folded: str, sources: list[str]) -> str:
    if not sources:
        return folded

    def keep(match: re.Match[str]) -> str:
        segment = match.group(0).strip()
        quoted = len(segment) >= MIN_QUOTE_CHARS and any(segment in s for s in sources)
        return " " if quoted else match.group(0)

    return _SEGMENT.sub(keep, folded)


def receipts(deps: AgentDeps) -> list[str]:
    """One line per outcome of the turn, in the conversation's language."""
    language = deps.turn.language
    lines = [_receipt(action, language) for action in deps.turn.actions]
    unfinished = deps.turn.pending
    if unfinished is not None and unfinished.confirmed:  # a yes the model did not carry out
        lines.append(messages.text("confirmed_not_done", language, what=unfinished.summary))
    if deps.turn.expired is not None:
        what = deps.turn.expired.summary
        lines.insert(0, messages.text("receipt_expired", language, what=what))
    return lines


def _receipt(action: TurnAction, language: str) -> str:
    what = action.detail or messages.text("this_change", language)
    return messages.text(f"receipt_{action.kind.value}", language, what=what)


RAW_TAG = re.compile(r"\s*\[(?:faq|id)[:=][^\]]*\]", re.I)
"""A citation tag a model copied into its text: the customer never sees it (citations are the
response's structured field)."""


def final_reply(
    deps: AgentDeps,
    model_text: str,
    pending: PendingAction | None,
    *,
    stopped: bool,
    max_chars: int,
) -> str:
    """The reply the customer reads (see the module's rules)."""
    system = receipts(deps)
    if pending is not None:
        system.append(pending.question)
    tail = "\n\n".join(system)
    budget = max_chars - len(tail) - (2 if tail else 0)
    # Cut first: only what the customer will read is judged (and a 9 MB reply costs nothing).
    shown = _cut(RAW_TAG.sub("", model_text).strip(), budget)
    body = _cut(_body(deps, shown, stopped=stopped, has_system=bool(system)), budget)
    return "\n\n".join(part for part in (body, tail) if part)


def _cut(text: str, budget: int) -> str:
    if len(text) <= budget:
        return text
    return text[: budget - 1].rstrip() + "…" if budget > 1 else ""


def _body(deps: AgentDeps, text: str, *, stopped: bool, has_system: bool) -> str:
    language, actions = deps.turn.language, deps.turn.actions
    wrote = any(a.kind in WRITES or a.kind is ActionKind.APPOINTMENT_PENDING for a in actions)
    if stopped:
        return messages.text("limit_after_change" if actions else "limit", language)
    if not text:
        return "" if has_system else messages.text("fallback", language)
    if not misstates(text, actions, deps.turn.read_texts):
        return text
    if wrote:
        return messages.text("done_lead", language)
    return _nothing_changed(deps)


def _nothing_changed(deps: AgentDeps) -> str:
    """The system's own account when the model's was false: nothing changed, and what the
    customer has booked, from the stored records."""
    language = deps.turn.language
    lines = [messages.text("nothing_changed", language)]
    if deps.turn.upcoming:
        lines.append(messages.text("upcoming", language))
        lines.extend(f"- {item}" for item in deps.turn.upcoming)
    else:
        lines.append(messages.text("no_upcoming", language))
    return "\n".join(lines)
