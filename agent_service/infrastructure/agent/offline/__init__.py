"""The deterministic stand-in for a language model (``offline``): rules, no network, no ML.

Its language understanding lives in small pure modules (``text``, ``when``, ``intents``,
``matching``), re-exported by :mod:`agent_service.infrastructure.agent.offline.nlu`.
"""
