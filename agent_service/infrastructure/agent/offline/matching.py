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

import re
from collections.abc import Sequence

from agent_service.application import customer_names
from agent_service.infrastructure.agent.offline.text import normalize, tokens
from agent_service.infrastructure.language.rules import language_rules

__all__ = ["STOPWORDS", "best_match", "best_match_group", "extract_name", "ordinal_choice"]


def _words(text: str) -> list[str]:
    return text.split()


STOPWORDS = frozenset(
    _words(
        """
    a o as os um uma uns umas de da do das dos em na no nas nos num numa por pelo pela para pra
    pro com sem e ou mas que se como qual quais quando onde quem eu voce voces ele ela meu minha
    seu sua isso isto esse essa este esta aquele aquela ai aqui la quero queria gostaria
    preciso fazer marcar agendar reservar agendamento horario horarios dia hoje amanha tem ter
    pode posso consigo favor obrigado obrigada sim nao oi ola bom boa tarde noite manha
    servico servicos opcao the and with for an to of in on at my me want would like book
    booking schedule appointment please can could have get some any this that is are it you
    your service option thanks yes not hello today tomorrow who what which how
    """
    )
)
# --- best_match --------------------------------------------------------------------------


def _significant(text: str) -> list[str]:
    return [word for word in tokens(text) if len(word) >= 3 and word not in STOPWORDS]


def _similarity(left: str, right: str) -> float:
    if left == right:
        return 1.0
    short, long_ = sorted((left, right), key=len)
    if long_.startswith(short) and len(long_) - len(short) <= 3:
        return 0.8
    shared = 0
    for a, b in zip(short, long_, strict=False):
        if a != b:
            break
        shared += 1
    if shared >= 5 and shared >= len(short) - 2:
        return 0.8
    # A Portuguese verb names its service: "cortar"/"corte", "depilar"/"depilacao".
    for word, other in ((left, right), (right, left)):
        stem = word[:-2]
        if word.endswith(("ar", "er", "ir")) and len(stem) >= 4 and other.startswith(stem):
            return 0.8
    return 0.0


def _score(words: list[str], candidate: str) -> tuple[float, float]:
    wanted = _significant(candidate)
    if not wanted:
        return 0.0, 0.0
    weights = [max((_similarity(w, c) for w in words), default=0.0) for c in wanted]
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


def best_match_group(text: str, groups: Sequence[Sequence[str]]) -> int | None:
    """Like :func:`best_match` over groups of names for one thing (a name and its aliases):
    a group scores its best member; ``None`` if none or two groups tie."""
    words = _significant(text)
    if not words or not groups:
        return None
    scores = [max((_score(words, name) for name in group), default=(0.0, 0.0)) for group in groups]
    top = max(scores)
    if top[0] <= 0 or scores.count(top) > 1:
        return None
    return scores.index(top)


# --- extract_name ------------------------------------------------------------------------


def extract_name(text: str) -> str | None:
    """The customer's name when they introduce themselves (``application.customer_names``,
    over the spoken languages' ``[names]`` data; production memory uses the same rule)."""
    rules = language_rules()
    return customer_names.extract_name(text, [rules.names(c) for c in rules.in_play("pt")])


# --- ordinal_choice ----------------------------------------------------------------------

_ORDINAL_WORDS = {
    "primeir": 1, "segund": 2, "terceir": 3, "quart": 4, "quint": 5, "sext": 6, "setim": 7,
    "oitav": 8, "non": 9, "decim": 10,
}  # fmt: skip
_EN_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
_CARDINALS = {
    "um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6,
    "sete": 7, "oito": 8, "nove": 9, "dez": 10, "one": 1, "two": 2, "three": 3, "four": 4,
    "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_NUMBER = r"(?P<n>\d{1,2}|" + "|".join(_CARDINALS) + r")"
_CHOICE_PATTERNS = (
    re.compile(r"(?:\b(?:opcao|opcoes|option|numero|number|n[o.]?)|#)\s*" + _NUMBER + r"\b"),
    re.compile(r"^\W*(?:o|a|the|e|is)?\s*" + _NUMBER + r"\W*$"),
    re.compile(r"(?<![\d/:.,$])\b(?P<n>\d{1,2})(?:o|a|st|nd|rd|th)\b(?!\s*(?:de|of)\b)"),
    re.compile(
        r"\b(?P<w>(?:" + "|".join(_ORDINAL_WORDS) + r")(?:o|a)s?|" + "|".join(_EN_ORDINALS)
        + r")\b(?![\s-]*feira)(?!\s+(?:vez|time|to\s+last)\b)"
    ),
    re.compile(r"\b(?P<last>penultim[oa]|second\s+to\s+last|ultim[oa]|last)\b"),
)  # fmt: skip


def ordinal_choice(text: str, count: int) -> int | None:
    """The 0-based option the message picks among ``count`` options, else ``None``."""
    folded = normalize(text)
    picks = {pick for pattern in _CHOICE_PATTERNS for pick in _picks(pattern, folded, count)}
    if len(picks) != 1:
        return None
    pick = picks.pop()
    return pick if 0 <= pick < count else None


def _picks(pattern: re.Pattern[str], folded: str, count: int) -> list[int]:
    found: list[int] = []
    for match in pattern.finditer(folded):
        groups = match.groupdict()
        if groups.get("last"):
            found.append(count - (2 if groups["last"].startswith(("pen", "second")) else 1))
        elif groups.get("w"):
            found.append(_ordinal_word(groups["w"]) - 1)
        else:
            number = groups["n"]
            found.append((int(number) if number.isdigit() else _CARDINALS[number]) - 1)
    return found


def _ordinal_word(word: str) -> int:
    if word in _EN_ORDINALS:
        return _EN_ORDINALS[word]
    stem = word.rstrip("s")[:-1]
    return _ORDINAL_WORDS[stem]
