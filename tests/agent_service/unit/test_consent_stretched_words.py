"""A word slipped in chat is the word (``application/chat_spelling``), read as rules over every
language's consent words, never as a list of misspellings.

* Stretched: the last letter repeated any number of times (session 44, blind consent review:
  "simmm" was a yes and "simm pfv" was not), a vowel inside doubled or more (review 17: "simm"
  was a yes and "siim, pode" a change), any letter three times or more ("isssso"). A doubled
  consonant inside spells another word: never a yes ("valle", a valley, is no "vale").
* Swapped: two neighbouring letters of a word of five letters or more in each other's place
  (review 17: "confrima" was asked again), in a customer's answer only (never in the model's
  courtesy: a slip of a yes word there would pass for agreement).
* A word any language's data knows is itself, never a slip of another word; a slip beside a
  word in no list, or with a question mark, confirms nothing.
"""

from __future__ import annotations

import itertools
import re

import pytest

from agent_service.application.chat_spelling import SWAP_MIN_LETTERS, VOWELS, swaps
from agent_service.application.consent_policy import Answer, read_answer
from agent_service.infrastructure.agent.statement_words import statement_rules
from agent_service.infrastructure.language.packs import known_words
from agent_service.infrastructure.language.rules import language_rules

LANGUAGES = ("pt", "en", "es")
_WORD = re.compile(r"[a-z]+")


def _one_word(phrases: tuple[str, ...]) -> list[str]:
    return [p for p in phrases if p.isalpha() and len(p) >= 2]


def _consent_words() -> frozenset[str]:
    """Every word of every consent phrase of every language (a kind's forms included)."""
    words = set()
    for code in LANGUAGES:
        v = language_rules().consent(code)
        kinds = (w for _, ws in (*v.yes_by_kind, *v.no_by_kind) for w in ws)
        for phrase in (*v.yes, *v.no, *v.filler, *v.unsure, *v.unclear, *kinds):
            words.update(_WORD.findall(phrase))
    return frozenset(words)


def _answers(language: str) -> list[tuple[Answer, str]]:
    """The language's one-word yes and no words that read as themselves."""
    vocabulary = language_rules().consent_in(language)
    own = language_rules().consent(language)
    return [
        (answer, word)
        for answer, words in ((Answer.YES, own.yes), (Answer.NO, own.no))
        for word in _one_word(words)
        if read_answer(word, vocabulary, "book").answer is answer
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_yes_or_no_word_with_its_last_letter_repeated_reads_as_itself(language: str) -> None:
    vocabulary = language_rules().consent_in(language)
    for answer, word in _answers(language):
        for times in (2, 3, 5):
            stretched = word + word[-1] * (times - 1)
            got = read_answer(stretched, vocabulary, "book").answer
            assert got is answer, (language, stretched, got)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_vowel_inside_stretched_reads_as_the_word(language: str) -> None:
    """Review 17: "siim, pode" was read as a change. Every vowel of every one-word yes and
    no, doubled and tripled, alone and before another yes."""
    vocabulary = language_rules().consent_in(language)
    every = _consent_words()
    checked = 0
    for answer, word in _answers(language):
        for i, letter in enumerate(word[:-1]):
            if letter not in VOWELS:
                continue
            for times in (2, 3):
                stretched = word[:i] + letter * times + word[i + 1 :]
                if stretched in every or stretched in known_words(language):
                    continue  # a word of its own ("sii" is listed)
                got = read_answer(stretched, vocabulary, "book").answer
                assert got is answer, (language, stretched, got)
                checked += 1
    assert checked
    assert read_answer("siim, pode", vocabulary, "book").answer is Answer.YES or language != "pt"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_doubled_consonant_inside_a_word_does_not_make_it_a_yes(language: str) -> None:
    """Only a vowel or the end of a word is stretched by one more letter: "valle" (a valley)
    is no "vale"; three of a consonant are a stretch ("isssso")."""
    vocabulary = language_rules().consent_in(language)
    own = language_rules().consent(language)
    every_yes = {p for code in LANGUAGES for p in language_rules().consent(code).yes}
    checked = 0
    for word in _one_word(own.yes):
        if any(a == b for a, b in itertools.pairwise(word)):
            continue  # a doubled letter of its own ("isso")
        for i in range(1, len(word) - 1):
            if word[i] in VOWELS:
                continue
            inner = word[:i] + word[i] + word[i:]
            if inner in every_yes:
                continue
            assert read_answer(inner, vocabulary, "book").answer is not Answer.YES, inner
            tripled = word[:i] + word[i] * 3 + word[i + 1 :]
            if read_answer(word, vocabulary, "book").answer is Answer.YES:
                assert read_answer(tripled, vocabulary, "book").answer is Answer.YES, tripled
            checked += 1
    assert checked


def _swapped(language: str) -> list[tuple[Answer, str, str]]:
    """Each one-word yes and no of five letters or more with two neighbouring letters swapped,
    when the swap is no word of any language's data nor a swap of another consent word."""
    every = _consent_words() | frozenset().union(*map(known_words, LANGUAGES))
    forms = [
        (answer, word, form)
        for answer, word in _answers(language)
        if len(word) >= SWAP_MIN_LETTERS
        for form in sorted(swaps(word))
    ]
    counts: dict[str, set[str]] = {}
    for word in _consent_words():
        if len(word) >= SWAP_MIN_LETTERS:
            for form in swaps(word):
                counts.setdefault(form, set()).add(word)
    return [(a, w, f) for a, w, f in forms if f not in every and counts[f] == {w}]


@pytest.mark.parametrize("language", LANGUAGES)
def test_two_letters_swapped_read_as_the_word_in_an_answer(language: str) -> None:
    """Review 17: "confrima" was asked again. Every swap of every long yes and no word."""
    vocabulary = language_rules().consent_in(language)
    forms = _swapped(language)
    assert forms
    for answer, word, form in forms:
        got = read_answer(form, vocabulary, "book").answer
        assert got is answer, (language, word, form, got)
    if language == "pt":
        assert read_answer("confrima", vocabulary, "book").answer is Answer.YES


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_swap_is_no_courtesy_in_the_models_text(language: str) -> None:
    """The model's sentences are read with the courtesy vocabulary (no ``spelled`` words): a
    swapped yes word there is a word in no list, never agreement."""
    courtesy = statement_rules(tuple(language_rules().in_play(language))).courtesy
    for answer, word, form in _swapped(language)[:40]:
        if answer is Answer.YES:
            assert courtesy(word, True), word
            assert not courtesy(form, True), form


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_word_the_data_know_is_never_a_slip_of_another(language: str) -> None:
    """Every word any language's data or catalog uses (in no consent list) reads as no answer
    ("off" is no "of", "three" no "there", "precios" no "preciso")."""
    vocabulary = language_rules().consent_in(language)
    every = _consent_words()
    known = sorted(frozenset().union(*map(known_words, LANGUAGES)) - every)
    assert known
    for word in known:
        reading = read_answer(word, vocabulary, "book")
        assert not reading.answered, (language, word, reading)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_slip_beside_another_word_or_asking_never_confirms(language: str) -> None:
    vocabulary = language_rules().consent_in(language)
    other = {"pt": "amanhã", "en": "tomorrow", "es": "mañana"}[language]
    slips = [f for a, _, f in _swapped(language) if a is Answer.YES][:20]
    slips += [w[0] + w[1] * 2 + w[2:] for a, w in _answers(language) if a is Answer.YES][:20]
    for slip in slips:
        for said in (f"{slip}?", f"{slip} {other}", f"{other} {slip}", f"{slip} xyzzy"):
            assert read_answer(said, vocabulary, "book").answer is not Answer.YES, said
