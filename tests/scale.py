"""How big randomized and property tests are: ``RELIABILITY_SCALE=full`` (``make
test-reliability``) gives the full sizes; anything else the reduced sizes ``make test`` runs
(the rule: a property is always checked, its full size is for the full run)."""

from __future__ import annotations

import os

FULL = os.environ.get("RELIABILITY_SCALE", "reduced").strip().lower() == "full"


def size(reduced: int, full: int) -> int:
    """``full`` under ``RELIABILITY_SCALE=full``, else ``reduced``."""
    return full if FULL else reduced
