"""Text folding and language detection as the offline model uses them.

Folding (:func:`normalize`, :func:`fold_with_map`, :func:`tokens`) is the application's
(``agent_service/application/text.py``); detection is the language detector over the spoken
languages' data files (``agent_service/infrastructure/language/``): ties, including "no
evidence at all", return ``default``.
"""

from __future__ import annotations

from agent_service.application.text import fold_with_map, normalize, tokens
from agent_service.infrastructure.language import language_detector

Language = str
"""A spoken language's code ("pt", "en", ...)."""

__all__ = [
    "Language",
    "conversation_language",
    "detect_language",
    "fold_with_map",
    "normalize",
    "tokens",
]


def detect_language(text: str, default: Language) -> Language:
    """The language with the most evidence in ``text``; ``default`` on a tie."""
    return language_detector().detect(text, default)


def conversation_language(
    text: str, settled: Language | None, default: Language
) -> tuple[Language, bool]:
    """The conversation's language after ``text`` and whether it is settled (see
    :meth:`agent_service.application.languages.LanguageDetector.conversation_language`)."""
    return language_detector().conversation_language(text, settled, default)
