"""A conversation's first message that only greets gets the system's greeting with no model
request (``application/greeting_policy``, settled in ``confirm.settle_in_code``).

- properties over generated messages in every language: greeting phrases, the words that may
  come with them, filler emoji, punctuation and case in any mix are a greeting-only message;
  any other word added anywhere is not — thanks and goodbyes included ("valeu, boa noite");
- a conversation: a greeting-only first message is greeted with no model request, in the
  conversation's language; later greetings, answers ("tudo bem") and goodbyes are the model's;
  a greeting with a task is the model's; a greeting while an action waits for an answer is the
  pending owner's.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.application.greeting_policy import greets_only
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.language.packs import language_data
from agent_service.infrastructure.language.rules import language_rules
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

LANGUAGES = ("pt", "en", "es")
RULES = language_rules()


def vocabularies(language: str) -> list:  # type: ignore[type-arg]
    return [RULES.greeting(code) for code in RULES.in_play(language)]


def consent_filler() -> list[str]:
    """The consent filler of every language that may not come with a greeting."""
    allowed = {
        w for code in LANGUAGES for w in (*RULES.greeting(code).yes, *RULES.greeting(code).filler)
    }
    return sorted({w for code in LANGUAGES for w in RULES.consent(code).filler if w not in allowed})


def every_word() -> frozenset[str]:
    """Every word of every vocabulary a greeting-only message may hold, in any language."""
    words: set[str] = set()
    for code in LANGUAGES:
        vocabulary = RULES.greeting(code)
        for phrase in (*vocabulary.yes, *vocabulary.filler):
            words.update(phrase.split())
    return frozenset(words)


PUNCTUATION = st.sampled_from(["", "!", "!!", ".", ",", "?", "...", " :)", "¿", "¡"])


@st.composite
def greeting_only(draw: st.DrawFn, language: str) -> str:
    vocabulary = RULES.greeting(language)
    greetings = draw(st.lists(st.sampled_from(vocabulary.yes), min_size=1, max_size=2))
    filler = draw(st.lists(st.sampled_from(vocabulary.filler), max_size=2))
    emoji = draw(
        st.lists(st.sampled_from(vocabulary.filler_emoji + vocabulary.yes_emoji), max_size=2)
    )
    parts = draw(st.permutations([*greetings, *filler, *emoji]))
    pieces = [f"{part}{draw(PUNCTUATION)}" for part in parts]
    text = " ".join(pieces)
    return draw(st.sampled_from([text, text.upper(), text.capitalize()]))


_OTHER = st.text(alphabet="bcdfgjklmnpqrstvxz", min_size=3, max_size=8).filter(
    lambda word: word not in every_word()
)


@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_greetings_filler_emoji_and_punctuation_only_are_a_greeting(
    language: str, data: st.DataObject
) -> None:
    text = data.draw(greeting_only(language))
    assert greets_only(text, vocabularies(language)), text


@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_any_other_word_makes_it_no_greeting(language: str, data: st.DataObject) -> None:
    words = data.draw(greeting_only(language)).split(" ")
    other = data.draw(
        _OTHER
        | st.sampled_from(["quero", "want", "quiero", "corte", "10h", "2", "٣"])
        | st.sampled_from(consent_filler())  # thanks, goodbyes, laughter: not a greeting's
    )
    at = data.draw(st.integers(0, len(words)))
    text = " ".join([*words[:at], other, *words[at:]])
    assert not greets_only(text, vocabularies(language)), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_company_alone_is_no_greeting(language: str) -> None:
    """The words that may come with a greeting, an emoji or nothing greet nobody."""
    vocabulary = RULES.greeting(language)
    for filler in vocabulary.filler:
        assert not greets_only(filler, vocabularies(language)), filler
    assert not greets_only("🙂", vocabularies(language))
    assert not greets_only("", vocabularies(language))


def test_no_greeting_word_is_an_answer_to_a_question() -> None:
    """A greeting word is no yes or no of any language (those answer the assistant)."""
    answers = {w for code in LANGUAGES for w in (*RULES.consent(code).yes, *RULES.consent(code).no)}
    for code in LANGUAGES:
        assert language_data(code)["greeting"]["words"], code
        assert not answers & set(RULES.greeting(code).yes), code


# ------------------------------------------------------------------------- in a conversation


class Counting:
    def __init__(self) -> None:
        self.requests = 0

    def respond(self, messages_: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.requests += 1
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": "discovery"})])
        return ModelResponse(parts=[TextPart("Posso ajudar com os serviços?")])


@pytest.mark.parametrize(
    ("said", "language"), [("Oi, tudo bem? 😊", "pt"), ("Hello!", "en"), ("¡Hola! ¿Qué tal?", "es")]
)
async def test_a_greeting_only_message_is_greeted_with_no_model_request(
    said: str, language: str
) -> None:
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    model = Counting()
    assistant = Assistant(model=FunctionModel(model.respond), repos=probe.repos)
    handled = await assistant.say(salon.tenant.id, said)
    assert model.requests == 0
    assert handled.result.reply == messages.text("greeting", language, business=salon.tenant.name)
    nxt = await assistant.say(salon.tenant.id, "oi, quais serviços vocês têm?")
    assert model.requests >= 1 and nxt.result.reply  # a greeting with a task is the model's


@pytest.mark.parametrize("later", ["oi", "tudo bem", "boa noite!", "valeu, boa noite"])
async def test_after_the_first_message_a_greeting_is_the_models(later: str) -> None:
    """Later, "tudo bem" may answer the assistant's question and "boa noite" take leave."""
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    model = Counting()
    assistant = Assistant(model=FunctionModel(model.respond), repos=probe.repos)
    await assistant.say(salon.tenant.id, "quais serviços vocês têm?")
    asked = model.requests
    handled = await assistant.say(salon.tenant.id, later)
    assert model.requests > asked
    greeting = messages.text("greeting", "pt", business=salon.tenant.name)
    assert greeting not in handled.result.reply


async def test_a_greeting_while_an_action_waits_is_the_pending_owners() -> None:
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    asked = await Assistant(repos=probe.repos).say(
        salon.tenant.id, "quero marcar corte feminino com a Ana amanhã às 10h"
    )
    assert asked.result.pending is not None, asked.result.reply
    model = Counting()
    assistant = Assistant(model=FunctionModel(model.respond), repos=probe.repos)
    handled = await assistant.say(salon.tenant.id, "oi")
    greeting = messages.text("greeting", "pt", business=salon.tenant.name)
    assert handled.result.reply != greeting
