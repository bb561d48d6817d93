"""``issue-token`` and ``admin bootstrap`` add principals safely: the file always parses, a
name issued again with the same scope gets a second token (both work), another scope is
refused, and nothing else in the file changes."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenda_kit.auth.devtokens import write_dev_principals
from agenda_kit.auth.directory import parse_directory
from agent_service.cli.principals_file import Added, Grant, GrantConflictError, add_principal

OFFICE = Grant(
    name="bela-office", roles=("backoffice",), tenants=("3f0c5a9e-0000-4000-8000-000000000001",),
    calendars=("bela-*",), write=True,
)  # fmt: skip


def test_issued_twice_with_the_same_scope_both_tokens_work(tmp_path: Path) -> None:
    path = tmp_path / "principals.toml"
    write_dev_principals(tmp_path, None)  # the generated block stays as it is
    generated = path.read_text()
    assert add_principal(path, OFFICE, "first") is Added.NEW
    assert add_principal(path, OFFICE, "second") is Added.EXISTING
    directory = parse_directory(path.read_text(), tmp_path)
    for token in ("first", "second"):
        found = directory.by_token(token)
        assert found is not None and found.name == "bela-office"
    assert path.read_text().startswith(generated)
    assert path.read_text().count("[[principal]]") == generated.count("[[principal]]") + 1


def test_the_same_name_with_another_scope_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    path = tmp_path / "principals.toml"
    add_principal(path, OFFICE, "first")
    before = path.read_text()
    wider = Grant(name="bela-office", roles=("backoffice",), tenants=("*",))
    with pytest.raises(GrantConflictError):
        add_principal(path, wider, "second")
    assert path.read_text() == before


def test_a_generated_name_cannot_be_taken_over(tmp_path: Path) -> None:
    write_dev_principals(tmp_path, None)
    path = tmp_path / "principals.toml"
    with pytest.raises(GrantConflictError):
        add_principal(path, Grant(name="operator", roles=("backoffice",), tenants=("*",)), "x")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["a-office", "b-office", "c-office"]), min_size=1, max_size=8))
def test_any_sequence_of_issues_leaves_a_file_the_servers_accept(names: list[str]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "principals.toml"
        for n, name in enumerate(names):
            grant = Grant(name=name, roles=("backoffice",), tenants=("*",))
            add_principal(path, grant, f"token-{n}")
        parsed = parse_directory(path.read_text(), path.parent)
        assert sorted(e.principal.name for e in parsed.entries) == sorted(set(names))
        for n, name in enumerate(names):
            found = parsed.by_token(f"token-{n}")
            assert found is not None and found.name == name
