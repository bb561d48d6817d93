"""docs/security.md's generated policy table matches the servers' policy tables."""

from __future__ import annotations

from tests.security.security_doc import DOC, rendered


def test_security_doc_matches_the_policy_tables() -> None:
    text = DOC.read_text()
    assert rendered(text) == text, "run: .venv/bin/python -m tests.security.security_doc"
