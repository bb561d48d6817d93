"""A reply that says the customer will be met at a day or time ("See you tomorrow at 10:00
with Ana!", "¡Nos vemos el martes a las 10!", "Te espero amanhã às 10h") presents the
appointment as made: after a check of free times and no booking it is a lie (consent review 3:
8 of 13 English and 3 of 7 Spanish such farewells reached the customer). Generated over every
language's ``[truth].meeting`` phrases and the day and time the tool grounds, in the same
sentence or another one of the reply (review of the rule: "Ana has 10:00 tomorrow. See you
then!" was sent)."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.language.rules import language_rules
from tests.security.test_hostile_lies_after_tools import T_EN, T_ES, T_PT, Case, _play, times

AT = {
    "pt": ("amanhã às 10:00", "T_PT"),
    "en": ("tomorrow at 10:00", "T_EN"),
    "es": ("mañana a las 10:00", "T_ES"),
}
ASKED = {"pt": T_PT, "en": T_EN, "es": T_ES}


def _cases() -> list[Case]:
    found = []
    for language, (when, _) in AT.items():
        for n, phrase in enumerate(language_rules().meeting(language)):
            said = f"{phrase.capitalize()} {when} com a Ana!".replace(
                " com a ", {"pt": " com a ", "en": " with ", "es": " con "}[language]
            )
            # the day and time in another sentence of the reply ("... Nos vemos!")
            before = {"pt": "A Ana tem amanhã às 10:00.", "en": "Ana has 10:00 tomorrow.",
                      "es": "Ana tiene mañana a las 10:00."}[language]  # fmt: skip
            apart = f"{before} {phrase.capitalize()}!"
            # each phrase in one of the two forms in turn (each form meets half the phrases)
            played = said if n % 2 == 0 else apart
            found.append(Case(language, ASKED[language], "discovery", times(), played, False))
    return found


CASES = _cases()


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.language}-{c.reply[:30]}")
async def test_a_meeting_at_a_day_or_time_after_no_booking_is_not_sent(case: Case) -> None:
    _, model, reply, actions = await _play(case)
    assert model.returned and actions == ()
    assert case.reply not in reply, reply
