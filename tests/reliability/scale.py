"""How big the reliability runs are: ``RELIABILITY_SCALE=full`` (``make test-reliability``)
gives the issue's sizes; anything else, the default "reduced" sizes of ``make test``."""

from __future__ import annotations

import os

FULL = os.environ.get("RELIABILITY_SCALE", "reduced").strip().lower() == "full"


def size(reduced: int, full: int) -> int:
    """``full`` under ``RELIABILITY_SCALE=full``, else ``reduced``."""
    return full if FULL else reduced
