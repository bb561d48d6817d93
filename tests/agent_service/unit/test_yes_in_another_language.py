"""A yes written in another language than the question confirms the same terms (review 14:
"yes please, book it" to a Portuguese question was told "Not done: ... changed since I asked
(the business updated it)", a false statement, and nothing was booked): the proposal's terms
told in words (``consent.RENDERED_TERMS``) are shown, never compared; every structured term
still is.

* property: a confirmed call whose rendered terms differ, and only they, runs; one whose any
  other term differs does not;
* played: a proposal in each language answered with a yes detected as each other language
  books it.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_service.infrastructure.agent.consent import RENDERED_TERMS, confirmed_as_shown
from agent_service.infrastructure.agent.deps import PendingAction
from tests.agent_service.conversation_fixtures import Assistant, seed_salon
from tests.agent_service.unit.test_offline_turned_down import PROPOSALS

KEYS = ["service", "professional", "start", "price", "minutes", *sorted(RENDERED_TERMS)]
ARGUMENTS = {"professional_id": "p", "service_id": "s", "start_time": "2026-12-01T10:00:00-03:00"}
terms = st.fixed_dictionaries({key: st.text(min_size=1, max_size=8) for key in KEYS})


@given(shown=terms, now=terms, changed=st.sampled_from(KEYS))
def test_only_a_rendered_term_may_differ(
    shown: dict[str, str], now: dict[str, str], changed: str
) -> None:
    pending = PendingAction("book_appointment", ARGUMENTS, "x", confirmed=True, details=shown)
    same = {**shown, **{key: now[key] for key in RENDERED_TERMS}}
    assert confirmed_as_shown(pending, "book_appointment", ARGUMENTS, same)
    other = {**shown, changed: shown[changed] + "!"}
    ran = confirmed_as_shown(pending, "book_appointment", ARGUMENTS, other)
    assert ran is (changed in RENDERED_TERMS), changed


YES = {
    "pt": "sim, pode marcar por favor",
    "en": "yes please, book it",
    "es": "sí, por favor, resérvalo",
}


@pytest.mark.parametrize(("asked", "answered"), [(a, b) for a in PROPOSALS for b in YES if a != b])
async def test_a_yes_in_another_language_books_the_proposal(asked: str, answered: str) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    proposed = await assistant.say(salon.tenant.id, PROPOSALS[asked])
    assert proposed.result.pending is not None, proposed.result.reply
    answer = await assistant.say(salon.tenant.id, YES[answered])
    assert len(assistant.calendar.events) == 1, answer.result.reply
    assert answer.result.pending is None, answer.result.reply
