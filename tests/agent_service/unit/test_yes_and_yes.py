"""A yes, a lead-in word that is courtesy ("and", "e", "y"), then a yes of the same kind of
change ("go ahead and book it", "ok e pode marcar", "vale y cancélala") is a yes: what follows
the lead-in is the answer said again, not more to come (review 12: "ok sounds great go ahead
and book it", "go ahead and cancel" were asked again). A yes of another kind, a no or a
hesitation after the lead-in still leaves more to come.

Generated over every language's yes phrases, filler lead-ins and kind yes phrases.
"""

from __future__ import annotations

import pytest

from agent_service.application.consent_policy import Answer, read_answer
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import language_rules

KINDS = {"book": "yes_book", "cancel": "yes_cancel", "reschedule": "yes_reschedule"}


def _lead_ins(code: str) -> list[str]:
    filler = set(word_list(code, "consent", "filler"))
    return [w for w in word_list(code, "consent", "lead_in") if w in filler]


@pytest.mark.parametrize("code", ["pt", "en", "es"])
def test_a_yes_then_a_lead_in_then_a_yes_of_the_kind_is_a_yes(code: str) -> None:
    rules = language_rules().consent_in(code)
    yeses = word_list(code, "consent", "yes")[:12]
    wrong = []
    for kind, key in KINDS.items():
        others = [w for k in KINDS.values() if k != key for w in word_list(code, "consent", k)]
        own = [w for w in word_list(code, "consent", key) if w not in others]
        other = [w for w in others if w not in word_list(code, "consent", key)]
        for yes in yeses:
            for lead in _lead_ins(code):
                for said in own:
                    reading = read_answer(f"{yes} {lead} {said}", rules, kind)
                    if reading.answer is not Answer.YES:
                        wrong.append((kind, f"{yes} {lead} {said}", reading.leftover))
                for said in [*other[:3], *word_list(code, "consent", "no")[:3]]:
                    reading = read_answer(f"{yes} {lead} {said}", rules, kind)
                    if reading.answer is Answer.YES:
                        wrong.append((kind, f"{yes} {lead} {said}", "read as a yes"))
    assert not wrong, wrong[:20]
