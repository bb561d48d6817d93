"""FAQ answers, citing the entries used."""

from __future__ import annotations

from pydantic_ai import RunContext

from agent_service.infrastructure.agent.deps import AgentDeps


async def search_faq(ctx: RunContext[AgentDeps], query: str) -> str:
    """Search the business's FAQ; answer only from the entries returned and cite them.

    Args:
        query: The customer's question, in their words.
    """
    deps = ctx.deps
    entries = await deps.faq_repository.search(deps.tenant_id, query[:500], limit=3)
    if not entries:
        return "NO MATCH: the FAQ does not answer this."
    for entry in entries:
        deps.turn.citations.append({"faq_id": str(entry.id), "question": entry.question})
    return "FAQ entries:\n" + "\n".join(
        f"[faq:{entry.id}] Q: {entry.question}\nA: {entry.answer}" for entry in entries
    )
