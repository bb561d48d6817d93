"""What grounds a model's reply in this turn, and the check made before any reply leaves.

* :func:`tool_texts` is the ONE collector of the grounding corpus: every tool return in the
  messages a model saw, exactly as it saw it (``model_response_str``: a text result as is, a
  structured result as its JSON), with whether it returned in this turn — whatever a tool's
  result type, the corpus is what the model read.
* :func:`judge` applies the application policies (``application/grounding``: every fact-like
  span grounded in records or the customer's words; ``application/claims``: no outcome the
  receipts do not back) to a text, with records = those tool texts (a ``search_faq`` answer
  only from this turn), the tenant's catalog and the turn's context block.
* :func:`grounded_output` is the specialists' output validator: an ungrounded or misstating
  reply is sent back to the model once with the reason (``ModelRetry``); a second failure is
  left to ``truth.final_reply``, which renders the reply from the turn's outcomes instead.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TypeVar

import structlog
from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ToolReturnPart,
    UserPromptPart,
)

from agent_service.application.claims import BOOK, CANCEL, MOVE, misstates
from agent_service.application.grounding import Grounding, Ungrounded, question_sentences
from agent_service.application.statements import without_units
from agent_service.application.text import normalize
from agent_service.domain.catalog import Professional, Service
from agent_service.domain.conversations import ActionKind
from agent_service.infrastructure.agent.catalog_facts import catalog_facts, entity_words
from agent_service.infrastructure.agent.deps import AgentDeps, ToolText
from agent_service.infrastructure.agent.prompts import context_block
from agent_service.infrastructure.agent.told import no_change_statements
from agent_service.infrastructure.language.grammar.asks import (
    BUSINESS_ASKS,
    QUESTION,
    REQUEST_ASKS,
    asked,
)
from agent_service.infrastructure.language.rules import fact_reader, language_rules

log = structlog.get_logger("agenda.truth")
OutputT = TypeVar("OutputT")
FAQ_TOOL = "search_faq"
MAX_JUDGED_CHARS = 8_000
SYSTEM_FRAMING = "<system>"
_DONE = {
    ActionKind.APPOINTMENT_BOOKED: BOOK,
    ActionKind.APPOINTMENT_PENDING: BOOK,
    ActionKind.APPOINTMENT_CANCELLED: CANCEL,
    ActionKind.APPOINTMENT_RESCHEDULED: MOVE,
}
WEEK = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def tool_texts(messages: Sequence[ModelMessage]) -> list[ToolText]:
    """Every tool return in ``messages``, as the model saw it (see the module's rules)."""
    start = 0
    for index, message in enumerate(messages):
        if isinstance(message, ModelRequest) and any(
            isinstance(part, UserPromptPart)
            and not str(part.content).lstrip().startswith(SYSTEM_FRAMING)
            for part in message.parts
        ):
            start = index
    return [
        ToolText(part.tool_name, part.model_response_str(), index > start)
        for index, message in enumerate(messages)
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


@dataclass(frozen=True, slots=True)
class Verdict:
    ungrounded: tuple[Ungrounded, ...] = ()
    misstated: bool = False
    refused: tuple[str, ...] = ()
    """Statement sentences a turn that changed nothing may not send (``statements``)."""
    bare: tuple[str, ...] = ()
    """Those of ``refused`` that are only a yes or no answering the customer's question: left
    out, they leave a reply that may go (``Statements.bare_answers``)."""

    @property
    def unbacked(self) -> bool:
        return bool(self.refused)

    @property
    def ok(self) -> bool:
        return not self.ungrounded and not self.misstated and not self.unbacked

    def answerable(self, text: str) -> bool:
        """Whether the reply can go without the model's rewrite: its only fault is statement
        sentences a turn that changed nothing may not send, and it still asks something once
        they are removed (``truth`` sends it so, without them: no model request is spent)."""
        if self.ungrounded or self.misstated or not self.unbacked:
            return False
        kept = without_units(text, self.refused)
        return bool(question_sentences(kept)) or bool(kept and self.only_bare)

    @property
    def only_bare(self) -> bool:
        """Whether every refused sentence is a bare answer (see ``bare``)."""
        return set(self.refused) <= set(self.bare)

    def reason(self) -> str:
        """What to tell the model when its reply is sent back."""
        parts = []
        if self.ungrounded:
            spans = "; ".join(f"{u.text!r} ({u.kind.value})" for u in self.ungrounded[:8])
            parts.append(
                f"These facts are not in any tool result, the catalog or the customer's words: "
                f"{spans}. State prices, times, dates, addresses, phones, links and names only "
                f"as a tool returned them (business information: call search_faq first)."
            )
        if self.unbacked:
            parts.append(
                "Nothing was changed in this turn: ask the customer what is missing, or tell "
                "only what a tool returned in this turn (call it first)."
            )
        if self.misstated:
            parts.append(
                "The reply states a change that did not happen in this turn (or denies one "
                "that did): the system tells the customer every outcome itself; never say "
                "something was booked, cancelled or moved."
            )
        return " ".join(parts) + " Rewrite the reply."


async def catalog_lines(deps: AgentDeps) -> list[str]:
    """The tenant's catalog as text (names, aliases, specialties, prices, durations, working
    hours), read once per turn."""
    if deps.turn.catalog is None:
        services = await deps.service_repository.list(deps.tenant_id)
        professionals = await deps.professional_repository.list(deps.tenant_id)
        deps.turn.catalog = [
            *(_service(s) for s in services),
            *(_professional(p) for p in professionals),
            _counts(services=services, professionals=professionals),  # "Temos 3 profissionais"
        ]
    return deps.turn.catalog


def _counts(**lists: Sequence[object]) -> str:
    """A record of how many there are of each (``fact_spans.field_counts`` reads it)."""
    return json.dumps({key: len(items) * [""] for key, items in lists.items()})


def _service(service: Service) -> str:
    words = "; ".join(service.words(None))
    return (
        f"{service.name}; {words}; {service.description}; {service.price_text()}; "
        f"{service.duration_minutes} min"
    )


def _professional(professional: Professional) -> str:
    hours = "; ".join(
        f"{WEEK[h.day_of_week - 1]} {h.start:%H:%M}-{h.end:%H:%M}"
        if h.end
        else WEEK[h.day_of_week - 1]
        for h in professional.weekly_hours
    )
    words = "; ".join(professional.words(None))
    return f"{professional.name}; {words}; {professional.specialty}; {hours}"


MAX_JUDGED_PER_TURN = 64
"""Verdicts a turn keeps (a streamed reply is judged prefix by prefix)."""


async def judge(
    deps: AgentDeps, text: str, texts: Sequence[ToolText], *, quiet: bool = False
) -> Verdict:
    """``text`` against the turn's records and the customer's words (see the module's rules);
    only its first ``MAX_JUDGED_CHARS`` (more than any reply may have) are read. ``quiet``:
    a refusal is not logged (a streamed prefix held until more text comes)."""
    text = text[:MAX_JUDGED_CHARS]
    rules = language_rules()
    codes = rules.in_play(deps.turn.language)
    tool_results = [t.text for t in texts if t.tool != FAQ_TOOL or t.this_turn]
    upcoming = _counts(appointments=deps.turn.upcoming)  # "Você tem 2 agendamentos"
    records = [*tool_results, *(await catalog_lines(deps)), context_block(deps), upcoming]
    currencies = tuple(sorted(await _currencies(deps)))
    today = deps.turn.now.astimezone(deps.tenant.zone).date()
    window = (today, today + timedelta(days=deps.tenant.policy.booking_horizon_days))
    this_turn = [t.text for t in texts if t.this_turn]
    done = frozenset(_DONE[a.kind] for a in deps.turn.actions if a.kind in _DONE)
    quoted = [*tool_results, *deps.turn.upcoming]
    customer = deps.turn.customer_texts
    changed_nothing = _changed_nothing(deps)
    entities = await entity_words(deps) if changed_nothing else frozenset()
    # Everything the verdict is a function of: the same reply judged again in the same turn
    # (the output validator, then the engine's final reply) is not read twice.
    key = (
        text, tuple(records), currencies, deps.tenant.time_zone, codes, window, tuple(this_turn),
        tuple(customer), done, tuple(quoted), changed_nothing, tuple(texts),
        tuple(deps.turn.upcoming), entities,
    )  # fmt: skip
    verdict = deps.turn.judged.get(key)
    if verdict is None:
        reader = fact_reader(codes, deps.tenant.time_zone, currencies, today)
        grounding = Grounding(reader, records, customer, rules.common_words(), window, this_turn)
        words = [rules.claims(code) for code in codes]
        refused: tuple[str, ...] = ()
        bare: tuple[str, ...] = ()
        if changed_nothing:
            previous = deps.turn.previous_reply
            customer_asked = any(_asks_something(t, codes[0], previous) for t in customer[-1:])
            catalog, open_days = await catalog_facts(deps)
            statements = no_change_statements(
                grounding,
                reader,
                codes,
                texts,
                deps.turn.upcoming,
                customer_asked,
                entities,
                catalog,
                open_days,
            )
            refused = tuple(statements.refused(text))
            bare = tuple(statements.bare_answers(refused))
        verdict = Verdict(
            tuple(grounding.ungrounded(text)),
            misstates(text, set(done), words, quoted),
            refused,
            bare,
        )
        if len(deps.turn.judged) >= MAX_JUDGED_PER_TURN:
            deps.turn.judged.clear()
        deps.turn.judged[key] = verdict
    if not verdict.ok and not quiet:
        spans = [f"{u.kind.value}:{u.text}"[:60] for u in verdict.ungrounded[:8]]
        log.info(
            "reply_not_grounded",
            ungrounded=spans,
            misstated=verdict.misstated,
            unbacked=[r[:60] for r in verdict.refused[:4]],
        )
    return verdict


def _changed_nothing(deps: AgentDeps) -> bool:
    """A turn, of any specialist, with no receipt (no write, handoff, decline...) and no
    proposal."""
    turn = deps.turn
    return not turn.actions and not turn.proposed


async def _currencies(deps: AgentDeps) -> set[str]:
    services = await deps.service_repository.list(deps.tenant_id)
    return {s.currency for s in services} or {"BRL"}


async def grounded_output(ctx: RunContext[AgentDeps], output: OutputT) -> OutputT:
    """The specialists' output validator (see the module's rules)."""
    turn = ctx.deps.turn
    if not isinstance(output, str) or turn.proposed or turn.handoff_reason is not None:
        return output
    if turn.is_system_text(output):
        return output  # the system's own words (a listing, the greeting: truth.py)
    verdict = await judge(ctx.deps, output, tool_texts(ctx.messages))
    if verdict.ok or verdict.answerable(output):
        return output
    if not turn.truth_retried and ctx.retry < ctx.max_retries:
        turn.truth_retried = True
        raise ModelRetry(verdict.reason())
    return output  # truth.final_reply renders the reply from the turn's outcomes


def _asks_something(message: str, language: str, previous: str | None) -> bool:
    """Whether the customer's ``message`` may be answered by a yes (then a yes no tool backs
    is no courtesy): a question mark or a question word opening it ("vocês aceitam..."), or
    a question about the business with neither ("da pra pagar com cheque", "hacen uñas
    acrílicas"); not a request to book or to change one's appointments ("quero marcar um
    corte": "Claro!" agrees to do it), nor an answer to the question the previous reply asked
    ("sexta", "meu nome é João": "Certo!" acknowledges it). Anything else fails closed."""
    folded = normalize(message)
    if QUESTION.search(folded) or "¿" in message:
        return True
    intents = asked(folded, language)
    if intents & BUSINESS_ASKS:
        return True
    if intents & REQUEST_ASKS:
        return False
    return previous is None or not question_sentences(previous)
