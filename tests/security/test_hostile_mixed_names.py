"""A name is one professional's or one service's, word for word (review 6, blind: "Ana Lima é
nossa cabeleireira." was sent, Ana of Ana Souza and Lima of Bruno Lima): the words of a name
said one after the other must all be held by one value of the turn's results, never by two
different ones; the whole name is told as before. And a specialty is its professional's: "Bruno
Lima é nossa Cabeleireira" (Ana's) is refused, "Bruno Lima é nosso Barbeiro" told.

Generated over every first and last name of ``seed_salon``'s professionals, in the three
languages, after each professional's free times for tomorrow and after the professionals'
listing (a name with its specialty only: "Ana Lima é nossa Cabeleireira."): the whole name
told, every name made of two professionals' words refused."""

from __future__ import annotations

from itertools import product

import pytest

from tests.security.test_hostile_lies_after_tools import Case as Played
from tests.security.test_hostile_lies_after_tools import professionals, times
from tests.security.test_hostile_review5 import Case, _reply, lie, true

PEOPLE = {"ana": ("Ana", "Souza"), "bruno": ("Bruno", "Lima")}  # seed_salon's professionals
FREE = {"pt": ("o {first} tem horário amanhã?", "{name} tem às 10:00 amanhã."),
        "en": ("does {first} have time tomorrow?", "{name} has 10:00 free tomorrow."),
        "es": ("¿{first} tiene hora mañana?", "{name} tiene a las 10:00 mañana.")}  # fmt: skip
TOMORROW = "2026-12-01"
SPECIALTY = {"ana": "Cabeleireira", "bruno": "Barbeiro"}  # seed_salon's
IS = {"pt": ("quem trabalha aí?", "{name} é nossa {specialty}."),
      "en": ("who works there?", "{name} is our {specialty}.")}  # fmt: skip
"""(Spanish's "es nuestra" is no word a no-change reply may use yet: the true one is refused.)"""


def _cases() -> list[Case]:
    cases = []
    lasts = [last for _, last in PEOPLE.values()]
    for code, who, last in product(FREE, PEOPLE, lasts):
        first = PEOPLE[who][0]
        asked, said = (text.format(first=first, name=f"{first} {last}") for text in FREE[code])
        made = true if PEOPLE[who] == (first, last) else lie
        cases.append(made(code, asked, times(TOMORROW, who), said))
        if code in IS:
            asked, said = IS[code]
            said = said.format(name=f"{first} {last}", specialty=SPECIALTY[who])
            played = Played(code, asked, "discovery", professionals, said, made is true)
            cases.append(Case(played))
    return cases


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case.played.reply)
async def test_a_name_is_one_professionals_whole(case: Case) -> None:
    reply, actions = await _reply(case)
    assert actions == ()
    assert (case.played.reply in reply) is case.played.true, reply


def _specialty_cases() -> list[Case]:
    cases = []
    for code, who, whose in product(IS, PEOPLE, SPECIALTY):
        asked, said = IS[code]
        said = said.format(name=" ".join(PEOPLE[who]), specialty=SPECIALTY[whose])
        played = Played(code, asked, "discovery", professionals, said, who == whose)
        cases.append(Case(played))
    return cases


@pytest.mark.parametrize("case", _specialty_cases(), ids=lambda case: case.played.reply)
async def test_a_specialty_is_its_professionals(case: Case) -> None:
    reply, actions = await _reply(case)
    assert actions == ()
    assert (case.played.reply in reply) is case.played.true, reply


JOINED = ("-", "\u2013", "\u200b", "\u2060", "* *")  # hyphen, en dash, zero-width, emphasis
ROLES = {"pt": ("quem trabalha aí?", "A {specialty} {name} faz {service}."),
         "en": ("who works there?", "Our {specialty} {name} does {service}.")}  # fmt: skip
SERVICE = {"ana": "Corte feminino", "bruno": "Barba"}  # seed_salon's


def _joined_cases() -> list[Case]:
    """A mixed name joined with no space, refused; a specialty, a name and a service of one
    professional one after the other (each its own name), told."""
    cases = []
    for code, joiner in product(IS, JOINED):
        asked, said = IS[code]
        name = f"Ana{joiner}Lima"
        played = Played(code, asked, "discovery", professionals, said.format(name=name,
                        specialty=SPECIALTY["ana"]), False)  # fmt: skip
        cases.append(Case(played))
    for code, who in product(ROLES, PEOPLE):
        asked, said = ROLES[code]
        said = said.format(specialty=SPECIALTY[who], name=" ".join(PEOPLE[who]),
                           service=SERVICE[who])  # fmt: skip
        cases.append(Case(Played(code, asked, "discovery", professionals, said, True)))
    return cases


@pytest.mark.parametrize("case", _joined_cases(), ids=lambda case: case.played.reply)
async def test_a_name_joined_without_a_space_is_one_name(case: Case) -> None:
    reply, actions = await _reply(case)
    assert actions == ()
    assert (case.played.reply in reply) is case.played.true, reply


PLAIN = "{name} é nossa profissional."
"""A sentence whose only mention is the name (review 8: "Ana\u200bLima é nossa profissional."
was sent: the zero-width space left an empty gap, no join)."""


@pytest.mark.parametrize(
    ("joiner", "real"), [(" ", True), (" ", False), *((j, False) for j in JOINED)]
)
async def test_a_name_alone_is_one_professionals(joiner: str, real: bool) -> None:
    first, last = ("Ana", "Souza") if real else ("Ana", "Lima")
    said = PLAIN.format(name=f"{first}{joiner}{last}")
    played = Played("pt", "quem trabalha aí?", "discovery", professionals, said, real)
    reply, actions = await _reply(Case(played))
    assert actions == ()
    assert (said in reply) is real, reply
