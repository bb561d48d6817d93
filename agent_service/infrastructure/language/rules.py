# Over 300 lines: the language port of every safety policy, one reader per data table.
"""``DataLanguageRules``: the language port of the safety policies, read from the language
data files (consent, handoff, names) and from CLDR through Babel (weekday, month, unit and
currency names), once per language."""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal
from zoneinfo import ZoneInfo

from babel import Locale, UnknownLocaleError
from babel.dates import get_day_names, get_month_names
from babel.numbers import get_currency_name, get_currency_symbol, list_currencies
from babel.units import format_unit

from agent_service.application.claims import ClaimWords
from agent_service.application.consent_policy import ConsentVocabulary
from agent_service.application.customer_names import NamePhrases
from agent_service.application.fact_spans import FactReader
from agent_service.application.handoff_policy import HandoffPhrases
from agent_service.application.language_port import CalendarWords
from agent_service.application.text import normalize
from agent_service.infrastructure.agent.messages import LOCALE_FILES
from agent_service.infrastructure.language.grammar.vocabulary import with_enclitic_forms
from agent_service.infrastructure.language.packs import (
    LanguageDataError,
    data_languages,
    known_words,
    language_data,
    spoken_languages,
    word_list,
)

CLDR_LOCALES = {"pt": "pt_BR"}
"""The CLDR locale of a language code when it is not the code itself."""
CHANGE_KINDS = ("book", "cancel", "reschedule")
_LETTERS = re.compile(r"[^\W\d_]+")


def _locale(code: str) -> Locale:
    try:
        return Locale.parse(CLDR_LOCALES.get(code, code))
    except (UnknownLocaleError, ValueError) as error:
        raise LanguageDataError(f"no CLDR locale for {code!r}") from error


def _text(code: str, table: str, key: str) -> str:
    section = language_data(code).get(table)
    value = section.get(key) if isinstance(section, dict) else None
    if not isinstance(value, str):
        raise LanguageDataError(f"{code}.toml: [{table}].{key} must be a string")
    return value


def _emoji(code: str, key: str, table: str = "consent") -> tuple[str, ...]:
    return tuple(_text(code, table, key).split())


class DataLanguageRules:
    """Every vocabulary the consent, handoff, truth and name policies read (the port)."""

    def in_play(self, language: str) -> tuple[str, ...]:
        """The languages a customer's words are read in: the conversation's own first, then
        the spoken ones, then every other language with a data file (a customer may write
        "quiero hablar con una persona" in a conversation the assistant answers in Portuguese;
        the first language's reading of a phrase wins, see ``consent_policy``)."""
        own = (language,) if language in data_languages() else ()
        spoken = tuple(code for code in spoken_languages() if code != language)
        rest = tuple(c for c in data_languages() if c != language and c not in spoken)
        return own + spoken + rest

    @functools.cache  # noqa: B019 - one instance per process, a few languages
    def consent(self, code: str) -> ConsentVocabulary:
        return ConsentVocabulary(
            yes=word_list(code, "consent", "yes"),
            no=word_list(code, "consent", "no"),
            # taking leave ("até lá", "see you then") answers nothing, as filler does
            filler=(*word_list(code, "consent", "filler"), *word_list(code, "consent", "farewell")),
            # a kind's own verb with its pronouns written on ("muévela"): [morphology]
            yes_by_kind=tuple(
                (k, with_enclitic_forms(code, "consent", f"yes_{k}")) for k in CHANGE_KINDS
            ),
            no_by_kind=tuple((k, word_list(code, "consent", f"no_{k}")) for k in CHANGE_KINDS),
            yes_emoji=_emoji(code, "yes_emoji"),
            no_emoji=_emoji(code, "no_emoji"),
            filler_emoji=_emoji(code, "filler_emoji"),
            confirm_label=_text(code, "consent", "confirm_label"),
            decline_label=_text(code, "consent", "decline_label"),
            change=word_list(code, "consent", "change"),
            unsure=word_list(code, "consent", "unsure"),
            unclear=word_list(code, "consent", "unclear"),
            lead_in=word_list(code, "consent", "lead_in"),
            lead_in_trailing=word_list(code, "consent", "lead_in_trailing"),
            hesitation=word_list(code, "consent", "hesitation"),
            conditional=word_list(code, "consent", "conditional_spellings"),
            no_alone=word_list(code, "consent", "no_alone"),
            # a customer's answer: a word the language knows is never a slip of another
            spelled=known_words(code),
        )

    @functools.cache  # noqa: B019
    def consent_in(self, language: str) -> tuple[ConsentVocabulary, ...]:
        """The consent vocabularies of the languages in play, the conversation's own first
        with its other known words: none of them is read in another language's sense
        (Portuguese "no", "in the", is no English no in a Portuguese conversation)."""
        codes = self.in_play(language)
        if not codes or codes[0] != language:
            return tuple(map(self.consent, codes))
        own = replace(self.consent(language), words=self.known_words(language))
        return (own, *map(self.consent, codes[1:]))

    @functools.cache  # noqa: B019
    def courtesy(self, code: str, answers: bool) -> ConsentVocabulary:
        """The words a courtesy sentence is made of (``[truth].courtesy`` and ``.assistant``,
        the consent filler; the yes/no words and emoji only when ``answers``)."""
        consent = self.consent(code)
        filler = (
            *consent.filler,
            *word_list(code, "truth", "courtesy"),
            *word_list(code, "truth", "assistant"),
        )
        if not answers:
            return ConsentVocabulary((), (), filler, filler_emoji=consent.filler_emoji)
        return ConsentVocabulary(
            consent.yes,
            consent.no,
            filler,
            yes_emoji=consent.yes_emoji,
            no_emoji=consent.no_emoji,
            filler_emoji=consent.filler_emoji,
        )

    @functools.cache  # noqa: B019
    def appointment_frame(self, code: str) -> frozenset[str]:
        """``[truth].appointment_frame``, folded (see ``application/statements``)."""
        return frozenset(normalize(w) for w in word_list(code, "truth", "appointment_frame"))

    @functools.cache  # noqa: B019
    def places(self, code: str) -> tuple[frozenset[str], frozenset[str]]:
        """``[truth].first_of`` and ``.last_of``, folded (see ``application/statements``)."""
        return tuple(  # type: ignore[return-value]
            frozenset(normalize(w) for w in word_list(code, "truth", key))
            for key in ("first_of", "last_of")
        )

    @functools.cache  # noqa: B019
    def listing_frame(self, code: str) -> frozenset[str]:
        """``[truth].listing_frame``, folded (see ``application/statements``)."""
        return frozenset(normalize(w) for w in word_list(code, "truth", "listing_frame"))

    @functools.cache  # noqa: B019
    def free_times_words(self, code: str) -> tuple[frozenset[str], tuple[str, ...]]:
        """``[truth].free_frame`` and ``.first_free``, folded (see ``application/statements``)."""
        free = frozenset(normalize(w) for w in word_list(code, "truth", "free_frame"))
        return free, tuple(normalize(w) for w in word_list(code, "truth", "first_free"))

    @functools.cache  # noqa: B019
    def universal(self, code: str) -> frozenset[str]:
        """``[truth].universal``, folded: words saying a fact holds for every or any one of a
        kind, which no checker reads (``statement_words`` keeps them out of every frame)."""
        return frozenset(normalize(w) for w in word_list(code, "truth", "universal"))

    @functools.cache  # noqa: B019
    def denials(self, code: str) -> frozenset[str]:
        """``[truth].denials``, folded (see ``application/relations``)."""
        return frozenset(normalize(w) for w in word_list(code, "truth", "denials"))

    @functools.cache  # noqa: B019
    def asking(self, code: str) -> frozenset[str]:
        """``[truth].asking`` and ``[intents].question_start``, as words."""
        phrases = (
            *word_list(code, "truth", "asking"),
            *word_list(code, "intents", "question_start"),
        )
        return frozenset(word for phrase in phrases for word in phrase.split())

    @functools.cache  # noqa: B019
    def asking_stems(self, code: str) -> tuple[str, ...]:
        """``[truth].asking_stems``: every word starting with one asks."""
        return word_list(code, "truth", "asking_stems")

    @functools.cache  # noqa: B019
    def your_booking(self, code: str) -> tuple[frozenset[str], frozenset[str]]:
        """``[truth].your_words`` and ``[truth].booking_nouns``: "your appointment"."""
        return _word_sets(code, "your_words", "booking_nouns")

    @functools.cache  # noqa: B019
    def the_booking(self, code: str) -> tuple[frozenset[str], frozenset[str]]:
        """``[truth].the_words`` and ``[truth].booked_nouns``: "the appointment"."""
        return _word_sets(code, "the_words", "booked_nouns")

    @functools.cache  # noqa: B019
    def asking_own(self, code: str) -> tuple[str, ...]:
        """``[truth].asking_own``: stems of words asking about one's own appointments."""
        return word_list(code, "truth", "asking_own")

    @functools.cache  # noqa: B019
    def to_words(self, code: str) -> frozenset[str]:
        """``[intents].to_words``: what comes before a move's new day or time."""
        return frozenset(word_list(code, "intents", "to_words"))

    @functools.cache  # noqa: B019
    def recalls(self, code: str) -> tuple[str, ...]:
        """``[truth].recalls``: what recalls a visit before now."""
        return word_list(code, "truth", "recalls")

    @functools.cache  # noqa: B019
    def meeting(self, code: str) -> tuple[str, ...]:
        """``[truth].meeting`` (see ``application/statements``)."""
        return word_list(code, "truth", "meeting")

    @functools.cache  # noqa: B019
    def recurring_before(self, code: str) -> tuple[str, ...]:
        """``[truth].recurring_before`` (see ``application/statements``)."""
        return word_list(code, "truth", "recurring_before")

    @functools.cache  # noqa: B019
    def stating_clauses(self, code: str) -> tuple[str, ...]:
        """``[truth].stating_clauses`` (see ``application/statements``)."""
        return word_list(code, "truth", "stating_clauses")

    @functools.cache  # noqa: B019
    def question_frames(self, code: str) -> tuple[str, ...]:
        """``[truth].question_frames`` (see ``application/statements``)."""
        return word_list(code, "truth", "question_frames")

    @functools.cache  # noqa: B019
    def greeting(self, code: str) -> ConsentVocabulary:
        """What a greeting-only message may hold (``greeting_policy``): the greeting phrases
        and emoji as its ``yes``, the words that may come with them as its filler (with the
        consent filler emoji)."""
        return ConsentVocabulary(
            yes=word_list(code, "greeting", "words"),
            no=(),
            filler=word_list(code, "greeting", "with"),
            yes_emoji=_emoji(code, "emoji", "greeting"),
            filler_emoji=self.consent(code).filler_emoji,
        )

    @functools.cache  # noqa: B019
    def handoff(self, code: str) -> HandoffPhrases:
        return HandoffPhrases(
            talk=word_list(code, "handoff", "talk"),
            want=word_list(code, "handoff", "want"),
            between=word_list(code, "handoff", "between"),
            person=word_list(code, "handoff", "person"),
            filler=word_list(code, "consent", "filler"),
        )

    @functools.cache  # noqa: B019
    def names(self, code: str) -> NamePhrases:
        return NamePhrases(
            intro=word_list(code, "names", "intro"),
            particles=word_list(code, "names", "particles"),
            not_name=word_list(code, "names", "not_name"),
        )

    @functools.cache  # noqa: B019
    def calendar(self, code: str) -> CalendarWords:
        locale, plurals = _locale(code), word_list(code, "dates", "weekday_plurals")
        weekdays: set[tuple[str, int]] = set()
        for context in ("format", "stand-alone"):
            for index, name in get_day_names("wide", context, locale=locale).items():
                folded = normalize(name)
                weekdays |= {(folded, index), (folded.replace("-", " "), index)}
                w = folded.split("-")[0]  # "segunda", and its plural, a habit: "aos sábados"
                weekdays |= {(w + e, index) for e in ("", *plurals) if not (e and w.endswith(e))}
        months = {
            (normalize(name).rstrip("."), index)
            for width in ("wide", "abbreviated")
            for context in ("format", "stand-alone")
            for index, name in get_month_names(width, context, locale=locale).items()
        }
        return CalendarWords(
            weekdays=tuple(sorted(weekdays)),
            months=tuple(sorted(months)),
            minute_words=_unit_words("duration-minute", locale),
            hour_words=_unit_words("duration-hour", locale),
            currency_codes=tuple(sorted(list_currencies())),
            amounts=_amount_words(code),
            relative_days=tuple(
                (word, offset)
                for key, offset in RELATIVE_DAYS
                for word in word_list(code, "dates", key)
            ),
            not_relative_after=word_list(code, "dates", "not_relative_after"),
            day_parts=tuple(word for key in DAY_PARTS for word in word_list(code, "parts", key)),
            day_words=word_list(code, "dates", "day_units")[:1],
            count_nouns=word_list(code, "numbers", "count_nouns"),
            counted=tuple(
                (noun, what)
                for noun, _, what in (
                    entry.rpartition(" ") for entry in word_list(code, "numbers", "counted")
                )
            ),
            hour_markers=word_list(code, "times", "markers"),
            half_after=word_list(code, "times", "half_after"),
            day_articles=word_list(code, "dates", "day_before_ordinal"),
        )

    @functools.cache  # noqa: B019
    def claims(self, code: str) -> ClaimWords:
        def words(key: str) -> tuple[str, ...]:
            return word_list(code, "truth", key)

        return ClaimWords(
            booked=words("booked"),
            cancelled=words("cancelled"),
            moved=words("moved"),
            confirmed=words("confirmed"),
            negations=words("negations"),
            write_stems=words("write_stems"),
            nothing_done=words("nothing_done"),
            already=words("already"),
        )

    def known_words(self, code: str) -> frozenset[str]:
        return known_words(code)

    @functools.cache  # noqa: B019
    def common_words(self) -> frozenset[str]:
        catalogs = (c for c in LOCALE_FILES if c not in data_languages())
        return frozenset().union(*map(self.known_words, (*data_languages(), *catalogs)))

    @functools.cache  # noqa: B019
    def currency_words(self, code: str, currency: str) -> tuple[str, ...]:
        locale = _locale(code)
        words: set[str] = set()
        for count in (1, 2):
            try:
                name = get_currency_name(currency, count, locale=locale)
            except (KeyError, ValueError):
                continue
            words |= {w for w in _LETTERS.findall(normalize(name)) if len(w) >= 3}
        return tuple(sorted(words))


def currency_marks(codes: tuple[str, ...], currencies: tuple[str, ...]) -> tuple[str, ...]:
    """How a price in ``currencies`` is marked in the languages ``codes``: each ISO code and
    its CLDR symbols ("BRL", "R$")."""
    marks = set(currencies)
    for code in codes:
        for currency in currencies:
            try:
                marks.add(get_currency_symbol(currency, locale=_locale(code)))
            except (KeyError, ValueError):
                continue
    return tuple(sorted(marks))


def _unit_words(unit: str, locale: Locale) -> tuple[str, ...]:
    words = {
        word
        for count in (1, 2)
        for length in ("long", "short", "narrow")
        for word in _LETTERS.findall(
            normalize(format_unit(count, unit, length=length, locale=locale))
        )
    }
    return tuple(sorted(words))


@functools.cache
def language_rules() -> DataLanguageRules:
    """The process's language rules (the data files are read once)."""
    return DataLanguageRules()


DAY_PARTS = ("morning", "afternoon", "evening")
"""The ``[parts]`` keys naming a part of the day."""
RELATIVE_DAYS = (("today", 0), ("tomorrow", 1), ("day_after_tomorrow", 2))
"""The ``[dates]`` keys naming a day by its distance from today, and that distance."""


def _amount_words(code: str) -> tuple[tuple[str, Decimal], ...]:
    """The number words of ``[numbers].cardinals`` ("uma 1"), ``[numbers].one`` ("an") and
    ``[times].half_amount`` ("meia", "half an"): what a duration's amount may be said in."""
    found = []
    for entry in word_list(code, "numbers", "cardinals"):
        word, _, value = entry.rpartition(" ")
        found.append((word, Decimal(value)))
    found += [(word, Decimal(1)) for word in word_list(code, "numbers", "one")]
    found += [(word, Decimal("0.5")) for word in word_list(code, "times", "half_amount")]
    return tuple(found)


@functools.lru_cache(maxsize=64)
def fact_reader(
    codes: tuple[str, ...], zone: str, currencies: tuple[str, ...], today: date | None = None
) -> FactReader:
    """One reader per (languages, time zone, currencies, the business's today: "amanhã" is
    a date): its readings are cached per text."""
    rules = language_rules()
    return FactReader(
        tuple(rules.calendar(code) for code in codes),
        ZoneInfo(zone),
        tuple(w for code in codes for c in currencies for w in rules.currency_words(code, c)),
        today,
        currency_marks(codes, currencies),
    )


def _word_sets(code: str, leading: str, nouns: str) -> tuple[frozenset[str], frozenset[str]]:
    """Two ``[truth]`` lists as sets: the words that lead, and the nouns they lead."""
    return frozenset(word_list(code, "truth", leading)), frozenset(word_list(code, "truth", nouns))
