"""The confirmation turn: no booking, reschedule or cancel without the customer's "yes".

The rules live in :mod:`agent_service.infrastructure.agent.consent`; the tools import them
from here.
"""

from __future__ import annotations

from agent_service.infrastructure.agent.consent import (
    MAX_WRITES_PER_TURN,
    Proposal,
    confirmation_gate,
)

__all__ = ["MAX_WRITES_PER_TURN", "Proposal", "confirmation_gate"]
