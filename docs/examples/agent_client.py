"""Play a channel gateway: read the tenant's menu, send a customer message, redeliver it, and
stream the next turn.

A redelivered message (same ``message_id``, as a channel does after a lost acknowledgement)
returns the stored reply with ``duplicate`` set and runs nothing twice.

    AGENT_TOKEN=... python docs/examples/agent_client.py --address 127.0.0.1:50052
    (after ``make run``: AGENT_TOKEN=$(cat .data/tokens/gateway.token), the gateway of the demo
    tenant, whose id is in .data/demo_tenant_id)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import uuid
from pathlib import Path

from agenda_kit.agent_client import AgentClient, AgentRpcError
from agenda_kit.deadline import deadline_after


def _demo_tenant() -> str | None:
    path = Path(os.environ.get("AGENDA_DATA_DIR", ".data")) / "demo_tenant_id"
    return path.read_text().strip() if path.exists() else None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--address", default="127.0.0.1:50052", help="agent service host:port")
    parser.add_argument(
        "--token",
        default=os.environ.get("AGENT_TOKEN"),
        required="AGENT_TOKEN" not in os.environ,
        help="bearer token of the agent service (default: $AGENT_TOKEN)",
    )
    parser.add_argument(
        "--tenant",
        default=_demo_tenant(),
        help="tenant UUID (default: .data/demo_tenant_id, else the first tenant listed)",
    )
    parser.add_argument("--customer", default="5511999990000", help="the customer's channel id")
    parser.add_argument("--text", default="Quais serviços vocês têm?", help="first message")
    parser.add_argument("--tls-root-cert", type=Path, help="PEM file of the CA; enables TLS")
    return parser.parse_args(argv)


async def converse(agent: AgentClient, args: argparse.Namespace) -> int:
    tenant_id = args.tenant
    if tenant_id is None:
        async for tenant in agent.iter_tenants():
            tenant_id = tenant.id
            break
    if tenant_id is None:
        print("no tenant: create one through CatalogService (make run seeds a demo)")
        return 1
    services = await agent.list_services(tenant_id)
    print("menu:", ", ".join(f"{s.name} ({s.duration_minutes} min)" for s in services))

    message_id = f"example-{uuid.uuid4().hex}"  # the channel's id for this message
    for _ in range(2):  # the second send is what a channel's redelivery looks like
        reply = await agent.send_message(
            tenant_id,
            channel="webchat",
            external_id=args.customer,
            text=args.text,
            message_id=message_id,
        )
        print(f"[{reply.specialist}{' duplicate' if reply.duplicate else ''}] {reply.reply}")

    request = agent.message_request(
        tenant_id, channel="webchat", external_id=args.customer, text="Quem atende?"
    )
    print("streamed: ", end="")
    async for event in agent.stream_message(request):
        kind = event.WhichOneof("event")
        if kind == "progress":
            print(f"<{event.progress}> ", end="")
        elif kind == "text_delta":
            print(event.text_delta, end="")
        elif kind == "final":
            print(f"\n(conversation {event.final.conversation_id}, trace {event.final.trace_id})")
    conversation = await agent.get_conversation(tenant_id, reply.conversation_id, message_limit=10)
    print(f"{len(conversation.messages)} messages stored")
    return 0


async def main(args: argparse.Namespace, root_cert: bytes | None) -> int:
    async with AgentClient.connect(
        args.address, token=args.token, tls_root_cert=root_cert
    ) as agent:
        try:
            with deadline_after(60):  # the whole example must finish within 60 s
                return await converse(agent, args)
        except AgentRpcError as error:  # every failure carries its gRPC status code
            print(f"{error.code.name}: {error.details}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    arguments = parse_args()
    certificate = arguments.tls_root_cert.read_bytes() if arguments.tls_root_cert else None
    sys.exit(asyncio.run(main(arguments, certificate)))
