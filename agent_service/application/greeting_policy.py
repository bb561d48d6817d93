"""A message that only greets is answered with the system's greeting, with no model request.

Rules (the settling is ``infrastructure/agent/confirm.settle_in_code``):

* read by **allowlist**, like a plain yes (``consent_policy``): at least one greeting phrase
  or emoji of the languages in play (``[greeting].words`` of each language data file), and
  nothing left after removing those, the words that may come with a greeting
  (``[greeting].with``: "pessoal", "moça" — no thanks, no goodbye: "valeu, boa noite" takes
  leave), filler emoji and punctuation, a question mark included ("oi, tudo bem?"). Anything
  else ("oi, quero marcar", "oi?? alguém aí", a name, a time, an emoji in no list) is no
  greeting-only message: the specialists answer it;
* only as a conversation's **first message**: later, a short "tudo bem" or "boa noite" may
  answer the assistant's question or take leave, and a model reads it in context;
* only with **no pending action** (none on a first message but an expired one's yes, which
  the consent rules answer);
* the reply is the system's greeting in the conversation's language (``messages``:
  ``greeting``, with the business's name), sent as rendered.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_service.application.by_identity import by_identity
from agent_service.application.consent_policy import ConsentVocabulary, only_words_of


def greets_only(text: str, greetings: Sequence[ConsentVocabulary]) -> bool:
    """Whether ``text`` only greets (see the module's rules): ``greetings`` hold each
    language's greeting phrases and emoji as ``yes``, the words that may come with them as
    ``filler``. Only their words, and not only filler (an emoji or nothing greets nobody)."""
    fillers = _fillers(tuple(greetings))
    return only_words_of(text, greetings) and not only_words_of(text, fillers)


@by_identity
def _fillers(greetings: tuple[ConsentVocabulary, ...]) -> tuple[ConsentVocabulary, ...]:
    """The words that may come with each greeting, as a vocabulary of filler only: built once
    per greetings (the same objects each turn, so the consent rules find their phrases)."""
    return tuple(
        ConsentVocabulary((), (), g.filler, filler_emoji=g.filler_emoji) for g in greetings
    )
