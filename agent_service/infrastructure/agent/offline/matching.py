# Over 300 lines: every rule of which catalog entry, option or name a message refers to.
"""Which catalog entry, option or name a message refers to.

:func:`best_match` rules:

* Text and candidates are folded (no accents, lowercase) and split into words; stopwords (pt and
  en function words plus booking verbs) and words shorter than 3 characters are ignored.
* Two words match exactly (weight 1.0) or loosely (weight 0.8): one is a prefix of the other
  and they differ by at most 3 characters ("corte"/"cortes", "unha"/"unhas"), or they share a
  prefix of at least 5 characters covering all but 2 characters of the shorter word
  ("coloracao"/"coloracoes").
* A candidate scores ``(sum of its matched word weights, matched share of its words)``: one word
  of a candidate is enough ("com a Ana" matches "Ana Souza"), and the fuller match wins
  ("manicure" prefers "Manicure" over "Manicure e pedicure"). No match, or two candidates with
  the same top score, gives ``None``.

:func:`extract_name` finds "meu nome é X", "me chamo X", "pode me chamar de X", "sou (o|a) X",
"aqui é (o|a) X", "my name is X", "I'm X", "I am X", "this is X", "call me X", "nome: X";
it keeps up to 3 words, stops at a common word ("e", "and", "quero", ...), keeps the particles
``da/de/do/das/dos`` lowercase inside a name, and rejects a first word that is a common word
("sou cliente", "I'm looking").

:func:`ordinal_choice` reads "o primeiro", "a segunda", "opção 2", "option three", "2", "#2",
"2º", "the 2nd", "second one", "o último"/"the last", "penúltimo"; a number counts only when it
is the whole message (with an optional article) or follows "opção/option/número/number/#" or
carries an ordinal suffix. Portuguese weekday words ("segunda-feira") and "primeira vez"/"first
time" are not choices. Two different choices in one message are ambiguous: ``None``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from agent_service.application import customer_names
from agent_service.application.service_lexicon import (
    name_word_similarity,
    tied_best,
    unique_best,
    word_similarity,
)
from agent_service.infrastructure.agent.offline.text import normalize, tokens
from agent_service.infrastructure.language.grammar.vocabulary import (
    alternation,
    any_of,
    bounded,
    number_words,
    union,
    vocabularies,
)
from agent_service.infrastructure.language.lexicon import service_lexicon
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import language_rules

__all__ = [
    "STOPWORDS",
    "best_match",
    "best_match_group",
    "best_person",
    "best_service",
    "extract_name",
    "initials",
    "ordinal_choice",
    "service_candidates",
    "visit_parts",
]


def _words(text: str) -> list[str]:
    return text.split()


STOPWORDS = frozenset(union("matching", "stopwords"))
"""Words that never name a catalog entry, in every spoken language (``[matching].stopwords``)."""
_COMMON_WORDS = STOPWORDS | frozenset(
    _words(
        """
    cliente nova novo aqui procurando interessado interessada so apenas eu mesmo mesma
    looking interested new here just calling trying wondering fine good ok okay sorry not
    available free busy going customer client back also still very really glad happy
    great perfect awesome amazing nice bad wrong urgent about regarding too muito grata grato
    gostaria queria vou estou tudo bem chamo chama sou from am name nome
    """
    )
)


def initials(name: str) -> str | None:
    """The initials of a name of three words or more, none a function word ("Reeducação
    Postural Global": "rpg"), which customers say for it; ``None`` for a shorter name, one with
    a function word between ("Corte de Unhas") or initials that are a word of their own."""
    words = tokens(name)
    if len(words) < 3 or any(len(w) < 3 or w in STOPWORDS for w in words):
        return None
    short = "".join(w[0] for w in words)
    return None if short in _COMMON_WORDS else short


# --- best_match --------------------------------------------------------------------------


def _significant(text: str) -> list[str]:
    return [word for word in tokens(text) if len(word) >= 3 and word not in STOPWORDS]


def _score(
    words: list[str],
    candidate: str,
    exact: frozenset[str] = frozenset(),
    alike: Callable[[str, str], float] = word_similarity,
) -> tuple[float, float]:
    """How much of ``candidate`` ``words`` say (each of its words' best likeness by
    ``alike``); a word of ``exact`` is like only itself."""
    wanted = _significant(candidate)
    if not wanted:
        return 0.0, 0.0
    weights = [
        max((float(w == c) if w in exact else alike(w, c) for w in words), default=0.0)
        for c in wanted
    ]
    matched = sum(weights)
    return round(matched, 6), round(matched / len(wanted), 6)


def best_match(text: str, candidates: Sequence[str]) -> int | None:
    """The index of the candidate best mentioned in ``text``; ``None`` if none or a tie."""
    words = _significant(text)
    if not words:
        return None
    scores = [_score(words, candidate) for candidate in candidates]
    if not scores:
        return None
    top = max(scores)
    if top[0] <= 0 or scores.count(top) > 1:
        return None
    return scores.index(top)


def service_candidates(text: str, groups: Sequence[Sequence[str]]) -> list[int]:
    """The catalog services ``text`` may mean (each group: a name and the salon's aliases):
    the salon's own words first (:func:`best_match_group`); when they name none, or tie, the
    built-in lexicon (``application/service_lexicon.py``) over those tied, else over all. One
    index: that service; several: a tie the customer is asked about; none: not named. An
    earliest or latest phrase names no service ("lo primero que tengan" is no "Primeira
    Consulta")."""
    text = _when_phrases().sub(" ", normalize(text))
    words = _significant(text)
    said_by = [
        max(((_score(words, n, alike=name_word_similarity), n) for n in g), default=_NONE)
        for g in groups
    ]
    scores = [score for score, _ in said_by]
    # Whom a service is for, as the name the message said it by puts it ("barba" of "Barba
    # completa" says no "completa").
    scores = _without_unsaid_qualifiers(text, [(name,) for _, name in said_by], scores)
    top = max(scores, default=(0.0, 0.0))
    # The fuller match wins only over the same words when it is said whole ("manicure":
    # "Manicure", not "Manicure e pedicure"); a word two names share is a tie otherwise
    # ("nutricionista": "Primeira Consulta de Nutrição" and "Retorno de Nutrição").
    own = [
        i
        for i, score in enumerate(scores)
        if top[0] > 0 and (score == top or (top[1] < 1.0 and score[0] == top[0]))
    ]
    if len(own) == 1 and top[1] >= 1.0:
        return own
    if len(own) == 1:
        # A name said in part may be said for a word of another service: "consulta" of
        # "Primeira Consulta de Nutrição" in "consulta de seguimiento". A service the lexicon
        # finds better named by kinds of service (never by whom it is for: a qualifier) wins,
        # by a kind the message says that the salon's own winner is not: a kind both are in
        # part ("evaluación" of "Avaliação Optométrica" and of "Avaliação Visual Infantil")
        # leaves the customer's own words the judge.
        said = _whom_said(text)
        kinds = [
            score if _whom(group) == said else 0.0
            for score, group in zip(
                service_lexicon().scores(text, list(groups), qualifiers=False), groups, strict=True
            )
        ]
        best = unique_best(kinds)
        if best is None or kinds[best] <= kinds[own[0]]:
            return own
        return [best] if _kinds_apart(text, groups[best], groups[own[0]]) else own
    # A tie of the salon's own words comes from a word they share ("fisio" of "Sessão de
    # Fisioterapia" and "Avaliação Fisioterapêutica"): the lexicon then judges every service,
    # so a service the message names in other words ("punción seca") is not lost to it.
    lexical = _for_whom_said(text, groups, service_lexicon().scores(text, list(groups)))
    best = unique_best(lexical)
    if best is not None and (not own or lexical[best] > max(lexical[i] for i in own)):
        return [best]
    pool = own or list(range(len(groups)))
    best = unique_best([lexical[i] for i in pool])
    if best is not None:
        return [pool[best]]
    return own or [pool[i] for i in tied_best([lexical[i] for i in pool])]


_NONE = ((0.0, 0.0), "")


def _kinds_apart(text: str, group: Sequence[str], other: Sequence[str]) -> bool:
    """Whether ``text`` names a kind of service (no qualifier) that ``group`` is and
    ``other`` is not."""
    lexicon = service_lexicon()
    said = lexicon.kinds_in(text).keys() - lexicon.qualifiers
    return bool(said & lexicon.kinds_of(group).keys() - lexicon.kinds_of(other).keys())


@functools.cache
def _when_phrases() -> re.Pattern[str]:
    """The spoken languages' earliest and latest phrases (``[ranges]``)."""
    return bounded(alternation([*union("ranges", "earliest"), *union("ranges", "latest")]))


def _without_unsaid_qualifiers(
    text: str, groups: Sequence[Sequence[str]], scores: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    """The salon's own-word ``scores`` without the services whose names say whom they are
    for (lexicon qualifier kinds: a couple, a private class, a large dog) otherwise than the
    message, while another service the message names does not: those saying none the message
    does ("terapia" and "terapia individual" are "Sessão de Psicoterapia", not "Terapia de
    Casal"); then, when a service whose name says whom it is for as the message does is named
    by other words too, those missing one it says ("couples therapy session" is "Terapia de
    Casal", not "Sessão de Psicoterapia"; "corte de uñas para mi gato" is still "Corte de
    Unhas": "Banho para Gatos" is named by its cat only). A step that would leave none changes
    nothing."""
    own = [_whom(group) for group in groups]
    if not any(q for q, score in zip(own, scores, strict=True) if score[0] > 0):
        return scores  # no service named says whom it is for: the message need not be read
    said = _whom_said(text)
    names = [group[0] for group in groups]
    unsaid = [
        score[0] > 0 and bool(q) and not q & said for q, score in zip(own, scores, strict=True)
    ]
    if any(score[0] > 0 and not u for score, u in zip(scores, unsaid, strict=True)):
        scores = [(0.0, 0.0) if u else score for score, u in zip(scores, unsaid, strict=True)]
    if not said:
        return scores
    kinds = service_lexicon().kinds
    whom = {w for kind in said for phrase in kinds[kind] for w in tokens(phrase)}
    rest = [w for w in _significant(text) if not any(word_similarity(w, q) for q in whom)]
    agrees = [
        score[0] > 0 and said <= q and _score(rest, name, alike=name_word_similarity)[0] > 0
        for q, name, score in zip(own, names, scores, strict=True)
    ]
    if any(agrees):
        scores = [(0.0, 0.0) if said - q else score for q, score in zip(own, scores, strict=True)]
    return scores


def _for_whom_said(text: str, groups: Sequence[Sequence[str]], scores: list[float]) -> list[float]:
    """Whom the message says a service is for ("para mi hija", "a children's eye exam") picks
    among the services the lexicon finds: those for them, when some are ("examen de la vista
    para mi hija": "Avaliação Visual Infantil", not "Avaliação Optométrica" by a longer share
    of its name)."""
    said = _whom_said(text)
    if not said:
        return scores
    fits = [score > 0 and said <= _whom(group) for score, group in zip(scores, groups, strict=True)]
    if not any(fits):
        return scores
    return [score if fit else 0.0 for score, fit in zip(scores, fits, strict=True)]


def _whom(names: Sequence[str]) -> frozenset[str]:
    """The lexicon's qualifier kinds (whom a service is for) a catalog entry's names say."""
    lexicon = service_lexicon()
    return frozenset(lexicon.kinds_of(names).keys() & lexicon.qualifiers)


def _whom_said(text: str) -> frozenset[str]:
    """The lexicon's qualifier kinds a message says."""
    lexicon = service_lexicon()
    return frozenset(lexicon.kinds_in(text).keys() & lexicon.qualifiers)


def visit_parts(text: str, groups: Sequence[Sequence[str]]) -> list[tuple[str, list[int]]]:
    """A message that names several services ("corte e barba", "mani and pedi", "corte con
    Ana y cejas con Lía"): each part (split at commas and ``[matching].and_words``) that names
    a service, with the services it may mean. Empty when the message names at most one, or
    when one catalog name spans the parts ("Corte e escova", "cut and beard" for a combo)."""
    folded = any_of("intents", "anyone").sub(
        " ", normalize(text)
    )  # "qualquer barbeiro": no service
    parts = [p.strip() for p in _and_words().split(folded) if p.strip()]
    named = [(part, found) for part in parts if (found := service_candidates(part, groups))]
    distinct = {tuple(found) for _, found in named}
    if len(named) < 2 or len(distinct) < 2 or _spans(named, groups):
        return []
    return named


@functools.cache
def _and_words() -> re.Pattern[str]:
    return re.compile(rf",|\s(?:{alternation(union('matching', 'and_words'))})\s")


def _spans(named: list[tuple[str, list[int]]], groups: Sequence[Sequence[str]]) -> bool:
    """Whether one catalog name has words in two of the parts (it is one service)."""
    for group in groups:
        for name in group:
            wanted = _significant(name)
            hit = [
                any(word_similarity(w, n) > 0 for w in _significant(part) for n in wanted)
                for part, _ in named
            ]
            if sum(hit) >= 2 and len(wanted) >= 2:
                return True
    return False


def best_service(text: str, groups: Sequence[Sequence[str]]) -> int | None:
    """The one service ``text`` names (see :func:`service_candidates`), else ``None``."""
    found = service_candidates(text, groups)
    return found[0] if len(found) == 1 else None


def best_match_group(
    text: str, groups: Sequence[Sequence[str]], exact: frozenset[str] = frozenset()
) -> int | None:
    """Like :func:`best_match` over groups of names for one thing (a name and its aliases):
    a group scores its best member; ``None`` if none or two groups tie. A word of ``exact``
    matches only itself."""
    words = _significant(text)
    if not words or not groups:
        return None
    scores = [
        max((_score(words, name, exact) for name in group), default=(0.0, 0.0)) for group in groups
    ]
    top = max(scores)
    if top[0] <= 0 or scores.count(top) > 1:
        return None
    return scores.index(top)


def best_person(text: str, groups: Sequence[Sequence[str]]) -> int | None:
    """:func:`best_match_group` over people's names; when it finds none, a name spelled as
    it sounds ("iasmim" for Yasmin, "Enrique" for Henrique, "Luisa" for Luiza): a word of
    ``PHONETIC_MIN`` letters or more whose :func:`sound` is a name word's, in one group only.
    A word of the spoken languages ("take", "check") is a name only as itself: never a
    shortened or misspelled one ("I'll take it" names no Takeda; "Rafa" may be Rafaela)."""
    common = language_rules().common_words()
    found = best_match_group(text, groups, common)
    if found is not None:
        return found
    said = {sound(w) for w in _significant(text) if len(w) >= PHONETIC_MIN and w not in common}
    if not said:
        return None
    hits = [
        i
        for i, group in enumerate(groups)
        if said & {sound(w) for name in group for w in _significant(name) if len(w) >= 3}
    ]
    return hits[0] if len(hits) == 1 else None


PHONETIC_MIN = 4
_SPELLINGS = (("ph", "f"), ("y", "i"), ("k", "c"), ("w", "v"), ("z", "s"))
_SILENT_H = re.compile(r"(?<![cslnp])h")
_DOUBLED = re.compile(r"(.)\1+")


def sound(word: str) -> str:
    """A folded word as it sounds in the spoken languages' names: one spelling for letters
    written either way (ph/f, y/i, k/c, w/v, z/s), a silent h dropped (not in ch, sh, lh, nh,
    ph), a final m as n, doubled letters once."""
    for written, said in _SPELLINGS:
        word = word.replace(written, said)
    word = _SILENT_H.sub("", word)
    word = word[:-1] + "n" if word.endswith("m") else word
    return _DOUBLED.sub(r"\1", word)


# --- extract_name ------------------------------------------------------------------------


def extract_name(text: str) -> str | None:
    """The customer's name when they introduce themselves (``application.customer_names``,
    over the spoken languages' ``[names]`` data; production memory uses the same rule)."""
    rules = language_rules()
    return customer_names.extract_name(text, [rules.names(c) for c in rules.in_play("pt")])


# --- ordinal_choice ----------------------------------------------------------------------


@functools.cache
def _choice_patterns() -> tuple[re.Pattern[str], ...]:
    def words(table: str, key: str) -> str:
        return alternation(union(table, key))

    number = rf"(?P<n>\d{{1,2}}|{alternation(_cardinals())})"
    return (
        re.compile(rf"(?:\b(?:{words('matching', 'choice_words')})|#)\s*{number}\b"),
        re.compile(rf"^\W*(?:(?:{words('matching', 'choice_articles')})\s+)?{number}\W*$"),
        re.compile(
            rf"(?<![\d/:.,$])\b(?P<n>\d{{1,2}})(?:{words('numbers', 'ordinal_suffixes')})\b"
            rf"(?!\s*(?:{words('dates', 'month_connectors')})\b)"
        ),
        re.compile(
            rf"\b(?P<w>{alternation(_ordinals())})\b"
            rf"(?![\s-]*(?:{words('dates', 'weekday_suffixes')}))"
            rf"(?!\s+(?:{words('matching', 'not_choice_after')})\b)"
        ),
        re.compile(
            rf"\b(?:(?P<before_last>{words('matching', 'second_to_last')})"
            rf"|(?P<last>{words('matching', 'last')}))\b"
        ),
    )


def ordinal_words() -> frozenset[str]:
    """The spoken languages' ordinal words ("segunda", "quinta", "third")."""
    return frozenset(_ordinals())


@functools.cache
def _ordinals() -> dict[str, int]:
    return {w: n for v in vocabularies() for w, n in v.values("numbers", "ordinals").items()}


@functools.cache
def _cardinals() -> dict[str, int]:
    return {
        w: n for v in vocabularies() for w, n in v.values("numbers", "cardinals").items() if n <= 10
    }


def bare_number(text: str, language: str | None = None) -> int | None:
    """The hour a message that is only a number says ("11", "as 4", "a las 9"; a word before
    an hour or a choice's article at most), besides words of ``language`` that only agree
    ("eleven works", "as 11 pode ser", "11 então, por favor": ``[consent]`` yes and filler),
    else ``None``: read against a listing of times."""
    folded = normalize(text).strip()
    match = _bare_number().fullmatch(folded)
    if match is None and language is not None:
        match = _bare_number().fullmatch(_agreement(language).sub(" ", folded).strip())
    if match is None:
        return None
    number = match.group("n")
    value = int(number) if number.isdigit() else number_words(1, 12).get(number)
    return value if value is not None and 1 <= value <= 23 else None


@functools.cache
def _agreement(language: str) -> re.Pattern[str]:
    """Words of ``language`` that only agree or are polite (``[consent]`` yes and filler; its
    own, since English "um" is a hesitation and Portuguese "um" is one)."""
    words = [w for key in ("yes", "filler") for w in word_list(language, "consent", key)]
    return bounded(alternation(words))


@functools.cache
def _bare_number() -> re.Pattern[str]:
    lead = alternation([*union("times", "markers"), *union("matching", "choice_articles")])
    number = rf"(?P<n>\d{{1,2}}|{alternation(number_words(1, 12))})"
    return re.compile(rf"\W*(?:(?:{lead})\s+)?{number}(?:\s?h)?\W*")


def ordinal_choice(text: str, count: int) -> int | None:
    """The 0-based option the message picks among ``count`` options, else ``None``."""
    folded = normalize(text)
    picks = {pick for pattern in _choice_patterns() for pick in _picks(pattern, folded, count)}
    if len(picks) != 1:
        return None
    pick = picks.pop()
    return pick if 0 <= pick < count else None


def _picks(pattern: re.Pattern[str], folded: str, count: int) -> list[int]:
    found: list[int] = []
    for match in pattern.finditer(folded):
        groups = match.groupdict()
        if groups.get("before_last"):
            found.append(count - 2)
        elif groups.get("last"):
            found.append(count - 1)
        elif groups.get("w"):
            found.append(_ordinals()[groups["w"]] - 1)
        else:
            number = groups["n"]
            found.append((int(number) if number.isdigit() else _cardinals()[number]) - 1)
    return found
