"""A change of time asked after a proposal with no time of its own — "mais cedo?", "anything
later?", "¿se puede adelantar?", "o mais cedo possível?", "the latest you have?" — is a new
proposal that way (the nearest free time before or after the proposed one; the day's first or
last), and a yes books that one; the old terms are never booked (blind batch 14: "nothing
earlier that morning?" re-proposed the same terms, which the gate refused, and the yes after
it asked "which day and time?"; "the latest you have?" was answered as an FAQ aside and the
yes booked the old time).

Generated over every language's ``[times]`` earlier/later words and verbs and ``[ranges]``
earliest/latest phrases, each asked as a question after a proposal: the old terms are never
booked, a booking is that way, and an earlier or later word always gets one.
"""

from __future__ import annotations

import random
from datetime import time

import pytest
from pydantic_ai.models.function import FunctionModel

from agent_service.application.text import normalize
from agent_service.infrastructure.agent.offline.model import offline_model_function
from agent_service.infrastructure.language.grammar.asks import asks_another_time
from agent_service.infrastructure.language.packs import known_words, word_list
from eval.dataset import TUE
from eval.harness import Harness, local

PROPOSE = {
    "pt": "hidratação com a Júlia amanhã às 14h",
    "en": "hair treatment with Júlia tomorrow at 2pm",
    "es": "hidratación con Júlia mañana a las 14",
}
YES = {"pt": "sim", "en": "yes", "es": "sí"}
OLD = local(TUE, time(14))
WAYS = {
    ("times", "earlier"): -1, ("times", "earlier_verbs"): -1, ("ranges", "earliest"): -1,
    ("times", "later"): 1, ("times", "later_verbs"): 1, ("ranges", "latest"): 1,
}  # fmt: skip


def _asked(code: str) -> list[tuple[str, int, bool]]:
    """Each phrase asked, its way, and whether a new proposal is owed: an earlier or later
    word is always a time that way; "the first opening?" may as well be the first of the
    coming days (listed), so only the old terms are ruled out."""
    return [
        (f"{phrase}?", way, table == "times")
        for (table, key), way in WAYS.items()
        for phrase in word_list(code, table, key)[:PLAYED]
    ]


PLAYED = 2
"""Phrases of each list played through a whole conversation (every one is read by the rule in
``test_every_phrase_asked_alone_asks_another_time``)."""


@pytest.mark.parametrize("code", sorted(PROPOSE))
def test_every_phrase_asked_alone_asks_another_time(code: str) -> None:
    wrong = [
        phrase
        for (table, key), _ in WAYS.items()
        for phrase in word_list(code, table, key)
        if not asks_another_time(normalize(f"{phrase}?"))
    ]
    assert not wrong, wrong


BACK = {
    "pt": ("{} desse horário?", "tem algo {} dessa hora?"),
    "en": ("anything {} that time?", "something {} than that?"),
    "es": ("¿y algo {} de esa hora?", "¿hay algo {} de ese horario?"),
}


@pytest.mark.parametrize("code", sorted(PROPOSE))
def test_the_proposed_time_named_back_still_asks_another_time(code: str) -> None:
    """Blind batch 18, before any fix: "¿y algo después de esa hora?" was no question of
    another time ("esa" and "hora" were words of something else): the same proposal was
    shown again and the yes booked it (a wrong write)."""
    wrong = [
        said
        for key in ("earlier", "later")
        for phrase in word_list(code, "times", key)
        for template in BACK[code]
        if not asks_another_time(normalize(said := template.format(phrase)))
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("code", sorted(PROPOSE))
async def test_earlier_or_later_asked_after_a_proposal_is_proposed_that_way(code: str) -> None:
    wrong = []
    for said, way, owed in _asked(code):
        harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
        transcript = await harness.play([PROPOSE[code], said, YES[code]], [])
        booked = [(a.professional, a.start) for a in transcript.appointments]
        that_way = [
            at for who, at in booked if who == "Júlia Prado" and at.date() == OLD.date() and
            (at < OLD if way < 0 else at > OLD)
        ]  # fmt: skip
        if len(booked) != len(that_way) or len(booked) > 1 or (owed and not booked):
            wrong.append((said, [f"{who} {at:%a %H:%M}" for who, at in booked]))
    assert not wrong, wrong


def _made_up_verbs(count: int) -> list[str]:
    """Verbs of no action the data knows ("zobelar"): what a customer asks to do earlier or
    later ("devo chegar mais cedo?", "posso pagar depois?") is never a time asked for."""
    rng = random.Random(48)
    known = {w for code in PROPOSE for w in known_words(code)}
    made: list[str] = []
    while len(made) < count:
        word = "".join(rng.choice("bcdfglmnprstvz") + rng.choice("aeiou") for _ in range(3))
        if word + "ar" not in known:
            made.append(word + "ar")
    return made


@pytest.mark.parametrize("code", sorted(PROPOSE))
async def test_another_action_earlier_or_later_books_no_new_time(code: str) -> None:
    """ "posso <verb> mais cedo?" after a proposal: whatever is answered, the yes after it books
    the old terms or nothing — never a time the customer did not ask for."""
    modal = word_list(code, "intents", "question_start")[-1]  # "posso", "can you", "pueden"
    phrases = [p for key in ("earlier", "later") for p in word_list(code, "times", key)]
    wrong = []
    for said in (f"{modal} {verb} {p}?" for verb in _made_up_verbs(1) for p in phrases):
        assert not asks_another_time(normalize(said)), said
        harness = Harness(FunctionModel(offline_model_function, model_name="offline"))
        transcript = await harness.play([PROPOSE[code], said, YES[code]], [])
        booked = [a.start for a in transcript.appointments]
        if any(at != OLD for at in booked):
            wrong.append((said, [f"{at:%H:%M}" for at in booked]))
    assert not wrong, wrong
