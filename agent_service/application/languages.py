"""Which language a customer writes in, decided from per-language data (no word lists here).

Each language has a :class:`LanguageProfile` (its function words, folded, and the letters only
it uses, e.g. ``ã`` for Portuguese, ``ñ`` for Spanish), read from that language's data file by
the infrastructure. :class:`LanguageDetector` counts, for every language, the words of the text
that belong to that language *alone* (words shared by two profiles count for none) plus one
point when the raw text has one of its own letters:

* :meth:`LanguageDetector.detect`: the language with the most evidence; a tie (including no
  evidence at all) returns ``default``.
* :meth:`LanguageDetector.conversation_language`: the first message with evidence settles the
  conversation's language; after that it changes only when a message's evidence for another
  language leads the settled one by ``switch_margin``, so a short "no", "ok" or a name never
  flips it.

Adding a language is adding its data file: nothing here names a language.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from agent_service.application.text import tokens

SWITCH_MARGIN = 2


@dataclass(frozen=True, slots=True)
class LanguageProfile:
    """What identifies one language: ``code`` ("pt", "en", "es"), its folded function words
    and the lowercase letters only it writes (checked on the raw text)."""

    code: str
    words: frozenset[str]
    marks: frozenset[str] = frozenset()


class LanguageDetector:
    """Language evidence over a set of profiles (see the module's rules)."""

    def __init__(self, profiles: Iterable[LanguageProfile], *, switch_margin: int = SWITCH_MARGIN):
        self._profiles = tuple(profiles)
        if not self._profiles:
            raise ValueError("a detector needs at least one language")
        self.codes = tuple(profile.code for profile in self._profiles)
        self._switch_margin = switch_margin
        self._own = {p.code: self._exclusive(p) for p in self._profiles}
        self.evidence = functools.lru_cache(maxsize=1024)(self._evidence)

    def exclusive_words(self, code: str) -> frozenset[str]:
        """The words of ``code`` that no other language of this detector has."""
        return self._own[code]

    def _exclusive(self, profile: LanguageProfile) -> frozenset[str]:
        others: set[str] = set()
        for other in self._profiles:
            if other.code != profile.code:
                others |= other.words
        return frozenset(profile.words - others)

    def _evidence(self, text: str) -> dict[str, int]:
        """Points per language for ``text`` (cached: a turn asks about one message often)."""
        words = tokens(text)
        lowered = text.lower()
        points: dict[str, int] = {}
        for profile in self._profiles:
            own = self._own[profile.code]
            score = sum(word in own for word in words)
            if not profile.marks.isdisjoint(lowered):
                score += 1
            points[profile.code] = score
        return points

    def detect(self, text: str, default: str) -> str:
        """The language with the most evidence in ``text``; ``default`` on a tie."""
        return self._leader(self.evidence(text), default)

    def written_in_another(self, text: str, language: str) -> bool:
        """Whether ``text`` reads as another language than ``language``: none of
        ``language``'s own words, and ``switch_margin`` or more of another's (a name, a
        number or a shared word is no evidence either way)."""
        points = self.evidence(text)
        if language not in points or points[language]:
            return False
        return max(points.values()) >= self._switch_margin

    def conversation_language(
        self, text: str, settled: str | None, default: str
    ) -> tuple[str, bool]:
        """The conversation's language after ``text``, and whether it is settled."""
        points = self.evidence(text)
        if settled is None or settled not in points:
            leader = self._leader(points, "")
            return (leader, True) if leader else (default, False)
        best = max(points, key=lambda code: (points[code], code != settled))
        if best != settled and points[best] - points[settled] >= self._switch_margin:
            return best, True
        return settled, True

    @staticmethod
    def _leader(points: dict[str, int], default: str) -> str:
        ranked = sorted(points.items(), key=lambda item: -item[1])
        if not ranked or ranked[0][1] == 0:
            return default
        if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
            return default
        return ranked[0][0]
