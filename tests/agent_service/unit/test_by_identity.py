"""``by_identity``: the same frozen objects find the result they had; equal objects that are
not the same ones are computed again (to the same value); anything else goes straight to the
function."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agent_service.application.by_identity import MAX_ENTRIES, by_identity


@dataclass(frozen=True, slots=True)
class Words:
    words: tuple[str, ...]


def counted() -> tuple[list[tuple[Words, ...]], Callable[..., str]]:
    calls: list[tuple[Words, ...]] = []

    @by_identity
    def joined(data: tuple[Words, ...], separator: str = " ") -> str:
        calls.append(data)
        return separator.join(w for group in data for w in group.words)

    return calls, joined


def test_the_same_objects_are_read_once_per_other_argument() -> None:
    calls, joined = counted()
    data = (Words(("a", "b")), Words(("c",)))
    assert joined(data) == joined(tuple(data)) == "a b c"
    assert joined(data, "-") == "a-b-c"
    assert len(calls) == 2


def test_equal_objects_that_are_not_the_same_are_computed_again_to_the_same_value() -> None:
    calls, joined = counted()
    assert joined((Words(("a",)),)) == joined((Words(("a",)),)) == "a"
    assert len(calls) == 2


def test_lists_keywords_and_a_full_memo_are_handled() -> None:
    calls, joined = counted()
    data = (Words(("a",)),)
    assert joined([*data]) == joined([*data]) == "a"  # not a tuple
    assert joined(data, separator="-") == "a"
    assert len(calls) == 3
    kept = [(Words((str(n),)),) for n in range(MAX_ENTRIES + 1)]
    assert [joined(d) for d in kept] == [str(n) for n in range(MAX_ENTRIES + 1)]
