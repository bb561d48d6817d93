"""The simulated prompt cache of the token benchmark (bench/prompt_cache.py): a request's
cached tokens are exactly those that repeat the start of an earlier request."""

from __future__ import annotations

from typing import Any

from bench.prompt_cache import OPENAI_MINIMUM, PromptCache, billed, openai_cached


def body(tools: list[str], *messages: str) -> dict[str, Any]:
    return {
        "tools": [{"type": "function", "function": {"name": t}} for t in tools],
        "messages": [{"role": "user", "content": m} for m in messages],
    }


def test_a_request_extending_an_earlier_one_has_that_one_cached() -> None:
    cache = PromptCache()
    first, total = cache.hit(body(["a", "b"], "instructions", "hello"))
    assert first == 0 and total > 0
    again, _ = cache.hit(body(["a", "b"], "instructions", "hello"))
    assert again == total  # the same request again: all of it
    longer, longer_total = cache.hit(body(["a", "b"], "instructions", "hello", "a tool result"))
    assert longer == total < longer_total


def test_a_changed_tool_list_loses_everything_after_it() -> None:
    cache = PromptCache()
    cache.hit(body(["a", "b"], "instructions", "hello"))
    _, first_tool = PromptCache().hit(body(["a"]))  # the first tool's tokens alone
    withdrawn, _ = cache.hit(body(["b"], "instructions", "hello"))
    kept, _ = cache.hit(body(["a"], "instructions", "hello"))
    # only the common start of the first differing tool's JSON; nothing after it
    assert withdrawn < first_tool
    assert first_tool <= kept < first_tool + 3


def test_the_openai_rule_and_the_price() -> None:
    assert openai_cached(OPENAI_MINIMUM - 1) == 0
    assert openai_cached(OPENAI_MINIMUM + 130) == OPENAI_MINIMUM + 128
    assert billed(1000, 0) == 1000
    assert billed(1000, 1000) == 100
