"""A verb with object pronouns written onto it ("cancélalo", "resérvamelo") is read as the verb,
in the languages whose data says their verbs take them (``[morphology]``), for every command
word of the declared tables, not for a list of forms; other languages' words take none."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from agent_service.infrastructure.language.grammar.asks import asked
from agent_service.infrastructure.language.grammar.vocabulary import (
    Vocabulary,
    alternation,
    bounded,
)
from agent_service.infrastructure.language.packs import language_data, spoken_languages

_VERB = re.compile(r"[a-z]{3,}[aeiour]")


def _declaring() -> list[str]:
    return [c for c in spoken_languages() if language_data(c)["morphology"]["enclitics"]]


def _command_words(code: str) -> list[tuple[str, str, str]]:
    """(table, key, word): the one-word plain entries of the lists ``code`` declares."""
    data = language_data(code)
    found = []
    for table, keys in data["morphology"]["enclitic_lists"].items():
        for key in keys:
            values = data[table][key]
            found += [(table, key, v) for v in values if _VERB.fullmatch(v)]
    return found


def test_a_move_verb_takes_no_pronoun_its_idioms_are_no_move() -> None:
    """Found by review (session 40): "espero pasarla bien mañana a las 11" proposed a move."""
    for text in ("espero pasarla bien manana a las 11", "manana no puedo moverme de casa"):
        assert "appointments" not in asked(text, "es"), text


def test_spanish_declares_enclitics_and_portuguese_and_english_do_not() -> None:
    assert "es" in _declaring()
    assert {"pt", "en"}.isdisjoint(_declaring())


@given(st.data())
def test_a_command_word_with_pronouns_reads_as_the_word(data: st.DataObject) -> None:
    code = data.draw(st.sampled_from(_declaring()))
    table, key, word = data.draw(st.sampled_from(_command_words(code)))
    pronouns = language_data(code)["morphology"]["enclitics"]
    suffix = "".join(data.draw(st.lists(st.sampled_from(pronouns), min_size=1, max_size=2)))
    pattern = bounded(Vocabulary(code).alt(table, key))
    assert pattern.search(f"por favor {word}{suffix} ya"), (table, key, word + suffix)
    assert not pattern.search(f"por favor {word}{suffix}xq ya")  # no other continuation


@given(st.sampled_from(["pt", "en"]), st.sampled_from(["lo", "la", "me", "nos"]))
def test_languages_without_enclitics_read_no_suffix(code: str, suffix: str) -> None:
    for key in ("appointments",):
        phrases = [p for p in Vocabulary(code).patterns("intents", key) if " " not in p]
        verbs = [p for p in phrases if _VERB.fullmatch(p)]
        pattern = bounded(alternation(Vocabulary(code).patterns("intents", key)))
        for verb in verbs:
            assert not pattern.fullmatch(verb + suffix) or (verb + suffix) in phrases


def test_a_cancel_with_a_pronoun_asks_about_ones_appointments() -> None:
    # built from the data's own words: every plain cancel word of the table, with a pronoun
    pronouns = language_data("es")["morphology"]["enclitics"]
    words = [w for t, k, w in _command_words("es") if (t, k) == ("intents", "appointments")]
    assert words
    for word in words:
        for pronoun in pronouns:
            assert "appointments" in asked(f"{word}{pronoun} por favor", "es"), word + pronoun
