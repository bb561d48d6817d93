"""The message catalog: every sentence the system itself says to the customer, per language.

Model text is the model's; these are the system's (confirmation questions, receipts, the
fallback). A language is one more entry in ``CATALOG`` with the same keys (a test checks that
every language has every key); unknown languages fall back to English.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

_PT: Final = {
    "question_book": (
        "Confirma o agendamento de {what}? Responda *sim* para confirmar ou *não* para desistir."
    ),
    "question_cancel": (
        "Confirma o cancelamento de {what}? Responda *sim* para confirmar ou *não* para desistir."
    ),
    "question_reschedule": (
        "Confirma a remarcação de {what}? Responda *sim* para confirmar ou *não* para desistir."
    ),
    "receipt_appointment_booked": "✅ Agendado: {what}.",
    "receipt_appointment_cancelled": "✅ Cancelado: {what}.",
    "receipt_appointment_rescheduled": "✅ Remarcado: {what}.",
    "receipt_appointment_pending": (
        "⏳ Em andamento: {what}. A agenda ainda não confirmou; avisaremos assim que se resolver."
    ),
    "receipt_change_declined": "Nada foi alterado: {what} não foi feito, como você pediu.",
    "receipt_change_failed": "❌ Não foi feito: {what}.",
    "receipt_handed_off": "Um atendente humano vai continuar esta conversa.",
    "receipt_expired": (
        "A confirmação de {what} expirou e nada foi feito; se ainda quiser, peça de novo."
    ),
    "reason_slot_taken": "o horário acabou de ser ocupado",
    "reason_not_possible": "não foi possível agora",
    "this_change": "o seu pedido",
    "confirmed_not_done": "Ainda não foi feito: {what}. Se ainda quiser, é só pedir de novo.",
    "nothing_changed": "Nada foi alterado nesta mensagem.",
    "upcoming": "Seus próximos agendamentos:",
    "no_upcoming": "Você não tem agendamentos futuros.",
    "done_lead": "Veja como ficou:",
    "fallback": (
        "Desculpe, não entendi. Posso mostrar serviços e preços, ver horários livres, agendar, "
        "cancelar ou remarcar, responder dúvidas ou chamar um atendente."
    ),
    "limit": "Desculpe, não consegui concluir isso agora. Pode reformular ou tentar de novo?",
    "limit_after_change": "Não consegui concluir o restante agora.",
    "with": "com",
    "on": "em",
    "to": "para",
    "weekdays": "segunda-feira|terça-feira|quarta-feira|quinta-feira|sexta-feira|sábado|domingo",
    "local_time": "{weekday} {local:%d/%m/%Y %H:%M}",
}
_EN: Final = {
    "question_book": "Shall I book {what}? Reply *yes* to confirm or *no* to drop it.",
    "question_cancel": "Shall I cancel {what}? Reply *yes* to confirm or *no* to keep it.",
    "question_reschedule": "Shall I move {what}? Reply *yes* to confirm or *no* to keep it.",
    "receipt_appointment_booked": "✅ Booked: {what}.",
    "receipt_appointment_cancelled": "✅ Cancelled: {what}.",
    "receipt_appointment_rescheduled": "✅ Moved: {what}.",
    "receipt_appointment_pending": (
        "⏳ In progress: {what}. The calendar has not confirmed yet; we will tell you as soon "
        "as it settles."
    ),
    "receipt_change_declined": "Nothing was changed: {what} was not done, as you asked.",
    "receipt_change_failed": "❌ Not done: {what}.",
    "receipt_handed_off": "A human attendant will continue this conversation.",
    "receipt_expired": (
        "The confirmation of {what} expired and nothing was done; ask again if you still want it."
    ),
    "reason_slot_taken": "that time was just taken",
    "reason_not_possible": "it was not possible now",
    "this_change": "your request",
    "confirmed_not_done": "Not done yet: {what}. Ask again if you still want it.",
    "nothing_changed": "Nothing was changed by this message.",
    "upcoming": "Your upcoming appointments:",
    "no_upcoming": "You have no upcoming appointments.",
    "done_lead": "Here is where things stand:",
    "fallback": (
        "Sorry, I did not understand. I can show services and prices, check free times, book, "
        "cancel or reschedule, answer questions, or get you a human attendant."
    ),
    "limit": "Sorry, I could not finish that now. Could you rephrase or try again?",
    "limit_after_change": "I could not go on with the rest now.",
    "with": "with",
    "on": "on",
    "to": "to",
    "weekdays": "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday",
    "local_time": "{weekday} {local:%Y-%m-%d %H:%M}",
}
CATALOG: Final = MappingProxyType({"pt": MappingProxyType(_PT), "en": MappingProxyType(_EN)})
DEFAULT_LANGUAGE: Final = "en"


def text(key: str, language: str, **values: object) -> str:
    """The catalog's sentence ``key`` in ``language`` (English when unknown), filled in."""
    entries = CATALOG.get(language, CATALOG[DEFAULT_LANGUAGE])
    return entries[key].format(**values)
