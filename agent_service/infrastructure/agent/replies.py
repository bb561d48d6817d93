"""The few replies the system writes itself, in the customer's language."""

from __future__ import annotations

from agent_service.infrastructure.agent.deps import AgentDeps

_FALLBACK = {
    "pt": (
        "Desculpe, não entendi. Posso mostrar serviços e preços, ver horários livres, agendar, "
        "cancelar ou remarcar, responder dúvidas ou chamar um atendente."
    ),
    "en": (
        "Sorry, I did not understand. I can show services and prices, check free times, book, "
        "cancel or reschedule, answer questions, or get you a human attendant."
    ),
}
_LIMIT = {
    "pt": "Desculpe, não consegui concluir isso agora. Pode reformular ou tentar de novo?",
    "en": "Sorry, I could not finish that now. Could you rephrase or try again?",
}


def fallback_reply(deps: AgentDeps) -> str:
    return _FALLBACK.get(deps.turn.language, _FALLBACK["en"])


def limit_reply(deps: AgentDeps) -> str:
    return _LIMIT.get(deps.turn.language, _LIMIT["en"])
