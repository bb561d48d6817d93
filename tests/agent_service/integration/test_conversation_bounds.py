"""A conversation document never fails to save for its size: should one outgrow MongoDB's
16 MB limit anyway (the engine bounds what it keeps), the repository keeps the transcript's
tail and drops the assistant's checkpoint instead of failing the turn."""

from __future__ import annotations

from collections.abc import AsyncIterator
from uuid import uuid4

import pytest

from agenda_kit.mongo import EmbeddedMongo
from agent_service.application.repositories import Repositories
from agent_service.domain.catalog import Tenant
from agent_service.domain.conversations import Conversation, Message, Role
from tests.agent_service.integration.repository_fixtures import beanie_repositories

pytest_plugins = ["tests.kit.mongo_fixtures"]


@pytest.fixture
async def beanie(embedded_mongo: EmbeddedMongo) -> AsyncIterator[Repositories]:
    async for repositories in beanie_repositories(embedded_mongo):
        yield repositories


async def test_an_oversized_conversation_is_shrunk_not_failed(beanie: Repositories) -> None:
    tenant = await beanie.tenants.add(Tenant(name="S", time_zone="America/Sao_Paulo"))
    conversation = await beanie.conversations.add(
        Conversation(tenant_id=tenant.id, customer_id=uuid4(), channel="whatsapp")
    )
    for index in range(30):
        conversation = conversation.with_message(Message(role=Role.CUSTOMER, text=f"m{index}"))
    huge = conversation.model_copy(
        update={"engine_state": {"histories": {"booking": ["x" * 17_000_000]}}}
    )
    saved = await beanie.conversations.save(huge)
    assert saved.engine_state == {}
    assert [m.text for m in saved.messages][-1] == "m29" and len(saved.messages) == 20
    again = await beanie.conversations.get(tenant.id, conversation.id)
    assert again.version == saved.version
