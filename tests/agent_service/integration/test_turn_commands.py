"""MongoDB commands a SendMessage turn makes (issue 13: ≤ 5 per plain turn; issue 23: ≤ 6, the
sixth gives the customer's lane up after the conversation is saved, so the next message of a
burst, on any replica, starts from that saved turn), counted on the
real embedded MongoDB with a pymongo ``CommandListener`` around ``HandleMessage.execute``,
through the agent service wired by ``bootstrap`` as in production.

Reads of the tenant and the catalog are left out of the count: they are served from per-process
caches with a time-to-live (their own unit tests), so whether one happens depends on how long
the machine took between turns, not on the turn.
"""

from __future__ import annotations

from contextvars import ContextVar
from pathlib import Path
from typing import Any

import pytest
from pymongo import monitoring

from agenda_kit.mongo import EmbeddedMongo
from agent_service.application.conversation import HandleMessage
from tests.agent_service.integration.agent_fixtures import (
    Customer,
    agent_stack,
    agent_stub,
    booking_day,
    booking_request_text,
    channel_to,
    seed_demo_salon,
)

pytest_plugins = ["tests.kit.mongo_fixtures"]

PLAIN_TURN_MAX_COMMANDS = 6
CACHED = {"tenants", "services", "professionals", "faq_entries"}
TRANSACTION_ENDS = {"commitTransaction", "abortTransaction"}
RATE = "tenant_message_rate"
COUNTED: ContextVar[list[str] | None] = ContextVar("counted_commands", default=None)


class Commands(monitoring.CommandListener):
    """Names (``find conversations``) of the commands issued inside a counted turn."""

    def __init__(self) -> None:
        self.database = ""

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        counted = COUNTED.get()
        ends_transaction = event.command_name in TRANSACTION_ENDS  # sent to "admin"
        if counted is None or (event.database_name != self.database and not ends_transaction):
            return
        target = event.command.get(event.command_name)
        if isinstance(target, str) and target in CACHED:
            return
        counted.append(event.command_name if ends_transaction else f"{event.command_name} {target}")

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


LISTENER = Commands()
monitoring.register(LISTENER)  # clients created from now on report to it


@pytest.fixture
def turns(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The commands of each turn handled, in order."""
    recorded: list[list[str]] = []
    original = HandleMessage.execute

    async def counted(self: HandleMessage, message: Any, progress: Any = None) -> Any:
        commands: list[str] = []
        token = COUNTED.set(commands)
        try:
            return await original(self, message, progress)
        finally:
            COUNTED.reset(token)
            recorded.append(commands)

    monkeypatch.setattr(HandleMessage, "execute", counted)
    return recorded


async def maria_says(
    embedded_mongo: EmbeddedMongo, tmp_path: Path, *said: str | tuple[str, str]
) -> list[Any]:
    """Maria's replies to ``said`` (a text, or a text and its channel message id) from one
    agent replica on a freshly seeded demo salon, every turn counted by ``turns``."""
    replies = []
    async with agent_stack(embedded_mongo, tmp_path) as stack:
        LISTENER.database = stack.agent_database
        async with channel_to(stack.replicas[0].port) as channel:
            maria = Customer(agent_stub(channel), await seed_demo_salon(channel))
            for line in said:
                text, message_id = (line, None) if isinstance(line, str) else line
                replies.append(await maria.say(text, message_id=message_id))
    return replies


async def test_a_plain_turn_makes_at_most_six_commands_and_a_redelivery_no_write(
    embedded_mongo: EmbeddedMongo, tmp_path: Path, turns: list[list[str]]
) -> None:
    address = ("Qual é o endereço?", "address-1")
    # The first turn creates the customer and conversation.
    _, first, _, again = await maria_says(
        embedded_mongo, tmp_path, "Olá!", address, "Obrigada!", address
    )
    new_customer = turns[0]  # stored just now: no conversation or appointment to look for
    looked_up = {"find conversations", "find appointments", "find customers"}
    assert not looked_up & set(new_customer), new_customer
    plain = turns[1:3]
    assert all(len(commands) <= PLAIN_TURN_MAX_COMMANDS for commands in plain), plain
    assert again.reply == first.reply and again.conversation_id == first.conversation_id
    redelivery = turns[3]
    writes = [c for c in redelivery if c.split()[0] in {"insert", "update", "delete"}]
    assert not [c for c in writes if c.endswith("conversations")], redelivery


async def test_a_first_turn_creates_its_conversation_with_its_first_save(
    embedded_mongo: EmbeddedMongo, tmp_path: Path, turns: list[list[str]]
) -> None:
    first, second = await maria_says(embedded_mongo, tmp_path, "Olá!", "Qual é o endereço?")
    new_customer = [c for c in turns[0] if not c.endswith(RATE)]  # a new bucket: not the turn's
    assert "insert conversations" not in new_customer, new_customer
    assert len(new_customer) <= PLAIN_TURN_MAX_COMMANDS, "\n".join(new_customer)
    assert second.conversation_id == first.conversation_id  # the stored one was found again


async def test_a_booking_confirmation_writes_the_appointment_without_a_transaction(
    embedded_mongo: EmbeddedMongo, tmp_path: Path, turns: list[list[str]]
) -> None:
    _, booked = await maria_says(
        embedded_mongo, tmp_path, booking_request_text(booking_day()), "sim"
    )
    assert any(action.appointment.id for action in booked.actions), booked
    confirmation = turns[1]
    # The reservation is one insert of the appointment (no holds: the calendar service's
    # create-if-free decides the time), the confirmation one conditional write: no
    # transaction.
    assert confirmation.count("commitTransaction") == 0, confirmation
    assert confirmation.count("insert appointments") == 1, confirmation
    # A first delivery has no earlier appointment of its own to resume: no read for it.
    assert "find appointments" not in confirmation, confirmation


async def test_a_known_customers_booking_question_reads_no_appointments_of_its_own(
    embedded_mongo: EmbeddedMongo, tmp_path: Path, turns: list[list[str]]
) -> None:
    _, asked = await maria_says(
        embedded_mongo, tmp_path, "Olá!", booking_request_text(booking_day())
    )
    assert "Confirma" in asked.reply, asked.reply
    # Her pending bookings (named by the question) came with the turn's one read.
    assert "find appointments" not in turns[1], turns[1]
    assert "aggregate customers" in turns[1], turns[1]
