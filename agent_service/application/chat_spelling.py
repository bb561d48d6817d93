"""What a word typed in chat may stand for among a set of known words (folded), when it is
none of them itself: the two slips of a hurried chat answer, each a rule over letters, never
a list of misspellings.

* **Stretched**: letters repeated for emphasis ("siim", "simmm", "claaaro", "yess",
  "cooool"). A word is a stretched known word when both are the same runs of letters and each
  run of the typed word is at least as long as the known word's; a run made longer by a single
  letter must be a vowel or the word's last run: a doubled consonant inside a word spells
  another word in these languages ("valle" is no "vale", "carro" no "caro"), a run of three or
  more is always a stretch ("isssso").
* **Swapped**: two neighbouring letters typed in each other's place ("confrima",
  "cofnirmo"), in a known word of at least ``SWAP_MIN_LETTERS`` letters (a shorter word swapped
  is too often another word: "sure"/"suer", "deal"/"dela"). A swapped form that is a known word
  itself, or the swap of two known words, stands for none.

:func:`Spellings.of` gives the words a typed word may stand for: none when it is a known word
(a word is never a slip of another one), except that a word of the lists stands for the list
words it stretches too (lists hold stretched forms: "sii sii" is "si si"). Pure.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

VOWELS = frozenset("aeiou")
SWAP_MIN_LETTERS = 5


def runs(word: str) -> tuple[tuple[str, int], ...]:
    """``word`` as runs of one letter: "siim" is ((s, 1), (i, 2), (m, 1))."""
    return tuple((letter, len(list(group))) for letter, group in itertools.groupby(word))


_RUN = re.compile(r"(.)\1+")


def skeleton(word: str) -> str:
    """``word`` with every run of a repeated letter as the letter once."""
    return _RUN.sub(r"\1", word)


def stretched(typed: str, known: str) -> bool:
    """Whether ``typed`` is ``known`` with letters repeated for emphasis (see the module)."""
    typed_runs, known_runs = runs(typed), runs(known)
    if typed == known or len(typed_runs) != len(known_runs):
        return False
    last = len(known_runs) - 1
    for place, ((letter, count), (known_letter, known_count)) in enumerate(
        zip(typed_runs, known_runs, strict=True)
    ):
        if letter != known_letter or count < known_count:
            return False
        doubled = count == 2 and known_count == 1
        if doubled and letter not in VOWELS and place != last:
            return False  # "valle": a doubled consonant inside spells another word
    return True


def swaps(word: str) -> set[str]:
    """``word`` with each two different neighbouring letters in each other's place."""
    return {
        word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        for i in range(len(word) - 1)
        if word[i] != word[i + 1]
    }


@dataclass(frozen=True, slots=True)
class Spellings:
    """An index of known words for :meth:`of`: ``known`` every word that is itself (no slip
    of another), ``targets`` the words a slip may stand for (by skeleton), ``swapped`` each
    unambiguous swapped form and its word."""

    known: frozenset[str]
    targets: dict[str, tuple[str, ...]]
    swapped: dict[str, str]
    words: frozenset[str] = frozenset()
    """The targets themselves."""

    @classmethod
    def of_words(
        cls, targets: Iterable[str], known: Iterable[str] = (), swapped: bool = True
    ) -> Spellings:
        """The index of ``targets`` (words a slip may stand for); ``known`` are words that are
        themselves too (no slip of anything), besides the targets; ``swapped``: whether a
        swap of two letters is a slip (else only a stretch is)."""
        words = sorted({w for w in targets if w.isalpha()})
        every = frozenset(words) | frozenset(known)
        by_skeleton: dict[str, list[str]] = {}
        for word in words:
            by_skeleton.setdefault(skeleton(word), []).append(word)
        forms: dict[str, str | None] = {}
        for word in words:
            if len(word) < SWAP_MIN_LETTERS or not swapped:
                continue
            for form in swaps(word) - every:
                forms[form] = word if forms.get(form, word) == word else None
        return cls(
            every,
            {k: tuple(v) for k, v in by_skeleton.items()},
            {form: word for form, word in forms.items() if word is not None},
            frozenset(words),
        )

    def of(self, typed: str) -> tuple[str, ...]:
        """The target words ``typed`` may stand for, the nearest first (the fewest letters
        stretched); none when ``typed`` is a known word, only the targets it stretches when
        it is a target itself (the lists hold stretched forms too: "sii sii" is "si si")."""
        if typed in self.known and typed not in self.words:
            return ()
        found = []
        if _RUN.search(typed):  # only a word with a repeated letter stretches another
            found = [w for w in self.targets.get(skeleton(typed), ()) if stretched(typed, w)]
            found.sort(key=lambda w: (-len(w), w))
        if not found and typed in self.swapped:
            found.append(self.swapped[typed])
        return tuple(found)
