"""No identical reply twice in a row (application/repetition.py), as a property: whatever the
model keeps answering, the replies a customer reads never repeat on consecutive turns, the
system's own last lines stay last, and a long loop reaches the offer of a human."""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.repetition import Escalation, repeats, vary
from agent_service.infrastructure.agent.offline.intents import classify_intent
from agent_service.infrastructure.agent.repetition import escalation
from agent_service.infrastructure.language import spoken_languages

LADDER = Escalation(rephrase="Put another way:", choices="1) book 2) cancel", human="A human?")


def _play(base_replies: list[str], tail: str = "") -> list[str]:
    shown: list[str] = []
    for base in base_replies:
        reply = f"{base}\n\n{tail}" if tail else base
        shown.append(vary(reply, list(reversed(shown)), LADDER, tail))
    return shown


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["Which service?", "Sorry?", "Done."]), min_size=1, max_size=12))
def test_consecutive_replies_are_never_the_same(base_replies: list[str]) -> None:
    shown = _play(base_replies)
    assert all(a != b for a, b in itertools.pairwise(shown)), shown


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=4, max_value=12))
def test_a_loop_escalates_to_the_offer_of_a_human_and_keeps_the_system_lines_last(
    turns: int,
) -> None:
    tail = "Shall I book it? Reply yes."
    shown = _play(["All right."] * turns, tail)
    assert shown[1].startswith(LADDER.rephrase) and LADDER.choices in shown[2]
    assert all(LADDER.human in reply for reply in shown[3:])
    assert all(reply.endswith(tail) for reply in shown)
    assert all(a != b for a, b in itertools.pairwise(shown))


def test_a_different_reply_is_left_alone() -> None:
    assert vary("Which day?", ["Which service?"], LADDER) == "Which day?"
    assert repeats("Which day?", ["Which service?", "Which day?"], LADDER) == 0


def test_the_word_the_offer_of_a_human_names_hands_off_in_every_language() -> None:
    """The ladder's last step tells the customer what to say: that word is a handoff request."""
    for language in spoken_languages():
        offer = escalation(language).human
        said = re.findall(r"[\"“«]([^\"”»]+)[\"”»]", offer)
        assert said, offer
        assert all(classify_intent(word)[0] == "handoff" for word in said), (language, said)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=40, max_value=400), st.integers(min_value=1, max_value=6))
def test_a_varied_reply_stays_within_the_reply_limit(max_chars: int, turns: int) -> None:
    tail = "Shall I book it?"
    long_reply = f"{'x' * (max_chars - len(tail) - 2)}\n\n{tail}"
    shown: list[str] = []
    for _ in range(turns):
        shown.append(vary(long_reply, list(reversed(shown)), LADDER, tail, max_chars))
    assert all(len(reply) <= max_chars and reply.endswith(tail) for reply in shown), shown


@settings(max_examples=40, deadline=None)
@given(st.from_regex(r"[A-Za-zÀ-ú][A-Za-zÀ-ú0-9 ,.!?]{0,40}", fullmatch=True))
def test_an_answer_before_the_question_asked_again_is_no_repeat_of_the_bare_question(
    body: str,
) -> None:
    """A proposal's reply is the system's question alone; a question asked meanwhile is
    answered, then that question is asked again: the answer is new, so nothing is rephrased."""
    tail = "Shall I book it? Reply yes."
    reply = f"{body}\n\n{tail}"
    assert vary(reply, [tail], LADDER, tail) == reply
    assert vary(tail, [tail], LADDER, tail) != tail  # the bare question twice still escalates
