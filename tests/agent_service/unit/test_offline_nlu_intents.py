"""classify_intent and the yes/no detectors, pt and en."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent.offline.nlu import (
    Intent,
    classify_intent,
    is_affirmative,
    is_negative,
)

INTENT_CASES: list[tuple[str, Intent]] = [
    # booking
    ("Quero agendar um corte", "booking"),
    ("quero marcar unha amanhã", "booking"),
    ("Gostaria de reservar um horário", "booking"),
    ("tem horário disponível sexta?", "booking"),
    ("tem horario amanha?", "booking"),
    ("tem vaga hoje?", "booking"),
    ("quero um corte", "booking"),
    ("queria uma escova", "booking"),
    ("consigo passar aí às 15h?", "booking"),
    ("I want to book a haircut", "booking"),
    ("Can I schedule a massage?", "booking"),
    ("I'd like an appointment for Friday", "booking"),
    ("any free slot tomorrow?", "booking"),
    ("can I come in at 3pm?", "booking"),
    # a date/time alone is a (less confident) booking
    ("amanhã às 10", "booking"),
    ("tomorrow at 3pm", "booking"),
    ("sexta", "booking"),
    # appointments
    ("quero cancelar meu horário", "appointments"),
    ("preciso desmarcar", "appointments"),
    ("quero remarcar para sexta", "appointments"),
    ("dá pra reagendar?", "appointments"),
    ("quais são meus agendamentos?", "appointments"),
    ("minha reserva está confirmada?", "appointments"),
    ("quero mudar o horário", "appointments"),
    ("quero cancelar e marcar outro dia", "appointments"),
    ("Cancel my appointment", "appointments"),
    ("I need to reschedule", "appointments"),
    ("show my appointments", "appointments"),
    ("can you move my booking to Friday?", "appointments"),
    ("cancel the booking", "appointments"),
    # discovery
    ("Quais serviços vocês têm?", "discovery"),
    ("que serviços fazem?", "discovery"),
    ("qual o preço do corte?", "discovery"),
    ("quanto custa a escova?", "discovery"),
    ("me passa os valores", "discovery"),
    ("quem atende aí?", "discovery"),
    ("quais profissionais vocês têm", "discovery"),
    ("What services do you offer?", "discovery"),
    ("how much is a haircut?", "discovery"),
    ("what are your prices", "discovery"),
    ("what services are available?", "discovery"),
    ("who works there?", "discovery"),
    # faq
    ("Qual o endereço?", "faq"),
    ("onde fica o salão?", "faq"),
    ("tem estacionamento?", "faq"),
    ("quais as formas de pagamento?", "faq"),
    ("aceita pix?", "faq"),
    ("aceitam cartão?", "faq"),
    ("qual o horário de funcionamento?", "faq"),
    ("vocês abrem domingo?", "faq"),
    ("que horas fecha?", "faq"),
    ("qual a política de cancelamento?", "faq"),
    ("What's your address?", "faq"),
    ("is there parking?", "faq"),
    ("do you take card payment?", "faq"),
    ("what are your opening hours?", "faq"),
    ("are you open on Sunday?", "faq"),
    ("what is the cancellation policy?", "faq"),
    ("posso levar meu cachorro?", "faq"),
    ("do you have wifi?", "faq"),
    # handoff
    ("quero falar com um humano", "handoff"),
    ("falar com atendente", "handoff"),
    ("quero falar com uma pessoa", "handoff"),
    ("chama o gerente", "handoff"),
    ("quero atendimento humano", "handoff"),
    ("quero fazer uma reclamação", "handoff"),
    ("quero cancelar, me passa pra um atendente", "handoff"),
    ("I want to talk to a human", "handoff"),
    ("real person please", "handoff"),
    ("let me speak to the manager", "handoff"),
    ("I have a complaint about my appointment", "handoff"),
    ("agent", "handoff"),
    # greeting
    ("oi", "greeting"),
    ("Olá!", "greeting"),
    ("bom dia", "greeting"),
    ("boa tarde, tudo bem", "greeting"),
    ("boa noite", "greeting"),
    ("hello", "greeting"),
    ("Hi there", "greeting"),
    ("hey", "greeting"),
    ("Bom dia! Quero agendar", "booking"),
    # unknown
    ("asdfgh", "unknown"),
    ("banana", "unknown"),
    ("", "unknown"),
    ("👍", "unknown"),
    ("the weather is nice", "unknown"),
]


@pytest.mark.parametrize(
    ("text", "intent"), INTENT_CASES, ids=[t or "empty" for t, _ in INTENT_CASES]
)
def test_classify_intent(text: str, intent: Intent) -> None:
    got, confidence = classify_intent(text)
    assert got == intent
    assert 0.0 <= confidence <= 1.0


def test_time_only_booking_is_less_confident_than_keywords() -> None:
    assert classify_intent("amanhã às 10")[1] < classify_intent("quero agendar amanhã")[1]


def test_unknown_has_zero_confidence() -> None:
    assert classify_intent("asdfgh") == ("unknown", 0.0)


def test_accents_and_case_do_not_matter() -> None:
    assert classify_intent("QUAIS SERVICOS") == classify_intent("quais serviços")


YES = [
    "sim", "Sim!", "s", "pode", "pode sim", "confirmo", "confirmado", "isso", "isso mesmo",
    "ok", "OK.", "beleza", "perfeito", "fechado", "pode marcar", "claro", "com certeza",
    "tá bom", "pode ser", "sim, por favor", "ah sim", "então tá, pode marcar", "👍",
    "não tem problema", "yes", "Yes please", "y", "yep", "sure", "confirm", "go ahead",
    "okay", "please do", "sounds good", "of course", "yeah, book it", "no problem",
]  # fmt: skip
NO = [
    "não", "Não.", "nao", "n", "negativo", "melhor não", "cancela", "não pode", "não quero",
    "isso não", "claro que não", "acho que não", "não, obrigado", "agora não", "esquece",
    "deixa pra lá", "👎", "no", "No.", "nope", "nah", "no thanks", "don't", "do not book it",
    "not now", "never mind", "not ok", "cancel",
]  # fmt: skip
NEITHER = [
    "", "talvez", "não sei", "maybe", "not sure", "I don't know", "pode?", "isso?",
    "no dia 5", "no sábado", "isso é caro", "good morning", "quais serviços?", "deixa eu ver",
    "pode cancelar", "segunda às 10", "vou pensar", "hmm",
]  # fmt: skip


@pytest.mark.parametrize("text", YES)
def test_affirmative(text: str) -> None:
    assert is_affirmative(text)
    assert not is_negative(text)


@pytest.mark.parametrize("text", NO)
def test_negative(text: str) -> None:
    assert is_negative(text)
    assert not is_affirmative(text)


@pytest.mark.parametrize("text", NEITHER, ids=[t or "empty" for t in NEITHER])
def test_neither_yes_nor_no(text: str) -> None:
    assert not is_affirmative(text)
    assert not is_negative(text)
