"""``python -m agent_service issue-token``: a principal with a new random bearer token.

The principal (its token's SHA-256 only) is added to the principals file
(``AGENDA_PRINCIPALS_FILE``, else ``AGENDA_DATA_DIR/principals.toml``); running servers pick it
up at their next call. The token itself is printed once, on standard output. Issuing again for
a name already in the file with the same roles and scope adds a token to it (the earlier one
keeps working), so a recipe can run twice; the same name with another scope is refused.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path

from agenda_kit.auth.config import PrincipalConfigError
from agenda_kit.auth.devtokens import PRINCIPALS_FILE
from agenda_kit.auth.principals import Role
from agent_service.cli.clients import data_dir
from agent_service.cli.principals_file import Added, Grant, GrantConflictError, add_principal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", required=True, help="unique principal name")
    parser.add_argument("--role", required=True, action="append", choices=[r.value for r in Role])
    parser.add_argument("--tenant", action="append", default=[], help="tenant id, or '*'")
    parser.add_argument("--channel", action="append", default=[], help="default: every channel")
    parser.add_argument(
        "--calendar", action="append", default=[], help="calendar id or pattern (with --write)"
    )
    parser.add_argument("--write", action="store_true", help="calendar grants allow writes")


def principals_path() -> Path:
    configured = os.environ.get("AGENDA_PRINCIPALS_FILE")
    return Path(configured) if configured else data_dir() / PRINCIPALS_FILE


def grant_of(args: argparse.Namespace) -> Grant:
    return Grant(
        name=args.name,
        roles=tuple(args.role),
        tenants=tuple(args.tenant),
        channels=tuple(args.channel),
        calendars=tuple(args.calendar),
        write=args.write,
    )


def main(args: argparse.Namespace) -> int:
    token = secrets.token_urlsafe(32)
    path = principals_path()
    try:
        added = add_principal(path, grant_of(args), token)
    except (PrincipalConfigError, GrantConflictError) as error:
        sys.stderr.write(f"not issued: {error}\n")
        return 2
    if added is Added.EXISTING:
        sys.stderr.write(f"{args.name} already existed with this scope: token added to it\n")
    sys.stdout.write(token + "\n")
    return 0
