"""A message that only greets is answered with the system's greeting, with no model request.

Rules (the settling is ``infrastructure/agent/confirm.settle_in_code``):

* read by **allowlist**, like a plain yes (``consent_policy``): at least one greeting phrase
  or emoji of the languages in play (``[greeting]`` of each language data file), and nothing
  left after removing those, the consent filler (thanks, "moça", laughter), filler emoji and
  punctuation — a question mark included ("oi, tudo bem?"). Anything else ("oi, quero
  marcar", "oi?? alguém aí", a name, a time, an emoji in no list) is no greeting-only
  message: the specialists answer it;
* only with **no pending action**: a greeting then is an answer to the open question, and its
  owner answers it (the consent rules decide what it did to the action);
* the reply is the system's greeting in the conversation's language (``messages``:
  ``greeting``, with the business's name), sent as rendered.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_service.application.consent_policy import ConsentVocabulary, only_words_of


def greets_only(text: str, greetings: Sequence[ConsentVocabulary]) -> bool:
    """Whether ``text`` only greets (see the module's rules): ``greetings`` hold each
    language's greeting phrases and emoji as ``yes``, its consent filler as ``filler``. Only
    their words, and not only filler (thanks, an emoji, nothing at all greet nobody)."""
    fillers = [ConsentVocabulary((), (), g.filler, filler_emoji=g.filler_emoji) for g in greetings]
    return only_words_of(text, greetings) and not only_words_of(text, fillers)
