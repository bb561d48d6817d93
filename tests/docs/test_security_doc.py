"""docs/security.md's generated blocks match the policy tables and the matrix's figures."""

from __future__ import annotations

from tests.security.security_doc import DOC, rendered


def test_security_doc_matches_the_policy_and_the_figures() -> None:
    text = DOC.read_text()
    assert rendered(text) == text, "run: .venv/bin/python -m tests.security.security_doc"
