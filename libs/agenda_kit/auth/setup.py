"""How a server builds its principal directory from settings (one place for both services)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import structlog

from agenda_kit.auth.config import PrincipalEntry
from agenda_kit.auth.devtokens import ensure_dev_principals
from agenda_kit.auth.directory import PrincipalDirectory, token_hash
from agenda_kit.auth.principals import Principal

log = structlog.get_logger("agenda.auth")


def env_entry(principal: Principal, tokens: Sequence[str]) -> PrincipalEntry | None:
    """The single-token case: every token of ``*_AUTH_TOKENS`` is a credential of one
    principal (list two while rotating)."""
    hashes = tuple(token_hash(token) for token in tokens if token)
    return PrincipalEntry(principal, hashes) if hashes else None


def build_directory(
    principals_file: Path | None, data_dir: Path, fixed: PrincipalEntry | None
) -> PrincipalDirectory:
    """The principals file plus the env principal; with neither, the generated dev file."""
    entries = () if fixed is None else (fixed,)
    path = principals_file
    if path is None and not entries:
        path = ensure_dev_principals(data_dir)
        log.info("principals_generated", path=str(path), tokens=str(data_dir / "tokens"))
    return PrincipalDirectory(path, entries)


def token_directory(principal: Principal, tokens: Sequence[str]) -> PrincipalDirectory:
    """A directory of one principal known by ``tokens`` (the single-token case)."""
    return PrincipalDirectory(fixed=tuple(e for e in (env_entry(principal, tokens),) if e))
