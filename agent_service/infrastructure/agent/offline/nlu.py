"""The offline model's language understanding: one import point for the decision logic.

See the modules for the rules: :mod:`.text` (folding, language), :mod:`.when` (dates/times),
:mod:`.intents` (intent, yes/no) and :mod:`.matching` (catalog matches, names, choices).
"""

from __future__ import annotations

from agent_service.infrastructure.agent.offline.intents import (
    Intent,
    asks_for_times,
    classify_intent,
    is_affirmative,
    is_negative,
    is_reluctant,
)
from agent_service.infrastructure.agent.offline.matching import (
    best_match,
    best_match_group,
    best_person,
    extract_name,
    ordinal_choice,
)
from agent_service.infrastructure.agent.offline.text import Language, detect_language, normalize
from agent_service.infrastructure.agent.offline.when import When, parse_when

__all__ = [
    "Intent",
    "Language",
    "When",
    "asks_for_times",
    "best_match",
    "best_match_group",
    "best_person",
    "classify_intent",
    "detect_language",
    "extract_name",
    "is_affirmative",
    "is_negative",
    "is_reluctant",
    "normalize",
    "ordinal_choice",
    "parse_when",
]
