"""``fold_with_map``: the folded text and, for each folded character, the input character it
came from, whichever path computes it (ASCII, one folded character each, or uneven folds)."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from agent_service.application.text import fold_with_map, normalize

_ALPHABET = st.sampled_from([*"aAçÇãéÍõú ñüß€😀İ\t\n.,!?-'", "ﬁ", "\u0301", "Ⅻ", "ǅ"])


def _char_by_char(text: str) -> tuple[str, list[int]]:
    """The rule itself, one character at a time: whitespace → a space, else NFKD of the
    lowercase with combining marks dropped (twice), unknown symbols → a space."""
    chars: list[str] = []
    index: list[int] = []
    for position, char in enumerate(text):
        if char.isspace():
            folded = " "
        else:
            folded = "".join(
                low if _kept(low) else " "
                for part in unicodedata.normalize("NFKD", char.lower())
                if not unicodedata.combining(part)
                for low in unicodedata.normalize("NFKD", part.lower())
                if not unicodedata.combining(low)
            )
        chars.append(folded)
        index.extend([position] * len(folded))
    return "".join(chars), index


def _kept(char: str) -> bool:
    if char.isascii():
        return char.isalnum() or char in ":/.,;!?-'$%#@" or char.isspace()
    return char.isalpha() and char == char.lower()


@given(st.text(_ALPHABET, max_size=30))
def test_fold_with_map_folds_each_character_and_maps_it_back(text: str) -> None:
    folded, index = fold_with_map(text)
    assert (folded, index) == _char_by_char(text)
    assert normalize(folded) == normalize(text)


def test_an_accented_text_folds_one_to_one_and_a_ligature_does_not() -> None:
    assert fold_with_map("Olá às") == ("ola as", [0, 1, 2, 3, 4, 5])
    assert fold_with_map("ﬁm é") == ("fim e", [0, 0, 1, 2, 3])
    assert fold_with_map("e\u0301!") == ("e!", [0, 2])
