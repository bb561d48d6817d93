"""How big the reliability runs are: ``RELIABILITY_SCALE=full`` (``make test-reliability``)
gives the issue's sizes; anything else, the default "reduced" sizes of ``make test``
(``tests.scale``, shared with the other property tests)."""

from __future__ import annotations

from tests.scale import FULL, size

__all__ = ["FULL", "size"]
