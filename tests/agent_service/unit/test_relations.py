"""Facts said together must be told together (``application/relations``), as properties over
generated catalogs and free times rather than quoted replies.

For a random salon (services with random prices and lengths, professionals each offering a
random subset) listed in this turn, and a random day of free times of one professional:

* a service said with a price or a length is sent only when it is that service's own; a list
  of services with prices only when each price is its own service's;
* a professional said to do a service is sent only when the listing says so, whoever else the
  sentence names beside them; denying it is refused exactly when the listing says they do;
* a free time said of a professional (or for a service) only when that professional's day
  holds it for that service; a time the customer asked for that is not free is no free time.

The sentences are built from the language data's own frame words, so the properties hold for
any wording the frame allows; ``max_examples`` grows under ``RELIABILITY_SCALE=full``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.grounding import Grounding
from agent_service.application.text import normalize
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.told import no_change_statements
from agent_service.infrastructure.agent.tools.results import (
    DayTimes,
    FreeTimes,
    NotAvailable,
    ProfessionalItem,
    Professionals,
    ServiceItem,
    Services,
)
from agent_service.infrastructure.language.rules import fact_reader, language_rules
from tests.scale import size

CODES = ("pt", "en", "es")
READER = fact_reader(CODES, "America/Sao_Paulo", ("BRL",))
TODAY = date(2026, 11, 30)
WINDOW = (TODAY, TODAY + timedelta(days=60))
SERVICE_NAMES = ("Corte feminino", "Barba", "Escova", "Manicure", "Hidratação", "Pedicure")
PRO_NAMES = ("Ana Souza", "Bruno Lima", "Carla Dias", "Diego Reis", "Elisa Mota")
TIMES = ("09:00", "09:30", "10:00", "13:00", "15:30", "17:00")
T = TypeVar("T")
EXAMPLES = settings(max_examples=size(40, 500), deadline=None)


@dataclass(frozen=True)
class Salon:
    services: Services
    professionals: Professionals

    def price(self, service: str) -> str:
        return next(s.price for s in self.services.services if s.name == service)

    def does(self, professional: str, service: str) -> bool:
        person = next(p for p in self.professionals.professionals if p.name == professional)
        return service in person.services


@st.composite
def salons(draw: st.DrawFn) -> Salon:
    names = draw(st.lists(st.sampled_from(SERVICE_NAMES), min_size=2, max_size=5, unique=True))
    prices = draw(
        st.lists(st.integers(2, 30), min_size=len(names), max_size=len(names), unique=True)
    )
    minutes = draw(st.lists(st.sampled_from([15, 20, 30, 45, 60, 90]), min_size=len(names),
                            max_size=len(names)))  # fmt: skip
    services = [
        ServiceItem(id=f"s{i}", name=n, minutes=m, price=f"R$ {p * 10},00")
        for i, (n, p, m) in enumerate(zip(names, prices, minutes, strict=True))
    ]
    people = draw(st.lists(st.sampled_from(PRO_NAMES), min_size=2, max_size=4, unique=True))
    team = [
        ProfessionalItem(
            id=f"p{i}",
            name=person,
            specialty="Cabeleireira",
            services=draw(st.lists(st.sampled_from(names), min_size=1, unique=True)),
        )
        for i, person in enumerate(people)
    ]
    return Salon(Services(services=services), Professionals(professionals=team))


def _text(result: object) -> ToolText:
    assert hasattr(result, "model_dump_json")
    return ToolText("tool", result.model_dump_json(), True)


def _sent(texts: list[ToolText], sentence: str) -> bool:
    this_turn = [t.text for t in texts]
    grounding = Grounding(READER, this_turn, [], language_rules().common_words(), WINDOW, this_turn)
    entities = frozenset(w for n in (*SERVICE_NAMES, *PRO_NAMES) for w in normalize(n).split())
    statements = no_change_statements(grounding, READER, CODES, texts, [], False, entities)
    return statements.refused(sentence) == []


def _some(data: st.DataObject, items: list[T], least: int, most: int) -> list[T]:
    """Some of ``items``, none twice (they are not hashable: drawn by position)."""
    picked = data.draw(
        st.lists(st.sampled_from(range(len(items))), min_size=least, max_size=most, unique=True)
    )
    return [items[i] for i in picked]


def _listed(salon: Salon) -> list[ToolText]:
    return [_text(salon.services), _text(salon.professionals)]


@EXAMPLES
@given(salon=salons(), data=st.data())
def test_a_price_or_length_is_sent_only_with_its_own_service(
    salon: Salon, data: st.DataObject
) -> None:
    service = data.draw(st.sampled_from(salon.services.services))
    other = data.draw(st.sampled_from(salon.services.services))
    texts = _listed(salon)
    frame = data.draw(
        st.sampled_from(["O {s} custa {p}.", "The {s} costs {p}.", "El {s} cuesta {p}."])
    )
    assert _sent(texts, frame.format(s=service.name, p=other.price)) == (other is service)
    length = data.draw(st.sampled_from(["O {s} tem {m} min.", "The {s} takes {m} minutes."]))
    said = length.format(s=service.name, m=other.minutes)
    assert _sent(texts, said) == (other.minutes == service.minutes), said


@EXAMPLES
@given(salon=salons(), data=st.data())
def test_a_list_of_services_with_prices_is_sent_only_when_each_price_is_its_own(
    salon: Salon, data: st.DataObject
) -> None:
    chosen = _some(data, salon.services.services, 2, 3)
    prices = data.draw(st.permutations([s.price for s in chosen]))
    parts = [f"{s.name} ({p})" for s, p in zip(chosen, prices, strict=True)]
    sentence = "Temos " + ", ".join(parts[:-1]) + " e " + parts[-1] + "."
    true = all(s.price == p for s, p in zip(chosen, prices, strict=True))
    assert _sent(_listed(salon), sentence) == true, sentence


@EXAMPLES
@given(salon=salons(), data=st.data())
def test_who_does_a_service_is_sent_only_as_the_listing_says(
    salon: Salon, data: st.DataObject
) -> None:
    people = _some(data, salon.professionals.professionals, 1, 2)
    service = data.draw(st.sampled_from(salon.services.services)).name
    who = " e ".join(p.name for p in people)
    verb = "faz" if len(people) == 1 else "fazem"
    true = all(salon.does(p.name, service) for p in people)
    assert _sent(_listed(salon), f"A {who} {verb} {service}.") == true
    # Denying it in the model's own words: refused, true or not — no tool's fact grounds an
    # absence (statements: a denial is told only in a tool's or the system's words).
    denied = f"A {who} não {verb} {service}."
    assert not _sent(_listed(salon), denied), denied


@EXAMPLES
@given(
    salon=salons(),
    data=st.data(),
    free=st.lists(st.sampled_from(TIMES), min_size=1, max_size=4, unique=True).map(sorted),
)
def test_a_free_time_is_sent_only_of_the_professional_and_service_that_have_it(
    salon: Salon, data: st.DataObject, free: list[str]
) -> None:
    person = data.draw(st.sampled_from(salon.professionals.professionals))
    service = data.draw(st.sampled_from(person.services))
    day = DayTimes(day="2026-12-03", weekday="quinta-feira", professional=person.name,
                   professional_id=person.id, service=service, minutes=30, times=free,
                   utc_offset="-03:00")  # fmt: skip
    texts = [*_listed(salon), _text(FreeTimes(time_zone="America/Sao_Paulo", days=[day]))]
    said_by = data.draw(st.sampled_from(salon.professionals.professionals))
    at = data.draw(st.sampled_from(TIMES))
    sentence = f"A {said_by.name} tem {at} livre."
    assert _sent(texts, sentence) == (said_by is person and at in free), sentence
    other = data.draw(st.sampled_from(salon.services.services)).name
    with_service = f"{person.name} has {free[0]} free for {other}."
    assert _sent(texts, with_service) == (other == service), with_service


@EXAMPLES
@given(salon=salons(), data=st.data())
def test_the_asked_time_a_refusal_names_is_no_free_time(salon: Salon, data: st.DataObject) -> None:
    person = data.draw(st.sampled_from(salon.professionals.professionals))
    nearest = data.draw(st.lists(st.sampled_from(TIMES[1:]), min_size=1, max_size=3, unique=True))
    refused = NotAvailable(
        reason="taken",
        asked="2026-12-03T09:00:00-03:00",
        service=person.services[0],
        professional=person.name,
        nearest=nearest,
    )
    texts = [*_listed(salon), _text(refused)]
    assert not _sent(texts, f"A {person.name} tem 09:00 livre.")
    assert _sent(texts, f"A {person.name} tem {nearest[0]} livre.")


@EXAMPLES
@given(salon=salons(), data=st.data())
def test_a_service_with_its_facts_and_who_does_it_is_never_sent_false(
    salon: Salon, data: st.DataObject
) -> None:
    service = data.draw(st.sampled_from(salon.services.services))
    other = data.draw(st.sampled_from(salon.services.services))
    person = data.draw(st.sampled_from(salon.professionals.professionals))
    sentence = f"O {service.name} ({other.minutes} min, {other.price}) é com a {person.name}."
    true = other is service and salon.does(person.name, service.name)
    # Sound, not complete: the professional and the price share no item, so a true sentence
    # of this shape is refused too (fails closed).
    assert not _sent(_listed(salon), sentence) or true, sentence
    said = f"O {service.name} ({other.minutes} min, {other.price})."
    assert _sent(_listed(salon), said) == (other is service), said


@EXAMPLES
@given(salon=salons(), data=st.data())
def test_who_does_a_service_and_its_length_are_sent_only_when_both_are_true(
    salon: Salon, data: st.DataObject
) -> None:
    person = data.draw(st.sampled_from(salon.professionals.professionals))
    service = data.draw(st.sampled_from(salon.services.services))
    length = data.draw(st.sampled_from(salon.services.services)).minutes
    sentence = f"A {person.name} faz {service.name} ({length} min)."
    true = salon.does(person.name, service.name) and length == service.minutes
    assert _sent(_listed(salon), sentence) == true, sentence


@settings(max_examples=5, deadline=None)
@given(salon=salons(), repeats=st.integers(20, 400))
def test_a_sentence_relating_more_than_a_reply_tells_is_refused(salon: Salon, repeats: int) -> None:
    """True pairs repeated past ``MAX_RUNS`` runs are not read (and cost no quadratic search):
    a hostile model's 8,000-character sentence is refused, not judged for minutes."""
    pairs = [f"{s.name} ({s.price})" for s in salon.services.services]
    sentence = "Temos " + ", ".join(pairs * repeats) + "."
    assert not _sent(_listed(salon), sentence)
    assert _sent(_listed(salon), "Temos " + ", ".join(pairs) + ".")
