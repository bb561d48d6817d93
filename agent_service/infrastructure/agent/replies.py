"""The few replies the system writes itself, in the customer's language."""

from __future__ import annotations

from agent_service.domain.conversations import ActionKind
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


_DONE_BEFORE_STOP = {
    "pt": (
        "Feito: {done}. Não consegui concluir o restante agora; "
        "se precisar de mais algo, é só dizer."
    ),
    "en": "Done: {done}. I could not go on with the rest now; tell me if you need anything else.",
}
_ACTION_TEXT = {
    ActionKind.APPOINTMENT_BOOKED: {"pt": "agendamento confirmado", "en": "appointment booked"},
    ActionKind.APPOINTMENT_CANCELLED: {
        "pt": "agendamento cancelado",
        "en": "appointment cancelled",
    },
    ActionKind.APPOINTMENT_RESCHEDULED: {"pt": "agendamento remarcado", "en": "appointment moved"},
    ActionKind.HANDED_OFF: {"pt": "um atendente vai continuar", "en": "an attendant will continue"},
}


def limit_reply(deps: AgentDeps) -> str:
    """What the customer reads when a model run stops early; changes already made this turn
    are said plainly (the structured actions carry the details)."""
    language = deps.turn.language if deps.turn.language in _LIMIT else "en"
    if not deps.turn.actions:
        return _LIMIT[language]
    done = ", ".join(_ACTION_TEXT[a.kind][language] for a in deps.turn.actions)
    return _DONE_BEFORE_STOP[language].format(done=done)
