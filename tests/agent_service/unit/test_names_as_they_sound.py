"""A professional's name spelled as it sounds is that professional (blind batch 10: "limpeza
com a iasmim", "Dr Enrique" for Yasmin and Henrique got "which professional?" and a loop).
Generated: each name of a team respelled by every rule of how names are written either way
(y/i, ph/f, k/c, w/v, z/s, a silent h, a final m/n, a doubled letter) is found, and only that
name; words that are no respelling of a name find nobody."""

from __future__ import annotations

import itertools

from agent_service.infrastructure.agent.offline.matching import best_person

TEAM = [
    ("Yasmin Okabe",),
    ("Henrique Tavares",),
    ("Luiza Prado",),
    ("Raphael Costa",),
    ("Kelly Wagner",),
    ("Thiago Sousa",),
]
RESPELL = [("y", "i"), ("i", "y"), ("ph", "f"), ("k", "c"), ("w", "v"), ("z", "s"), ("s", "z"),
           ("h", ""), ("n", "m"), ("ll", "l"), ("l", "ll")]  # fmt: skip


def _respellings(word: str) -> set[str]:
    found = set()
    for size in (1, 2):
        for rules in itertools.combinations(RESPELL, size):
            spelled = word.lower()
            for written, said in rules:
                if written == "n" and spelled.endswith("n"):
                    spelled = spelled[:-1] + "m"
                elif written != "n":
                    spelled = spelled.replace(written, said, 1)
            if spelled != word.lower():
                found.add(spelled)
    return found


def test_a_name_respelled_as_it_sounds_is_that_person_only() -> None:
    checked = 0
    for index, (name,) in enumerate(TEAM):
        first = name.split()[0]
        for spelled in _respellings(first):
            if len(spelled) < 4:
                continue
            said = f"quero marcar com {'a' if first[-1] == 'a' else 'o'} {spelled} amanhã às 10h"
            assert best_person(said, TEAM) == index, (spelled, said)
            checked += 1
    assert checked > 30


def test_words_that_respell_no_name_find_nobody() -> None:
    for said in (
        "quero marcar amanhã",
        "can I book a cleaning",
        "pasame con alguien",
        "marcar um horario",
    ):
        assert best_person(said, TEAM) is None, said
