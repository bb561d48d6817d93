"""The conversations: what the customer says, in Portuguese or English, and what must happen.

Each case names its expected outcome — booked (which service, with whom, when), cancelled,
rescheduled, answered from which FAQ entry, handed off, informed (the reply must mention given
names), or nothing changed — and its expected tool trajectory: the tools that must be called,
in this order (other calls in between are allowed, but the writing tools
``book_appointment``, ``cancel_appointment``, ``reschedule_appointment`` and
``handoff_to_human`` must be called exactly as often as listed).

The clock is Monday 2026-11-30 09:00 in São Paulo: "amanhã"/"tomorrow" is Tuesday 12/01,
"depois de amanhã" Wednesday 12/02, "quinta"/"Thursday" 12/03, "sexta"/"Friday" 12/04 and
"sábado"/"Saturday" 12/05. The salon is in :mod:`eval.harness` (named unlike the demo's):
Júlia Prado does "Corte e escova" (60 min, R$ 80; customers say "corte feminino", "haircut"),
Rafael Nunes "Barba na navalha" (30 min, R$ 40; "barba", "beard"), Marina Costa "Cuidado das
unhas" (45 min, R$ 35; "manicure", "unha", "nails"), Monday to Saturday 09:00–18:00. Keys in
the cases (``"ana"``, ``"corte"``...) name the salon's entries, not the words customers use.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Literal

from pydantic_evals import Case

from eval.harness import Booked, Transcript, local

Outcome = Literal[
    "booked", "cancelled", "rescheduled", "faq", "handoff", "info", "nothing", "no_answer"
]
Language = Literal["pt", "en"]

TUE, WED, THU, FRI, SAT = (date(2026, 12, day) for day in range(1, 6))
BOOK = "book_appointment"
CANCEL = "cancel_appointment"
RESCHEDULE = "reschedule_appointment"
HANDOFF = "handoff_to_human"
LIST_MINE = "list_my_appointments"
CHECK = "check_availability"
SEARCH = "search_faq"
WRITE_TOOLS = frozenset({BOOK, CANCEL, RESCHEDULE, HANDOFF})


@dataclass(frozen=True, slots=True)
class Conversation:
    """The task's input: the customer's messages, and appointments they already have."""

    messages: tuple[str, ...]
    booked: tuple[Booked, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Expected:
    """The case's metadata: what must happen, and how it is grouped in the report."""

    category: str
    language: Language
    outcome: Outcome
    tools: tuple[str, ...]
    service: str | None = None
    professional: str | None = None
    start: datetime | None = None
    faq: str | None = None
    mentions: tuple[str, ...] = ()


EvalCase = Case[Conversation, Transcript, Expected]

# An appointment the customer already has, for the cancel/reschedule cases.
CUT_THURSDAY = Booked("corte", "ana", local(THU, time(10)))
BEARD_FRIDAY = Booked("barba", "bruno", local(FRI, time(11)))


def _case(
    name: str,
    messages: tuple[str, ...],
    expected: Expected,
    booked: tuple[Booked, ...] = (),
) -> EvalCase:
    return Case(name=name, inputs=Conversation(messages, booked), metadata=expected)


def booked(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    service: str,
    professional: str,
    start: datetime,
    tools: tuple[str, ...] = (BOOK, BOOK),
    category: str = "booking",
) -> EvalCase:
    expected = Expected(
        category=category,
        language=language,
        outcome="booked",
        tools=tools,
        service=service,
        professional=professional,
        start=start,
    )
    return _case(name, messages, expected)


def faq(
    name: str, language: Language, messages: tuple[str, ...], entry: str, category: str = "faq"
) -> EvalCase:
    expected = Expected(
        category=category, language=language, outcome="faq", tools=(SEARCH,), faq=entry
    )
    return _case(name, messages, expected)


def handoff(
    name: str, language: Language, messages: tuple[str, ...], tools: tuple[str, ...] = (HANDOFF,)
) -> EvalCase:
    expected = Expected(category="handoff", language=language, outcome="handoff", tools=tools)
    return _case(name, messages, expected)


def info(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    mentions: tuple[str, ...],
    tools: tuple[str, ...],
    category: str = "discovery",
    existing: tuple[Booked, ...] = (),
) -> EvalCase:
    expected = Expected(
        category=category, language=language, outcome="info", tools=tools, mentions=mentions
    )
    return _case(name, messages, expected, existing)


def nothing(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    tools: tuple[str, ...],
    category: str,
    existing: tuple[Booked, ...] = (),
    outcome: Outcome = "nothing",
) -> EvalCase:
    expected = Expected(category=category, language=language, outcome=outcome, tools=tools)
    return _case(name, messages, expected, existing)


def changed(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    outcome: Literal["cancelled", "rescheduled"],
    service: str,
    existing: tuple[Booked, ...],
    start: datetime | None = None,
) -> EvalCase:
    tool = CANCEL if outcome == "cancelled" else RESCHEDULE
    expected = Expected(
        category="appointments",
        language=language,
        outcome=outcome,
        tools=(LIST_MINE, tool, tool),
        service=service,
        start=start,
    )
    return _case(name, messages, expected, existing)


CASES: list[EvalCase] = [
    # -- booking, Portuguese ------------------------------------------------------------------
    booked(
        "pt-book-all-in-one",
        "pt",
        ("Quero agendar um corte feminino com a Júlia amanhã às 10h", "sim"),
        "corte",
        "ana",
        local(TUE, time(10)),
    ),
    booked(
        "pt-book-step-by-step",
        "pt",
        ("Oi, quero marcar um horário", "Barba", "quinta-feira", "às 15h", "pode confirmar"),
        "barba",
        "bruno",
        local(THU, time(15)),
        tools=(CHECK, BOOK, BOOK),
    ),
    booked(
        "pt-book-numeric-date",
        "pt",
        ("Queria reservar manicure com a Marina dia 04/12 às 14:30", "sim"),
        "manicure",
        "carla",
        local(FRI, time(14, 30)),
    ),
    booked(
        "pt-book-asks-times-first",
        "pt",
        ("Tem horário para barba amanhã?", "às 11h então", "isso mesmo"),
        "barba",
        "bruno",
        local(TUE, time(11)),
        tools=(CHECK, BOOK, BOOK),
    ),
    booked(
        "pt-book-afternoon",
        "pt",
        ("Quero marcar corte feminino na sexta às 3 da tarde", "ok"),
        "corte",
        "ana",
        local(FRI, time(15)),
    ),
    booked(
        "pt-book-day-after-tomorrow",
        "pt",
        ("Gostaria de agendar um corte feminino", "Com a Júlia, depois de amanhã às 9h30", "sim"),
        "corte",
        "ana",
        local(WED, time(9, 30)),
    ),
    booked(
        "pt-book-noon",
        "pt",
        ("Dá pra marcar barba com o Rafael sábado ao meio-dia?", "pode ser"),
        "barba",
        "bruno",
        local(SAT, time(12)),
    ),
    booked(
        "pt-book-changes-time-before-confirming",
        "pt",
        ("Quero agendar corte feminino amanhã às 10h", "Na verdade, prefiro às 14h", "sim"),
        "corte",
        "ana",
        local(TUE, time(14)),
        tools=(BOOK, BOOK, BOOK),
    ),
    booked(
        "pt-book-after-faq",
        "pt",
        ("Vocês aceitam cartão?", "Ótimo, então quero marcar manicure amanhã às 13h", "sim"),
        "manicure",
        "carla",
        local(TUE, time(13)),
        tools=(SEARCH, BOOK, BOOK),
    ),
    nothing(
        "pt-book-declined",
        "pt",
        ("Quero agendar manicure amanhã às 16h", "não, obrigado"),
        (BOOK,),
        "booking",
    ),
    nothing(
        "pt-book-outside-hours",
        "pt",
        ("Quero agendar barba amanhã às 20h",),
        (BOOK,),
        "booking",
    ),
    # -- booking, English ---------------------------------------------------------------------
    booked(
        "en-book-all-in-one",
        "en",
        ("I'd like to book a Barba with Rafael tomorrow at 3pm", "yes"),
        "barba",
        "bruno",
        local(TUE, time(15)),
    ),
    booked(
        "en-book-month-name",
        "en",
        ("Can I book a manicure with Marina on December 4th at 10am?", "sure"),
        "manicure",
        "carla",
        local(FRI, time(10)),
    ),
    booked(
        "en-book-step-by-step",
        "en",
        ("Hi, I want to make an appointment", "Corte feminino please", "Thursday", "at 2pm", "yes"),
        "corte",
        "ana",
        local(THU, time(14)),
        tools=(CHECK, BOOK, BOOK),
    ),
    booked(
        "en-book-free-slots-first",
        "en",
        ("Do you have any free slots for a Barba on Friday?", "3:30pm then", "yes"),
        "barba",
        "bruno",
        local(FRI, time(15, 30)),
        tools=(CHECK, BOOK, BOOK),
    ),
    booked(
        "en-book-weekday",
        "en",
        ("Schedule a manicure with Marina on Wednesday at 9am", "confirm"),
        "manicure",
        "carla",
        local(WED, time(9)),
    ),
    booked(
        "en-book-saturday",
        "en",
        ("Could I come for a Corte feminino with Júlia on Saturday at 11am?", "yes please"),
        "corte",
        "ana",
        local(SAT, time(11)),
    ),
    booked(
        "en-book-haircut-synonym",
        "en",
        ("I'd like a haircut with Júlia tomorrow at 10am", "yes"),
        "corte",
        "ana",
        local(TUE, time(10)),
    ),
    booked(
        "pt-book-first-free-slot",
        "pt",
        ("Quero o primeiro horário livre de barba amanhã", "pode ser esse", "sim"),
        "barba",
        "bruno",
        local(TUE, time(9)),
        tools=(CHECK, BOOK, BOOK),
    ),
    nothing(
        "en-book-declined",
        "en",
        ("Book a Corte feminino with Júlia tomorrow at 11am", "no thanks"),
        (BOOK,),
        "booking",
    ),
    # -- discovery ----------------------------------------------------------------------------
    info(
        "pt-services-and-prices",
        "pt",
        ("Quais serviços vocês oferecem e quanto custa?",),
        ("Corte e escova", "Barba na navalha", "Cuidado das unhas", "80"),
        ("list_services",),
    ),
    info(
        "en-services-and-prices",
        "en",
        ("What services do you have and how much?",),
        ("Corte e escova", "Barba na navalha", "40"),
        ("list_services",),
    ),
    info(
        "pt-professionals",
        "pt",
        ("Quem são os profissionais?",),
        ("Júlia", "Rafael", "Marina"),
        ("list_professionals",),
    ),
    info(
        "en-staff",
        "en",
        ("Who works there?",),
        ("Júlia", "Rafael", "Marina"),
        ("list_professionals",),
    ),
    nothing("pt-greeting", "pt", ("Bom dia!",), (), "smalltalk"),
    nothing("en-greeting", "en", ("Hello there",), (), "smalltalk"),
    # -- FAQ ----------------------------------------------------------------------------------
    faq("pt-faq-address", "pt", ("Qual é o endereço de vocês?",), "address"),
    faq("en-faq-address", "en", ("Where are you located?",), "address"),
    faq("pt-faq-pix", "pt", ("Vocês aceitam Pix?",), "payment"),
    faq("en-faq-card", "en", ("Can I pay by card?",), "payment"),
    faq("pt-faq-hours", "pt", ("Qual o horário de funcionamento?",), "hours"),
    faq("en-faq-hours", "en", ("What are your opening hours?",), "hours"),
    faq("pt-faq-cancellation-policy", "pt", ("Qual a política de cancelamento?",), "cancellation"),
    faq("en-faq-parking", "en", ("Is there parking nearby?",), "parking"),
    faq("pt-faq-parking", "pt", ("Tem estacionamento?",), "parking"),
    faq(
        "pt-faq-during-booking",
        "pt",
        ("Quero agendar um corte feminino", "Antes, qual é o endereço?"),
        "address",
        category="escape",
    ),
    nothing(
        "pt-faq-unknown-is-honest",
        "pt",
        ("Posso levar meu cachorro?",),
        (SEARCH,),
        "faq",
        outcome="no_answer",
    ),
    nothing(
        "en-unintelligible",
        "en",
        ("xyzzy plugh",),
        (),
        "smalltalk",
        outcome="no_answer",
    ),
    # -- handoff ------------------------------------------------------------------------------
    handoff("pt-handoff-attendant", "pt", ("Quero falar com um atendente",)),
    handoff("en-handoff-real-person", "en", ("Can I talk to a real person please?",)),
    handoff(
        "pt-handoff-complaint", "pt", ("Quero fazer uma reclamação sobre o atendimento de ontem",)
    ),
    handoff("en-handoff-manager", "en", ("I need to speak to the manager, my nails were ruined",)),
    handoff(
        "pt-handoff-during-booking",
        "pt",
        ("Quero agendar barba amanhã às 10h", "Esquece, quero falar com uma pessoa de verdade"),
        tools=(BOOK, HANDOFF),
    ),
    # -- existing appointments ----------------------------------------------------------------
    info(
        "pt-list-appointments",
        "pt",
        ("Quais são meus agendamentos?",),
        ("Corte e escova",),
        (LIST_MINE,),
        category="appointments",
        existing=(CUT_THURSDAY,),
    ),
    info(
        "en-when-is-my-appointment",
        "en",
        ("When is my appointment?",),
        ("Corte e escova",),
        (LIST_MINE,),
        category="appointments",
        existing=(CUT_THURSDAY,),
    ),
    changed(
        "pt-cancel",
        "pt",
        ("Quero cancelar meu horário", "sim"),
        "cancelled",
        "corte",
        (CUT_THURSDAY,),
    ),
    changed(
        "en-cancel",
        "en",
        ("Please cancel my appointment", "yes"),
        "cancelled",
        "corte",
        (CUT_THURSDAY,),
    ),
    changed(
        "pt-cancel-one-of-two",
        "pt",
        ("Quero cancelar a barba", "sim"),
        "cancelled",
        "barba",
        (CUT_THURSDAY, BEARD_FRIDAY),
    ),
    changed(
        "pt-reschedule",
        "pt",
        ("Preciso remarcar meu corte para sexta às 16h", "pode sim"),
        "rescheduled",
        "corte",
        (CUT_THURSDAY,),
        start=local(FRI, time(16)),
    ),
    changed(
        "en-reschedule",
        "en",
        ("Can I reschedule my appointment to Friday at 11am?", "yes"),
        "rescheduled",
        "corte",
        (CUT_THURSDAY,),
        start=local(FRI, time(11)),
    ),
    changed(
        "pt-reschedule-asks-when",
        "pt",
        ("Quero remarcar meu agendamento", "para quinta às 17h", "sim"),
        "rescheduled",
        "corte",
        (CUT_THURSDAY,),
        start=local(THU, time(17)),
    ),
    nothing(
        "pt-cancel-declined",
        "pt",
        ("Quero desmarcar meu corte", "não, deixa como está"),
        (LIST_MINE, CANCEL),
        "appointments",
        existing=(CUT_THURSDAY,),
    ),
    nothing(
        "en-cancel-without-appointments",
        "en",
        ("Cancel my appointment",),
        (LIST_MINE,),
        "appointments",
    ),
]

# -- trust: no wrong writes, refusals that say why (issue 12) ----------------------------------
CASES += [
    info(
        "pt-wrong-professional-not-substituted",
        "pt",
        ("Quero fazer manicure com o Rafael amanhã às 10h", "sim"),
        ("Marina",),
        (),
        category="trust",
    ),
    info(
        "en-wrong-professional-not-substituted",
        "en",
        ("Book a manicure with Rafael on Friday at 2pm", "yes"),
        ("Marina",),
        (),
        category="trust",
    ),
    info(
        "pt-wrong-professional-step-by-step",
        "pt",
        ("Quero marcar barba", "com a Júlia", "sim"),
        ("Rafael",),
        (),
        category="trust",
    ),
    nothing(
        "pt-reschedule-to-closed-time-checks-first",
        "pt",
        ("Preciso remarcar meu corte para sexta às 20h", "sim"),
        (LIST_MINE, RESCHEDULE),
        "trust",
        existing=(CUT_THURSDAY,),
    ),
    nothing(
        "en-reschedule-to-closed-day-checks-first",
        "en",
        ("Can I move my haircut to Sunday at 11am?", "yes"),
        (LIST_MINE, RESCHEDULE),
        "trust",
        existing=(CUT_THURSDAY,),
    ),
    info(
        "pt-declined-time-does-not-resurface",
        "pt",
        ("Quero agendar manicure amanhã às 16h", "não", "quais horários a Marina tem na sexta?"),
        ("09:00",),
        (BOOK, CHECK),
        category="trust",
    ),
    info(
        "en-declined-time-does-not-resurface",
        "en",
        ("Book a Barba with Rafael tomorrow at 10am", "no", "what times are free on Friday?"),
        ("09:00",),
        (BOOK, CHECK),
        category="trust",
    ),
]

# -- refusals say why and what instead (issue 12) ----------------------------------------------
CASES += [
    info(
        "pt-refusal-closed-day",
        "pt",
        ("Quero agendar barba com o Rafael domingo às 10h",),
        ("fechados",),
        (BOOK,),
        category="refusal",
    ),
    info(
        "en-refusal-closed-day",
        "en",
        ("Book a manicure with Marina on Sunday at 10am",),
        ("closed",),
        (BOOK,),
        category="refusal",
    ),
    info(
        "pt-refusal-outside-hours",
        "pt",
        ("Quero agendar barba amanhã às 20h",),
        ("fora do nosso horário", "17:30"),
        (BOOK,),
        category="refusal",
    ),
    info(
        "en-refusal-outside-hours",
        "en",
        ("Can I book a manicure with Marina tomorrow at 7am?",),
        ("outside our opening hours", "09:00"),
        (BOOK,),
        category="refusal",
    ),
    info(
        "pt-refusal-off-grid",
        "pt",
        ("Quero marcar manicure com a Marina amanhã às 10:10",),
        ("intervalos fixos", "10:00", "10:30"),
        (BOOK,),
        category="refusal",
    ),
    info(
        "en-refusal-off-grid",
        "en",
        ("Book a Barba with Rafael on Friday at 2:20pm",),
        ("fixed grid", "14:00", "14:30"),
        (BOOK,),
        category="refusal",
    ),
    info(
        "pt-refusal-past-date",
        "pt",
        ("Quero agendar barba com o Rafael dia 20/11 às 10h",),
        ("já passou",),
        (),
        category="refusal",
    ),
    info(
        "en-refusal-past-yesterday",
        "en",
        ("Can I book a manicure with Marina yesterday at 10am?",),
        ("already passed",),
        (),
        category="refusal",
    ),
    info(
        "pt-refusal-beyond-horizon",
        "pt",
        ("Quero agendar manicure com a Marina dia 15/03 às 10h",),
        ("60 dias",),
        (BOOK,),
        category="refusal",
    ),
    info(
        "pt-refusal-minimum-notice",
        "pt",
        ("Quero agendar barba com o Rafael hoje às 9h30",),
        ("antecedência",),
        (BOOK,),
        category="refusal",
    ),
    info(
        "en-refusal-taken-offers-nearest",
        "en",
        ("Book a haircut with Júlia on Thursday at 10am",),
        ("already taken", "11:00"),
        (BOOK,),
        category="refusal",
        existing=(CUT_THURSDAY,),
    ),
]
