"""The built-in service lexicon: every spoken language's ``[services]`` table together (the
kinds are the same keys in every file), with the ``[matching].function_words`` that never
count towards a catalog name and the ``[matching].stopwords`` that name a kind only by being
one of its words (a word the languages' data know is never a typo of another), and the
``[qualifier_kinds]`` that name no service alone (see ``application/service_lexicon.py`` for
the rules)."""

from __future__ import annotations

import functools

from agent_service.application.faq_topics import FaqTopics
from agent_service.application.service_lexicon import ServiceLexicon
from agent_service.infrastructure.language.packs import (
    known_words,
    language_data,
    spoken_languages,
    word_list,
)


@functools.cache
def service_lexicon() -> ServiceLexicon:
    kinds: dict[str, list[str]] = {}
    function_words: set[str] = set()
    stopwords: set[str] = set()
    qualifiers: set[str] = set()
    for code in spoken_languages():
        for kind in language_data(code).get("services", {}):
            kinds.setdefault(kind, []).extend(word_list(code, "services", kind))
        function_words.update(word_list(code, "matching", "function_words"))
        stopwords.update(w for p in word_list(code, "matching", "stopwords") for w in p.split())
        qualifiers.update(k for k, v in language_data(code).get("qualifier_kinds", {}).items() if v)
    # A word the languages know ("cuanto") is never a typo of a service's word ("canto").
    known = frozenset().union(*(known_words(code) for code in spoken_languages()))
    return ServiceLexicon(
        kinds, frozenset(function_words), frozenset(stopwords), frozenset(qualifiers), known
    )


@functools.cache
def faq_topics() -> FaqTopics:
    """Every spoken language's ``[faq_topics]`` together (the same keys in every file)."""
    phrases: dict[str, list[str]] = {}
    for code in spoken_languages():
        for topic in language_data(code).get("faq_topics", {}):
            phrases.setdefault(topic, []).extend(word_list(code, "faq_topics", topic))
    return FaqTopics(phrases)
