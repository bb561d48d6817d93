"""A memo in front of a pure function of frozen language data, found by the data's identity.

The consent, handoff, name and claim rules compile a language's phrases once
(``functools.lru_cache`` on a tuple of frozen dataclasses). Looking such a tuple up hashes
every phrase of every language on each call — a tuple's hash is not kept, and the data is a
few hundred phrases — while the callers pass the same objects every turn (the language port
caches them). :func:`by_identity` finds the result by the objects' ids first: a lookup hashes
a few integers. It holds the objects of each entry, so their ids cannot be reused while the
entry exists; the objects are frozen (tuples of strings), so the same objects are the same
value. Any other tuple of equal objects still reaches the function, whose own cache shares the
result by value.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

MAX_ENTRIES = 64


def by_identity(function: Callable[P, R]) -> Callable[P, R]:
    """``function(data, *rest)`` (``data`` a tuple of frozen objects, ``rest`` hashable) kept
    per the identities of ``data``'s objects and ``rest``; past ``MAX_ENTRIES`` it starts
    again."""
    memo: dict[Hashable, tuple[tuple[Any, ...], R]] = {}

    @functools.wraps(function)
    def cached(*args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs or not args or type(args[0]) is not tuple:
            return function(*args, **kwargs)
        data = args[0]
        key = (tuple(map(id, data)), args[1:])
        found = memo.get(key)
        if found is None:
            if len(memo) >= MAX_ENTRIES:
                memo.clear()
            found = memo[key] = (data, function(*args, **kwargs))
        return found[1]

    return cached
