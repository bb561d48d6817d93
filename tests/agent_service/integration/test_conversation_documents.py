"""A conversation's document is written from one ``model_dump`` and read back with one
validation (``conversation_documents.stored_fields`` / ``from_stored``), not through Beanie's
document and encoder: properties over generated conversations that the stored document is the
one Beanie's encoder would write, that what ``save`` returns is what every read gives back,
and that a checkpoint value BSON cannot store as it is still saves (through Beanie's encoder).
"""

from __future__ import annotations

import enum
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any
from uuid import uuid4
from zoneinfo import ZoneInfo

import bson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenda_kit.mongo import EmbeddedMongo
from agent_service.application.repositories import Repositories
from agent_service.domain.conversations import Conversation, ConversationStatus, Message, Role
from agent_service.infrastructure.mongo import conversation_repositories
from agent_service.infrastructure.mongo.conversation_documents import (
    ConversationDocument,
    as_stored,
    beanie_fields,
    from_stored,
    stored_fields,
)
from agent_service.infrastructure.mongo.conversation_repositories import SHRUNK_MESSAGES
from tests.agent_service.integration.repository_fixtures import beanie_repositories
from tests.scale import size

pytest_plugins = ["tests.kit.mongo_fixtures"]

EXAMPLES = settings(
    max_examples=size(25, 300),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
AT = datetime(2031, 3, 10, 12, tzinfo=UTC)
"""The tests' instant (no test reads the clock)."""
ZONES = (UTC, ZoneInfo("America/Sao_Paulo"), timezone(timedelta(hours=5, minutes=30)))


class Plain(enum.Enum):
    """An enum BSON cannot store as it is (not a str or int subclass)."""

    A = "a"


instants = st.datetimes(
    min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.sampled_from(ZONES)
)
words = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)
keys = st.text(st.characters(categories=["L", "Nd"], include_characters="_ "), max_size=12)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False)
    | words,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=20,
)
# values only Beanie's encoder stores (BSON refuses them as they are)
beanie_only = st.sampled_from(
    [Decimal("12.50"), date(2031, 3, 10), {"a", "b"}, Plain.A, frozenset({1})]
)
messages = st.builds(
    Message,
    role=st.sampled_from(list(Role)),
    text=words,
    at=instants,
    message_id=words,
    specialist=st.sampled_from(["", "booking", "faq"]),
)


def conversations(state: st.SearchStrategy[Any] = json_values) -> st.SearchStrategy[Conversation]:
    return st.builds(
        Conversation,
        id=st.builds(uuid4),  # a new conversation each example (the database is shared)
        tenant_id=st.uuids(),
        customer_id=st.uuids(),
        channel=st.sampled_from(["whatsapp", "web"]),
        status=st.sampled_from(list(ConversationStatus)),
        active_specialist=st.sampled_from(["", "booking"]),
        messages=st.lists(messages, max_size=5).map(tuple),
        summary=words,
        handoff_reason=words,
        handed_off_at=st.none() | instants,
        engine_state=st.dictionaries(keys, state, max_size=4),
        created_at=instants,
        updated_at=instants,
    )


@pytest.fixture
async def repos(embedded_mongo: EmbeddedMongo) -> AsyncIterator[Repositories]:
    async for repositories in beanie_repositories(embedded_mongo):
        yield repositories


def as_bson(fields: dict[str, Any]) -> dict[str, Any]:
    """What BSON makes of a document (tuples are arrays, enums their values)."""
    options = ConversationDocument.get_pymongo_collection().codec_options
    decoded: dict[str, Any] = bson.decode(bson.encode(fields, codec_options=options), options)
    return decoded


async def stored_raw(conversation: Conversation) -> dict[str, Any]:
    collection = ConversationDocument.get_pymongo_collection()
    raw = await collection.find_one({"_id": conversation.id})
    assert raw is not None
    return dict(raw)


@EXAMPLES
@given(conversation=conversations())
async def test_the_document_is_the_one_beanies_encoder_writes(
    repos: Repositories, conversation: Conversation
) -> None:
    stored = as_stored(conversation)
    assert as_bson(stored_fields(stored)) == as_bson(beanie_fields(stored))
    assert as_stored(stored) == stored  # already as stored: nothing changes


@EXAMPLES
@given(conversation=conversations())
async def test_what_save_returns_is_what_every_read_gives_back(
    repos: Repositories, conversation: Conversation
) -> None:
    saved = await repos.conversations.save(conversation)
    assert saved.version == 1
    raw = await stored_raw(conversation)
    assert raw == as_bson(beanie_fields(saved))
    assert from_stored(raw) == saved
    assert ConversationDocument.model_validate(raw).to_domain() == saved  # Beanie's read
    assert await repos.conversations.get(conversation.tenant_id, conversation.id) == saved
    again = await repos.conversations.save(saved.model_copy(update={"summary": "next"}))
    assert from_stored(await stored_raw(conversation)) == again
    assert again.version == 2


@EXAMPLES
@given(conversation=conversations(json_values | beanie_only), extra=beanie_only)
async def test_a_value_bson_cannot_store_as_it_is_goes_through_beanies_encoder(
    repos: Repositories, conversation: Conversation, extra: Any
) -> None:
    state = conversation.engine_state | {"extra": extra}
    conversation = conversation.model_copy(update={"engine_state": state})
    saved = await repos.conversations.save(conversation)
    raw = await stored_raw(conversation)
    assert raw == as_bson(beanie_fields(saved))
    assert raw["version"] == 1


async def test_a_save_of_a_conversation_read_back_keeps_its_messages_uncopied(
    repos: Repositories,
) -> None:
    tenant = uuid4()
    said = Message(role=Role.CUSTOMER, text="Oi", at=AT.replace(microsecond=123456))
    conversation = Conversation(
        tenant_id=tenant,
        customer_id=uuid4(),
        channel="web",
        messages=(said,),
        created_at=AT,
        updated_at=AT,
    )
    saved = await repos.conversations.save(conversation)
    assert saved.messages[0].at == datetime(2031, 3, 10, 12, 0, 0, 123000, UTC)
    assert as_stored(saved).messages[0] is saved.messages[0]


async def test_a_document_too_large_keeps_the_tail_without_trying_beanies_encoder(
    repos: Repositories, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Too large for BSON is no value Beanie's encoder could store: the save shrinks the
    conversation (its transcript's tail, no checkpoint) at once."""

    def no_fallback(conversation: Conversation) -> dict[str, Any]:
        raise AssertionError("a document too large went to Beanie's encoder")

    monkeypatch.setattr(conversation_repositories, "beanie_fields", no_fallback)
    said = tuple(
        Message(role=Role.CUSTOMER, text=f"m{n}", at=AT + timedelta(seconds=n))
        for n in range(SHRUNK_MESSAGES + 5)
    )
    conversation = Conversation(
        tenant_id=uuid4(),
        customer_id=uuid4(),
        channel="web",
        messages=said,
        engine_state={"history": "x" * 17_000_000},  # over BSON's 16 MiB
        created_at=AT,
        updated_at=AT,
    )
    saved = await repos.conversations.save(conversation)
    assert saved.engine_state == {}
    assert saved.messages == as_stored(conversation).messages[-SHRUNK_MESSAGES:]
    assert from_stored(await stored_raw(conversation)) == saved
