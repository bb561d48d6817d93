"""The gateway's HTTP side (aiohttp): Meta's webhook (verification handshake, signed
deliveries) and a health check; the relays and the outbox loop live with the application.

Rules: ``GET /webhook`` answers the challenge only for ``hub.mode=subscribe`` with this
gateway's verify token (else 403); ``POST /webhook`` checks ``X-Hub-Signature-256`` against the
raw body BEFORE parsing it (unsigned or wrongly signed: 401, nothing read), then hands the
messages to the relay and answers 200 at once (Meta redelivers slow or failed deliveries);
a signed body that is not JSON is 400.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import grpc
import structlog
from aiohttp import web

from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda_kit.grpc.client import open_channel
from gateways.whatsapp.graph import GraphClient
from gateways.whatsapp.inbound import messages_of
from gateways.whatsapp.outbox import OutboxRelay
from gateways.whatsapp.relay import Relay
from gateways.whatsapp.settings import WhatsAppSettings, secret
from gateways.whatsapp.signature import HEADER, is_signed

log = structlog.get_logger("agenda.gateway.whatsapp")
MAX_BODY_BYTES = 1 << 20
DRAIN_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class Secrets:
    verify_token: str
    app_secret: str
    access_token: str
    agent_token: str


def secrets_of(settings: WhatsAppSettings) -> Secrets:
    return Secrets(
        verify_token=secret(settings.verify_token_file),
        app_secret=secret(settings.app_secret_file),
        access_token=secret(settings.access_token_file),
        agent_token=secret(settings.agent_token_file),
    )


RELAY = web.AppKey("relay", Relay)
SECRETS = web.AppKey("secrets", Secrets)
SETTINGS = web.AppKey("settings", WhatsAppSettings)


async def verify(request: web.Request) -> web.Response:
    query = request.query
    token = query.get("hub.verify_token", "")
    expected = request.app[SECRETS].verify_token
    if query.get("hub.mode") == "subscribe" and hmac.compare_digest(token, expected):
        return web.Response(text=query.get("hub.challenge", ""))
    return web.Response(status=403)


async def receive(request: web.Request) -> web.Response:
    body = await request.read()
    if not is_signed(body, request.headers.get(HEADER), request.app[SECRETS].app_secret):
        log.warning("webhook_signature_refused")
        return web.Response(status=401)
    try:
        payload = json.loads(body)
    except ValueError:
        return web.Response(status=400)
    for inbound in messages_of(payload, request.app[SETTINGS].phone_number_id):
        request.app[RELAY].submit(inbound)
    return web.Response(text="ok")


async def healthy(_: web.Request) -> web.Response:
    return web.Response(text="ok")


def build_app(settings: WhatsAppSettings, secrets: Secrets) -> web.Application:
    """The gateway, wired: the webhook routes, and on start the agent channel, the Graph
    client, the relay and the outbox loop (stopped, in-flight messages drained, on cleanup)."""
    app = web.Application(client_max_size=MAX_BODY_BYTES)
    app[SETTINGS] = settings
    app[SECRETS] = secrets
    app.router.add_get("/webhook", verify)
    app.router.add_post("/webhook", receive)
    app.router.add_get("/healthz", healthy)
    app.cleanup_ctx.append(_running)
    return app


async def _running(app: web.Application) -> AsyncIterator[None]:
    settings, secrets = app[SETTINGS], app[SECRETS]
    channel = open_channel(
        settings.agent_addr, token=secrets.agent_token, timeout=settings.agent_timeout_seconds
    )
    agent = pb_grpc.AgentServiceStub(channel)
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
        graph = GraphClient(
            session,
            base=settings.graph_api_base,
            version=settings.graph_api_version,
            phone_number_id=settings.phone_number_id,
            access_token=secrets.access_token,
        )
        relay = Relay(
            agent,
            graph,
            tenant_id=settings.tenant_id,
            timeout=settings.agent_timeout_seconds,
            retry_budget=settings.retry_budget_seconds,
        )
        app[RELAY] = relay
        outbox = OutboxRelay(
            agent,
            graph,
            tenant_id=settings.tenant_id,
            wait_seconds=settings.outbox_wait_seconds,
            retry_seconds=settings.outbox_retry_seconds,
        )
        delivering = asyncio.ensure_future(outbox.run())
        log.info("whatsapp_gateway_ready", phone_number_id=settings.phone_number_id)
        try:
            yield
        finally:
            delivering.cancel()
            with contextlib.suppress(asyncio.CancelledError, grpc.aio.AioRpcError):
                await delivering
            await relay.drain(DRAIN_SECONDS)
            await channel.close()
