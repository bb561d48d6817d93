"""The offline model's sentences, in Portuguese and English."""

from __future__ import annotations

_TEXT: dict[str, dict[str, str]] = {
    "greeting": {
        "pt": (
            "Olá! Sou o assistente de {business}. Posso mostrar serviços e preços, "
            "ver horários livres, agendar, cancelar ou remarcar, responder dúvidas "
            "ou chamar um atendente."
        ),
        "en": (
            "Hi! I am {business}'s assistant. I can show services and prices, check "
            "free times, book, cancel or reschedule, answer questions, or get you a "
            "human attendant."
        ),
    },
    "services": {"pt": "Nossos serviços:\n{items}", "en": "Our services:\n{items}"},
    "professionals": {"pt": "Nossos profissionais:\n{items}", "en": "Our professionals:\n{items}"},
    "ask_service": {
        "pt": "Qual serviço você quer? Temos: {items}.",
        "en": "Which service would you like? We have: {items}.",
    },
    "ask_professional": {
        "pt": "Com qual profissional? {items}.",
        "en": "With which professional? {items}.",
    },
    "ask_day": {
        "pt": "Para qual dia você quer {service} com {professional}?",
        "en": "Which day would you like {service} with {professional}?",
    },
    "times": {
        "pt": "Horários livres com {professional} em {day}: {times}. Qual prefere?",
        "en": "Free times with {professional} on {day}: {times}. Which one would you like?",
    },
    "no_times": {
        "pt": "{professional} não tem horário livre em {day}. Quer tentar outro dia?",
        "en": "{professional} has no free time on {day}. Would you like another day?",
    },
    # The system ends the reply with its own confirmation question and receipts (see
    # agent/truth.py); the model only adds a lead-in.
    "confirm": {
        "pt": "Certo, falta só a sua confirmação.",
        "en": "All right, I just need your confirmation.",
    },
    "confirm_cancel": {
        "pt": "Certo, falta só a sua confirmação.",
        "en": "All right, I just need your confirmation.",
    },
    "confirm_reschedule": {
        "pt": "Certo, falta só a sua confirmação.",
        "en": "All right, I just need your confirmation.",
    },
    "booked": {"pt": "Pronto!", "en": "Done!"},
    "unsettled": {"pt": "Estou aguardando a agenda.", "en": "I am waiting for the calendar."},
    "cancelled": {"pt": "Pronto!", "en": "Done!"},
    "rescheduled": {"pt": "Pronto!", "en": "Done!"},
    "declined": {
        "pt": "Tudo bem. Posso ajudar com outra coisa?",
        "en": "All right. Can I help with anything else?",
    },
    "failed": {"pt": "Não foi possível: {detail}", "en": "That was not possible: {detail}"},
    "pending": {
        "pt": "Estou confirmando com a agenda; te aviso aqui em instantes.",
        "en": "I'm confirming with the calendar; I'll message you here in a moment.",
    },
    "no_appointments": {
        "pt": "Você não tem agendamentos futuros.",
        "en": "You have no upcoming appointments.",
    },
    "appointments": {
        "pt": "Seus agendamentos:\n{items}",
        "en": "Your appointments:\n{items}",
    },
    "which_appointment": {
        "pt": "Qual deles? {items}",
        "en": "Which one? {items}",
    },
    "ask_new_time": {
        "pt": "Para quando você quer remarcar {service}? Diga o dia e o horário.",
        "en": "When would you like to move {service} to? Tell me the day and time.",
    },
    "faq": {"pt": "{answer} [faq:{id}]", "en": "{answer} [faq:{id}]"},
    "faq_unknown": {
        "pt": (
            "Não encontrei essa informação nas nossas perguntas frequentes. Quer "
            "falar com um atendente?"
        ),
        "en": "I could not find that in our FAQ. Would you like to talk to a human attendant?",
    },
    "handoff": {
        "pt": "Certo! Vou transferir você para um atendente humano, que responderá em breve.",
        "en": "Sure! I am handing you over to a human attendant, who will answer shortly.",
    },
    "anything_else": {
        "pt": "Posso ajudar com mais alguma coisa?",
        "en": "Can I help with anything else?",
    },
    "not_understood": {
        "pt": (
            "Desculpe, não entendi. Posso mostrar serviços e preços, ver horários, "
            "agendar, cancelar ou remarcar, responder dúvidas ou chamar um "
            "atendente."
        ),
        "en": (
            "Sorry, I did not understand. I can show services and prices, check "
            "free times, book, cancel or reschedule, answer questions, or get you a "
            "human attendant."
        ),
    },
}


def say(key: str, language: str, **values: str) -> str:
    templates = _TEXT[key]
    return templates.get(language, templates["en"]).format(**values)
