"""Security properties 6–9 of issue 4: auth, tenant isolation, bad input, hostile model.

Sizes: ``RELIABILITY_SCALE=full`` runs the issue's sizes (e.g. 1,000 isolation cases);
otherwise a reduced size that keeps this folder well under a minute.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.security.stack import SecurityStack, security_stack

FULL = os.environ.get("RELIABILITY_SCALE", "").lower() == "full"


def scaled(reduced: int, full: int) -> int:
    """``full`` under ``RELIABILITY_SCALE=full``, else ``reduced``."""
    return full if FULL else reduced


@pytest.fixture
async def stack(tmp_path: Path) -> AsyncIterator[SecurityStack]:
    """Both services over in-memory storage, tenants A and B seeded."""
    async with security_stack(tmp_path) as running:
        yield running
