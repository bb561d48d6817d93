"""What a review of session 40's change found in the offline model, kept as its tests: a time
with no day is never today's; a time or "the day after" said beside a move describes, unless
it comes after "pra/to"; an opening-hours question naming someone gets the business's hours;
"at the latest" is a limit, no pick of the last time; with no "pra/to", an amount moves only
in the clause of a move word ("quero remarcar meu corte, preciso avisar dois dias antes?")."""

from __future__ import annotations

import pytest

from tests.agent_service.conversation_fixtures import Assistant, seed_salon


@pytest.mark.parametrize(
    "message",
    [
        "Tem horário às 15h com a Ana para corte feminino?",
        "Does Ana have any free time at 4pm for a women's haircut?",
        "¿Hay hueco a las 15 con Ana para corte feminino?",
    ],
)
async def test_a_time_with_no_day_is_asked_its_day(message: str) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    handled = await assistant.say(salon.tenant.id, message)
    assert handled.result.pending is None, handled.result.reply
    assert "30/11" not in handled.result.reply and "11-30" not in handled.result.reply


@pytest.mark.parametrize(
    ("language", "book", "yes", "message"),
    [
        ("pt", "Quero agendar um corte feminino com a Ana quinta às 10h", "sim",
         "meu corte é às 11h né? preciso remarcar"),
        ("pt", "Quero agendar um corte feminino com a Ana quinta às 10h", "sim",
         "quero remarcar meu corte, preciso avisar dois dias antes?"),
        ("en", "Book a women's haircut with Ana on Thursday at 10am", "yes",
         "I need to move my haircut, I fly out the day after"),
        ("en", "Book a women's haircut with Ana on Thursday at 10am", "yes",
         "Can I reschedule my haircut? I have a wedding the day before"),
    ],
)  # fmt: skip
async def test_words_beside_a_move_that_describe_propose_nothing(
    language: str, book: str, yes: str, message: str
) -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    await assistant.say(salon.tenant.id, book)
    assert (await assistant.say(salon.tenant.id, yes)).result.actions
    handled = await assistant.say(salon.tenant.id, message)
    assert handled.result.pending is None, handled.result.reply


async def test_an_opening_hours_question_naming_someone_gets_the_business_hours() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    handled = await assistant.say(
        salon.tenant.id, "Qual o horário de funcionamento? A Ana me indicou vocês"
    )
    assert "Abrimos" in handled.result.reply and "Ana Souza faz" not in handled.result.reply


async def test_at_the_latest_is_a_limit_not_the_last_time() -> None:
    assistant = Assistant()
    salon = await seed_salon(assistant.repos)
    handled = await assistant.say(
        salon.tenant.id,
        "Can I get a women's haircut with Ana tomorrow before 3pm at the latest?",
    )
    assert handled.result.pending is None or "14:00" not in handled.result.reply
