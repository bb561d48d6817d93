"""The ``offline`` agent model: deterministic, rule-based, no network and no ML.

Its language understanding lives in small pure modules (``text``, ``when``, ``intents``,
``matching``), re-exported by :mod:`agent_service.infrastructure.agent.offline.nlu`.
"""
