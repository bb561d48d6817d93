"""A reply in another language than the conversation's is not sent (session 40's real-model
smoke run: SmolLM2 answered a Portuguese customer "What do you want to know?", sent as
courtesy): words with none of the conversation language's own words and several of another's
are replaced by the system's words in the customer's language, for any model."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.infrastructure.agent.statement_words import statement_rules
from agent_service.infrastructure.language import language_detector
from agent_service.infrastructure.language.grammar.when import has_when_mention
from tests.agent_service.conversation_fixtures import Assistant, seed_salon

CODES = ("pt", "en", "es")
ASKED = {"pt": "oi, tudo bem? quero saber uma coisa", "en": "hi, I want to know something",
         "es": "hola, quiero saber una cosa"}  # fmt: skip


def _replying(reply: str) -> FunctionModel:
    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": "faq"})])
        return ModelResponse(parts=[TextPart(reply)])

    return FunctionModel(respond, model_name="other-language")


async def _reply(language: str, model_reply: str) -> str:
    assistant = Assistant(model=_replying(model_reply))
    salon = await seed_salon(assistant.repos)
    handled = await assistant.say(salon.tenant.id, ASKED[language])
    return handled.result.reply


def _question(code: str, words: list[str]) -> str:
    return " ".join(words).capitalize() + "?"


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CODES), st.data())
async def test_a_question_in_another_language_is_not_sent(
    language: str, data: st.DataObject
) -> None:
    other = data.draw(st.sampled_from([c for c in CODES if c != language]))
    own = sorted(language_detector().exclusive_words(other))
    words = data.draw(st.lists(st.sampled_from(own), min_size=3, max_size=6, unique=True))
    reply = await _reply(language, _question(other, words))
    assert _question(other, words) not in reply
    assert not language_detector().written_in_another(reply, language), reply


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CODES), st.data())
async def test_a_question_in_the_conversations_language_is_sent(
    language: str, data: st.DataObject
) -> None:
    rules = statement_rules((language,))
    own = sorted(
        w
        for w in language_detector().exclusive_words(language)
        if rules.asks(w, False) and not _a_fact(w) and w not in rules.denials
    )
    words = data.draw(st.lists(st.sampled_from(own), min_size=3, max_size=6, unique=True))
    assert await _reply(language, _question(language, words)) == _question(language, words)


# A question of the model asks only in words of asking (``application/statements``): the
# language property is drawn from those; that other words are refused is the truth check's
# (``test_hostile_lone_questions``).


def _a_fact(word: str) -> bool:
    """A word the truth check reads as a fact (a day, a time): a question naming one is
    judged by its facts, not its language."""
    return has_when_mention(word)


async def test_the_smoke_runs_english_courtesy_to_a_portuguese_customer() -> None:
    reply = await _reply("pt", "What do you want to know?")
    assert "What do you want" not in reply and language_detector().detect(reply, "") != "en"
