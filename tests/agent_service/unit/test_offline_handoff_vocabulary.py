"""The offline model's handoff intent reads the same ``[handoff]`` request phrases of the
language data as the code-level handoff (issue 21 item 5, one vocabulary): whatever the text,
the offline model hands off exactly when the application policy finds a request for a person
(or the text is a complaint, ``[intents].complaint``); a person word inside a product question
is neither."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.handoff_policy import asks_for_person
from agent_service.application.text import normalize
from agent_service.infrastructure.agent.offline.intents import classify_intent
from agent_service.infrastructure.language.grammar.vocabulary import any_of
from agent_service.infrastructure.language.packs import data_languages
from agent_service.infrastructure.language.rules import language_rules
from tests.scale import size

RULES = language_rules()
HANDOFF = tuple(RULES.handoff(code) for code in data_languages())
COMPLAINT = any_of("intents", "complaint")
EXAMPLES = settings(max_examples=size(40, 400), deadline=None)
VOCABULARY = sorted(
    {p for h in HANDOFF for group in (h.talk, h.want, h.person, h.between) for p in group}
)
PERSONS = sorted({p for h in HANDOFF for p in h.person})
TALK = sorted({p for h in HANDOFF for p in h.talk})
WORD = st.text(st.sampled_from(string.ascii_lowercase + "áçãé"), min_size=3, max_size=8)
PRODUCT = WORD.filter(
    lambda w: normalize(w) not in VOCABULARY and not COMPLAINT.search(normalize(w))
)


def _offline_hands_off(text: str) -> bool:
    return classify_intent(text)[0] == "handoff"


@EXAMPLES
@given(
    words=st.lists(st.one_of(st.sampled_from(VOCABULARY), PRODUCT), min_size=1, max_size=7),
    tail=st.sampled_from(["", "?", "!", ".", " por favor"]),
)
def test_the_offline_handoff_is_the_policy_over_the_language_data(
    words: list[str], tail: str
) -> None:
    text = " ".join(words) + tail
    expected = asks_for_person(text, HANDOFF) or bool(COMPLAINT.search(normalize(text)))
    assert _offline_hands_off(text) == expected, text


@EXAMPLES
@given(
    talk=st.sampled_from(TALK),
    person=st.sampled_from(PERSONS),
    tail=st.sampled_from(["", "?", " please", ", por favor", "!"]),
)
def test_asking_to_talk_to_a_person_is_a_handoff_for_the_offline_model(
    talk: str, person: str, tail: str
) -> None:
    assert _offline_hands_off(f"{talk} {person}{tail}")


@EXAMPLES
@given(
    opening=st.sampled_from(["Vocês fazem", "Do you have", "¿Hacen", "Tem"]),
    product=st.lists(PRODUCT, min_size=1, max_size=3),
    person=st.sampled_from(PERSONS),
    after=st.lists(PRODUCT, min_size=1, max_size=2),
)
def test_a_person_word_inside_a_product_question_is_no_offline_handoff(
    opening: str, product: list[str], person: str, after: list[str]
) -> None:
    text = f"{opening} {' '.join(product)} {person} {' '.join(after)}?"
    assert not _offline_hands_off(text), text
