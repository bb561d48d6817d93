"""The offline model's sentences, per language, from the ``offline`` part of each locale file
(agent/locales/*.json), and the system's words for tool outcomes (the ``outcomes`` part,
``agent/outcome_text``), which the offline model says as they are."""

from __future__ import annotations

from agent_service.infrastructure.agent.messages import LOCALE_FILES

_TEXT: dict[str, dict[str, str]] = {}
for _language, _data in LOCALE_FILES.items():
    for _key, _sentence in (*_data["offline"].items(), *_data["outcomes"].items()):
        _TEXT.setdefault(_key, {})[_language] = _sentence


def say(key: str, language: str, **values: str) -> str:
    templates = _TEXT[key]
    return templates.get(language, templates["en"]).format(**values)
