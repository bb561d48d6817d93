"""Customers' lanes (``application.bursts``) kept ON the message claims (``processed_turns``),
so that claiming a message, queueing it and taking its lane is ONE insert in the usual case.

Rules: every claim of a lane carries ``lane``, its ``queued`` message and ``arrived_at``
(the database server's own time of the insert, so every replica's messages share one order),
and ``lane_open`` until the message has an outcome (a partial index lists
a lane's waiting messages in arrival order). The claim whose delivery holds the lane also
carries ``running`` (= the lane) and ``running_until`` (its lease): a partial unique index on
``(tenant_id, running)`` makes two claims never hold one lane, so a claim inserted while the
lane is held is inserted without it and then sets ``newcomers`` on the holder's claim (the
holder's conditional writes see it). A holder that died stops renewing ``running_until``; a
waiting delivery then takes ``running`` back (a conditional ``$unset``) and sets it on its own
claim. Giving the lane up is a conditional ``$unset`` that fails while ``newcomers`` is set.
The usual turn (the holder's message alone) stores its result and gives the lane up in ONE
such write, before its conversation is saved: the claim then carries ``saving_until`` and the
lane's next turn context read (``turn_context``) names it until the save shows it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import DuplicateKeyError

from agent_service.application.bursts import Completed, Joined, LaneKey, QueuedMessage
from agent_service.application.consent_policy import StructuredDecision
from agent_service.domain.conversations import ReplyChoice, TurnResult
from agent_service.infrastructure.mongo.clock import DatabaseClock
from agent_service.infrastructure.mongo.conversation_documents import ProcessedTurnDocument
from agent_service.infrastructure.mongo.errors import guarded
from agent_service.infrastructure.mongo.turn_repository import BeanieTurnRepository

_JOIN_TRIES = 3
"""Rounds of (tell the holder, or hold the lane it just gave up) before leaving it to the
waiting delivery's periodic takeover."""
_NO_NEWS = {"newcomers": {"$exists": False}}


class BeanieClaimLanes:
    """``LaneRepository`` on the claims of ``turns`` (see the module's rules)."""

    def __init__(self, turns: BeanieTurnRepository, clock: DatabaseClock, lease: timedelta) -> None:
        self._turns = turns
        self._clock = clock
        self._lease = lease

    def _claims(self) -> AsyncCollection[dict[str, Any]]:
        collection: AsyncCollection[dict[str, Any]] = ProcessedTurnDocument.get_pymongo_collection()
        return collection

    @guarded
    async def claim(self, lane: LaneKey, message: QueuedMessage, digest: str) -> Joined:
        fields = _lane_fields(lane, message)
        claimed, holding = await self._turns.insert_claim(
            _key(lane, message.message_id),
            digest,
            fields,
            running=lane_name(lane),
            sender=lane.customer,
        )
        if not claimed:
            return Joined.TAKEN
        if holding:
            return Joined.HOLDING
        # Queued behind a holder, or a claim taken over (a failed turn's): in its lane again.
        key = _key(lane, message.message_id)
        await self._claims().update_one(key, {"$set": _lane_fields(lane, message)})
        held = await self._tell_or_hold(lane, message.message_id)
        return Joined.HOLDING if held else Joined.QUEUED

    @guarded
    async def join(self, lane: LaneKey, message: QueuedMessage) -> bool:
        key = _key(lane, message.message_id)
        await self._claims().update_one(key, {"$set": _lane_fields(lane, message)})
        await self._claims().update_one(
            key | {"arrived_at": {"$exists": False}}, {"$currentDate": {"arrived_at": True}}
        )
        # Its own claim may still hold the lane (a redelivery of the holder's message).
        if await self._hold(lane, message.message_id):
            return True
        return await self._tell_or_hold(lane, message.message_id)

    async def _tell_or_hold(self, lane: LaneKey, message_id: str) -> bool:
        """Tell the lane's holder a message arrived, or hold the lane when it has none."""
        for _ in range(_JOIN_TRIES):
            told = await self._claims().update_one(
                _lane(lane) | {"running": lane_name(lane)}, {"$set": {"newcomers": True}}
            )
            if told.matched_count == 1:
                return False
            if await self._hold(lane, message_id):
                return True
        return False

    @guarded
    async def acquire(self, lane: LaneKey, message_id: str) -> bool:
        if await self._hold(lane, message_id):
            return True
        now = await self._clock.now()
        expired = _lane(lane) | {"running": lane_name(lane), "running_until": {"$lt": now}}
        freed = await self._claims().update_one(
            expired, {"$unset": {"running": "", "running_until": "", "newcomers": ""}}
        )
        return freed.modified_count == 1 and await self._hold(lane, message_id)

    async def _hold(self, lane: LaneKey, message_id: str) -> bool:
        now = await self._clock.now()
        mine = _key(lane, message_id) | {"lane_open": lane_name(lane)}
        held = {"running": lane_name(lane), "running_until": now + self._lease}
        try:
            result = await self._claims().update_one(mine, {"$set": held})
        except DuplicateKeyError:
            return False
        return result.matched_count == 1

    @guarded
    async def waiting(self, lane: LaneKey) -> tuple[QueuedMessage, ...]:
        found = self._claims().find(
            _lane(lane) | {"lane_open": lane_name(lane)}, {"message_id": 1, "queued": 1}
        )
        documents = await found.sort([("arrived_at", 1), ("_id", 1)]).to_list()
        return tuple(_queued(document) for document in documents if document.get("queued"))

    @guarded
    async def arrivals(self, lane: LaneKey, holder: str) -> bool:
        told = await self._claims().find_one_and_update(
            _key(lane, holder) | {"newcomers": True}, {"$unset": {"newcomers": ""}}
        )
        return told is not None

    @guarded
    async def complete_alone(self, lane: LaneKey, holder: str, result: TurnResult) -> Completed:
        """The result stored, the slot freed and the lane given up in one write; the claim
        stays *saving* (``saving_until``, one lease; ``saving_in`` the conversation) for the
        turn context read of the lane's next turn, which waits until this message is in that
        conversation (``SavingTurn``)."""
        now = await self._clock.now()
        stored = await self._claims().update_one(
            _key(lane, holder) | _NO_NEWS,
            {
                "$set": {
                    "result": result.model_dump(mode="json"),
                    "failure": None,
                    "saving_until": now + self._lease,
                    "saving_in": result.conversation_id,
                },
                "$unset": {
                    "slot": "",
                    "slot_until": "",
                    "lane_open": "",
                    "running": "",
                    "running_until": "",
                },
            },
        )
        return Completed.GIVEN_UP if stored.matched_count == 1 else Completed.NEWS

    @guarded
    async def renew(self, lane: LaneKey, holder: str) -> bool:
        now = await self._clock.now()
        renewed = await self._claims().update_one(
            _key(lane, holder) | {"running": lane_name(lane)},
            {"$set": {"running_until": now + self._lease}},
        )
        return renewed.matched_count == 1

    @guarded
    async def settle(self, lane: LaneKey, holder: str) -> bool:
        held = _key(lane, holder) | {"running": lane_name(lane)}
        given_up = await self._claims().update_one(
            held | _NO_NEWS, {"$unset": {"running": "", "running_until": ""}}
        )
        if given_up.matched_count == 1:
            return True
        told = await self._claims().find_one_and_update(
            held, {"$unset": {"newcomers": ""}}, return_document=ReturnDocument.BEFORE
        )
        return told is None  # None: it no longer held the lane

    @guarded
    async def release(self, lane: LaneKey, holder: str) -> None:
        await self._claims().update_one(
            _key(lane, holder) | {"running": lane_name(lane)},
            {"$unset": {"running": "", "running_until": "", "newcomers": ""}},
        )


def lane_name(lane: LaneKey) -> str:
    """The lane as its claims name it (``lane``, ``lane_open``, ``running``)."""
    return f"{lane.channel}/{lane.customer}"


def _lane(lane: LaneKey) -> dict[str, Any]:
    return {"tenant_id": lane.tenant_id}


def _key(lane: LaneKey, message_id: str) -> dict[str, Any]:
    return {"tenant_id": lane.tenant_id, "channel": lane.channel, "message_id": message_id}


def _lane_fields(lane: LaneKey, message: QueuedMessage) -> dict[str, Any]:
    return {
        "lane": lane_name(lane),
        "lane_open": lane_name(lane),
        "queued": {
            "text": message.text,
            "external_id": message.external_id,
            "display_name": message.display_name,
            "conversation_id": message.conversation_id,
            "decision": (
                None
                if message.decision is None
                else [message.decision.choice.value, message.decision.pending_id]
            ),
        },
    }


def _queued(document: dict[str, Any]) -> QueuedMessage:
    queued = document["queued"]
    return QueuedMessage(
        message_id=document["message_id"],
        text=queued["text"],
        external_id=queued.get("external_id", ""),
        display_name=queued.get("display_name", ""),
        conversation_id=queued.get("conversation_id"),
        decision=_decision(queued.get("decision")),
    )


def _decision(stored: Any) -> StructuredDecision | None:
    if not isinstance(stored, list) or len(stored) != 2:
        return None
    return StructuredDecision(ReplyChoice(stored[0]), str(stored[1]))
