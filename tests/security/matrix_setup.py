"""The security stack with the matrix's principals (written once tenant A exists; the servers
reload the file), for the authorization matrix and the random-id test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.security.principals import Principals
from tests.security.stack import SecurityStack, security_stack


@pytest.fixture
async def matrix_stack(tmp_path: Path) -> AsyncIterator[tuple[SecurityStack, Principals]]:
    """The security stack, then (once A exists) the matrix's principals file, which both
    servers pick up without a restart."""
    path = tmp_path / "principals.toml"
    path.write_text("")
    async with security_stack(tmp_path, principals_file=path) as stack:
        principals = Principals(stack.tenants["A"].id)
        principals.write(tmp_path)
        yield stack, principals
