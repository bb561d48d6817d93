"""The words of the statement rules (``application/statements``) for the languages in play:
courtesy, the appointment and listing frames, denials, question frames and the asking words,
from the language data (``[truth]``, ``[consent]``) and the locale files (the system's own
questions)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import replace

from agent_service.application.claims import ClaimWords
from agent_service.application.consent_policy import ConsentVocabulary, only_words_of
from agent_service.application.statements import StatementRules
from agent_service.application.text import normalize
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.listings import more_times_clause
from agent_service.infrastructure.language.grammar.when import says_a_range, without_own_dates
from agent_service.infrastructure.language.rules import language_rules


@functools.lru_cache(maxsize=16)
def statement_rules(codes: tuple[str, ...]) -> StatementRules:
    """The courtesy words, frames and asking words of the languages in play (the system's own
    questions' words about one's appointments are no asking word for all: ``StatementRules``)."""
    rules = language_rules()
    # A word saying a fact holds for every or any one ("cada", "any", "cualquier") has no
    # checker: it is in no frame and no phrase told aside, whatever the data lists.
    universal = frozenset().union(*(rules.universal(code) for code in codes))
    frame = frozenset().union(*(rules.appointment_frame(code) for code in codes)) - universal

    vocabularies = {
        answers: _one_label(rules.courtesy(c, answers) for c in codes) for answers in (True, False)
    }

    def courtesy(sentence: str, answers: bool) -> bool:
        return only_words_of(sentence, vocabularies[answers])

    listing = frozenset().union(*(rules.listing_frame(code) for code in codes)) - universal
    fillers = {
        phrase
        for v in vocabularies[False]
        for phrase in v.filler
        if universal.isdisjoint(phrase.split())
    }
    polite = {phrase for phrase in fillers if " " not in phrase}
    # the system's own clause ending a list of times ("— para ver outros, diga um período
    # (manhã, tarde) ou outro horário"): its words are no claim, its parts of the day none
    clauses = {normalize(more_times_clause(code)).lstrip("— ") for code in codes}
    phrases = sorted((fillers - polite) | clauses, key=len, reverse=True)
    undated = functools.partial(without_own_dates, code=codes[0])
    frames = tuple(sorted({f for code in codes for f in rules.question_frames(code)}, key=len))
    asking = frozenset().union(*map(rules.asking, codes))
    return StatementRules(
        courtesy,
        frame,
        listing | polite,
        tuple(phrases),
        frozenset().union(*(rules.denials(code) for code in codes)),
        says_a_range,
        undated,
        frames,
        asking,
        tuple({s for code in codes for s in rules.asking_stems(code)}),
        frozenset().union(*(rules.your_booking(code)[0] for code in codes)),
        frozenset().union(*(rules.your_booking(code)[1] for code in codes)),
        tuple({s for code in codes for s in rules.asking_own(code)}),
        tuple({r for code in codes for r in rules.recalls(code)}),
        frozenset().union(*map(rules.to_words, codes)),
        clauses=tuple({c for code in codes for c in rules.stating_clauses(code)}),
        # the conversation's language's only: Portuguese "a" is an article, English "a" not
        the=rules.the_booking(codes[0])[0],
        booked=frozenset().union(*(rules.the_booking(code)[1] for code in codes)),
        no_marks=tuple({m for code in codes for m in rules.consent(code).no_emoji}),
        yes_marks=tuple({m for code in codes for m in rules.consent(code).yes_emoji}),
        recurs=_recurring(codes[0]),
        first_of=frozenset().union(*(rules.places(code)[0] for code in codes)),
        last_of=frozenset().union(*(rules.places(code)[1] for code in codes)),
        meets=_meeting(codes),
        free_frame=frozenset().union(*(rules.free_times_words(c)[0] for c in codes)) - universal,
        earliest=tuple({p for code in codes for p in rules.free_times_words(code)[1]}),
        consent_heads=tuple(
            {_head(messages.CATALOG[code][key]) for code in codes for key in CONSENT_KEYS}
        ),
        # the conversation's language's only: Spanish "reservé" is Portuguese "reserve" folded
        outcomes=tuple({normalize(w) for w in _outcome_words(rules.claims(codes[0]))}),
    )


@functools.lru_cache(maxsize=16)
def plain_and_denials(codes: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """Words that are never a name's mention (the frames and courtesy of the languages), and
    the words that deny a relation."""
    statements = statement_rules(codes)
    return statements.frame | statements.listing, statements.denials


def _one_label(vocabularies: Iterable[ConsentVocabulary]) -> list[ConsentVocabulary]:
    """``vocabularies`` whose filler leaves out every yes or no word of any of them (a word is
    one thing across the languages in play: "ok" is a yes, not courtesy)."""
    found = list(vocabularies)
    answers = {w for v in found for w in (*v.yes, *v.no)}
    return [replace(v, filler=tuple(w for w in v.filler if w not in answers)) for v in found]


CONSENT_KEYS = ("question_book", "question_cancel", "question_reschedule")
"""The system's confirmation questions (the pending action's, ``messages``)."""


def _head(template: str) -> str:
    """A confirmation question's folded opening: its words before the appointment."""
    return normalize(template.split("{", 1)[0]).strip(" ¿?¡!.,:")


def _outcome_words(claims: ClaimWords) -> tuple[str, ...]:
    return (*claims.booked, *claims.cancelled, *claims.moved, *claims.confirmed)


@functools.lru_cache(maxsize=8)
def _meeting(codes: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a sentence says, in a language in play, that the customer will be met
    (``[truth].meeting``)."""
    rules = language_rules()
    phrases = sorted({normalize(p) for c in codes for p in rules.meeting(c)}, key=len)
    pattern = re.compile(rf"\b(?:{'|'.join(map(re.escape, reversed(phrases)))})\b")
    return lambda sentence: bool(phrases) and pattern.search(normalize(sentence)) is not None


def _recurring(code: str) -> Callable[[str], bool]:
    """Whether a sentence says a weekday of every week in ``code``'s words: a weekday's plural
    ("tuesdays", "tercas", "sabados") or a weekday after ``[truth].recurring_before`` ("às
    terças", "every Tuesday", "los martes")."""
    rules = language_rules()
    named = {name for name, _ in rules.calendar(code).weekdays}
    plurals = {n for n in named if n.endswith("s") and n[:-1] in named}
    singular = sorted(named - plurals, key=len, reverse=True)
    before = sorted(map(normalize, rules.recurring_before(code)), key=len, reverse=True)
    days = "|".join(map(re.escape, singular))
    habit = "|".join(map(re.escape, sorted(plurals, key=len, reverse=True)))
    lead = "|".join(map(re.escape, before))
    pattern = re.compile(
        rf"(?<![\w-])(?:(?:{habit})|(?:{lead})\s+(?:{days}))(?![\w-])"
        if before
        else rf"(?<![\w-])(?:{habit})(?![\w-])"
    )
    return lambda sentence: bool(pattern.search(normalize(sentence)))
