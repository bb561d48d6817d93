"""A customer's message from the webhook to the agent and the reply back to WhatsApp.

Rules (docs/gateways.md):
- each message is sent to the agent as it arrived (``message_id`` = its wamid, the channel
  ``whatsapp``, the customer's ``wa_id``), one ``StreamMessage`` per message, in the order
  the webhook delivered them: a customer's next message is sent once the previous one has its
  place (the stream's first event, ``accepted``), never after its reply, so the agent sees a
  burst as a burst: it answers it with one reply and tells the other messages which one
  covers them;
- the agent's retryable answers (UNAVAILABLE: MESSAGE_IN_PROGRESS, MODEL_UNAVAILABLE,
  TURN_BUDGET_EXCEEDED...; RESOURCE_EXHAUSTED; a call that ran out of time) are retried with the
  SAME message id after the ``RetryInfo`` delay, within ``retry_budget`` seconds: the retry
  gets the real answer, never a second turn; any other error is logged and dropped;
- a wamid already taken by this process is dropped (Meta redelivers a webhook it thinks
  failed); an answer marked ``duplicate`` is not sent again (the first delivery sent it).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

import grpc
import structlog

from agenda.agent.v1 import agent_service_pb2 as pb
from agenda.agent.v1 import agent_service_pb2_grpc as pb_grpc
from agenda_kit.errors import details_of
from gateways.whatsapp.graph import GraphClient, GraphError
from gateways.whatsapp.inbound import Inbound
from gateways.whatsapp.replies import outgoing, with_decision

log = structlog.get_logger("agenda.gateway.whatsapp")
CHANNEL = "whatsapp"
ACCEPTED = "accepted"
"""The stream's event saying the message has its place in the customer's order."""
RETRYABLE = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.DEADLINE_EXCEEDED,
    }
)
DEFAULT_RETRY_DELAY = 1.0
MAX_RETRY_DELAY = 30.0
SEEN_WAMIDS = 10_000
Sleep = Callable[[float], Awaitable[None]]


class Seen:
    """The wamids this process took, the latest ``limit`` of them."""

    def __init__(self, limit: int = SEEN_WAMIDS) -> None:
        self._limit = limit
        self._ids: OrderedDict[str, None] = OrderedDict()

    def first(self, wamid: str) -> bool:
        """True the first time ``wamid`` is seen."""
        if wamid in self._ids:
            return False
        self._ids[wamid] = None
        if len(self._ids) > self._limit:
            self._ids.popitem(last=False)
        return True


class Relay:
    """Sends customers' messages to the agent and their replies to WhatsApp."""

    def __init__(
        self,
        agent: pb_grpc.AgentServiceAsyncStub,
        graph: GraphClient,
        *,
        tenant_id: str,
        timeout: float,
        retry_budget: float,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self._agent = agent
        self._graph = graph
        self._tenant_id = tenant_id
        self._timeout = timeout
        self._retry_budget = retry_budget
        self._sleep = sleep
        self._seen = Seen()
        self._running: set[asyncio.Task[None]] = set()
        self._placed: dict[str, asyncio.Event] = {}
        """Per customer: set once their latest submitted message has its place."""

    def submit(self, inbound: Inbound) -> None:
        """Handle ``inbound`` in the background (the webhook answers Meta at once); a
        customer's messages reach the agent in the order they were submitted."""
        if not self._seen.first(inbound.wamid):
            log.info("webhook_redelivered", wamid=inbound.wamid)
            return
        previous = self._placed.get(inbound.sender)
        placed = self._placed[inbound.sender] = asyncio.Event()
        task = asyncio.ensure_future(self.handle(inbound, previous, placed))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        task.add_done_callback(lambda _: self._forget(inbound.sender, placed))

    def _forget(self, sender: str, placed: asyncio.Event) -> None:
        if self._placed.get(sender) is placed:
            del self._placed[sender]

    async def drain(self, seconds: float) -> None:
        """Wait for the messages in flight (at shutdown)."""
        if self._running:
            await asyncio.wait(set(self._running), timeout=seconds)

    async def handle(
        self,
        inbound: Inbound,
        previous: asyncio.Event | None = None,
        placed: asyncio.Event | None = None,
    ) -> None:
        """Send ``inbound`` once the ``previous`` message of its customer has its place,
        setting ``placed`` when this one has its own; then deliver the reply."""
        if previous is not None:
            await previous.wait()
        placed = placed or asyncio.Event()
        try:
            response = await self._answer(self.request_for(inbound), placed)
        finally:
            placed.set()  # whatever happened, the customer's next message may go
        if response is None or response.duplicate:
            return
        message = outgoing(response, inbound.sender, inbound.wamid)
        if message is None:
            return
        try:
            await self._graph.send(message)
        except GraphError as error:
            log.warning("reply_not_sent", wamid=inbound.wamid, status=error.status, code=error.code)

    def request_for(self, inbound: Inbound) -> pb.SendMessageRequest:
        """The agent's request for a customer's message; a tapped button of ours also carries
        its structured decision (``replies.with_decision``), its title being the text (the
        transcript line)."""
        request = pb.SendMessageRequest(
            tenant_id=self._tenant_id,
            customer=pb.CustomerIdentity(
                channel=CHANNEL, external_id=inbound.sender, display_name=inbound.name[:200]
            ),
            message_id=inbound.wamid,
            text=inbound.text,
        )
        if inbound.button_id:
            with_decision(request, inbound.button_id)
        return request

    async def _answer(
        self, request: pb.SendMessageRequest, placed: asyncio.Event
    ) -> pb.SendMessageResponse | None:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self._retry_budget
        while True:
            try:
                return await self._streamed(request, placed)
            except grpc.aio.AioRpcError as error:
                details = details_of(error)
                delay = min(details.retry_delay or DEFAULT_RETRY_DELAY, MAX_RETRY_DELAY)
                if error.code() not in RETRYABLE or loop.time() + delay > give_up:
                    log.warning(
                        "message_not_answered",
                        wamid=request.message_id,
                        code=error.code().name,
                        reason=details.reason,
                    )
                    return None
                log.info("agent_retry", wamid=request.message_id, reason=details.reason)
                await self._sleep(delay)

    async def _streamed(
        self, request: pb.SendMessageRequest, placed: asyncio.Event
    ) -> pb.SendMessageResponse | None:
        """The turn's final response (None if the stream ended without one)."""
        stream = self._agent.StreamMessage(
            pb.StreamMessageRequest(message=request), timeout=self._timeout
        )
        async for event in stream:
            kind = event.WhichOneof("event")
            if kind == "progress" and event.progress == ACCEPTED:
                placed.set()
            elif kind == "final":
                return event.final
        return None
