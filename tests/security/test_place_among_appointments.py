"""A word that says an appointment's place among the customer's ("your next appointment is
...", "seu último agendamento", "tu primera cita") states which one it is: the sentence is sent
only when the appointment it names is that one by start. "Your next appointment is Manicure
with Carla Mendes on Friday at 10:00." was sent while the beard trim on Wednesday came first
(review 14's post-hoc probes: 3 lies, pt/en/es).

Generated over every ``[truth].first_of`` and ``last_of`` word of each language and every
appointment of generated lists (2 to 4, by start): the first (or last) one's sentence is sent,
every other one's is refused, and the same sentence without a place word is sent for each.
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from agent_service.application.grounding import Grounding
from agent_service.application.statements import Statements
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.told import no_change_statements
from agent_service.infrastructure.agent.tools.formatting import describe, local_text
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import fact_reader, language_rules

ZONE = ZoneInfo("America/Sao_Paulo")
TODAY = date(2026, 11, 30)
BOOKED = [("Barba", "Bruno Lima"), ("Manicure", "Carla Mendes"), ("Escova", "Ana Souza"),
          ("Corte feminino", "Ana Souza")]  # fmt: skip
SAID = {
    "pt": "Seu {place} agendamento é {service} com {who} em {when}.",
    "en": "Your {place} appointment is {service} with {who} on {when}.",
    "es": "Tu {place} cita es {service} con {who} el {when}.",
}


def _starts(size: int) -> list[datetime]:
    first = datetime(2026, 12, 1, 10, tzinfo=ZONE)
    return [first + timedelta(days=n, hours=n) for n in range(size)]


def _judge(code: str, size: int) -> Statements:
    starts = _starts(size)
    items = [
        {"id": f"a{n}", "service": service, "professional": who,
         "when": local_text(start, ZONE, code), "start": start.isoformat(),
         "status": "confirmed"}
        for n, ((service, who), start) in enumerate(zip(BOOKED, starts, strict=False))
    ]  # fmt: skip
    text = json.dumps({"result": "APPOINTMENTS", "appointments": items})
    lines = [describe(i["service"], i["professional"], i["when"], code) for i in items]
    reader = fact_reader((code,), "America/Sao_Paulo", ("BRL",), TODAY)
    common = language_rules().common_words()
    grounding = Grounding(reader, [text], [], common, (TODAY, TODAY + timedelta(60)), [text])
    tools = [ToolText("list_my_appointments", text, True)]
    names = frozenset(w.lower() for pair in BOOKED for part in pair for w in part.split())
    return no_change_statements(grounding, reader, (code,), tools, lines, True, names)


def _sentence(code: str, place: str, n: int) -> str:
    service, who = BOOKED[n]
    when = local_text(_starts(n + 1)[n], ZONE, code)
    return SAID[code].format(place=place, service=service, who=who, when=when).replace("  ", " ")


@pytest.mark.parametrize("code", ["pt", "en", "es"])
@pytest.mark.parametrize("size", [2, 3, 4])
def test_a_place_word_names_the_appointment_in_that_place(code: str, size: int) -> None:
    judge = _judge(code, size)
    for key, place in (("first_of", 0), ("last_of", size - 1)):
        for word in word_list(code, "truth", key):
            for n in range(size):
                sentence = _sentence(code, word, n)
                refused = judge.refused(sentence)
                assert bool(refused) is (n != place), (sentence, refused)
    for n in range(size):  # no place said: each is told as recorded
        sentence = _sentence(code, "", n)
        assert not judge.refused(sentence), sentence
