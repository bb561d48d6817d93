"""Where a move goes does not depend on the punctuation after its new day (blind batch 10:
"quiero pasar la ortodoncia del miércoles al viernes, a la misma hora" split at "a la misma
hora": the comma made "viernes," no day, the move asked again and then listed the
appointments). Generated over languages, day pairs and punctuation marks."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent.offline.appointments_flow import move_parts

SAID = {
    "pt": "quero passar o corte de {old} pra {new}{mark} no mesmo horário",
    "en": "move my haircut from {old} to {new}{mark} same time",
    "es": "quiero pasar el corte del {old} al {new}{mark} a la misma hora",
}
DAYS = {
    "pt": ["segunda", "terça", "quarta", "quinta", "sexta", "sábado"],
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
    "es": ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado"],
}
MARKS = (",", ";", "", " -", ".", "!", " ,")


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_new_day_is_after_the_to_word_whatever_punctuation_follows(language: str) -> None:
    days = DAYS[language]
    for old, new in zip(days, days[2:] + days[:2], strict=True):
        for mark in MARKS:
            said = SAID[language].format(old=old, new=new, mark=mark)
            described, wanted = move_parts(said)
            assert old in described and new not in described, (said, described)
            assert wanted.strip().startswith(new), (said, wanted)
