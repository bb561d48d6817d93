"""One language's words, as the grammar reads them from its data file.

Every entry of a grammar table is a list of folded phrases (``word_list`` rules) or, for
number-like words, an inline table ``word = value``. :meth:`Vocabulary.alt` turns a list into
a regular-expression alternation: longest phrase first, each word escaped, the words of a
phrase joined by any run of spaces or hyphens ("meio dia" also reads "meio-dia"). A phrase of a
``patterns`` list may end a word with ``*`` (any continuation: "desmarc*") and may offer
alternatives with ``|`` ("mudar|trocar o|meu horario"), mark a word optional with a trailing
``?`` and use ``~`` for any one word ("when is ~ free").

A language whose verbs carry object pronouns written onto them (Spanish "cancélalo",
"resérvamelo") lists them in ``[morphology].enclitics`` and names the lists of commands
(``table = [keys]``) in ``[morphology].enclitic_lists``: there, a phrase's last word, when it is
a plain word (no ``*``, ``~``) of at least four letters ending in a vowel or an "r" (a verb's
imperative or infinitive), also reads with up to two of those pronouns after it ("cancela"
reads "cancelalo", "cambia" reads "cambiamela"). The rule is the language's, not a list of
the verbs' forms.

Likewise a language that makes diminutives with suffixes ("cedinho", "tardinha", "tempranito")
lists them in ``[morphology].diminutives`` and names the lists they apply to in
``[morphology].diminutive_lists``: there, a phrase's last plain word of at least three letters
also reads with each suffix, its last vowel dropped before a suffix that starts with a vowel
("cedo": "cedinho"; "tarde": "tardinha", "tardezinha"; "temprano": "tempranito").

Nothing here names a language: a language is its data file.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from agent_service.application.text import normalize
from agent_service.infrastructure.language.packs import (
    LanguageDataError,
    known_words,
    language_data,
    spoken_languages,
    word_list,
)

BOUND_BEFORE = r"(?<![a-z0-9])"
BOUND_AFTER = r"(?![a-z0-9])"
NEVER = r"(?!x)x"
"""An alternation that matches nothing (a language with no words for a rule)."""


def alternation(phrases: Iterable[str]) -> str:
    """``a|b|c`` over ``phrases``, longest first: most words, then most letters (a word's
    forms, "horario|horarinho", make no phrase longer than one more word: "primeiro horario
    livre" is tried before "primeiro horario|horarinho"); ``NEVER`` when there are none."""
    unique = sorted(set(phrases), key=lambda p: (-len(p.split()), -len(p), p))
    if not unique:
        return NEVER
    return "|".join(_phrase(p) for p in unique)


def _phrase(phrase: str) -> str:
    """The words joined by spaces or hyphens; an optional word takes its separator along."""
    first, *rest = phrase.split()
    out = _word(first.removesuffix("?"))
    for word in rest:
        if word.endswith("?"):
            out += rf"(?:[\s-]+{_word(word.removesuffix('?'))})?"
        else:
            out += rf"[\s-]+{_word(word)}"
    return out


def _word(word: str) -> str:
    """One word of a phrase: ``a|b`` alternatives, each may end in ``*`` (continuation) or,
    added by :meth:`Vocabulary.patterns`, in ``+`` (enclitic pronouns may follow); ``~`` is
    any one word."""
    if word == "~":
        return r"[a-z0-9']+"
    options = []
    for option in word.split("|"):
        if option.endswith("+"):
            options.append(re.escape(option[:-1]) + f"(?:{_enclitics()}){{0,2}}")
            continue
        body = re.escape(option.removesuffix("*"))
        options.append(body + (r"[a-z0-9]*" if option.endswith("*") else ""))
    return options[0] if len(options) == 1 else "(?:" + "|".join(options) + ")"


@functools.cache
def _enclitics() -> str:
    """Every spoken language's enclitic pronouns, as one alternation (only words the
    languages that have them mark with ``+`` take them)."""
    return alternation(p for v in vocabularies() for p in v.words("morphology", "enclitics"))


_COMMAND_WORD = re.compile(r"[a-z]{3,}[aeiour]")
"""A plain word that may be a verb's imperative or infinitive (see the module)."""


def _with_enclitics(phrase: str) -> str:
    """``phrase`` with its last word's plain options marked ``+`` (see the module)."""
    return _last_word(
        phrase, lambda option: [option + "+" if _COMMAND_WORD.fullmatch(option) else option]
    )


def with_enclitic_forms(code: str, table: str, key: str) -> tuple[str, ...]:
    """``[table].key`` of ``code``'s data (folded phrases), and, when
    ``[morphology].enclitic_lists`` names it, each phrase whose last word may be a command
    (see the module) with that word written with one or two of the language's enclitics
    ("mueve": "muevela", "cambiamelo"), never ending in one of ``enclitic_never_last``
    ("cancelase" is another form of the verb): the forms a list of plain words is read in
    (consent reads its words so, not as patterns)."""
    phrases = word_list(code, table, key)
    morphology = language_data(code).get("morphology", {})
    if key not in morphology.get("enclitic_lists", {}).get(table, ()):
        return phrases
    pronouns = tuple(morphology.get("enclitics", ()))
    never_last = frozenset(morphology.get("enclitic_never_last", ()))
    endings = [p for p in pronouns if p not in never_last]
    endings += [a + b for a in pronouns for b in pronouns if b not in never_last]
    forms = list(phrases)
    for phrase in phrases:
        head, _, last = phrase.rpartition(" ")
        if _COMMAND_WORD.fullmatch(last):
            forms += [f"{head} {last}{ending}".lstrip() for ending in endings]
    return tuple(dict.fromkeys(forms))


_PLAIN = re.compile(r"[a-z]{3,}")
_VOWELS = "aeiou"


def _with_diminutives(phrase: str, suffixes: tuple[str, ...]) -> str:
    """``phrase`` with its last word's plain options offered with each suffix too (see the
    module)."""

    def forms(option: str) -> list[str]:
        if not _PLAIN.fullmatch(option):
            return [option]
        dropped = option[:-1] if option[-1] in _VOWELS else option
        return [option, *((dropped if s[0] in _VOWELS else option) + s for s in suffixes)]

    return _last_word(phrase, forms)


def _last_word(phrase: str, options_of: Callable[[str], list[str]]) -> str:
    """``phrase`` with each ``|`` option of its last word replaced by ``options_of(option)``
    (an optional word stays optional)."""
    head, _, last = phrase.rpartition(" ")
    optional = last.endswith("?")
    options = [new for option in last.removesuffix("?").split("|") for new in options_of(option)]
    marked = "|".join(dict.fromkeys(options)) + ("?" if optional else "")
    return f"{head} {marked}" if head else marked


def bounded(body: str) -> re.Pattern[str]:
    """``body`` as a pattern that starts and ends at word edges."""
    return re.compile(f"{BOUND_BEFORE}(?:{body}){BOUND_AFTER}")


@dataclass(frozen=True)
class Vocabulary:
    """The grammar tables of one language's data file."""

    code: str

    def words(self, table: str, key: str) -> tuple[str, ...]:
        """The folded phrases at ``[table].key`` (see ``packs.word_list``)."""
        return word_list(self.code, table, key)

    def patterns(self, table: str, key: str) -> tuple[str, ...]:
        """Phrases that may use ``*``, ``|`` and ``?`` (see the module); each word folded."""
        values = _raw(self.code, table, key)
        for value in values:
            atoms = re.split(r"[\s|]+", value.replace("*", "").replace("?", "").replace("~", ""))
            if any(normalize(atom) != atom for atom in atoms if atom):
                raise LanguageDataError(f"{self.code}.toml: [{table}].{key} has {value!r}")
        morphology = language_data(self.code).get("morphology", {})
        if key in morphology.get("enclitic_lists", {}).get(table, ()) and morphology["enclitics"]:
            return tuple(_with_enclitics(value) for value in values)
        suffixes = tuple(morphology.get("diminutives", ()))
        if key in morphology.get("diminutive_lists", {}).get(table, ()) and suffixes:
            return tuple(_with_diminutives(value, suffixes) for value in values)
        return tuple(values)

    def values(self, table: str, key: str) -> Mapping[str, int]:
        """``[table].key`` as words with numbers: each entry is ``"<folded words> <number>"``
        ("quarenta e cinco 45")."""
        mapping: dict[str, int] = {}
        for entry in self.words(table, key):
            words, _, number = entry.rpartition(" ")
            if not words or not number.isdigit():
                raise LanguageDataError(
                    f"{self.code}.toml: [{table}].{key}: {entry!r} is no 'words N'"
                )
            mapping[words] = int(number)
        return mapping

    def number(self, table: str, key: str) -> float:
        """The number at ``[table].key``."""
        section = language_data(self.code).get(table)
        value = section.get(key) if isinstance(section, dict) else None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise LanguageDataError(f"{self.code}.toml: [{table}].{key} must be a number")
        return float(value)

    def alt(self, table: str, key: str) -> str:
        """The alternation of ``[table].key`` (patterns allowed)."""
        return alternation(self.patterns(table, key))


def _raw(code: str, table: str, key: str) -> list[str]:
    section = language_data(code).get(table)
    values = section.get(key) if isinstance(section, dict) else None
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise LanguageDataError(f"{code}.toml: [{table}].{key} must be a list of strings")
    return values


@functools.cache
def vocabularies() -> tuple[Vocabulary, ...]:
    """One vocabulary per spoken language."""
    return tuple(Vocabulary(code) for code in spoken_languages())


@functools.cache
def number_words(low: int, high: int) -> dict[str, int]:
    """The number words from ``low`` to ``high`` of every spoken language
    (``[numbers].cardinals``) and their values."""
    return {
        word: n
        for v in vocabularies()
        for word, n in v.values("numbers", "cardinals").items()
        if low <= n <= high
    }


def union(table: str, key: str) -> tuple[str, ...]:
    """``[table].key`` of every spoken language, together (patterns allowed)."""
    return tuple(p for vocabulary in vocabularies() for p in vocabulary.patterns(table, key))


@functools.cache
def any_of(table: str, key: str) -> re.Pattern[str]:
    """A word-bounded pattern for ``[table].key`` in any spoken language."""
    return bounded(alternation(union(table, key)))


_WORDS = re.compile(r"[a-z0-9']+")


@functools.cache
def in_language(table: str, key: str, code: str) -> re.Pattern[str]:
    """A word-bounded pattern for ``[table].key`` of ``code`` alone."""
    return bounded(Vocabulary(code).alt(table, key))


def found(table: str, key: str, folded: str, language: str | None = None) -> list[str]:
    """The phrases of ``[table].key`` in ``folded``, in any spoken language, read as a
    conversation in ``language`` reads them: a phrase made only of words ``language`` knows
    (``known_words``) counts only when ``language``'s own list has it (Spanish "fechas" is no
    Portuguese "fecha", closes, in a Spanish conversation). No language: every reading."""
    phrases = [match.group() for match in any_of(table, key).finditer(folded)]
    if language not in spoken_languages() or not phrases:
        return phrases
    own, known = in_language(table, key, language), known_words(language)
    return [p for p in phrases if own.fullmatch(p) or not known.issuperset(_WORDS.findall(p))]
