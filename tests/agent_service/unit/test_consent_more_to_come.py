"""A yes or no followed only by words that lead into more ("sim, e...", "ok, actually...",
"sí, pues...") is not an answer yet: the customer is still typing (consent review 3: 13/13 such
messages booked, so a customer who split "ok actually" / "make it 3pm" over two messages was
booked before the second arrived). Generated over every language's yes words, its
``[consent].lead_in`` words and the ways a chat message trails off; the same lead-in before the
yes, or followed by a courtesy word ("yes and thanks"), still answers."""

from __future__ import annotations

from datetime import datetime, time, timedelta

import pytest

from agent_service.application.consent_policy import Answer, read_answer
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import language_rules
from tests.agent_service.unit.test_restating_yes import TODAY, ZONE, _read

LANGUAGES = ("pt", "en", "es")
TRAILS = ("{yes}, {lead}", "{yes} {lead}", "{yes}, {lead}...", "{yes}... {lead}", "{yes} {lead} …")
TRAILING_OFF = ("{yes}, {lead}...", "{yes}... {lead}..", "{yes} {lead} …")
THANKS = {"pt": "obrigada", "en": "thanks", "es": "gracias"}


def _plain_yeses(language: str) -> list[str]:
    vocabulary = language_rules().consent_in(language)
    own = language_rules().consent(language).yes
    return [y for y in own if read_answer(y, vocabulary, "book").answer is Answer.YES]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_yes_that_trails_into_more_is_no_answer_yet(language: str) -> None:
    vocabulary = language_rules().consent_in(language)
    own = language_rules().consent(language)
    assert own.lead_in and own.lead_in_trailing, language
    forms: list[tuple[str, tuple[str, ...]]] = [(lead, TRAILS) for lead in own.lead_in]
    forms += [(lead, TRAILING_OFF) for lead in own.lead_in_trailing]
    for yes in _plain_yeses(language):
        for lead, trails in forms:
            if f"{yes} {lead}" in own.yes:  # "otimo entao" is a yes of its own
                continue
            for trail in trails:
                said = trail.format(yes=yes, lead=lead)
                assert read_answer(said, vocabulary, "book").answer is not Answer.YES, said


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_lead_in_before_the_yes_or_before_a_courtesy_still_answers(language: str) -> None:
    vocabulary = language_rules().consent_in(language)
    own = language_rules().consent(language)
    fillers = set(own.filler)
    leads = (*own.lead_in, *own.lead_in_trailing)
    for lead in (lead for lead in leads if lead in fillers):
        for yes in _plain_yeses(language)[:12]:
            for said in (f"{lead}, {yes}", f"{yes} {lead} {THANKS[language]}"):
                assert read_answer(said, vocabulary, "book").answer is Answer.YES, said


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_consent_read_of_a_proposal_holds_them_too(language: str) -> None:
    """Review of session 45: the lead-in left over was read again as restating the proposal
    ("e", "and", "y" are restating words too), so "sim, e..." still booked end to end; and a
    hesitation or a second lead-in after it ("yes and um", "ok, and then") booked. Read as the
    turn reads an answer to a proposal (``consent.read``)."""
    start = datetime.combine(TODAY + timedelta(days=1), time(10), ZONE)
    own = language_rules().consent(language)
    ends = ["", *own.hesitation, *own.lead_in_trailing]
    for yes in _plain_yeses(language)[:10]:
        for lead in own.lead_in:
            for end in ends:
                for trail in ("", "...", " …"):
                    said = f"{yes}, {lead} {end}".rstrip() + trail
                    if f"{yes} {lead}" in own.yes:
                        continue
                    assert _read(language, start, said) is not Answer.YES, said
        thanks = f"{yes} {own.lead_in[0]} {THANKS[language]}"
        assert _read(language, start, thanks) is Answer.YES, thanks


STRETCHED = {"pt": ["hmmm", "eee", "entãooo"], "en": ["hmmm", "sooo", "ummm"],
             "es": ["ehhh", "mmmm", "puesss"]}  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_words_after_a_lead_in_or_before_the_dots_leave_more_to_come(language: str) -> None:
    """Second review of the rule: a lead-in followed by a word of the proposal ("sim, e
    amanhã", "yes, and at..."), words before trailing dots ("sim, com a..."), a hesitation
    stretched in chat ("yes and hmmm") and an unaccented Spanish "si..." (an "if") all booked.
    Every language's restating words after each lead-in, with and without the dots."""
    start = datetime.combine(TODAY + timedelta(days=1), time(10), ZONE)
    own = language_rules().consent(language)
    restating = list(word_list(language, "consent", "restating"))[:12]
    assert restating, language
    words = [*restating, TOMORROW_WORD[language], *STRETCHED[language]]
    for yes in _plain_yeses(language)[:6]:
        for lead in own.lead_in:
            for word in words:
                for trail in ("", "..."):
                    said = f"{yes}, {lead} {word}{trail}"
                    assert _read(language, start, said) is not Answer.YES, said
        for word in words[:4]:
            said = f"{yes}, {word}..."
            assert _read(language, start, said) is not Answer.YES, said
    if language == "es":
        assert _read(language, start, "si...") is not Answer.YES
    if language == "pt":
        for said in ("Sim, é.", "sim, é", "isso mesmo, é"):  # "é" (it is) is no "e" (and)
            assert _read(language, start, said) is Answer.YES, said


TOMORROW_WORD = {"pt": "amanhã", "en": "tomorrow", "es": "mañana"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_yes_that_is_also_a_lead_in_trailing_off_is_no_answer_yet(language: str) -> None:
    """Review 17: "bueno..." booked while "pues..." is no answer yet. A yes word listed as a
    lead-in of its language too (Spanish "bueno", "well") leads into more when the message
    trails off after it, alone or after another yes; without the dots, or before another yes,
    it answers. Any other yes trailing off still answers: chat's dots ("ok...", "sim…")."""
    vocabulary = language_rules().consent_in(language)
    own = language_rules().consent(language)
    # every language in play's: Spanish "y" (and) leads on after English "y" (yes) too
    leading = {w for v in vocabulary for w in (*v.lead_in, *v.lead_in_trailing)}
    both = [y for y in _plain_yeses(language) if y in {*own.lead_in, *own.lead_in_trailing}]
    if language == "es":
        assert both == ["bueno"]
    other = next(
        y for y in _plain_yeses(language) if y.split()[-1] not in (*leading, *own.conditional)
    )
    for yes in both:
        for said in (f"{yes}...", f"{yes} …", f"{other}, {yes}...", f"{other}, y {yes}"):
            assert read_answer(said, vocabulary, "book").answer is not Answer.YES, said
        for said in (yes, f"{yes}!", f"{yes}, {other}..."):
            assert read_answer(said, vocabulary, "book").answer is Answer.YES, said
    for yes in _plain_yeses(language):
        if yes in leading or yes.split()[-1] in own.conditional:
            continue  # "si..." is an "if" (test above)
        for said in (f"{yes}...", f"{yes}…", f"{yes} ..."):
            assert read_answer(said, vocabulary, "book").answer is Answer.YES, said


def test_a_hedge_for_many_speakers_is_no_yes() -> None:
    """Review 17: Portuguese "pode ser" booked and Spanish "puede ser" did not, answered as if
    nothing was proposed. "Pode ser" is an acceptance in Brazil (the blind batches book with
    it); "puede ser" is "maybe" in most of the Spanish-speaking world: it is an unsure answer
    (the proposal is not kept), never a yes, alone or beside one."""
    es = language_rules().consent_in("es")
    for said in ("puede ser", "Puede ser.", "sí, puede ser", "puede ser, gracias"):
        reading = read_answer(said, es, "book")
        assert reading.answer is not Answer.YES and reading.unwanted, said
    assert read_answer("pode ser", language_rules().consent_in("pt"), "book").answer is Answer.YES
