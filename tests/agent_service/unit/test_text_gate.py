"""The burst driver's per-turn sink (``burst_driver.TextGate``): reply text reaches only the
caller whose message the turn answers alone, and a turn that streamed text says so (it is then
not started again for messages that arrived meanwhile)."""

from __future__ import annotations

from agent_service.application.burst_driver import TextGate
from agent_service.application.engine import ProgressEvent


async def test_text_reaches_only_the_turn_of_the_callers_own_message() -> None:
    for own in (True, False):
        seen: list[ProgressEvent] = []

        async def sink(event: ProgressEvent, seen: list[ProgressEvent] = seen) -> None:
            seen.append(event)

        gate = TextGate(sink, own=own)
        await gate(ProgressEvent(progress="tool:list_services"))
        assert not gate.streamed
        await gate(ProgressEvent(text="Olá."))
        assert gate.streamed is own
        assert [e.progress or e.text for e in seen] == (
            ["tool:list_services", "Olá."] if own else ["tool:list_services"]
        )


async def test_without_a_caller_nothing_is_streamed() -> None:
    gate = TextGate(None, own=True)
    await gate(ProgressEvent(text="Olá."))
    assert not gate.streamed
