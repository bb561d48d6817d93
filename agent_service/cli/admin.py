"""``python -m agent_service admin bootstrap``: the first tenant of a production deployment and
its back office, with nothing but an operator's credential.

A deployment recognises callers only through its principals file (or JWTs): after
``kubectl apply`` there is a gateway and the agent's calendar client, and nobody who may
create a tenant. The principals file therefore carries one **operator** (a token hash, or an
identity provider's JWT with ``agenda_roles: operator``); with that credential this command

1. creates the tenant (``CreateTenant`` with an idempotency key: running it again returns the
   same tenant), and
2. issues its back office: a ``backoffice`` principal scoped to the new tenant and to the
   calendars it may assign to professionals. With ``--principals-file`` (a file the servers
   read and this machine may write) it is added there, validated; otherwise the
   ``[[principal]]`` table is printed, to be added to the principals Secret (the servers reload
   the file without a restart). The back office's token is ``--office-token-file`` (a Secret
   made beforehand: nothing secret is printed), else a new random one printed once.

It talks to the running agent service over gRPC, like any client (TLS with ``--ca-file``).
"""

from __future__ import annotations

import argparse
import re
import secrets
import sys
from pathlib import Path

import grpc

from agenda.agent.v1 import catalog_service_pb2 as pb
from agenda.agent.v1 import catalog_service_pb2_grpc as pb_grpc
from agenda_kit.auth.config import PrincipalConfigError
from agenda_kit.auth.directory import token_hash
from agenda_kit.grpc.limits import MESSAGE_SIZE_OPTIONS
from agent_service.cli.clients import agent_address
from agent_service.cli.principals_file import Added, Grant, GrantConflictError, add_principal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="admin_command", required=True)
    bootstrap = commands.add_parser(
        "bootstrap", help="create the first tenant and its back-office principal"
    )
    bootstrap.add_argument("--address", default=None, help="agent service (default AGENT_ADDR)")
    bootstrap.add_argument("--ca-file", type=Path, help="TLS: the CA of the agent's certificate")
    bootstrap.add_argument(
        "--token-file", type=Path, required=True,
        help="an operator's credential: its bearer token or a JWT",
    )  # fmt: skip
    bootstrap.add_argument("--tenant-name", required=True)
    bootstrap.add_argument("--time-zone", default="America/Sao_Paulo", help="IANA zone")
    bootstrap.add_argument("--locale", default="pt-BR", help="BCP 47 locale, e.g. en-US")
    bootstrap.add_argument(
        "--key", default=None, help="idempotency key (default: from the tenant's name)"
    )
    bootstrap.add_argument("--office-name", help="the back office principal's name")
    bootstrap.add_argument(
        "--calendar", action="append", default=[],
        help="calendar id or pattern the back office may assign (repeatable)",
    )  # fmt: skip
    bootstrap.add_argument("--office-token-file", type=Path, help="the back office's token")
    bootstrap.add_argument(
        "--principals-file", type=Path, help="add the back office here instead of printing it"
    )


def tenant_key(name: str) -> str:
    """The default idempotency key of a tenant: its name, lowercased, as a slug."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")
    return f"bootstrap-{slug or 'tenant'}"


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _channel(args: argparse.Namespace) -> grpc.aio.Channel:
    address = args.address or agent_address()
    if args.ca_file is None:
        return grpc.aio.insecure_channel(address, options=MESSAGE_SIZE_OPTIONS)
    credentials = grpc.ssl_channel_credentials(root_certificates=args.ca_file.read_bytes())
    return grpc.aio.secure_channel(address, credentials, options=MESSAGE_SIZE_OPTIONS)


async def create_tenant(args: argparse.Namespace) -> pb.Tenant:
    credential = args.token_file.read_text().strip()
    request = pb.CreateTenantRequest(
        tenant=pb.Tenant(name=args.tenant_name, time_zone=args.time_zone, locale=args.locale),
        idempotency_key=args.key or tenant_key(args.tenant_name),
    )
    async with _channel(args) as channel:
        reply = await pb_grpc.CatalogServiceStub(channel).CreateTenant(
            request, metadata=(("authorization", f"Bearer {credential}"),), timeout=30
        )
    return reply.tenant


def office_grant(args: argparse.Namespace, tenant_id: str) -> Grant:
    return Grant(
        name=args.office_name,
        roles=("backoffice",),
        tenants=(tenant_id,),
        calendars=tuple(args.calendar),
        write=bool(args.calendar),
    )


def issue_office(args: argparse.Namespace, tenant_id: str) -> int:
    """The back office principal: added to ``--principals-file``, or printed as a table."""
    given = args.office_token_file is not None
    token = args.office_token_file.read_text().strip() if given else secrets.token_urlsafe(32)
    grant = office_grant(args, tenant_id)
    if args.principals_file is None:
        _say("# add to the agent's principals file (AGENDA_PRINCIPALS_FILE, e.g. the")
        _say("# agenda-agent-principals Secret); the servers reload it without a restart:")
        sys.stdout.write(grant.table(token_hash(token)))
    else:
        try:
            added = add_principal(args.principals_file, grant, token)
        except (PrincipalConfigError, GrantConflictError) as error:
            sys.stderr.write(f"back office not issued: {error}\n")
            return 2
        how = "added to" if added is Added.NEW else "already there: token added in"
        _say(f"back office {args.office_name}: {how} {args.principals_file}")
    if not given:
        _say(f"back office token (shown once): {token}")
    return 0


async def bootstrap(args: argparse.Namespace) -> int:
    try:
        tenant = await create_tenant(args)
    except grpc.aio.AioRpcError as error:
        address = args.address or agent_address()
        sys.stderr.write(f"tenant not created ({address}): {error.code().name}: ")
        sys.stderr.write(f"{error.details()}\n")
        return 1
    _say(f"tenant: {tenant.id} ({tenant.name}, {tenant.time_zone}, {tenant.locale})")
    if not args.office_name:
        return 0
    return issue_office(args, tenant.id)


async def main(args: argparse.Namespace) -> int:
    return await bootstrap(args)
