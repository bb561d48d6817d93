"""FAQ answers, citing the entries used."""

from __future__ import annotations

from pydantic_ai import RunContext

from agent_service.domain.catalog import FaqEntry
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.offline.text import Language, detect_language

SHOWN = 3


async def search_faq(ctx: RunContext[AgentDeps], query: str) -> str:
    """Search the business's FAQ; answer only from the entries returned and cite them.

    Args:
        query: The customer's question, in their words.
    """
    deps = ctx.deps
    found = await deps.faq_repository.search(deps.tenant_id, query[:500], limit=2 * SHOWN)
    entries = _conversation_language_first(found, deps.turn.language)[:SHOWN]
    if not entries:
        return "NO MATCH: the FAQ does not answer this."
    for entry in entries:
        deps.turn.citations.append(
            {"faq_id": str(entry.id), "question": entry.question, "answer": entry.answer}
        )
    return "FAQ entries:\n" + "\n".join(
        f"[faq:{entry.id}] Q: {entry.question}\nA: {entry.answer}" for entry in entries
    )


def _conversation_language_first(entries: list[FaqEntry], language: str) -> list[FaqEntry]:
    """Of the two best entries, the one written in the conversation's language first (a
    salon may keep its FAQ in several languages: the twins rank together); the ranking order
    is kept otherwise."""
    default: Language = "en" if language == "pt" else "pt"
    top = sorted(
        entries[:2],
        key=lambda e: detect_language(f"{e.question} {e.answer}", default) != language,
    )
    return top + entries[2:]
