# Over 300 lines: the agent's consent rules in one place (propose, decide, ask again, buttons).
"""Consent: the customer agrees to exactly what happens.

Rules (enforced in code, whatever the model does; the answer rules themselves are the
application policy ``application/consent_policy.py`` over the language data):

* A write tool's first call records a ``PendingAction`` with a fresh opaque ``id`` and the
  SYSTEM renders its question (:func:`render_question`); the run ends there (agents.py) and
  the reply is rendered from the pending action alone, so its question is the only one. The
  response carries the id and quick replies (:func:`quick_replies`) for buttons.
* The pending action is decided at the start of the next message (:func:`decide_pending`): a
  structured confirm of its id before it expires, or a plain yes (the allowlist) before it
  expires, confirms it — then it runs in code (confirm.py), with no model request; a no or a
  structured decline declines it; a yes or a confirm too late is told as expired; a decision
  for any other id changes nothing; an answer with something else in it ("sim, mas às 15h")
  is not a yes unless it only says the proposal back (``consent_policy.read_restating``): the
  turn goes on and, unless it proposes something new, the question is asked again with what
  was understood as a change; a message that asks only about the business (its FAQ or
  catalog) and answers nothing is answered, then the question is asked again with a fresh id
  (``ASIDE``) — so is any question that answers nothing and names no change (no day or time,
  no service or professional but the proposal's own, nothing asked to be done: "se eu faltar
  tem reposição?", "is the first lesson free?", in words no table lists); an answer that
  only says it was not understood ("hã? não entendi") gets the
  question again, in code (``UNCLEAR``); any other message ends the pending action.
* A confirmed action runs only on the terms its question showed (:func:`confirmed_as_shown`:
  the same call, and the same terms — a booking's service, professional, start, price and
  length as the catalog gives them now; a cancel's or a move's appointment as stored now);
  terms changed since the question (the back office changed a price, a length, a name) write
  nothing: the customer is told so and asked again with the current terms, and a later yes
  confirms those.
* A turn that asks the open question again (``ASKED_AGAIN``: a question meanwhile, an answer
  not understood, a yes sent before the question could be read) records no new proposal: the
  open one is asked again as it was, never replaced unremarked by one the customer did not
  ask for.
* A confirmation of what this conversation already executed (a tap of its id, or a plain yes
  right after it with nothing else open: ``application/repeated_confirmations``) is told
  that outcome ("already booked") in code; nothing runs again.
* At most one write per turn; after a handoff nothing else runs in that turn.
"""

from __future__ import annotations

import functools
import re
import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from uuid import UUID

from agent_service.application.consent_policy import (
    Outcome,
    PendingView,
    Reading,
    decide,
    read_answer,
    read_restating,
)
from agent_service.application.repeated_confirmations import Executed, repeats
from agent_service.application.text import fold_with_map, normalize
from agent_service.domain.conversations import (
    ActionKind,
    PendingConfirmation,
    QuickReply,
    ReplyChoice,
    TurnAction,
)
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.deps import AgentDeps, PendingAction
from agent_service.infrastructure.agent.restating import restatement
from agent_service.infrastructure.agent.tools.formatting import describe, local_text
from agent_service.infrastructure.language.grammar import has_when_mention
from agent_service.infrastructure.language.grammar.asks import (
    BUSINESS_ASKS,
    QUESTION,
    asked,
    asks_another_time,
    without_another_time,
)
from agent_service.infrastructure.language.grammar.vocabulary import (
    alternation,
    any_of,
    bounded,
    number_words,
    union,
)
from agent_service.infrastructure.language.rules import language_rules

MAX_WRITES_PER_TURN = 1
ID_BYTES = 18
_QUESTIONS = {
    ActionKind.APPOINTMENT_BOOKED: "question_book",
    ActionKind.APPOINTMENT_CANCELLED: "question_cancel",
    ActionKind.APPOINTMENT_RESCHEDULED: "question_reschedule",
}
_CHANGE_KINDS = {
    ActionKind.APPOINTMENT_BOOKED.value: "book",
    ActionKind.APPOINTMENT_CANCELLED.value: "cancel",
    ActionKind.APPOINTMENT_RESCHEDULED.value: "reschedule",
}
TURNED_DOWN = "NOT DONE: TURNED DOWN"
QUESTION_OPEN = "NOT DONE: QUESTION OPEN"
"""The open question is asked again by the system this turn: no write, nothing to tell."""
"""How a refused repeat of the proposal this message turned down starts (``gate`` reads it)."""


HANDED_OFF_REFUSAL = (
    "NOT DONE: the conversation was handed to a human attendant; nothing else runs now. "
    "Do not call any tool; just tell the customer a person will answer."
)


@dataclass(frozen=True, slots=True)
class Proposal:
    """A write a tool wants to make, described for the customer.

    ``what`` is the full description in the conversation's language (service, professional,
    local weekday, date and time, price; old → new for a reschedule); ``details`` feed the
    structured ``PendingAction`` of the response.
    """

    kind: ActionKind
    what: str
    details: dict[str, str] = field(default_factory=dict)


def new_id() -> str:
    """An opaque pending-action id: random, URL-safe, never derived from anything."""
    return secrets.token_urlsafe(ID_BYTES)


def read(deps: AgentDeps, text: str, kind: str, stored: PendingAction | None = None) -> Reading:
    """``text`` as an answer to a change of ``kind`` (the policy); to ``stored`` too."""
    said_back = None if stored is None else lambda: restatement(deps, stored, text)
    vocabularies = language_rules().consent_in(deps.turn.language)
    change = _CHANGE_KINDS.get(kind, "")
    return read_restating(without_reasons(text, change), vocabularies, change, said_back)


def without_reasons(text: str, change: str) -> str:
    """``text`` without the customer's reason that agrees with a cancellation ("não vou
    conseguir ir", "I can't make it", "ya no lo necesito": ``[appointments].cant_make_it``),
    with a no word right after it that only repeats its negation ("não vou conseguir ir
    não"): a reason answers nothing, so the yes must still be there ("pode cancelar sim, não
    vou conseguir ir não" is a yes; "não vou conseguir ir" alone is no answer). Any other
    change, or any other words, are read as they are."""
    if change != "cancel":
        return text
    folded, index = fold_with_map(text)
    spans = [(m.start(), m.end()) for m in _reasons().finditer(folded)]
    for start, end in reversed(spans):
        after = _concord().match(folded, end)
        if after is not None:
            end = after.end()
        text = text[: index[start]] + " " + text[index[end - 1] + 1 :]
    return text


@functools.cache
def _reasons() -> re.Pattern[str]:
    return any_of("appointments", "cant_make_it")


@functools.cache
def _concord() -> re.Pattern[str]:
    """A one-word no of any language right after a reason (its punctuation between)."""
    nos = [w for w in union("consent", "no") if " " not in w]
    return re.compile(rf"[\s,.!…]*(?:{alternation(nos)})(?![a-z0-9])")


def is_plain_yes(text: str, language: str = "pt", kind: str = "") -> bool:
    """A yes that is only a yes (the allowlist; see ``application/consent_policy``)."""
    reading = read_answer(text, language_rules().consent_in(language), _CHANGE_KINDS.get(kind, ""))
    return reading.answer.value == "yes"


def proposes_again(
    turned_down: tuple[str, dict[str, str]] | None, tool: str, arguments: dict[str, str]
) -> bool:
    """Whether a call of ``tool`` with ``arguments`` proposes again what the customer turned
    down: the same tool, and every argument the turned-down call gave, the same (a visit that
    starts with the turned-down booking holds it; one with fewer services does not)."""
    if turned_down is None or turned_down[0] != tool:
        return False
    return all(arguments.get(name) == value for name, value in turned_down[1].items() if value)


def render_question(kind: ActionKind, what: str, language: str) -> str:
    return messages.text(_QUESTIONS[kind], language, what=what)


ASKED_AGAIN = frozenset({Outcome.ASIDE, Outcome.UNCLEAR, Outcome.UNSEEN})
"""Outcomes whose turn asks the open question again as it was: no new proposal replaces it."""


def confirmed_call(pending: PendingAction | None, tool: str, arguments: dict[str, str]) -> bool:
    """Whether this call of ``tool`` is the one the customer confirmed (whatever its terms)."""
    return (
        pending is not None
        and pending.confirmed
        and pending.tool == tool
        and pending.arguments == arguments
    )


RENDERED_TERMS = frozenset({"what"})
"""A proposal's terms told in the conversation's words (a booking's items as its question
showed them): shown, never compared; the structured terms beside them say the same in no
language, so a yes in another language ("yes please, book it" to a Portuguese question, which
renders them anew in English) confirms the same terms (review 14: it was told they changed)."""


def confirmed_as_shown(
    pending: PendingAction | None, tool: str, arguments: dict[str, str], terms: dict[str, str]
) -> bool:
    """Whether this call of ``tool`` is the confirmed pending action, on the terms its question
    showed: the same call, and the same ``terms`` (service, professional, start, price,
    length... as the catalog gives them now; ``RENDERED_TERMS`` aside). Terms changed since
    the question (a price, a length, a name the back office changed) are asked again: a yes
    confirms what was shown."""
    return (
        confirmed_call(pending, tool, arguments)
        and pending is not None
        and _compared(pending.details) == _compared(terms)
    )


def _compared(terms: dict[str, str]) -> dict[str, str]:
    return {key: value for key, value in terms.items() if key not in RENDERED_TERMS}


def confirmation_gate(
    deps: AgentDeps, tool: str, arguments: dict[str, str], proposal: Proposal
) -> str | None:
    """None when the write may run now (this exact call was confirmed); otherwise the tool
    result for the model (the proposal recorded, or why nothing runs)."""
    turn = deps.turn
    if turn.handoff_reason is not None:
        return HANDED_OFF_REFUSAL
    if turn.writes_this_turn >= MAX_WRITES_PER_TURN:
        return "NOT DONE: only one change per message. Tell the customer what was done."
    if confirmed_as_shown(turn.pending, tool, arguments, proposal.details):
        turn.pending = None
        turn.writes_this_turn += 1
        return None
    if turn.consent in ASKED_AGAIN:
        # the customer asked something meanwhile (or did not read or understand the open
        # question): it is answered and the open question asked again as it was; a proposal
        # the customer did not ask for would replace it unremarked
        return f"{QUESTION_OPEN}: {messages.text('reason_question_open', turn.language)}"
    if proposes_again(turn.turned_down, tool, arguments):
        # The customer just declined, dropped or asked to change this very change ("no,
        # tomorrow won't work", "não sei, talvez", "mejor X en vez del corte"), alone or as the
        # start of a larger one: asking it again would make their next "yes" confirm it.
        return f"{TURNED_DOWN}: {messages.text('reason_turned_down', turn.language)}"
    question = render_question(proposal.kind, proposal.what, turn.language)
    turn.pending = PendingAction(
        tool,
        arguments,
        proposal.what,
        kind=proposal.kind.value,
        question=question,
        details=dict(proposal.details),
        proposed_at=turn.now.isoformat(),
        id=new_id(),
        # proposed while another question was open, even word for word the same after the
        # customer said something else ("dá pra ser mais tarde?" → "Como eu disse: …"): a yes
        # sent with that message was not written for this question
        replaces=bool(turn.open_question),
    )
    turn.proposed = True
    return (
        f"CONFIRMATION NEEDED: {proposal.what}. Nothing has been changed yet. The system asks "
        f"the customer its own confirmation question and runs the change itself on a yes; "
        f"never say it is done."
    )


def _view(pending: PendingAction) -> PendingView:
    try:
        proposed: datetime | None = datetime.fromisoformat(pending.proposed_at)
    except ValueError:
        proposed = None
    return PendingView(pending.id, proposed, _CHANGE_KINDS.get(pending.kind, ""))


def decide_pending(
    deps: AgentDeps,
    stored: PendingAction | None,
    message: str,
    executed: Executed | None = None,
    names: frozenset[str] | None = None,
) -> Outcome:
    """At the start of a turn: what this message (``turn.decision`` or ``message``) does to
    the stored pending action (see the module's rules), and whether it confirms again the
    conversation's last ``executed`` one (``turn.repeated``; its outcome is told in code,
    confirm.py); ``names``: the folded words of the tenant's service and professional names (a
    question naming another is a change, no aside; ``None``: unknown, so no question is one).
    Never carried further unanswered."""
    turn = deps.turn
    turn.pending = None
    turn.open_question = stored.question if stored is not None else ""
    turn.open_summary = described(deps, stored) if stored is not None else ""
    if stored is not None and (stored.confirmed or not stored.id):
        stored = None  # a legacy or half-run proposal is never confirmable: it is asked again
    reading, aside = None, False
    if stored is not None and turn.decision is None:
        reading = read(deps, message, stored.kind, stored)
        others = None if names is None else names - _own_words(stored)
        # what asks, besides a yes: "sim, pode marcar. vocês aceitam pix?" asks about pix
        asked_mark = "?" if "?" in message else ""  # the leftover is the words, not the marks
        asking = f"{reading.leftover}{asked_mark}" if reading.answered else message
        aside = (
            bool(asking)
            and not reading.unwanted
            and (
                asks_about_the_business(asking, turn.language)
                or (others is not None and asks_aside(asking, turn.language, others))
            )
        )
    view = None if stored is None else _view(stored)
    ttl = turn.confirmation_ttl_seconds
    change = (
        reading is not None
        and stored is not None
        and not aside
        and asks_for_a_change(message)
        and not _says_its_own_day(deps, stored, message)
    )
    outcome = decide(
        view, reading, turn.decision, turn.now, ttl, aside=aside, unread=_unread(deps, stored)
    )
    turn.consent = outcome
    if outcome in (Outcome.NONE, Outcome.NOT_PENDING) and repeats(
        executed,
        decision=turn.decision,
        pending_open=stored is not None,
        plain_yes=lambda kind: read(deps, message, kind).answer.value == "yes",
        now=turn.now,
        tap_seconds=turn.confirmation_ttl_seconds,
        yes_seconds=turn.repeated_yes_seconds,
    ):
        turn.repeated = executed
    if stored is None:
        return outcome
    if outcome is Outcome.CONFIRMED:
        stored.confirmed = True
        turn.pending = stored
    refused = (  # a no, a hesitation or a change asked for: this very proposal refused
        outcome is Outcome.DROPPED
        and reading is not None
        and (reading.answered or reading.unwanted or change)  # "anything sooner?" too
    )
    if outcome is Outcome.DECLINED or refused:
        turn.turned_down = (stored.tool, dict(stored.arguments))
    if refused:
        turn.dropped = stored
        turn.changes_dropped = change
    if outcome is Outcome.DECLINED:
        appointment = stored.details.get("appointment_id")
        turn.actions.append(
            TurnAction(
                kind=ActionKind.CHANGE_DECLINED,
                appointment_id=UUID(appointment) if appointment else None,
                detail=described(deps, stored),
            )
        )
    elif outcome is Outcome.EXPIRED:
        turn.expired = stored  # the customer is told: that yes came too late
    elif outcome is Outcome.CHANGED:
        turn.pending = stored  # still awaiting: the owner may propose the change
        turn.reask = stored
        turn.change_note = reading.leftover if reading is not None else ""
    elif outcome is Outcome.NOT_PENDING:
        turn.reask = stored  # the open question stays as it was (same id, same expiry)
    elif outcome in ASKED_AGAIN:
        turn.reask = stored  # answered (an aside) or not understood: asked again, a fresh id
    return outcome


def described(deps: AgentDeps, pending: PendingAction) -> str:
    """What ``pending`` proposes, its own terms only (a booking's service, professional, day
    and price, without the notes its question added: "— one more appointment: you already
    have …" belongs to the question, never to a receipt); its summary otherwise."""
    terms = pending.details
    if terms.get("what"):  # a booking's items, each with its own terms ("A … 10:00 + B … 10:30")
        return terms["what"]
    if pending.kind != ActionKind.APPOINTMENT_BOOKED.value or not terms.get("start"):
        return pending.summary
    when = local_text(datetime.fromisoformat(terms["start"]), deps.tenant.zone, deps.turn.language)
    what = describe(terms["service"], terms["professional"], when, deps.turn.language)
    return f"{what} ({terms['price']})" if terms.get("price") else what


def _unread(deps: AgentDeps, stored: PendingAction | None) -> bool:
    """Whether ``stored``'s question replaced another one the customer had been asked and
    this message came sooner after it was sent than the reading interval
    (``AGENT_CONFIRMATION_READ_SECONDS``): a yes to the question before it, sent beside the
    change ("¿y una hora después?" + "sí"), never confirms the changed one. A question that
    replaced none is answered at once by a yes (nothing else could be meant); a question with
    no time of sending, stored before it was kept, is read as sent when proposed."""
    turn = deps.turn
    if stored is None or not stored.replaces or turn.confirmation_read_seconds <= 0:
        return False
    try:
        sent = datetime.fromisoformat(stored.asked_at or stored.proposed_at)
    except ValueError:
        return True  # no known time: fail closed, the question is asked again
    return turn.now < sent + timedelta(seconds=turn.confirmation_read_seconds)


def asks_aside(message: str, language: str, other_names: frozenset[str]) -> bool:
    """A question that names no change (:func:`_names_a_change`) and asks nothing to be done
    (a booking, one's appointments, a complaint), with no word of a service's or
    professional's name in ``other_names`` (the proposal's own are not in it: "precisa levar o
    violão?" about the guitar lesson proposed asks aside)."""
    folded = normalize(message)
    if not QUESTION.search(folded) or _names_a_change(folded):
        return False
    if asked(folded, language) - BUSINESS_ASKS:
        return False
    return not other_names.intersection(_WORD.findall(folded))


def asks_for_a_change(message: str) -> bool:
    """A question that asks for another day, time or professional ("anything sooner?", "is 11
    possible?", "alguém mais faz?", "¿al día siguiente?")."""
    folded = normalize(message)
    return QUESTION.search(folded) is not None and _names_a_change(folded)


def _names_a_change(folded: str) -> bool:
    """A day or time, a number in digits or words ("is 11 possible?", "is eleven ok?"), a noun
    of free times, appointments or professionals ("só tem esse horário?"), a question for
    another time (``asks_another_time``: "mais cedo?"), or a word that asks for another day,
    time or professional where no date is named ("someone else", "the next day",
    "lunchtime", "de tarde")."""
    if asks_another_time(folded):
        return True
    return (
        has_when_mention(without_another_time(folded))
        or _change_signal().search(without_another_time(folded)) is not None
    )


_CHANGE_KEYS = (
    ("intents", "change_request"), ("times", "noon"), ("corrections", "other"),
    ("dates", "next_day"), ("parts", "morning"), ("parts", "afternoon"), ("parts", "evening"),
)  # fmt: skip
"""Words that ask for a change in any question; an earlier, later, earliest or latest phrase
asks for one only when the question asks for nothing else (``asks_another_time``: "mais
cedo?" does, "devo chegar mais cedo?" and "posso pagar depois?" ask aside)."""
_BOOKING_CLASSES = ("times", "appointments", "professionals")


@functools.cache
def _change_signal() -> re.Pattern[str]:
    words = [w for key in _CHANGE_KEYS for w in union(*key)]
    # a number in words as in digits ("is eleven ok?"); "um", "one", "una" are articles too
    words += list(number_words(2, 12))
    nouns = [
        noun
        for entry in union("numbers", "counted")
        for noun, _, what in [entry.rpartition(" ")]
        if what in _BOOKING_CLASSES
    ]
    return re.compile(rf"\d|{bounded(alternation([*words, *nouns])).pattern}")


def _says_its_own_day(deps: AgentDeps, stored: PendingAction, message: str) -> bool:
    """The message names a day or time, every one the proposal's own ("é amanhã, né?")."""
    named = has_when_mention(normalize(message))
    return named and restatement(deps, stored, message).agrees


def _own_words(pending: PendingAction) -> frozenset[str]:
    """The folded words of what ``pending`` proposes (its terms and summary)."""
    said = " ".join([pending.summary, *pending.details.values()])
    return frozenset(_WORD.findall(normalize(said)))


_WORD = re.compile(r"[^\W\d_]+")


def asks_about_the_business(message: str, language: str) -> bool:
    """The message asks only about the business — its FAQ or its catalog — as the language
    data reads it (``language/grammar/asks``): nothing about a booking, the customer's own
    appointments or a complaint, and it names no day or time (which may be a change)."""
    folded = normalize(message)
    asks = asked(folded, language)
    if not asks or not asks <= BUSINESS_ASKS or has_when_mention(without_another_time(folded)):
        return False
    return not asks_another_time(folded)  # "first opening?" asks for a time


def still_pending(deps: AgentDeps) -> PendingAction | None:
    """What to keep for the next message: a proposal made in this turn, else the question
    asked again (a changed answer: a fresh id and time to live; a stale decision: as it was);
    nothing once the turn wrote, declined or handed off."""
    turn = deps.turn
    if turn.handoff_reason is not None:
        return None
    pending = turn.pending
    if turn.proposed and pending is not None and not pending.confirmed:
        return pending
    reask = turn.reask
    if reask is None or turn.writes_this_turn:
        return None
    if turn.consent in (Outcome.NOT_PENDING, Outcome.ALREADY_DONE):
        return reask
    if turn.asked_again is None or turn.asked_again[0] is not reask:
        fresh = replace(reask, id=new_id(), proposed_at=turn.now.isoformat(), confirmed=False)
        turn.asked_again = (reask, fresh)  # one fresh id per turn: stored and sent alike
    return turn.asked_again[1]


def quick_replies(language: str) -> tuple[QuickReply, ...]:
    """The buttons under a confirmation question, labelled in ``language``."""
    rules = language_rules()
    code = next(iter(rules.in_play(language)), language)
    vocabulary = rules.consent(code)
    return (
        QuickReply(choice=ReplyChoice.CONFIRM, label=vocabulary.confirm_label),
        QuickReply(choice=ReplyChoice.DECLINE, label=vocabulary.decline_label),
    )


def pending_confirmation(deps: AgentDeps, pending: PendingAction) -> PendingConfirmation:
    """The structured pending action of the response (gateways render buttons from it)."""
    details = pending.details
    proposed = datetime.fromisoformat(pending.proposed_at)
    return PendingConfirmation(
        id=pending.id,
        kind=ActionKind(pending.kind),
        question=pending.question,
        service_name=details.get("service", ""),
        professional_name=details.get("professional", ""),
        start=_instant(details.get("start")),
        new_start=_instant(details.get("new_start")),
        price=details.get("price", ""),
        appointment_id=UUID(details["appointment_id"]) if details.get("appointment_id") else None,
        expires_at=proposed + timedelta(seconds=deps.turn.confirmation_ttl_seconds),
        quick_replies=quick_replies(deps.turn.language),
    )


def _instant(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None
