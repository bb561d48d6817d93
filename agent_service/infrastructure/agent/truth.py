# Over 300 lines: one order of the reply (what was left undone, words, outcomes, question).
"""Truth: the customer is told exactly what happened, and no fact that is not grounded.

The reply of a turn is composed here, in this order:

0. when the customer's answer left the open proposal without a yes or a plain no (a hedge, a
   no with more) and the turn wrote and proposed nothing, "Nada foi alterado: … não foi feito"
   first — and the model's sentences that are only courtesy or agreement ("Combinado!") are
   left out, whatever its other sentences say;
1. the model's words — none on a proposal turn (the reply is rendered from the pending
   action alone: the system's question is then the only question) nor on a turn settled in
   code (a confirmation, a decline, a late yes, a stale decision, a requested handoff). A
   listing the system ended the run with (the model asked a read tool to show its result:
   ``listings``) is the system's words, every fact a field of that result: sent as rendered.
   Words that state an ungrounded fact (``grounded.judge``: a price, time, date, address,
   phone, link or name no record and no word of the customer's backs) are replaced by the
   system's words for what this turn's tools found (below), or with none its fallback: the
   customer who asked reads the answer the tools had, not a shrug. Words that claim a change
   no receipt backs, or deny one that did happen, are replaced by the system's truthful
   account (nothing changed, with the customer's appointments from the stored records; or
   "here is what was done"). In a turn with no write receipt and no proposal, of any
   specialist, a statement sentence that is neither courtesy nor told from this turn's tools
   (and the customer's appointments only as recorded: ``application/statements``) is
   removed; when a question is left and this turn's tools read something, the system's
   listing of it comes first (a question left alone would ask about what the customer never
   read), and replaces the question when it asks its own; when no question is left, the
   whole reply is the system's own words for what this turn's tools found (the listing of
   the last read result — free times, services, an FAQ answer: ``listings`` — then a
   refusal and its nearest times, a "not done", an FAQ search with no match:
   ``outcome_text``), each once, or, with none, its truthful account. When a question ends
   the reply, every question sentence of the model's words is removed. Words written in
   another language than the conversation's (none of its own words, several of another's: a
   weak model's "What do you want to know?" to a Portuguese customer) are replaced the same
   way: the customer reads the system's words in their language. An empty or stopped run gets the
   fallback (which never hides a write);
2. when the customer's answer changed something, what was understood as the change;
3. one system-rendered line per outcome of the turn (booked, cancelled, rescheduled,
   declined, failed, pending-unknown, handed off, expired), from the same data as the turn's
   ``actions`` — or the earlier outcome when another message had confirmed it first;
4. the system-rendered confirmation question of the pending action, verbatim, last.

The whole reply is at most ``max_chars``: the model's words are cut to fit, the system's
lines never are.
"""

from __future__ import annotations

import re

from agent_service.application.consent_policy import Outcome
from agent_service.application.grounding import question_sentences, sentences, without_questions
from agent_service.application.statements import without_units
from agent_service.domain.conversations import ActionKind, TurnAction
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.consent import described
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction
from agent_service.infrastructure.agent.grounded import Verdict, judge
from agent_service.infrastructure.agent.listings import listing_text
from agent_service.infrastructure.agent.statement_words import statement_rules
from agent_service.infrastructure.agent.told import this_turn_outcomes
from agent_service.infrastructure.agent.tools.results import read_result
from agent_service.infrastructure.language import language_detector
from agent_service.infrastructure.language.rules import language_rules

WRITES = frozenset(
    {
        ActionKind.APPOINTMENT_BOOKED,
        ActionKind.APPOINTMENT_CANCELLED,
        ActionKind.APPOINTMENT_RESCHEDULED,
    }
)
NO_VERDICT = Verdict()
RAW_TAG = re.compile(r"\s*\[(?:faq|id)[:=][^\]]*\]", re.I)
"""A citation tag a model copied into its text: the customer never sees it (citations are the
response's structured field)."""


def receipts(deps: AgentDeps) -> list[str]:
    """One line per outcome of the turn, in the conversation's language."""
    turn = deps.turn
    language = turn.language
    lines = [_receipt(action, language, turn.turned_down) for action in turn.actions]
    lines.extend(_already(action, language) for action in turn.already)
    proposal = turn.pending if turn.proposed else None
    other = proposal is not None and proposal.question != turn.open_question
    if proposal is not None and proposal.replaces and other and turn.open_summary:
        # a new question in place of the open one: what it replaces is said, never unremarked
        lines.append(messages.text("instead_of", language, what=turn.open_summary))
    if turn.terms_changed is not None:
        what = turn.terms_changed.summary
        lines.append(messages.text("terms_changed", language, what=what))
    if turn.unsettled is not None:
        lines.append(messages.text("already_in_progress", language, what=turn.unsettled.summary))
    unfinished = turn.pending
    if unfinished is not None and unfinished.confirmed:  # a yes that was not carried out
        lines.append(messages.text("confirmed_not_done", language, what=unfinished.summary))
    if turn.expired is not None:
        what = described(deps, turn.expired)
        lines.insert(0, messages.text("receipt_expired", language, what=what))
    undone = _undone_line(deps)
    if undone:
        lines.insert(0, undone)
    if turn.consent is Outcome.NOT_PENDING:
        lines.insert(0, messages.text("decision_not_pending", language))
    return lines


def _undone_line(deps: AgentDeps) -> str:
    """ "Nada foi alterado: … não foi feito." when the turn left the open proposal undone."""
    dropped = deps.turn.dropped
    if dropped is None or not _left_undone(deps):
        return ""
    key = f"dropped_{dropped.kind}"
    key = key if key in messages.CATALOG["en"] else "receipt_dropped"
    return messages.text(key, deps.turn.language, what=described(deps, dropped))


def _left_undone(deps: AgentDeps) -> bool:
    """The customer's answer left the open proposal without a yes or a plain no, and the turn
    wrote and proposed nothing: it is told that nothing was done, first ("Combinado!" from the
    model would say otherwise)."""
    turn = deps.turn
    wrote = any(a.kind in WRITES for a in turn.actions)
    return turn.dropped is not None and not turn.proposed and not wrote


DECLINED_KINDS = {
    "book_appointment": "appointment_booked",
    "cancel_appointment": "appointment_cancelled",
    "reschedule_appointment": "appointment_rescheduled",
}
"""The kind of change each write tool proposes: a declined one is told by its kind ("your
appointment stays booked"), never as "X was not done", which reads as the appointment's."""


def _receipt(
    action: TurnAction, language: str, turned_down: tuple[str, dict[str, str]] | None = None
) -> str:
    what = action.detail or messages.text("this_change", language)
    key = f"receipt_{action.kind.value}"
    if action.kind is ActionKind.CHANGE_DECLINED and turned_down is not None:
        kind = DECLINED_KINDS.get(turned_down[0], "")
        key = f"declined_{kind}" if f"declined_{kind}" in messages.CATALOG["en"] else key
    return messages.text(key, language, what=what)


def _already(action: TurnAction, language: str) -> str:
    what = action.detail or messages.text("this_change", language)
    key = f"already_{action.kind.value}"
    return messages.text(
        key if key in messages.CATALOG["en"] else "already_done", language, what=what
    )


async def verdict_for(
    deps: AgentDeps, model_text: str, pending: PendingAction | None, max_chars: int
) -> Verdict:
    """What ``grounded.judge`` finds in the part of ``model_text`` the customer could read."""
    if _system_only(deps, pending) or deps.turn.is_system_text(model_text):
        return NO_VERDICT
    shown = RAW_TAG.sub("", model_text[: max_chars * 2]).strip()[:max_chars]
    return await judge(deps, shown, deps.turn.tool_texts) if shown else NO_VERDICT


def final_reply(
    deps: AgentDeps,
    model_text: str,
    pending: PendingAction | None,
    *,
    stopped: bool,
    max_chars: int,
    verdict: Verdict = NO_VERDICT,
) -> str:
    """The reply the customer reads (see the module's rules); ``verdict`` is what
    ``grounded.judge`` found in ``model_text``."""
    undone = _undone_line(deps)  # said first: before any word of the model's
    system = [line for line in receipts(deps) if line != undone]
    if pending is not None:
        system.append(pending.question)
    note = _change_note(deps, pending)
    tail = "\n\n".join(part for part in (note, *system) if part)
    budget = max_chars - len(tail) - (2 if tail else 0) - (len(undone) + 2 if undone else 0)
    shown = "" if _system_only(deps, pending) else RAW_TAG.sub("", model_text).strip()
    # Cut first, at a sentence's end: only what the customer will read is judged (and a 9 MB
    # reply costs nothing), in the sentences the verdict judged (a cut one would be no
    # refused sentence, and go out with its lie)
    shown = _cut_at_sentence(shown, budget)
    body = _body(deps, shown, stopped=stopped, has_system=bool(tail), verdict=verdict)
    if pending is not None:
        body = without_questions(body)
    return "\n\n".join(part for part in (undone, _cut(body, budget), tail) if part)


def _system_only(deps: AgentDeps, pending: PendingAction | None) -> bool:
    """A proposal turn (rendered from the pending action alone) or a turn settled in code."""
    turn = deps.turn
    proposed = turn.proposed and pending is not None and pending is turn.pending
    settled = (
        Outcome.CONFIRMED,
        Outcome.NOT_PENDING,
        Outcome.ALREADY_DONE,
        Outcome.UNCLEAR,
        Outcome.UNSEEN,
    )
    return proposed or turn.consent in settled


def _change_note(deps: AgentDeps, pending: PendingAction | None) -> str:
    """What the customer's changed answer added, said when the question is asked again."""
    turn = deps.turn
    if pending is None or turn.proposed or not turn.change_note:
        return ""
    return messages.text("change_understood", turn.language, change=turn.change_note[:200])


def _cut_at_sentence(text: str, budget: int) -> str:
    """``text`` up to its last whole sentence within ``budget`` characters ("" with none)."""
    if len(text) <= budget:
        return text
    kept = ""
    for sentence in sentences(text):
        if len(kept) + len(sentence) > budget:
            break
        kept += sentence
    return kept.strip()


def _cut(text: str, budget: int) -> str:
    if len(text) <= budget:
        return text
    return text[: budget - 1].rstrip() + "…" if budget > 1 else ""


def _body(deps: AgentDeps, text: str, *, stopped: bool, has_system: bool, verdict: Verdict) -> str:
    language, actions = deps.turn.language, deps.turn.actions
    wrote = any(a.kind in WRITES or a.kind is ActionKind.APPOINTMENT_PENDING for a in actions)
    if stopped:
        return messages.text("limit_after_change" if actions else "limit", language)
    if _left_undone(deps):
        # nothing was done: an agreement ("Combinado!", "Perfect, all set!") would say it was;
        # the model's other sentences (an answer, a question) go on as any other's
        text = " ".join(s.strip() for s in sentences(text) if not _only_courtesy(deps, s))
        if not text:
            return ""
    if deps.turn.reask is not None and _only_courtesy(deps, text):
        # the open question is asked again below: a "Combinado!" before it would say the
        # customer's answer was taken as a yes ("sim, mas tem estacionamento?")
        return ""
    if not text:  # none, or a first sentence longer than the room: what the tools found
        return "" if has_system else _results_or(deps, messages.text("fallback", language))
    if verdict.misstated:
        return messages.text("done_lead", language) if wrote else _nothing_changed(deps)
    if verdict.ungrounded:
        if has_system and wrote:
            return ""
        return _results_or(deps, messages.text("fallback_ungrounded", language))
    if verdict.unbacked:
        kept = without_units(text, verdict.refused)
        if kept and verdict.only_bare:  # an unbacked yes left out, the rest is told
            return _in_language(deps, kept)  # ("Sim! Aceitamos Pix...")
        if not question_sentences(kept):
            # the model only asked what no tool told, or said what may not go to a customer
            # with no appointment to tell it about: the system asks instead ("nothing changed,
            # no appointments" answers nothing); with appointments, they are told as recorded
            asked_only = all(question_sentences(u) or u in verdict.bare for u in verdict.refused)
            asks = asked_only or not deps.turn.upcoming
            lead = messages.text("how_to_help", language) if asks else ""
            return _results_or(deps, lead or _nothing_changed(deps))
        # the question stays, after the listing it asks about in the system's words ("Qual
        # prefere?" alone would ask about times the customer never read); a listing with a
        # question of its own replaces it
        listed = _this_turn_listing(deps)
        if not listed or question_sentences(listed[0]):
            return listed[0] if listed else kept
        return "\n\n".join([*listed, kept])
    return _in_language(deps, text)


def _only_courtesy(deps: AgentDeps, text: str) -> bool:
    """Whether every sentence of ``text`` is courtesy (``statements``: nothing left once the
    courtesy, politeness and yes/no words are removed)."""
    rules = statement_rules(language_rules().in_play(deps.turn.language))
    said = [sentence for sentence in sentences(text) if sentence.strip()]
    return bool(said) and all(rules.courtesy(sentence, True) for sentence in said)


def _in_language(deps: AgentDeps, text: str) -> str:
    """``text``, or what this turn's tools found when it is written in another language."""
    language = deps.turn.language
    if language_detector().written_in_another(text, language):
        return _results_or(deps, messages.text("fallback", language))
    return text


def _results_or(deps: AgentDeps, otherwise: str) -> str:
    """What this turn's tools found, in the system's words, else ``otherwise``."""
    said = _this_turn_results(deps)
    return "\n\n".join(said) if said else otherwise


def _this_turn_results(deps: AgentDeps) -> list[str]:
    """The system's own words for what this turn's tools found, once each: the listing of the
    last read result that has one (free times, services, an FAQ answer: ``listings``; the
    model reads the catalog first to find the ids of what it asks last), then the outcomes
    (a refusal, a "not done": ``told.this_turn_outcomes``)."""
    said = _this_turn_listing(deps) + this_turn_outcomes(deps.turn.tool_texts, deps.turn.language)
    return list(dict.fromkeys(said))


def _this_turn_listing(deps: AgentDeps) -> list[str]:
    """The system's listing of this turn's last read result that has one, or none."""
    language, texts = deps.turn.language, deps.turn.tool_texts
    shown = [listing_text(read_result(t.text), language) for t in texts if t.this_turn]
    return [text for text in shown if text][-1:]


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
