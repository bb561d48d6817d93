"""Routing in code, measured: which specialist ``intent.clear_route`` picks for a new task's
first message, against the specialist it belongs to.

Each message is scored as **right** (routed in code to its specialist), **wrong** (routed in
code to another one: the specialist escapes or, worse, answers what is not its job) or **to
the router** (left to the model router: one model request more, nothing wrong). A message
written as two jobs at once expects the router. The messages were written blind (session 38,
2026-12-06) and scored before the routing change they measured; none is in the language data.

``python -m eval.routing [--json]``; the eval itself scores whole conversations.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass

from agent_service.infrastructure.agent.intent import clear_route
from agent_service.infrastructure.agent.specialists import SPECIALISTS


@dataclass(frozen=True, slots=True)
class Routed:
    language: str
    message: str
    specialist: str
    """The specialist the message belongs to; ``""``: two jobs, the model router decides."""


def _cases(language: str, table: dict[str, tuple[str, ...]]) -> list[Routed]:
    return [Routed(language, m, name) for name, messages in table.items() for m in messages]


ROUTED: list[Routed] = [
    *_cases("pt", {
        "booking": (
            "queria agendar uma escova pra sexta", "dá pra marcar barba hoje à tarde?",
            "tem vaga pra unha amanhã?", "preciso reservar um horário com a Júlia",
            "consigo encaixar um corte no sábado?", "quero marcar manicure",
        ),
        "appointments": (
            "preciso desmarcar a barba de quinta", "quero remarcar meu corte",
            "cancela meu horário por favor", "não vou conseguir ir no meu horário de sexta",
            "o que eu tenho marcado?",
        ),
        "faq": (
            "qual o endereço?", "vocês aceitam cartão de crédito?", "tem estacionamento aí?",
            "aceitam pix?", "até que horas vocês ficam abertos?",
        ),
        "discovery": (
            "quais serviços vocês oferecem?", "quanto custa a barba?", "qual o preço da unha?",
            "quem são os profissionais?", "me passa a tabela de preços",
        ),
        "handoff": ("quero fazer uma reclamação do atendimento",),
        "": ("quero cancelar a barba e marcar um corte", "quanto custa e tem vaga amanhã?"),
    }),
    *_cases("en", {
        "booking": (
            "I'd like to book a manicure for Friday", "can I schedule a beard trim tomorrow?",
            "do you have any openings on Saturday?", "book me in with Rafael please",
            "I need an appointment for a haircut", "any availability this week?",
        ),
        "appointments": (
            "I need to cancel my appointment", "can I reschedule my haircut?",
            "please move my beard trim to Saturday", "what appointments do I have?",
            "I can't make it to my appointment on Friday",
        ),
        "faq": (
            "where are you located?", "do you take credit cards?", "is there parking nearby?",
            "what are your opening hours?", "what's your cancellation policy?",
        ),
        "discovery": (
            "what services do you have?", "how much is a beard trim?", "what are your prices?",
            "who are your stylists?", "what does a manicure cost?",
        ),
        "handoff": ("I want to make a complaint about my last visit",),
        "": (
            "cancel my haircut and book a beard trim instead",
            "how much is it and are you free tomorrow?",
        ),
    }),
    *_cases("es", {
        "booking": (
            "quiero reservar una manicura para el viernes", "¿puedo agendar una barba mañana?",
            "¿tienen turno para el sábado?", "quiero pedir una cita con Rafael",
            "necesito un turno para cortarme el pelo", "¿hay disponibilidad el jueves?",
        ),
        "appointments": (
            "quiero cancelar mi cita", "necesito cambiar mi turno del viernes",
            "¿puedo reprogramar mi corte?", "¿qué citas tengo?",
            "no voy a poder ir a mi cita del jueves",
        ),
        "faq": (
            "¿cuál es la dirección?", "¿aceptan tarjeta?", "¿tienen estacionamiento?",
            "¿a qué hora abren?", "¿cuál es la política de cancelación?",
        ),
        "discovery": (
            "¿qué servicios tienen?", "¿cuánto cuesta la barba?", "¿cuáles son los precios?",
            "¿quiénes son los profesionales?", "¿cuánto sale la manicura?",
        ),
        "handoff": ("quiero poner una queja",),
        "": ("cancela mi barba y resérvame un corte", "¿cuánto cuesta y tienen turno mañana?"),
    }),
]  # fmt: skip


def score() -> dict[str, object]:
    """Right, wrong and to-the-router counts, overall and per language, and the wrong ones."""
    tally: dict[str, Counter[str]] = {}
    wrong: list[dict[str, str]] = []
    for case in ROUTED:
        got = clear_route(case.message, SPECIALISTS, [], case.language)
        verdict = "right" if got == case.specialist else ("router" if not got else "wrong")
        tally.setdefault(case.language, Counter())[verdict] += 1
        tally.setdefault("all", Counter())[verdict] += 1
        if verdict == "wrong":
            wrong.append({"message": case.message, "expected": case.specialist, "got": got})
    return {
        "cases": len(ROUTED),
        "by_language": {k: dict(v) for k, v in tally.items()},
        "wrong": wrong,
    }


def main() -> None:
    result = score()
    if "--json" in sys.argv[1:]:
        sys.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
        return
    for language, counts in result["by_language"].items():  # type: ignore[attr-defined]
        sys.stdout.write(f"{language}: {counts}\n")
    for row in result["wrong"]:  # type: ignore[attr-defined]
        sys.stdout.write(f"wrong: {row}\n")


if __name__ == "__main__":
    main()
