"""What a read-only review of session 41's change found, each kept as a whole conversation on
the offline model (the eval harness's salon and clock): a no written before "understood" kept a
cancellation alive, a booking of two things read as moving one's own appointment, a move to a
part of a day given the old time, "not too early" proposing the first time, and a customer
running late read as a booking.
"""

from __future__ import annotations

from datetime import time

import pytest
from pydantic_ai.models.function import FunctionModel

from agent_service.infrastructure.agent.offline.model import offline_model_function
from eval.dataset import BEARD_FRIDAY, CUT_THURSDAY, SAT, TUE
from eval.harness import Booked, Harness, Transcript, local

SATURDAY_AT_OLD_TIME = local(SAT, time(11))
TUESDAY_FIRST = local(TUE, time(9))


async def _play(messages: tuple[str, ...], booked: tuple[Booked, ...] = ()) -> Transcript:
    harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
    return await harness.play(list(messages), list(booked))


def _kinds(transcript: Transcript) -> list[str]:
    return [action.kind for turn in transcript.turns for action in turn.actions]


@pytest.mark.parametrize(
    "messages",
    [("Quero cancelar meu corte de quinta", "Não, entendi, obrigado", "ok"),
     ("Cancel my haircut on Thursday", "No. Understood, thanks", "ok"),
     ("Cancela mi corte del jueves", "No, entiendo. Gracias", "vale")],
)  # fmt: skip
async def test_a_no_before_understood_declines(messages: tuple[str, ...]) -> None:
    transcript = await _play(messages, (CUT_THURSDAY,))
    assert "appointment_cancelled" not in _kinds(transcript), transcript.turns


@pytest.mark.parametrize(
    "messages",
    [("Mantém minha barba de sexta e marca corte pro sábado", "sim"),
     ("Quero minha barba de sexta e unha pro sábado às 10h", "sim"),
     ("Quiero mi barba del viernes y uñas para el sábado a las 10", "sí"),
     ("Minhas férias são de sexta a domingo, quero marcar unha pra sábado", "sim")],
)  # fmt: skip
async def test_a_booking_beside_ones_own_appointment_moves_nothing(
    messages: tuple[str, ...],
) -> None:
    transcript = await _play(messages, (BEARD_FRIDAY,))
    assert "appointment_rescheduled" not in _kinds(transcript), transcript.turns


@pytest.mark.parametrize(
    "message",
    ["Muda minha barba de sexta pra sábado à tarde", "Move my Friday beard trim to Saturday "
     "afternoon", "Muda minha barba de sexta pro sábado depois das 15h",
     "Muda minha barba de sexta pro sábado, o mais cedo possível"],
)  # fmt: skip
async def test_a_move_to_a_part_of_a_day_never_gets_the_old_time(message: str) -> None:
    transcript = await _play((message, "sim"), (BEARD_FRIDAY,))
    moved = [a for a in transcript.appointments if a.start == SATURDAY_AT_OLD_TIME]
    assert not moved, transcript.turns


@pytest.mark.parametrize(
    "message",
    ["Quero marcar barba com o Rafael amanhã, mas não muito cedo",
     "I'd like a beard trim with Rafael tomorrow, not too early",
     "Quiero barba con Rafael mañana, no muy temprano",
     "I can't come early. Can I book a beard trim with Rafael tomorrow?"],
)  # fmt: skip
async def test_not_early_never_proposes_the_first_time(message: str) -> None:
    transcript = await _play((message, "sim"))
    booked = [a for a in transcript.appointments if a.start == TUESDAY_FIRST]
    assert not booked, transcript.turns


@pytest.mark.parametrize(
    "message",
    ["Vou me atrasar, chego em 15 minutos", "Running late, I'll be there in 10 minutes",
     "Voy tarde, llego en 10 minutos", "Dá pra fazer corte e barba em 1 hora?"],
)  # fmt: skip
async def test_running_late_or_a_length_is_no_booking(message: str) -> None:
    transcript = await _play((message,), (BEARD_FRIDAY,))
    tools = [tool for turn in transcript.turns for tool in turn.tools]
    assert not {"book_appointment", "reschedule_appointment"} & set(tools), transcript.turns


# A second review, of the fixes above, found these; each failed before its fix.


@pytest.mark.parametrize(
    "messages",
    [("Cancel my haircut on Thursday", "Cancel? No.", "ok"),
     ("Cancela meu corte de quinta", "Sim? Não.", "sim"),
     ("Cancela mi corte del jueves", "¿Y si no?", "sí")],
)  # fmt: skip
async def test_a_no_after_a_question_or_a_yes_is_no_tag(messages: tuple[str, ...]) -> None:
    transcript = await _play(messages, (CUT_THURSDAY,))
    assert "appointment_cancelled" not in _kinds(transcript), transcript.turns


@pytest.mark.parametrize(
    "message",
    ["My shifts from Thursday to Saturday are long, any time on Saturday?",
     "Minha folga de quinta foi pro sábado, tem horário no sábado?",
     "Mi esposo del jueves al sábado trabaja, ¿hay hueco el domingo?"],
)  # fmt: skip
async def test_my_something_else_from_day_to_day_moves_nothing(message: str) -> None:
    transcript = await _play((message, "yes"), (CUT_THURSDAY,))
    assert "appointment_rescheduled" not in _kinds(transcript), transcript.turns


@pytest.mark.parametrize(
    "message",
    ["Quero marcar barba com o Rafael amanhã, mas muito cedo não dá pra mim",
     "Quero marcar barba com o Rafael amanhã, não dá pra vir de manhã cedo",
     "Quiero barba con Rafael mañana, no puedo ir muy temprano",
     "Can I book a beard trim with Rafael tomorrow? I can’t come early",
     "Beard trim with Rafael tomorrow, early doesn't work for me"],
)  # fmt: skip
async def test_early_denied_anywhere_in_its_clause_proposes_nothing_early(message: str) -> None:
    transcript = await _play((message, "sim"))
    booked = [a for a in transcript.appointments if a.start == TUESDAY_FIRST]
    assert not booked, transcript.turns
