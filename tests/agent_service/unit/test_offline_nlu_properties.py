"""Properties of the offline NLU that must hold on any input."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import get_args
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.infrastructure.agent.offline.nlu import (
    Intent,
    best_match,
    classify_intent,
    detect_language,
    extract_name,
    is_affirmative,
    is_negative,
    normalize,
    ordinal_choice,
    parse_when,
)
from agent_service.infrastructure.language import spoken_languages
from agent_service.infrastructure.language.packs import word_list

PROPS = settings(max_examples=200, deadline=None, derandomize=True)
SP = ZoneInfo("America/Sao_Paulo")
WORDS = [
    "amanhã", "hoje", "segunda", "próxima", "terça-feira", "next", "monday", "dia", "5", "31",
    "12", "/", "às", "at", "10h", "3pm", ":", "30", "de", "dezembro", "dec", "the", "5th",
    "R$", "50", "pessoas", "não", "sim", "pode", "ok", "no", "cancelar", "quero", "corte",
    "Ana", "meio-dia", "noon", "e", "meia", "da", "tarde", "2026", "0", "99", "?", "!", "👍",
]  # fmt: skip
YESTERDAY = {w for code in spoken_languages() for w in word_list(code, "dates", "yesterday")}
texts = st.one_of(st.text(max_size=80), st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join))
nows = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2098, 12, 1), timezones=st.just(SP)
)


@PROPS
@given(text=texts, now=nows)
def test_parse_when_never_raises_and_never_resolves_the_past(text: str, now: datetime) -> None:
    result = parse_when(text, now)
    # the past only as a word for yesterday, read so that it can be refused ("ontem às 10h")
    yesterday = normalize(result.day_text) in YESTERDAY and result.day == now.date() - timedelta(1)
    assert result.day is None or result.day >= now.date() or yesterday
    assert result.day is None or result.day <= now.date() + timedelta(days=366 * 100)
    assert result.day_text == "" or result.day_text in text


@PROPS
@given(text=texts)
def test_yes_and_no_are_exclusive(text: str) -> None:
    assert not (is_affirmative(text) and is_negative(text))


@PROPS
@given(text=texts)
def test_classify_intent_is_total(text: str) -> None:
    intent, confidence = classify_intent(text)
    assert intent in get_args(Intent)
    assert 0.0 <= confidence <= 1.0


@PROPS
@given(text=texts)
def test_normalize_is_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once
    assert once == once.strip()
    assert "  " not in once


@PROPS
@given(text=texts, candidates=st.lists(texts, max_size=6))
def test_best_match_is_in_range(text: str, candidates: list[str]) -> None:
    index = best_match(text, candidates)
    assert index is None or 0 <= index < len(candidates)


@PROPS
@given(text=texts, count=st.integers(min_value=0, max_value=12))
def test_ordinal_choice_is_in_range(text: str, count: int) -> None:
    index = ordinal_choice(text, count)
    assert index is None or 0 <= index < count


@PROPS
@given(text=texts)
def test_extract_name_and_language_are_total(text: str) -> None:
    name = extract_name(text)
    assert name is None or 1 <= len(name.split()) <= 3
    assert detect_language(text, "pt") in spoken_languages()
    assert detect_language(text, "en") in spoken_languages()
