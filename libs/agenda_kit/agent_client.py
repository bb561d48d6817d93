"""``AgentClient``: a small typed async client for ``agenda.agent.v1`` (AgentService and
CatalogService), for channel gateways and back-office tools.

Every call: ``authorization: Bearer <token>`` (and an ``x-request-id`` when given or bound in
structlog's context) in metadata; one deadline for the whole call, retries included —
``timeout`` seconds, never later than the caller's :mod:`agenda_kit.deadline`; retries of
UNAVAILABLE only (the server was not reached or is restarting), with small jittered
exponential backoff while the deadline allows. That is safe for every RPC of this contract:
SendMessage/StreamMessage are deduplicated on ``(tenant, channel, message_id)``, Create RPCs on
their ``idempotency_key``, and the rest are reads or idempotent writes. Any other failure
raises :class:`AgentRpcError` at once, with the status code and the server's details.

Methods return the generated messages (``agenda.agent.v1.*_pb2``); list RPCs also come as
``iter_*`` async iterators that follow page tokens.

    async with AgentClient.connect("127.0.0.1:50052", token=TOKEN) as agent:
        reply = await agent.send_message(tenant_id, channel="whatsapp",
                                         external_id="5511999990000", text="Oi",
                                         message_id=wamid)
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
import structlog
from google.protobuf.message import Message
from google.protobuf.timestamp_pb2 import Timestamp

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import agent_service_pb2_grpc as agent_grpc
from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agenda.agent.v1 import catalog_service_pb2_grpc as catalog_grpc
from agenda.agent.v1 import types_pb2 as types_pb
from agenda_kit import deadline
from agenda_kit.grpc.balancing import balanced_options, channel_target
from agenda_kit.grpc.limits import MESSAGE_SIZE_OPTIONS

__all__ = ["AgentClient", "AgentClientStats", "AgentRpcError", "RetryPolicy"]

log = structlog.get_logger("agenda.agent_client")

Req = TypeVar("Req", bound=Message)
Resp = TypeVar("Resp", bound=Message)
Page = TypeVar("Page", bound=Message)
Item = TypeVar("Item")

_MIN_ATTEMPT_SECONDS = 0.02
_DEFAULT_CHANNEL_OPTIONS: tuple[tuple[str, Any], ...] = (
    *MESSAGE_SIZE_OPTIONS,
    ("grpc.initial_reconnect_backoff_ms", 200),
    ("grpc.max_reconnect_backoff_ms", 5000),
)


class AgentRpcError(Exception):
    """A call failed for good: ``code`` is the gRPC status, ``details`` the server's message
    (for INVALID_ARGUMENT it names the field)."""

    def __init__(self, rpc: str, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{rpc}: {code.name}: {details}")
        self.rpc = rpc
        self.code = code
        self.details = details


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """UNAVAILABLE is retried up to ``max_attempts`` calls in all, waiting
    ``min(cap, base * 2**(n-1))`` times a random 0.5–1 between attempts."""

    max_attempts: int = 3
    backoff_base: float = 0.1
    backoff_cap: float = 1.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1 or self.backoff_base < 0 or self.backoff_cap < 0:
            raise ValueError("max_attempts must be >= 1 and the backoff non-negative")

    def backoff(self, attempt: int) -> float:
        ceiling = min(self.backoff_cap, self.backoff_base * 2.0 ** (attempt - 1))
        return ceiling * random.uniform(0.5, 1.0)  # noqa: S311 - jitter, not cryptography


@dataclass(slots=True)
class AgentClientStats:
    """Logical calls, RPC attempts sent, and retries."""

    calls: int = 0
    attempts: int = 0
    retries: int = 0


def timestamp(seconds: float) -> Timestamp:
    """A ``google.protobuf.Timestamp`` from a POSIX time (for ``list_appointments`` filters)."""
    stamp = Timestamp()
    stamp.FromNanoseconds(int(seconds * 1_000_000_000))
    return stamp


class AgentClient:
    """AgentService and CatalogService over one channel.

    ``timeout`` is the default budget of one call (retries included); every method takes a
    ``timeout_s=`` of its own. SendMessage runs a model turn, so keep it generous (30 s default).
    """

    def __init__(
        self,
        channel: grpc.aio.Channel,
        *,
        token: str | None,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
    ) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        self._channel = channel
        self._token = token
        self._timeout = timeout
        self._retry = retry or RetryPolicy()
        self._agent = agent_grpc.AgentServiceStub(channel)
        self._catalog = catalog_grpc.CatalogServiceStub(channel)
        self._owns_channel = False
        self.stats = AgentClientStats()

    @classmethod
    def connect(
        cls,
        address: str | Sequence[str],
        *,
        token: str | None,
        tls_root_cert: bytes | None = None,
        tls: bool = False,
        channel_options: Sequence[tuple[str, Any]] = (),
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
    ) -> AgentClient:
        """Open a channel to ``address`` ("host:port", a DNS name of every replica, or several
        addresses: round_robin per call, see ``agenda_kit.grpc.balancing``); ``close()``
        closes it.

        TLS when ``tls`` is set or ``tls_root_cert`` (PEM) is given, plaintext otherwise.
        Call from async code: the channel belongs to the running event loop.
        """
        options = balanced_options([*_DEFAULT_CHANNEL_OPTIONS, *channel_options])
        address = channel_target(address)  # one or many replicas, round_robin per call
        if tls or tls_root_cert is not None:
            credentials = grpc.ssl_channel_credentials(root_certificates=tls_root_cert)
            channel = grpc.aio.secure_channel(address, credentials, options=options)
        else:
            channel = grpc.aio.insecure_channel(address, options=options)
        client = cls(channel, token=token, timeout=timeout, retry=retry)
        client._owns_channel = True
        return client

    async def close(self) -> None:
        """Close the channel if ``connect`` opened it (a channel passed in stays the caller's)."""
        if self._owns_channel:
            await self._channel.close()

    async def __aenter__(self) -> AgentClient:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    # -- AgentService -------------------------------------------------------------------------

    async def send_message(
        self,
        tenant_id: str,
        *,
        channel: str,
        external_id: str,
        text: str,
        message_id: str | None = None,
        display_name: str = "",
        conversation_id: str = "",
        timeout_s: float | None = None,
        request_id: str | None = None,
    ) -> agent_pb.SendMessageResponse:
        """One customer message → the reply. Pass the channel's own ``message_id`` so that a
        redelivery (yours or the channel's) returns the stored reply (``duplicate``) instead
        of running the turn again; without one a random id is used for this call's retries."""
        request = self.message_request(
            tenant_id,
            channel=channel,
            external_id=external_id,
            text=text,
            message_id=message_id,
            display_name=display_name,
            conversation_id=conversation_id,
        )
        return await self._unary(
            "SendMessage", self._agent.SendMessage, request, timeout_s, request_id
        )

    async def stream_message(
        self,
        request: agent_pb.SendMessageRequest,
        *,
        timeout_s: float | None = None,
        request_id: str | None = None,
    ) -> AsyncIterator[agent_pb.StreamMessageResponse]:
        """The turn as events: ``progress`` stages, ``text_delta`` chunks, then ``final``.

        UNAVAILABLE is retried only before the first event arrives (the server deduplicates
        the message id, so a retried turn never runs twice)."""
        rpc = "StreamMessage"
        give_up = self._give_up_at(timeout_s)
        self.stats.calls += 1
        attempt = 1
        while True:
            call = self._agent.StreamMessage(
                agent_pb.StreamMessageRequest(message=request),
                timeout=self._attempt_timeout(rpc, give_up),
                metadata=self._metadata(request_id),
            )
            self.stats.attempts += 1
            received = False
            try:
                async for event in call:
                    received = True
                    yield event
                return
            except grpc.aio.AioRpcError as error:
                delay = None if received else self._retry_delay(error, attempt, give_up)
                if delay is None:
                    raise _rpc_error(rpc, error) from error
            await self._pause(rpc, attempt, delay)
            attempt += 1

    def message_request(
        self,
        tenant_id: str,
        *,
        channel: str,
        external_id: str,
        text: str,
        message_id: str | None = None,
        display_name: str = "",
        conversation_id: str = "",
    ) -> agent_pb.SendMessageRequest:
        """The request ``send_message`` sends (for ``stream_message``)."""
        return agent_pb.SendMessageRequest(
            tenant_id=tenant_id,
            customer=agent_pb.CustomerIdentity(
                channel=channel, external_id=external_id, display_name=display_name
            ),
            conversation_id=conversation_id,
            message_id=message_id or uuid.uuid4().hex,
            text=text,
        )

    async def get_conversation(
        self,
        tenant_id: str,
        conversation_id: str,
        *,
        message_limit: int = 0,
        timeout_s: float | None = None,
    ) -> types_pb.Conversation:
        """The conversation with its latest ``message_limit`` messages (0 = 100)."""
        request = agent_pb.GetConversationRequest(
            tenant_id=tenant_id, conversation_id=conversation_id, message_limit=message_limit
        )
        response = await self._unary(
            "GetConversation", self._agent.GetConversation, request, timeout_s
        )
        return response.conversation

    async def hand_off(
        self, tenant_id: str, conversation_id: str, reason: str, *, timeout_s: float | None = None
    ) -> types_pb.Conversation:
        """Give the conversation to a human: the bot stores messages but does not answer."""
        request = agent_pb.HandOffRequest(
            tenant_id=tenant_id, conversation_id=conversation_id, reason=reason
        )
        return (await self._unary("HandOff", self._agent.HandOff, request, timeout_s)).conversation

    async def hand_back(
        self,
        tenant_id: str,
        conversation_id: str,
        note: str = "",
        *,
        timeout_s: float | None = None,
    ) -> types_pb.Conversation:
        """Return the conversation to the bot (the note is kept in the transcript)."""
        request = agent_pb.HandBackRequest(
            tenant_id=tenant_id, conversation_id=conversation_id, note=note
        )
        return (
            await self._unary("HandBack", self._agent.HandBack, request, timeout_s)
        ).conversation

    async def end_conversation(
        self, tenant_id: str, conversation_id: str, *, timeout_s: float | None = None
    ) -> types_pb.Conversation:
        """Close the conversation; the customer's next message starts a new one."""
        request = agent_pb.EndConversationRequest(
            tenant_id=tenant_id, conversation_id=conversation_id
        )
        response = await self._unary(
            "EndConversation", self._agent.EndConversation, request, timeout_s
        )
        return response.conversation

    # -- CatalogService -----------------------------------------------------------------------

    async def create_tenant(
        self, tenant: catalog_pb.Tenant, *, idempotency_key: str, timeout_s: float | None = None
    ) -> catalog_pb.Tenant:
        request = catalog_pb.CreateTenantRequest(tenant=tenant, idempotency_key=idempotency_key)
        return (
            await self._unary("CreateTenant", self._catalog.CreateTenant, request, timeout_s)
        ).tenant

    async def get_tenant(
        self, tenant_id: str, *, timeout_s: float | None = None
    ) -> catalog_pb.Tenant:
        request = catalog_pb.GetTenantRequest(tenant_id=tenant_id)
        return (await self._unary("GetTenant", self._catalog.GetTenant, request, timeout_s)).tenant

    async def list_tenants(
        self, *, page_size: int = 0, page_token: str = "", timeout_s: float | None = None
    ) -> catalog_pb.ListTenantsResponse:
        request = catalog_pb.ListTenantsRequest(page_size=page_size, page_token=page_token)
        return await self._unary("ListTenants", self._catalog.ListTenants, request, timeout_s)

    def iter_tenants(self, *, page_size: int = 0) -> AsyncIterator[catalog_pb.Tenant]:
        """Every tenant, following page tokens."""
        return _pages(
            lambda token: self.list_tenants(page_size=page_size, page_token=token),
            lambda page: (page.tenants, page.next_page_token),
        )

    async def create_service(
        self, service: catalog_pb.Service, *, idempotency_key: str, timeout_s: float | None = None
    ) -> catalog_pb.Service:
        request = catalog_pb.CreateServiceRequest(service=service, idempotency_key=idempotency_key)
        return (
            await self._unary("CreateService", self._catalog.CreateService, request, timeout_s)
        ).service

    async def list_services(
        self, tenant_id: str, *, timeout_s: float | None = None
    ) -> list[catalog_pb.Service]:
        request = catalog_pb.ListServicesRequest(tenant_id=tenant_id)
        response = await self._unary("ListServices", self._catalog.ListServices, request, timeout_s)
        return list(response.services)

    async def create_professional(
        self,
        professional: catalog_pb.Professional,
        *,
        idempotency_key: str,
        timeout_s: float | None = None,
    ) -> catalog_pb.Professional:
        request = catalog_pb.CreateProfessionalRequest(
            professional=professional, idempotency_key=idempotency_key
        )
        response = await self._unary(
            "CreateProfessional", self._catalog.CreateProfessional, request, timeout_s
        )
        return response.professional

    async def list_professionals(
        self, tenant_id: str, *, service_id: str = "", timeout_s: float | None = None
    ) -> list[catalog_pb.Professional]:
        request = catalog_pb.ListProfessionalsRequest(tenant_id=tenant_id, service_id=service_id)
        response = await self._unary(
            "ListProfessionals", self._catalog.ListProfessionals, request, timeout_s
        )
        return list(response.professionals)

    async def create_faq_entry(
        self, entry: catalog_pb.FaqEntry, *, idempotency_key: str, timeout_s: float | None = None
    ) -> catalog_pb.FaqEntry:
        request = catalog_pb.CreateFaqEntryRequest(entry=entry, idempotency_key=idempotency_key)
        return (
            await self._unary("CreateFaqEntry", self._catalog.CreateFaqEntry, request, timeout_s)
        ).entry

    async def list_faq_entries(
        self, tenant_id: str, *, timeout_s: float | None = None
    ) -> list[catalog_pb.FaqEntry]:
        request = catalog_pb.ListFaqEntriesRequest(tenant_id=tenant_id)
        response = await self._unary(
            "ListFaqEntries", self._catalog.ListFaqEntries, request, timeout_s
        )
        return list(response.entries)

    async def upsert_customer(
        self, customer: catalog_pb.Customer, *, timeout_s: float | None = None
    ) -> tuple[catalog_pb.Customer, bool]:
        """The stored customer and whether it was new."""
        request = catalog_pb.UpsertCustomerRequest(customer=customer)
        response = await self._unary(
            "UpsertCustomer", self._catalog.UpsertCustomer, request, timeout_s
        )
        return response.customer, response.created

    async def get_customer(
        self, tenant_id: str, customer_id: str, *, timeout_s: float | None = None
    ) -> catalog_pb.Customer:
        request = catalog_pb.GetCustomerRequest(tenant_id=tenant_id, customer_id=customer_id)
        return (
            await self._unary("GetCustomer", self._catalog.GetCustomer, request, timeout_s)
        ).customer

    async def list_appointments(
        self,
        request: catalog_pb.ListAppointmentsRequest,
        *,
        timeout_s: float | None = None,
    ) -> catalog_pb.ListAppointmentsResponse:
        """One page of a tenant's appointments (filters as in the request)."""
        return await self._unary(
            "ListAppointments", self._catalog.ListAppointments, request, timeout_s
        )

    def iter_appointments(
        self,
        tenant_id: str,
        *,
        customer_id: str = "",
        professional_id: str = "",
        statuses: Sequence[types_pb.AppointmentStatus.ValueType] = (),
        page_size: int = 0,
    ) -> AsyncIterator[types_pb.Appointment]:
        """Every matching appointment, by start time, following page tokens."""

        def page(token: str) -> Awaitable[catalog_pb.ListAppointmentsResponse]:
            return self.list_appointments(
                catalog_pb.ListAppointmentsRequest(
                    tenant_id=tenant_id,
                    customer_id=customer_id,
                    professional_id=professional_id,
                    statuses=list(statuses),
                    page_size=page_size,
                    page_token=token,
                )
            )

        return _pages(page, lambda response: (response.appointments, response.next_page_token))

    async def cancel_appointment(
        self,
        tenant_id: str,
        appointment_id: str,
        reason: str = "",
        *,
        timeout_s: float | None = None,
    ) -> tuple[types_pb.Appointment, bool]:
        """The appointment and whether this call cancelled it (False: it already was)."""
        request = catalog_pb.CancelAppointmentRequest(
            tenant_id=tenant_id, appointment_id=appointment_id, reason=reason
        )
        response = await self._unary(
            "CancelAppointment", self._catalog.CancelAppointment, request, timeout_s
        )
        return response.appointment, response.cancelled

    # -- one call: deadline, retries, errors ---------------------------------------------------

    async def _unary(
        self,
        rpc: str,
        method: grpc.aio.UnaryUnaryMultiCallable[Req, Resp],
        request: Req,
        timeout_s: float | None,
        request_id: str | None = None,
    ) -> Resp:
        """Call ``method``, retrying UNAVAILABLE while attempts and the deadline allow."""
        give_up = self._give_up_at(timeout_s)
        self.stats.calls += 1
        attempt = 1
        while True:
            self.stats.attempts += 1
            try:
                return await method(
                    request,
                    timeout=self._attempt_timeout(rpc, give_up),
                    metadata=self._metadata(request_id),
                )
            except grpc.aio.AioRpcError as error:
                delay = self._retry_delay(error, attempt, give_up)
                if delay is None:
                    raise _rpc_error(rpc, error) from error
            await self._pause(rpc, attempt, delay)
            attempt += 1

    def _give_up_at(self, timeout: float | None) -> float:
        """The monotonic instant this call must be over: its own timeout or the caller's
        deadline, whichever comes first."""
        budget = self._timeout if timeout is None else timeout
        left = deadline.remaining()
        if left is not None:
            budget = min(budget, left)
        return time.monotonic() + budget

    @staticmethod
    def _attempt_timeout(rpc: str, give_up: float) -> float:
        left = give_up - time.monotonic()
        if left <= 0:
            raise AgentRpcError(rpc, grpc.StatusCode.DEADLINE_EXCEEDED, "deadline passed")
        return left

    def _retry_delay(
        self, error: grpc.aio.AioRpcError, attempt: int, give_up: float
    ) -> float | None:
        """The pause before the next attempt, or None when this failure is final."""
        if error.code() is not grpc.StatusCode.UNAVAILABLE or attempt >= self._retry.max_attempts:
            return None
        delay = self._retry.backoff(attempt)
        if time.monotonic() + delay + _MIN_ATTEMPT_SECONDS >= give_up:
            return None
        return delay

    async def _pause(self, rpc: str, attempt: int, delay: float) -> None:
        log.info("agent_call_retry", rpc=rpc, attempt=attempt, delay_s=round(delay, 3))
        self.stats.retries += 1
        await asyncio.sleep(delay)

    def _metadata(self, request_id: str | None) -> tuple[tuple[str, str], ...]:
        items: list[tuple[str, str]] = []
        if self._token:
            items.append(("authorization", f"Bearer {self._token}"))
        bound = structlog.contextvars.get_contextvars().get("request_id")
        request_id = request_id or (bound if isinstance(bound, str) else None)
        if request_id:
            items.append(("x-request-id", request_id))
        return tuple(items)


def _rpc_error(rpc: str, error: grpc.aio.AioRpcError) -> AgentRpcError:
    code = error.code()
    return AgentRpcError(rpc, code, error.details() or code.name)


async def _pages(
    fetch: Callable[[str], Awaitable[Page]],
    split: Callable[[Page], tuple[Sequence[Item], str]],
) -> AsyncIterator[Item]:
    token = ""
    while True:
        items, token = split(await fetch(token))
        for item in items:
            yield item
        if not token:
            return
