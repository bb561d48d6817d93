"""The language port of the safety policies: each language's vocabularies as data.

The consent, greeting, handoff, truth and name policies (``consent_policy``,
``greeting_policy``, ``handoff_policy``,
``grounding`` and ``claims``, ``customer_names``) are pure functions over these structures; the
infrastructure reads them from the language data files and from CLDR (Babel). A policy asks
for the languages *in play* — the spoken ones and the conversation's — so a language is one
more data file, and a language with data but no message catalog is not live.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["CalendarWords", "LanguageRules"]

from agent_service.application.claims import ClaimWords
from agent_service.application.consent_policy import ConsentVocabulary
from agent_service.application.customer_names import NamePhrases
from agent_service.application.fact_spans import CalendarWords
from agent_service.application.handoff_policy import HandoffPhrases


class LanguageRules(Protocol):
    """Every vocabulary a safety policy reads, per language code."""

    def in_play(self, language: str) -> tuple[str, ...]:
        """The spoken languages and ``language`` (when it has data), the latter first."""
        ...

    def consent(self, code: str) -> ConsentVocabulary: ...

    def consent_in(self, language: str) -> tuple[ConsentVocabulary, ...]:
        """``consent`` of every language in play, the conversation's own first and carrying
        its other known words (``ConsentVocabulary.words``)."""
        ...

    def known_words(self, code: str) -> frozenset[str]:
        """Every folded word of ``code``'s data and of its system sentences."""
        ...

    def greeting(self, code: str) -> ConsentVocabulary: ...

    def handoff(self, code: str) -> HandoffPhrases: ...

    def names(self, code: str) -> NamePhrases: ...

    def calendar(self, code: str) -> CalendarWords: ...

    def claims(self, code: str) -> ClaimWords: ...

    def common_words(self) -> frozenset[str]:
        """Every folded word of every language's data and of the system's own sentences: a
        capitalised common word is no name."""
        ...

    def currency_words(self, code: str, currency: str) -> tuple[str, ...]:
        """The folded words of ``currency``'s names in ``code`` ("real", "reais")."""
        ...
