"""A yes to a cancellation with the customer's reason for it ("pode cancelar sim, não vou
conseguir ir não", "yes please cancel it, I can't make it", "sí, cancélalo, no voy a poder
ir"; review 14: the proposal was dropped or asked again) is a yes: a reason that agrees with a
cancellation (``[appointments].cant_make_it``) answers nothing, a no right after it only
repeats its negation. Alone it is no yes, and beside a booking's yes it is no yes either.

Generated over every entry of each language's ``cant_make_it``, each spelled out from its
pattern (every alternative in turn, optional words with and without), never over the
review's sentences."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from agent_service.application.consent_policy import Answer
from agent_service.domain.conversations import ActionKind
from agent_service.infrastructure.agent.consent import read
from agent_service.infrastructure.language.packs import language_data, word_list

CANCEL = ActionKind.APPOINTMENT_CANCELLED.value
BOOK = ActionKind.APPOINTMENT_BOOKED.value


@dataclass
class _Turn:
    language: str


@dataclass
class _Deps:
    turn: _Turn


def _spelled(pattern: str, turn: int) -> str:
    """One phrase of ``pattern``: the ``turn``-th alternative of each word, an optional word
    kept on even turns, any word ("~") as "it"."""
    words = []
    for token in pattern.split():
        optional = token.endswith("?")
        token = token.rstrip("?")
        if optional and turn % 2:
            continue
        choices = token.split("|")
        words.append("it" if token == "~" else choices[turn % len(choices)])
    return " ".join(words)


def _reasons(code: str) -> list[str]:
    patterns = language_data(code)["appointments"]["cant_make_it"]
    return sorted({_spelled(p, turn) for p in patterns if "*" not in p for turn in range(4)})


CASES = [(code, reason) for code in ("pt", "en", "es") for reason in _reasons(code)]


@pytest.mark.parametrize(("code", "reason"), CASES)
def test_a_reason_beside_a_cancellation_yes_answers_nothing(code: str, reason: str) -> None:
    deps = _Deps(_Turn(code))
    yes = word_list(code, "consent", "yes")[0]
    cancel = word_list(code, "consent", "yes_cancel")[0]
    no = word_list(code, "consent", "no")[0]
    for text in (f"{yes}, {cancel}, {reason}", f"{yes}, {reason} {no}", f"{reason}. {yes}"):
        assert read(deps, text, CANCEL).answer is Answer.YES, text  # type: ignore[arg-type]
    assert read(deps, reason, CANCEL).answer is not Answer.YES, reason  # type: ignore[arg-type]
    booking = f"{yes}, {reason}"
    assert read(deps, booking, BOOK).answer is not Answer.YES, booking  # type: ignore[arg-type]
