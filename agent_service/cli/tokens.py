"""``python -m agent_service issue-token``: a new principal with a random bearer token.

The principal (its token's SHA-256 only) is appended to the principals file
(``AGENDA_PRINCIPALS_FILE``, else ``AGENDA_DATA_DIR/principals.toml``); running servers pick it
up at their next call. The token itself is printed once, on standard output.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from pathlib import Path

from agenda_kit.auth.config import PrincipalConfigError
from agenda_kit.auth.devtokens import PRINCIPALS_FILE, replace_file
from agenda_kit.auth.directory import parse_directory, token_hash
from agenda_kit.auth.principals import Role
from agent_service.cli.clients import data_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", required=True, help="unique principal name")
    parser.add_argument("--role", required=True, action="append", choices=[r.value for r in Role])
    parser.add_argument("--tenant", action="append", default=[], help="tenant id, or '*'")
    parser.add_argument("--channel", action="append", default=[], help="default: every channel")
    parser.add_argument(
        "--calendar", action="append", default=[], help="calendar id or pattern (with --write)"
    )
    parser.add_argument("--write", action="store_true", help="calendar grants allow writes")


def principal_table(args: argparse.Namespace, digest: str) -> str:
    """The ``[[principal]]`` TOML table for ``args`` (values JSON-quoted, valid TOML)."""
    lines = [
        "[[principal]]",
        f"name = {json.dumps(args.name)}",
        f"roles = {json.dumps(args.role)}",
        f"tenants = {json.dumps('*' if '*' in args.tenant else args.tenant)}",
        f'token_sha256 = ["{digest}"]',
    ]
    if args.channel:
        lines.append(f"channels = {json.dumps(args.channel)}")
    if args.calendar:
        grants = ", ".join(
            f"{{ pattern = {json.dumps(c)}, write = {str(args.write).lower()} }}"
            for c in args.calendar
        )
        lines.append(f"calendars = [{grants}]")
    return "\n".join(lines) + "\n\n"


def main(args: argparse.Namespace) -> int:
    configured = os.environ.get("AGENDA_PRINCIPALS_FILE")
    path = Path(configured) if configured else data_dir() / PRINCIPALS_FILE
    existing = path.read_text() if path.exists() else ""
    token = secrets.token_urlsafe(32)
    text = existing + ("\n" if existing and not existing.endswith("\n") else "")
    text += principal_table(args, token_hash(token))
    try:
        parse_directory(text, path.parent)  # never write a file the servers would refuse
    except PrincipalConfigError as error:
        sys.stderr.write(f"not issued: {error}\n")
        return 2
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(path, text)
    sys.stdout.write(token + "\n")
    return 0
