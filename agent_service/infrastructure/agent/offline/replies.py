"""The offline model's sentences, per language, from the ``offline`` part of each locale file
(agent/locales/*.json), and the system's words for tool outcomes (the ``outcomes`` part,
``agent/outcome_text``), which the offline model says as they are."""

from __future__ import annotations

from agent_service.infrastructure.agent.messages import Sentences

say = Sentences("offline", "outcomes")
