"""FAQ answers, citing the entries used, in the conversation's language."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic_ai import RunContext

from agent_service.domain.catalog import FaqEntry
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.language import language_detector

SHOWN = 3


@dataclass(frozen=True, slots=True)
class ShownAnswer:
    """What the customer is shown for one entry: its question and answer in the conversation's
    language, or the original answer quoted under a localized lead-in ("The salon has this
    answer only in Portuguese: “…”") when the salon wrote none in that language."""

    question: str
    answer: str
    quoted: bool


async def search_faq(ctx: RunContext[AgentDeps], query: str) -> str:
    """Search the business's FAQ; answer only from the entries returned.

    Args:
        query: The customer's question, in their words.
    """
    deps = ctx.deps
    language = deps.turn.language
    found = await deps.faq_repository.search(deps.tenant_id, query[:500], limit=2 * SHOWN)
    entries = _conversation_language_first(found, language)[:SHOWN]
    if not entries:
        return "NO MATCH: the FAQ does not answer this."
    shown = [(entry, answer_for(entry, language)) for entry in entries]
    for entry, answer in shown:
        deps.turn.citations.append(
            {"faq_id": str(entry.id), "question": answer.question, "answer": answer.answer}
        )
    return "FAQ entries:\n" + "\n".join(
        f"[faq:{entry.id}] Q: {answer.question}\nA: {answer.answer}" for entry, answer in shown
    )


def answer_for(entry: FaqEntry, language: str) -> ShownAnswer:
    """The entry as a customer speaking ``language`` reads it: the salon's own version in that
    language; else the default answer when it is written in that language; else the default
    answer quoted, under a lead-in in ``language`` naming the answer's language — never the
    other language's sentence passed off as the reply."""
    own = entry.in_language(language)
    if own is not None:
        return ShownAnswer(own.question or entry.question, own.answer, quoted=False)
    written = _language_of(entry, language)
    if written == language.split("-")[0]:
        return ShownAnswer(entry.question, entry.answer, quoted=False)
    name = messages.text(f"language_{written}", language)
    lead = messages.text("faq_only_in", language, written_in=name, answer=entry.answer)
    return ShownAnswer(entry.question, lead, quoted=True)


def _language_of(entry: FaqEntry, conversation: str) -> str:
    """The language the default question and answer are written in; without evidence of
    either ("Pix, 3x"), the conversation's: only a clearly foreign answer is quoted."""
    own = "en" if conversation.split("-")[0] == "en" else "pt"
    return language_detector().detect(f"{entry.question} {entry.answer}", own)


def _conversation_language_first(entries: list[FaqEntry], language: str) -> list[FaqEntry]:
    """Of the two best entries, the one written in the conversation's language first (a
    salon may keep its FAQ in several languages: the twins rank together); the ranking order
    is kept otherwise. An entry with its own version in that language counts as written in it."""
    default = "en" if language == "pt" else "pt"

    def foreign(entry: FaqEntry) -> bool:
        if entry.in_language(language) is not None:
            return False
        return language_detector().detect(f"{entry.question} {entry.answer}", default) != language

    top = sorted(entries[:2], key=foreign)
    return top + entries[2:]


def marked_quotation(language: str) -> re.Pattern[str]:
    """A quotation :func:`answer_for` marks in a ``language`` reply: the catalog's lead-in
    naming another language, then the quoted original (the one place a sentence in another
    language may appear in a reply)."""
    names = [
        messages.text(f"language_{other}", language)
        for other in ("pt", "en")
        if other != language.split("-")[0]
    ]
    forms = []
    for name in names:
        lead, close = messages.text("faq_only_in", language, written_in=name, answer="\0").split(
            "\0"
        )
        forms.append(re.escape(lead) + r"[^" + re.escape(close) + r"\n]*" + re.escape(close))
    return re.compile("|".join(forms) or r"(?!)")
