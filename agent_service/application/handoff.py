"""Operators' control of conversations: read, hand off to a human, hand back, end."""

from __future__ import annotations

from uuid import UUID

from agenda_kit.auth.context import caller_channels
from agent_service.application.repositories import Repositories
from agent_service.domain.conversations import Conversation, Message, Role
from agent_service.domain.errors import InvalidInputError, NotFoundError


class ConversationControl:
    """Who answers a conversation. Handing back keeps the human's note in the transcript so
    the bot knows what was agreed.

    Every operation reads the conversation through ``get``: a conversation on a channel the
    caller may not act on (a whatsapp gateway, a webchat conversation) is NOT_FOUND, exactly
    as one that does not exist (docs/security.md, policy rows with ``stored_channel``)."""

    def __init__(self, repos: Repositories) -> None:
        self._repos = repos

    async def get(self, tenant_id: UUID, conversation_id: UUID) -> Conversation:
        conversation = await self._repos.conversations.get(tenant_id, conversation_id)
        channels = caller_channels()
        if channels is not None and conversation.channel not in channels:
            raise NotFoundError("conversation", conversation_id)
        return conversation

    async def hand_off(self, tenant_id: UUID, conversation_id: UUID, reason: str) -> Conversation:
        _check_note("reason", reason)
        conversation = await self.get(tenant_id, conversation_id)
        return await self._repos.conversations.save(conversation.handed_off(reason.strip()))

    async def hand_back(self, tenant_id: UUID, conversation_id: UUID, note: str) -> Conversation:
        _check_note("note", note)
        conversation = (await self.get(tenant_id, conversation_id)).handed_back()
        if note.strip():
            conversation = conversation.with_message(Message(role=Role.HUMAN, text=note.strip()))
        return await self._repos.conversations.save(conversation)

    async def end(self, tenant_id: UUID, conversation_id: UUID) -> Conversation:
        conversation = await self.get(tenant_id, conversation_id)
        return await self._repos.conversations.save(conversation.ended())


def _check_note(field: str, text: str) -> None:
    if len(text) > 2000:
        raise InvalidInputError(field, "must be at most 2000 characters")
