"""The security stack with the matrix's principals (written once tenant A exists; the servers
reload the file), for the authorization matrix and the random-id test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.security.principals import Principals, principal_stack
from tests.security.stack import SecurityStack


@pytest.fixture
async def matrix_stack(tmp_path: Path) -> AsyncIterator[tuple[SecurityStack, Principals]]:
    async with principal_stack(tmp_path) as running:
        yield running
