"""What FAQ questions are about, across languages: a question and an entry that name the same
topic meet whatever language each is written in.

Rules: a text is about a topic when it holds one of the topic's phrases (of any language,
folded; the words of a phrase joined by spaces or hyphens, whole words only). Phrases match
longest first and never overlap, so the longer phrase's topic wins ("vale presente" is a gift
card, not a payment). In a question, a phrase that names a topic is replaced by the topic's
key (the phrase means the topic, and its words must not also match another topic's longer
phrase lexically); an entry gets the keys of the topics it names as more tags; BM25 then
ranks the key like any shared word. Nothing else of the text or the threshold changes, and
a question that names no topic ranks as before.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from agent_service.application.text import normalize
from agent_service.domain.catalog import FaqEntry


@dataclass(frozen=True)
class FaqTopics:
    phrases: Mapping[str, Sequence[str]]
    """Each topic's key and its folded phrases, every language's together."""

    @functools.cached_property
    def _matcher(self) -> tuple[re.Pattern[str], dict[str, str]]:
        """One pattern of every phrase, longest first, and the topic of each phrase."""
        pairs = sorted(
            ((p, k) for k, ps in self.phrases.items() for p in ps), key=lambda pk: -len(pk[0])
        )
        owner = {_spaced(p): k for p, k in reversed(pairs)}
        body = "|".join(r"[\s-]+".join(map(re.escape, p.split())) for p, _ in pairs)
        return re.compile(rf"(?<![a-z0-9])(?:{body or '(?!x)x'})(?![a-z0-9])"), owner

    def about(self, text: str) -> tuple[str, ...]:
        """The topics ``text`` names, in the order it names them (each once)."""
        pattern, owner = self._matcher
        found = (owner[_spaced(m.group(0))] for m in pattern.finditer(normalize(text)))
        return tuple(dict.fromkeys(found))

    def question(self, text: str) -> str:
        """The question with each phrase that names a topic replaced by the topic's key: the
        phrase means the topic, so its words do not also match an entry lexically (the es
        "tarjeta" of a payment question would rank "tarjeta regalo", a gift card, above it)."""
        pattern, owner = self._matcher
        folded = normalize(text)
        if pattern.search(folded) is None:
            return text
        return pattern.sub(lambda m: f" {owner[_spaced(m.group(0))]} ", folded)

    def entry(self, entry: FaqEntry) -> FaqEntry:
        """The entry with the topics its questions and tags name as more tags."""
        about = " ".join((entry.question, *(e.question for e in entry.localized), *entry.tags))
        extra = tuple(t for t in self.about(about) if t not in entry.tags)
        return entry.model_copy(update={"tags": (*entry.tags, *extra)}) if extra else entry


_SPACES = re.compile(r"[\s-]+")


def _spaced(phrase: str) -> str:
    return _SPACES.sub(" ", phrase)
