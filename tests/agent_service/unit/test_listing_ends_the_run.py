"""A listing ends the run when the model asks for it (``show_customer``, listings.py,
agents.SystemReplies): the reply is the system's words for what the tool returned, with no
model request after the tool's, and the truth rules leave it as it is.

- differential: a model that asks for the listing gets the reply a model copying the
  listing faithfully would write, at one model request fewer, for every listing tool;
- what is no listing (a failure) goes back to the model, which answers with it in front of it;
- a proposal in the same response wins: its question is the reply, no listing beside it;
- an earlier run's request to show does not leak into a later run of the turn;
- property: over generated catalogs, free times, appointments and FAQ answers in every
  language, the judge and the statement rules leave every system listing unchanged (fail
  closed would otherwise replace a true listing by the fallback).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any
from uuid import uuid4

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_service.application.fact_spans import Kind
from agent_service.domain.catalog import Professional, Service
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.grounded import judge
from agent_service.infrastructure.agent.listings import (
    MAX_TIMES_A_DAY,
    listing_text,
    more_times_clause,
    say,
)
from agent_service.infrastructure.agent.tools.discovery import SHORTEST_SERVICE
from agent_service.infrastructure.agent.tools.formatting import (
    professional_item,
    service_item,
    weekday_name,
)
from agent_service.infrastructure.agent.tools.results import (
    AnyResult,
    AppointmentItem,
    Appointments,
    DayTimes,
    FaqAnswer,
    FaqItem,
    FreeTimes,
    OpeningHours,
    Professionals,
    ServiceItem,
    Services,
    read_result,
)
from agent_service.infrastructure.language.rules import fact_reader
from tests.agent_service.conversation_fixtures import NOW, Assistant, Salon, seed_salon
from tests.agent_service.unit.test_consent_rules import deps, reply_of

TUESDAY = "2026-12-01"
LISTINGS: dict[str, Callable[[Salon], tuple[str, str, str, dict[str, Any]]]] = {
    "services": lambda s: ("quais serviços vocês têm?", "discovery", "list_services", {}),
    "professionals": lambda s: ("quem atende aí?", "discovery", "list_professionals", {}),
    "free times": lambda s: (
        "que horários a Ana tem terça?",
        "discovery",
        "check_availability",
        {"professional_id": str(s.ana.id), "target_date": TUESDAY, "service_id": str(s.cut.id)},
    ),
    "free times of a week": lambda s: (
        "que horários a Ana tem essa semana?",
        "discovery",
        "check_availability",
        {
            "professional_id": str(s.ana.id),
            "target_date": TUESDAY,
            "end_date": "2026-12-04",
            "service_id": str(s.cut.id),
        },
    ),
    "no appointments": lambda s: (
        "quais são meus agendamentos?",
        "appointments",
        "list_my_appointments",
        {},
    ),
    "faq": lambda s: ("qual é o endereço?", "faq", "search_faq", {"query": "endereço"}),
}


class Scripted:
    """Routes to ``specialist``, then calls ``tool`` (asking to show it or not); a model that
    copies the listing writes the system's words for the result it was sent."""

    def __init__(self, specialist: str, tool: str, arguments: dict[str, Any], show: bool):
        self.specialist, self.tool, self.arguments, self.show = specialist, tool, arguments, show
        self.requests = 0

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": self.specialist})])
        self.requests += 1
        returned = this_turn_returns(messages)
        if not returned:
            arguments = {**self.arguments, **({"show_customer": True} if self.show else {})}
            return ModelResponse(parts=[ToolCallPart(self.tool, arguments)])
        copied = listing_text(read_result(returned[-1].content), "pt")
        return ModelResponse(parts=[TextPart(copied or "Quer que eu veja outro dia?")])


class Planned:
    """Routes to ``specialist``, then answers request n with the n-th planned parts (the last
    ones again after that)."""

    def __init__(self, specialist: str, *plan: list[Any]) -> None:
        self.specialist, self.plan, self.requests = specialist, plan, 0

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(tool.name == "route_to" for tool in info.output_tools):
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": self.specialist})])
        self.requests += 1
        return ModelResponse(parts=self.plan[min(self.requests, len(self.plan)) - 1])


def this_turn_returns(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    returned: list[ToolReturnPart] = []
    for message in messages:
        if isinstance(message, ModelRequest):
            if any(isinstance(p, UserPromptPart) for p in message.parts):
                returned = []
            returned += [p for p in message.parts if isinstance(p, ToolReturnPart)]
    return returned


async def turn_with(plan_name: str, show: bool) -> tuple[str, int]:
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    said, specialist, tool, arguments = LISTINGS[plan_name](salon)
    model = Scripted(specialist, tool, arguments, show)
    assistant = Assistant(model=FunctionModel(model.respond), repos=probe.repos)
    handled = await assistant.say(salon.tenant.id, said)
    return handled.result.reply, model.requests


@pytest.mark.parametrize("listing", LISTINGS)
async def test_a_listing_shown_is_what_a_faithful_copy_says_at_one_request_fewer(
    listing: str,
) -> None:
    shown, shown_requests = await turn_with(listing, show=True)
    copied, copied_requests = await turn_with(listing, show=False)
    assert shown == copied
    assert (shown_requests, copied_requests) == (1, 2)
    assert "Quer que eu veja" not in shown


async def test_a_result_that_is_no_listing_goes_back_to_the_model() -> None:
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    nobody = {"professional_id": str(salon.tenant.id), "target_date": TUESDAY}  # no such person
    model = Scripted("discovery", "check_availability", nobody, show=True)
    assistant = Assistant(model=FunctionModel(model.respond), repos=probe.repos)
    handled = await assistant.say(salon.tenant.id, "que horários vocês têm terça?")
    assert model.requests == 2  # the model saw the failure and answered
    assert handled.result.reply == "Quer que eu veja outro dia?"


async def test_a_proposal_in_the_same_response_wins_over_a_listing() -> None:
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    start = "2026-12-01T10:00:00-03:00"
    book = {"professional_id": str(salon.ana.id), "service_id": str(salon.cut.id),
            "start_time": start}  # fmt: skip
    model = Planned(
        "booking",
        [
            ToolCallPart("list_services", {"show_customer": True}),
            ToolCallPart("book_appointment", book),
        ],
    )
    assistant = Assistant(model=FunctionModel(model.respond), repos=probe.repos)
    handled = await assistant.say(salon.tenant.id, "quero marcar um corte com a Ana terça 10h")
    pending = handled.result.pending
    assert pending is not None and model.requests == 1
    assert handled.result.reply.endswith(pending.question)
    assert "Barba" not in handled.result.reply  # the services listing is not shown beside it


async def test_a_request_to_show_does_not_outlive_its_run() -> None:
    """The discovery run asks to show the services, then escapes before any listing is
    rendered (both in one response: the escape wins); the next run, the FAQ's, answers
    itself."""
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    specialists: list[str] = []

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        names = {tool.name for tool in info.function_tools}
        if any(tool.name == "route_to" for tool in info.output_tools):
            choice = "faq" if specialists else "discovery"
            return ModelResponse(parts=[ToolCallPart("route_to", {"specialist": choice})])
        if "list_services" in names:
            specialists.append("discovery")
            return ModelResponse(
                parts=[
                    ToolCallPart("list_services", {"show_customer": True}),
                    ToolCallPart("transfer_to_router", {"reason": "faq"}),
                ]
            )
        specialists.append("faq")
        return ModelResponse(parts=[TextPart("Pode me dizer a sua dúvida?")])

    assistant = Assistant(model=FunctionModel(respond), repos=probe.repos)
    handled = await assistant.say(salon.tenant.id, "hmm, uma dúvida")
    assert specialists == ["discovery", "faq"]
    assert handled.result.reply == "Pode me dizer a sua dúvida?"


# ------------------------------------------------------------------- the truth rules keep it

_NAME = (
    st.text(
        alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzáéíóãçABCDEFGHIJ "),
        min_size=3,
        max_size=18,
    )
    .map(str.strip)
    .filter(lambda name: len(name) >= 3)
)
_PRICE = st.integers(1000, 99999).map(lambda cents: f"R$ {cents // 100},{cents % 100:02d}")
_TIME = st.builds(lambda h, m: f"{h:02d}:{m:02d}", st.integers(8, 19), st.sampled_from([0, 30]))
_LANGUAGE = st.sampled_from(["pt", "en", "es"])
TENANT = uuid4()


def _catalog() -> st.SearchStrategy[list[Service]]:
    """The tenant's services, as stored (a listing of them is read from the store)."""
    service = st.builds(
        lambda name, minutes, cents: Service(
            tenant_id=TENANT, name=name, duration_minutes=minutes, price_minor=cents
        ),
        _NAME,
        st.sampled_from([15, 30, 45, 60, 90]),
        st.integers(1000, 99999),
    )
    return st.lists(service, min_size=1, max_size=5, unique_by=lambda s: s.name.lower())


def _professionals(services: list[Service]) -> st.SearchStrategy[list[Professional]]:
    person = st.builds(
        lambda name, specialty, offered: Professional(
            tenant_id=TENANT,
            name=name,
            specialty=specialty,
            calendar_id=name,
            service_ids=tuple(s.id for s in offered),
        ),
        _NAME.filter(lambda name: name.lower() not in {s.name.lower() for s in services}),
        st.one_of(st.just(""), _NAME),
        st.lists(st.sampled_from(services), min_size=1, max_size=3, unique=True),
    )
    return st.lists(person, min_size=1, max_size=4, unique_by=lambda p: p.name.lower())


def _day(professional: str, offset: int, times: list[str], language: str) -> DayTimes:
    day = NOW.date() + timedelta(days=offset)
    return DayTimes(
        day=day.isoformat(),
        weekday=weekday_name(day, language),
        professional=professional,
        professional_id="p",
        service="Corte",
        minutes=30,
        times=times,
        utc_offset="-03:00",
    )


def _free_times(language: str) -> st.SearchStrategy[FreeTimes]:
    times = st.lists(_TIME, min_size=0, max_size=20, unique=True).map(sorted)
    return st.builds(
        lambda name, first, lists: FreeTimes(
            time_zone="America/Sao_Paulo",
            days=[_day(name, first + n, t, language) for n, t in enumerate(lists)],
        ),
        _NAME,
        st.integers(1, 20),
        st.lists(times, min_size=1, max_size=4).filter(lambda lists: any(lists)),
    )


def _appointments(language: str) -> st.SearchStrategy[Appointments]:
    def item(service: str, professional: str, offset: int, at: str) -> AppointmentItem:
        day = NOW.date() + timedelta(days=offset)
        when = f"{weekday_name(day, language)} {_shown_date(day, language)} {at}"
        return AppointmentItem(
            id="a", service=service, professional=professional, when=when, start="",
            status="confirmed", professional_id="p", service_id="s",
        )  # fmt: skip

    items = st.lists(st.builds(item, _NAME, _NAME, st.integers(1, 20), _TIME), max_size=3)
    return items.map(lambda listed: Appointments(appointments=listed))


def _shown_date(day: date, language: str) -> str:
    return day.strftime("%Y-%m-%d" if language == "en" else "%d/%m/%Y")


def _faq() -> st.SearchStrategy[FaqAnswer]:
    answer = st.sampled_from(
        [
            "Rua das Flores, 123.",
            "Aceitamos Pix, cartão e dinheiro.",
            "Temos estacionamento conveniado na rua de trás.",
        ]
    )
    return answer.map(
        lambda text: FaqAnswer(entries=[FaqItem(id="f", question="?", answer=text, quoted=False)])
    )


def _listing(
    language: str, services: list[Service], team: list[Professional]
) -> st.SearchStrategy[tuple[str, AnyResult]]:
    by_id = {str(s.id): s for s in services}
    return st.one_of(
        st.just(("list_services", Services(services=[service_item(s) for s in services]))),
        st.just(
            (
                "list_professionals",
                Professionals(professionals=[professional_item(p, by_id) for p in team]),
            )
        ),
        _free_times(language).map(lambda r: ("check_availability", r)),
        _appointments(language).map(lambda r: ("list_my_appointments", r)),
        _faq().map(lambda r: ("search_faq", r)),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), language=_LANGUAGE)
async def test_every_fact_of_a_system_listing_is_grounded_in_its_result(
    data: st.DataObject, language: str
) -> None:
    """The judge finds every price, duration, time, date and name of a system listing in the
    result it was rendered from (a rendering that misplaced one would be caught here), and the
    reply the customer reads is the listing as rendered."""
    services = data.draw(_catalog())
    team = data.draw(_professionals(services))
    tool, result = data.draw(_listing(language, services, team))
    text = listing_text(result, language)
    assert text
    d = deps(language)
    d.tenant_id = TENANT
    for service in services:
        await d.service_repository.add(service)
    for person in team:
        await d.professional_repository.add(person)
    texts = [ToolText(tool, result.model_dump_json(), True)]
    d.turn.tool_texts.extend(texts)
    verdict = await judge(d, text, texts)
    assert verdict.ungrounded == () and not verdict.misstated
    d.turn.system_text = text
    assert await reply_of(d, text, None) == text


async def test_a_model_that_writes_the_listing_itself_is_still_judged() -> None:
    """Only the system's own rendering is sent as is: the same words from the model are
    judged (here a price the result does not hold is refused)."""
    d = deps("pt")
    listed = Services(services=[ServiceItem(id="s", name="Corte", minutes=30, price="R$ 80,00")])
    d.turn.tool_texts.append(ToolText("list_services", listed.model_dump_json(), True))
    d.turn.system_text = listing_text(listed, "pt") or ""
    forged = d.turn.system_text.replace("80,00", "8,00")
    assert await reply_of(d, forged, None) != forged


@pytest.mark.parametrize("language", ["pt", "en", "es"])
def test_a_long_day_shows_its_first_times_and_how_to_see_the_others(language: str) -> None:
    times = [f"{h:02d}:{m:02d}" for h in range(8, 19) for m in (0, 30)]
    one = FreeTimes(time_zone="America/Sao_Paulo", days=[_day("Ana", 1, times, language)])
    text = listing_text(one, language) or ""
    assert ", ".join(times[:MAX_TIMES_A_DAY]) + more_times_clause(language) in text
    assert times[MAX_TIMES_A_DAY] not in text
    short = FreeTimes(time_zone="America/Sao_Paulo", days=[_day("Ana", 1, times[:3], language)])
    assert more_times_clause(language) not in (listing_text(short, language) or "")


@pytest.mark.parametrize("language", ["pt", "en", "es"])
def test_free_times_with_none_free_and_empty_hours_are_no_listing(language: str) -> None:
    """Nothing to choose from is the model's to say (what to offer instead), never a list
    that ends with "which one?"; every day closed is the refusal it is."""
    empty = [_day("Ana", n, [], language) for n in (1, 2)]
    assert listing_text(FreeTimes(time_zone="America/Sao_Paulo", days=empty), language) is None
    assert listing_text(FreeTimes(time_zone="America/Sao_Paulo", days=empty[:1]), language) is None
    closed = [day.model_copy(update={"closed": True}) for day in empty]
    said = listing_text(FreeTimes(time_zone="America/Sao_Paulo", days=closed), language) or ""
    assert said and say_which_not_in(said, language)
    no_hours = FaqAnswer(hours=OpeningHours(days=[], closed=["domingo"]))
    assert listing_text(no_hours, language) is None


def say_which_not_in(text: str, language: str) -> bool:
    return say("which_time", language) not in text


async def test_a_failure_shown_beside_a_listing_goes_back_to_the_model() -> None:
    """The model asked to show a listing and a failure: the system does not end the run with
    the listing alone (the failure would go untold); the model answers with both."""
    probe = Assistant()
    salon = await seed_salon(probe.repos)
    nobody = {
        "professional_id": str(salon.tenant.id),
        "target_date": TUESDAY,
        "show_customer": True,
    }
    model = Planned(
        "discovery",
        [
            ToolCallPart("list_services", {"show_customer": True}),
            ToolCallPart("check_availability", nobody),
        ],
        [TextPart("Quer que eu veja outro dia?")],
    )
    assistant = Assistant(model=FunctionModel(model.respond), repos=probe.repos)
    handled = await assistant.say(salon.tenant.id, "quais serviços e horários vocês têm?")
    assert model.requests == 2
    assert handled.result.reply == "Quer que eu veja outro dia?"


@pytest.mark.parametrize("language", ["pt", "en", "es"])
def test_free_times_say_which_service_they_are_for_when_one_was_named(language: str) -> None:
    named = _day("Ana", 1, ["10:00"], language)
    text = listing_text(FreeTimes(time_zone="America/Sao_Paulo", days=[named]), language) or ""
    assert f"Ana{say('for_service', language, service='Corte')} " in text
    unnamed = named.model_copy(update={"service": SHORTEST_SERVICE})
    text = listing_text(FreeTimes(time_zone="America/Sao_Paulo", days=[unnamed]), language) or ""
    assert SHORTEST_SERVICE not in text and "Corte" not in text


@settings(max_examples=60, deadline=None)
@given(data=st.data(), language=_LANGUAGE)
def test_a_listing_says_how_many_free_times_each_day_has(
    data: st.DataObject, language: str
) -> None:
    """However the customer asked ("quantos…", "how many…", "¿cuántos…?", or no count at all),
    a listing of two or more times of a day says how many there are, in the words the truth
    rules read as a count of free times (a page that leaves some out says what it left)."""
    free = data.draw(_free_times(language))
    text = listing_text(free, language) or ""
    reader = fact_reader((language,), "America/Sao_Paulo", ("BRL",), NOW.date())
    counts = {v for f in reader.facts(text) if f.kind is Kind.COUNT for v in f.values}
    for day in free.days:
        if len(day.times) >= 2:
            assert (Kind.COUNT, ("times", len(day.times))) in counts, text
