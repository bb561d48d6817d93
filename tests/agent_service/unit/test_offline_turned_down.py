"""A proposal turned down with nothing new asked ("não, obrigado, vou pensar", "no thanks, let
me think", "no gracias, lo pienso"): the offline model leaves it there, with no new proposal
and no second write call; a "no" that names a new day and time goes on with it.

Generated from the language data: every hesitation phrase of ``[consent].unsure`` and
``[replies].unsure``, after the language's first ``[consent].no`` word, in every language."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import agent_service.infrastructure.language as language
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.offline.replies import say
from agent_service.infrastructure.language.packs import word_list
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

PROPOSALS = {
    "pt": "Quero agendar um corte feminino com a Ana amanhã às 10h",
    "en": "I'd like to book a Corte feminino with Ana tomorrow at 10am",
    "es": "Quiero reservar un Corte feminino con Ana mañana a las 10",
}
DATA = Path(language.__file__).parent / "data"
NEW_TIME = {"pt": "quinta às 15h", "en": "thursday at 3pm", "es": "el jueves a las 15"}


def _hesitations(code: str) -> list[str]:
    replies = tomllib.loads((DATA / f"{code}.toml").read_text())["replies"]["unsure"]
    # "no estoy seguro|segura": a phrase whose last word has another form
    spelled = [phrase.split("|")[0] for phrase in replies]
    return sorted({*word_list(code, "consent", "unsure"), *spelled})


CASES = [(code, phrase) for code in PROPOSALS for phrase in _hesitations(code)]


@pytest.mark.parametrize(("code", "phrase"), CASES)
async def test_a_no_that_asks_nothing_new_leaves_the_proposal(code: str, phrase: str) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    proposed = await assistant.say(salon.tenant.id, PROPOSALS[code])
    assert proposed.result.pending is not None, proposed.result.reply
    no = word_list(code, "consent", "no")[0]
    answer = await assistant.say(salon.tenant.id, f"{no}, {phrase}")
    assert answer.result.pending is None, answer.result.reply
    # the system says nothing was done (truth.receipts: the proposal left without a yes),
    # closing as the offline model's own words would
    done = messages.text("dropped_appointment_booked", code, what="")
    lead, closing = done.split(":")[0], say("declined", code).split(". ")[-1]
    assert answer.result.reply.startswith(lead), answer.result.reply
    assert answer.result.reply.endswith(closing), answer.result.reply
    assert assistant.calendar.events == {}


@pytest.mark.parametrize("code", sorted(PROPOSALS))
async def test_a_no_with_a_new_day_and_time_goes_on(code: str) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, PROPOSALS[code])
    no = word_list(code, "consent", "no")[0]
    answer = await assistant.say(salon.tenant.id, f"{no}, {NEW_TIME[code]}")
    assert answer.result.pending is not None, answer.result.reply
    assert "15:00" in answer.result.reply, answer.result.reply
    assert assistant.calendar.events == {}


ASKED = {"pt": ("tem à tarde?", "quanto custa?"), "en": ("what about the afternoon?",
         "how much is it?"), "es": ("¿y por la tarde?", "¿cuánto cuesta?")}  # fmt: skip


# Each phrase is played with one of the questions, tags and greetings in turn (every one of
# them is played with a third or a half of the phrases): the phrases' own reading is the
# first test's, played for every phrase.
TURNS = [(code, phrase, n) for n, (code, phrase) in enumerate(CASES)]


@pytest.mark.parametrize(("code", "phrase", "n"), TURNS)
async def test_a_hesitation_with_a_question_is_answered(code: str, phrase: str, n: int) -> None:
    """ "não sei, tem à tarde?": the question is answered (times of the afternoon, or a
    question back), never the close that leaves the customer's question unanswered."""
    asked = n % len(ASKED[code])
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, PROPOSALS[code])
    answer = await assistant.say(salon.tenant.id, f"{phrase}, {ASKED[code][asked]}")
    assert not answer.result.reply.endswith(say("declined", code)), answer.result.reply
    assert assistant.calendar.events == {}


TAGS = {"pt": ("ok?", "tá?", "boa tarde!"), "en": ("ok?", "is that ok?", "good afternoon!"),
        "es": ("¿vale?", "¿ok?", "¡buenas tardes!")}  # fmt: skip


@pytest.mark.parametrize(("code", "phrase", "n"), TURNS)
async def test_a_hesitation_with_a_tag_or_a_greeting_closes(code: str, phrase: str, n: int) -> None:
    """ "vou pensar, ok?", "vou pensar, boa tarde!": the tag asks nothing and the greeting's
    "tarde" is no part of the day asked (review 8: they got the turned-down refusal)."""
    tag = TAGS[code][n % len(TAGS[code])]
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, PROPOSALS[code])
    no = word_list(code, "consent", "no")[0]
    answer = await assistant.say(salon.tenant.id, f"{no}, {phrase}, {tag}")
    assert answer.result.pending is None, (tag, answer.result.reply)
    # its "Tudo bem." may be left out: a yes word answering the customer's "ok?" is the
    # truth check's to drop (statements.bare_answers)
    closing = say("declined", code).split(". ")[-1]
    assert answer.result.reply.endswith(closing), (tag, answer.result.reply)
