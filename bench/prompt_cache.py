"""A provider's prompt cache, simulated: which input tokens of a request repeat the start of an
earlier request, so a provider that caches prompt prefixes bills them at the cached price.

Assumptions (stated in the bench output and docs/performance figures):

* **Order**: a request is sent as the provider lays it out for its cache — the tool schemas
  first, in the order given, then the messages (system instructions first). This is
  Anthropic's documented order (tools → system → messages) and the one OpenAI's guidance
  assumes ("static content first, tools identical between requests").
* **Ideal cache** (``cached_tokens``): every token of the longest prefix a request shares with
  any earlier request of the same run is cached — any length, no expiry; the run is one
  deployment, so conversations share the instructions' prefix.
* **OpenAI's rule** (``cached_tokens_openai``): nothing is cached below a 1,024-token prefix,
  and above it only in 128-token steps.
* **Price**: a cached input token is billed at ``CACHED_PRICE`` (0.1×) of an uncached one (the
  discount of Anthropic's cache reads and OpenAI's newer models); "billed-equivalent" tokens
  are ``uncached + CACHED_PRICE × cached``. Cache writes are billed as plain input here (no
  write surcharge).

Tokens are tiktoken ``cl100k_base`` of each segment (a tool's JSON, a message's JSON), so the
shared prefix is exact at token level inside the first segment that differs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bench.tokens import encoding

CACHED_PRICE = 0.1
OPENAI_MINIMUM = 1024
OPENAI_STEP = 128
ASSUMPTION = (
    "simulated prompt cache: a request's tokens that repeat the start of an earlier request of "
    "the run (tools first in their order, then system instructions, then messages) are cached; "
    f"cached tokens billed at {CACHED_PRICE}x an uncached one (billed-equivalent = uncached + "
    f"{CACHED_PRICE} x cached); *_openai: OpenAI's rule (no cache below {OPENAI_MINIMUM} tokens, "
    f"then {OPENAI_STEP}-token steps)"
)


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[int, ...]:
    return tuple(encoding().encode(text, disallowed_special=()))


def segments(body: dict[str, Any]) -> list[str]:
    """The request in the provider's cache order: each tool's JSON, then each message's."""
    return [json.dumps(tool) for tool in body.get("tools", [])] + [
        json.dumps(message, ensure_ascii=False) for message in body["messages"]
    ]


def _common(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


@dataclass
class PromptCache:
    """Every prefix seen so far, by segment; ``hit`` answers how many leading tokens of a new
    request an earlier one already sent (and remembers the new one)."""

    _prefixes: dict[tuple[str, ...], set[tuple[int, ...]]] = field(default_factory=dict)

    def hit(self, body: dict[str, Any]) -> tuple[int, int]:
        """(cached tokens, tokens) of this request, segments counted as tokenized."""
        parts = segments(body)
        total = sum(len(_tokens(p)) for p in parts)
        cached = 0
        key: tuple[str, ...] = ()
        for part in parts:
            following = self._prefixes.get(key)
            tokens = _tokens(part)
            if following is None:
                break
            if tokens in following:
                cached += len(tokens)
                key = (*key, part)
                continue
            cached += max((_common(tokens, seen) for seen in following), default=0)
            break
        self._remember(parts)
        return cached, total

    def _remember(self, parts: list[str]) -> None:
        key: tuple[str, ...] = ()
        for part in parts:
            self._prefixes.setdefault(key, set()).add(_tokens(part))
            key = (*key, part)


def openai_cached(cached: int) -> int:
    """``cached`` under OpenAI's rule: none below the minimum, then whole steps."""
    return 0 if cached < OPENAI_MINIMUM else cached - cached % OPENAI_STEP


def billed(tokens: int, cached: int) -> float:
    """Billed-equivalent input tokens of a request with ``cached`` of its ``tokens`` cached."""
    return tokens - cached + CACHED_PRICE * cached
