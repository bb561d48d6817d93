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
Language = Literal["pt", "en", "es"]

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
    salon: str = "ipe"
    """Which salon of :data:`eval.harness.SALONS` the conversation runs against."""


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
    target: datetime | None = None
    """Cancel/reschedule: which of the customer's appointments (by its start), when several
    have the wanted service."""
    also: tuple[tuple[str, str, datetime], ...] = ()
    """Booked: the visit's further appointments (service, professional, start), booked with
    the first one after the same single yes (several services asked in one message)."""
    facts: tuple[tuple[str, ...], ...] = ()
    """Info: groups of spellings; the last reply states one spelling of every group (a
    spelling that starts with a digit counts only when no digit comes right before it, so
    "8h" is not found in "18h")."""
    faq_free: bool = False
    """Info: the last reply cites no FAQ entry and states none of the salon's FAQ facts."""
    distinct_replies: bool = False
    """No two consecutive replies are the same text (a stuck loop)."""


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

# -- the held-out kinds of conversation (issue 12) ---------------------------------------------
MANI_WED = Booked("manicure", "carla", local(WED, time(14)))


def team(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    professional: str,
    start: datetime,
    existing: tuple[Booked, ...] = (),
) -> EvalCase:
    """Any professional: the hair treatment with whoever is free at the asked time."""
    expected = Expected(
        category="any-professional",
        language=language,
        outcome="booked",
        tools=(CHECK, BOOK, BOOK),
        service="hidratacao",
        professional=professional,
        start=start,
    )
    return _case(name, messages, expected, existing)


CASES += [
    # typos, slang, abbreviations
    booked("pt-slang-qro-barba", "pt", ("qro marcar barba amanha as 10h", "sim"), "barba", "bruno",
           local(TUE, time(10)), category="typos-slang"),
    booked("pt-slang-vc-unha", "pt", ("vc tem horario pra unha amanha 14h?", "pode marcar"),
           "manicure", "carla", local(TUE, time(14)), category="typos-slang"),
    booked("pt-slang-marca-corte", "pt", ("marca um corte de cabelo pra sexta 16h", "s"), "corte",
           "ana", local(FRI, time(16)), category="typos-slang"),
    booked("pt-slang-cortar-cabelo", "pt", ("preciso cortar o cabelo sábado 9h", "confirmo"),
           "corte", "ana", local(SAT, time(9)), category="typos-slang"),
    booked("pt-slang-c-barra", "pt", ("marcar hidratação c/ o Paulo quarta 10h", "sim"),
           "hidratacao", "paulo", local(WED, time(10)), category="typos-slang"),
    booked("pt-slang-bora", "pt", ("Quero fazer barba depois de amanhã às 17h", "bora"), "barba",
           "bruno", local(WED, time(17)), category="typos-slang"),
    booked("pt-slang-fechado", "pt", ("agendar manicure dia 5/12 às 9h", "fechado"), "manicure",
           "carla", local(SAT, time(9)), category="typos-slang"),
    booked("pt-slang-tem-vaga", "pt", ("tem vaga pra corte feminino quinta às 15h?", "sim"),
           "corte", "ana", local(THU, time(15)), category="typos-slang"),
    booked("pt-slang-13h30", "pt", ("Quero marcar barba amanhã 13h30", "ok"), "barba", "bruno",
           local(TUE, time(13, 30)), category="typos-slang"),
    booked("pt-slang-consigo", "pt", ("Consigo fazer as unhas com a Marina sexta às 17h?",
           "claro"), "manicure", "carla", local(FRI, time(17)), category="typos-slang"),
    booked("pt-slang-amnh", "pt", ("oi, marcar barba amnh às 9h30", "blz"), "barba", "bruno",
           local(TUE, time(9, 30)), category="typos-slang"),
    booked("pt-slang-no-accents", "pt", ("quero agendar hidratacao com a Julia sabado as 11h",
           "sim"), "hidratacao", "ana", local(SAT, time(11)), category="typos-slang"),
    booked("en-slang-tmrw", "en", ("hey can i book a beard trim tmrw at 10am", "y"), "barba",
           "bruno", local(TUE, time(10)), category="typos-slang"),
    booked("en-slang-pls", "en", ("pls book nails with Marina on Friday at 3pm", "yep"),
           "manicure", "carla", local(FRI, time(15)), category="typos-slang"),
    booked("en-slang-lowercase", "en", ("i wanna get a haircut thursday 9am", "sure"), "corte",
           "ana", local(THU, time(9)), category="typos-slang"),
    # English names for the salon's Portuguese services
    booked("en-names-beard-trim", "en", ("I want a beard trim tomorrow at 11am", "yes"), "barba",
           "bruno", local(TUE, time(11)), category="service-names"),
    booked("en-names-nails", "en", ("Can I get my nails done on Friday at 3pm?", "yes"),
           "manicure", "carla", local(FRI, time(15)), category="service-names"),
    booked("en-names-haircut-saturday", "en", ("haircut on Saturday at 10am please", "yes"),
           "corte", "ana", local(SAT, time(10)), category="service-names"),
    booked("pt-names-haircut-in-pt", "pt", ("Quero agendar um haircut amanhã às 16h", "sim"),
           "corte", "ana", local(TUE, time(16)), category="service-names"),
    booked("en-names-hair-treatment", "en", ("Book a hair treatment with Paulo on Thursday at 2pm",
           "yes"), "hidratacao", "paulo", local(THU, time(14)), category="service-names"),
    booked("pt-names-unhas", "pt", ("quero fazer as unhas quarta às 10h", "sim"), "manicure",
           "carla", local(WED, time(10)), category="service-names"),
    booked("pt-names-manicure-full", "pt", ("Gostaria de marcar uma manicure com a Marina amanhã "
           "às 11h", "sim"), "manicure", "carla", local(TUE, time(11)), category="service-names"),
    booked("en-names-women-haircut", "en", ("I'd like a women's haircut with Júlia on Friday at "
           "5pm", "yes"), "corte", "ana", local(FRI, time(17)), category="service-names"),
    # corrections mid-flow and changes of mind
    booked("pt-correction-ops-quinta", "pt", ("Quero marcar barba amanhã às 10h",
           "ops, quis dizer quinta às 10h", "sim"), "barba", "bruno", local(THU, time(10)),
           tools=(BOOK, BOOK, BOOK), category="corrections"),
    booked("en-correction-actually", "en", ("Book a manicure with Marina tomorrow at 9am",
           "actually make it 11am", "yes"), "manicure", "carla", local(TUE, time(11)),
           tools=(BOOK, BOOK, BOOK), category="corrections"),
    booked("pt-correction-nao-melhor", "pt", ("Quero unha sexta às 10h", "não, melhor às 15h",
           "sim"), "manicure", "carla", local(FRI, time(15)), tools=(BOOK, BOOK, BOOK),
           category="corrections"),
    booked("pt-change-of-mind-service", "pt", ("Quero marcar barba amanhã às 10h", "não",
           "na verdade quero manicure quinta às 14h", "sim"), "manicure", "carla",
           local(THU, time(14)), tools=(BOOK, BOOK, BOOK), category="corrections"),
    booked("en-change-of-mind-day", "en", ("I'd like a haircut Friday at 10am", "hmm no",
           "let's do Saturday at 10am instead", "yes"), "corte", "ana", local(SAT, time(10)),
           tools=(BOOK, BOOK, BOOK), category="corrections"),
    booked("pt-correction-professional", "pt", ("Quero hidratação com a Júlia amanhã às 15h",
           "prefiro com o Paulo", "sim"), "hidratacao", "paulo", local(TUE, time(15)),
           tools=(BOOK, BOOK, BOOK), category="corrections"),
    booked("en-correction-time-only", "en", ("Beard trim with Rafael on Wednesday at 10am",
           "can we do 4pm?", "yes"), "barba", "bruno", local(WED, time(16)),
           tools=(BOOK, BOOK, BOOK), category="corrections"),
    nothing("pt-change-of-mind-gives-up", "pt", ("Quero marcar manicure amanhã às 10h",
            "deixa pra lá"), (BOOK,), "corrections"),
    nothing("en-change-of-mind-gives-up", "en", ("Book a haircut on Friday at 11am",
            "never mind"), (BOOK,), "corrections"),
    # refusals: every reason, with the nearest options or what to do
    info("pt-refusal-break", "pt", ("Quero hidratação com o Paulo amanhã às 12h",),
         ("intervalo", "13:00"), (BOOK,), category="refusal"),
    info("en-refusal-break", "en", ("Book a hair treatment with Paulo tomorrow at 12:30pm",),
         ("break", "13:00"), (BOOK,), category="refusal"),
    info("en-refusal-notice", "en", ("Can I get a beard trim today at 9:30am?",),
         ("too soon",), (BOOK,), category="refusal"),
    info("en-refusal-past-date", "en", ("Book a haircut on 11/20 at 10am",),
         ("already passed",), (), category="refusal"),
    info("en-refusal-horizon", "en", ("Book a beard trim on March 15 at 10am",),
         ("60 days",), (BOOK,), category="refusal"),
    info("pt-refusal-closed-availability", "pt", ("Tem horário pra barba domingo?",),
         ("fechados",), (CHECK,), category="refusal"),
    info("en-refusal-closed-availability", "en", ("Any free slots for nails on Sunday?",),
         ("closed",), (CHECK,), category="refusal"),
    info("pt-refusal-off-grid-barba", "pt", ("barba amanhã 10:15, pode ser?",),
         ("intervalos fixos", "10:00", "10:30"), (BOOK,), category="refusal"),
    info("pt-refusal-ontem", "pt", ("Quero marcar unha ontem às 10h",), ("já passou",), (),
         category="refusal"),
    info("pt-refusal-taken", "pt", ("Quero corte feminino quinta às 10h",),
         ("ocupado", "11:00"), (BOOK,), category="refusal", existing=(CUT_THURSDAY,)),
    info("pt-refusal-after-hours-evening", "pt", ("Quero manicure sexta às 19h",),
         ("fora do nosso horário",), (BOOK,), category="refusal"),
    info("en-refusal-early-morning", "en", ("Book a beard trim on Thursday at 8am",),
         ("outside our opening hours", "09:00"), (BOOK,), category="refusal"),
    # never another professional
    info("en-wrong-professional-beard", "en", ("Can Marina do my beard on Friday at 10am?", "yes"),
         ("Rafael",), (), category="trust"),
    info("pt-wrong-professional-corte", "pt", ("Quero corte feminino com o Rafael sábado 10h",
         "sim"), ("Júlia",), (), category="trust"),
    info("pt-wrong-professional-hidratacao", "pt", ("hidratação com a Marina amanhã às 10h",
         "pode ser"), ("Júlia", "Paulo"), (), category="trust"),
    info("en-wrong-professional-nails", "en", ("Nails with Paulo on Thursday at 3pm", "ok"),
         ("Marina",), (), category="trust"),
    # any professional
    team("pt-any-tanto-faz", "pt", ("Quero hidratação amanhã às 10h, tanto faz o profissional",
         "sim"), "ana", local(TUE, time(10))),
    team("en-any-professional-busy-first", "en", ("Any professional is fine, I want a hair "
         "treatment on Thursday at 10am", "yes"), "paulo", local(THU, time(10)),
         existing=(CUT_THURSDAY,)),
    team("pt-any-qualquer-um", "pt", ("hidratação sexta às 16h com qualquer um", "sim"), "ana",
         local(FRI, time(16))),
    team("pt-any-quem-estiver-livre", "pt", ("Quero hidratação quinta às 10h com quem estiver "
         "livre", "sim"), "paulo", local(THU, time(10)), existing=(CUT_THURSDAY,)),
    team("en-any-anyone", "en", ("hair treatment on Saturday at 2pm, anyone", "yes"), "ana",
         local(SAT, time(14))),
    info("pt-any-lists-team", "pt", ("Quais horários de hidratação na sexta? qualquer um",),
         ("Júlia", "Paulo", "09:00"), (CHECK,), category="any-professional"),
    info("en-any-lists-team-afternoon", "en", ("What times do you have for a hair treatment on "
         "Friday afternoon? Anyone is fine",), ("12:00", "13:00"), (CHECK,),
         category="any-professional"),
    info("pt-any-asks-day", "pt", ("quero hidratação, tanto faz quem",), ("qual dia",), (),
         category="any-professional"),
    # part of the day, a professional's free windows
    info("pt-part-tarde", "pt", ("Tem horário pra barba amanhã à tarde?",), ("12:00",), (CHECK,),
         category="part-of-day"),
    info("en-part-morning", "en", ("Any free slots for a beard trim on Friday morning?",),
         ("09:00",), (CHECK,), category="part-of-day"),
    info("pt-part-professional-morning", "pt", ("Quais horários a Marina tem na quinta de manhã?",),
         ("09:00",), (CHECK,), category="part-of-day"),
    # Júlia's services differ in length (60 and 30 min): which one is asked first (issue 12).
    info("en-part-professional-windows", "en", ("What times does Júlia have on Friday?",
         "a haircut"), ("09:00",), (CHECK,), category="part-of-day"),
    info("pt-windows-ask-service-lengths-differ", "pt", ("Quais horários a Júlia tem sexta?",),
         ("Corte e escova", "Hidratação capilar"), (), category="part-of-day"),
    info("en-windows-same-length-answers", "en", ("What times does Paulo have on Friday?",),
         ("09:00",), (CHECK,), category="part-of-day"),
    info("pt-part-paulo-tarde", "pt", ("Quais os horários livres do Paulo amanhã à tarde?",),
         ("13:00",), (CHECK,), category="part-of-day"),
    info("pt-part-noite", "pt", ("Tem horário de manicure sexta à noite?",), ("Outros horários",),
         (CHECK,), category="part-of-day"),
    booked("pt-part-then-book", "pt", ("Tem horário pra unha sexta de manhã?", "10h30", "sim"),
           "manicure", "carla", local(FRI, time(10, 30)), tools=(CHECK, BOOK, BOOK),
           category="part-of-day"),
    booked("en-part-then-book", "en", ("Free times for a haircut on Thursday afternoon?", "3pm",
           "yes"), "corte", "ana", local(THU, time(15)), tools=(CHECK, BOOK, BOOK),
           category="part-of-day"),
    # routing that recovers
    booked("pt-route-faq-then-book", "pt", ("Vocês têm estacionamento?",
           "Quero marcar barba amanhã às 10h", "sim"), "barba", "bruno", local(TUE, time(10)),
           tools=(SEARCH, BOOK, BOOK), category="routing"),
    booked("pt-route-faq-then-when", "pt", ("Qual o endereço?", "amanhã às 15h, barba", "sim"),
           "barba", "bruno", local(TUE, time(15)), tools=(SEARCH, BOOK, BOOK), category="routing"),
    booked("en-route-faq-then-book", "en", ("Do you accept cards?",
           "ok, a beard trim tomorrow at 4pm then", "yes"), "barba", "bruno", local(TUE, time(16)),
           tools=(SEARCH, BOOK, BOOK), category="routing"),
    booked("pt-route-profissional-still-books", "pt", ("Quero agendar com a profissional Marina "
           "uma manicure amanhã às 9h", "sim"), "manicure", "carla", local(TUE, time(9)),
           category="routing"),
    booked("en-route-professional-still-books", "en", ("I'd like to book with the professional "
           "Rafael, a beard trim Friday 2pm", "yes"), "barba", "bruno", local(FRI, time(14)),
           category="routing"),
    booked("pt-route-discovery-then-book", "pt", ("Quem são os profissionais?",
           "quero marcar com o Rafael barba sexta 10h", "sim"), "barba", "bruno",
           local(FRI, time(10)), tools=("list_professionals", BOOK, BOOK), category="routing"),
    booked("en-route-services-then-book", "en", ("What services do you offer?",
           "great, book a manicure with Marina on Wednesday at 11am", "yes"), "manicure", "carla",
           local(WED, time(11)), tools=("list_services", BOOK, BOOK), category="routing"),
    # one language per conversation
    nothing("en-language-short-no", "en", ("Book a manicure with Marina tomorrow at 10am", "no"),
            (BOOK,), "language"),
    booked("en-language-greeting-first", "en", ("Hi", "I want a haircut tomorrow at 11am", "ok"),
           "corte", "ana", local(TUE, time(11)), category="language"),
    booked("pt-language-greeting-first", "pt", ("Oi", "quero barba amanhã às 11h", "ok"), "barba",
           "bruno", local(TUE, time(11)), category="language"),
    booked("en-language-ok-stays-english", "en", ("Can I book a beard trim tomorrow at 10am?",
           "ok"), "barba", "bruno", local(TUE, time(10)), category="language"),
    nothing("pt-language-sim-nao", "pt", ("Quero agendar corte feminino sexta às 10h", "no"),
            (BOOK,), "language"),
    # existing appointments, in other words
    changed("pt-cancel-nails-slang", "pt", ("preciso desmarcar a unha", "sim"), "cancelled",
            "manicure", (MANI_WED,)),
    changed("en-cancel-nails", "en", ("cancel my nails appointment", "yes"), "cancelled",
            "manicure", (MANI_WED,)),
    changed("pt-reschedule-slang", "pt", ("dá pra remarcar meu corte pra sábado 11h?",
            "pode ser"), "rescheduled", "corte", (CUT_THURSDAY,), start=local(SAT, time(11))),
    changed("en-reschedule-beard", "en", ("I need to move my beard trim to Saturday at 9am",
            "yes"), "rescheduled", "barba", (BEARD_FRIDAY,), start=local(SAT, time(9))),
    nothing("pt-reschedule-to-past", "pt", ("Quero remarcar meu corte para ontem às 10h", "sim"),
            (LIST_MINE, RESCHEDULE), "trust", existing=(CUT_THURSDAY,)),
    nothing("en-reschedule-off-grid", "en", ("Move my haircut to Friday at 10:10am", "yes"),
            (LIST_MINE, RESCHEDULE), "trust", existing=(CUT_THURSDAY,)),
    # FAQ in the customers' words
    faq("pt-faq-abrem-fecham", "pt", ("que horas vocês abrem e fecham?",), "hours"),
    faq("pt-faq-onde-fica", "pt", ("onde fica o salão?",), "address"),
    faq("en-faq-cash", "en", ("Do you take cash?",), "payment"),
    faq("en-faq-how-late", "en", ("How late are you open on Saturday?",), "hours"),
    faq("pt-faq-pix-slang", "pt", ("dá pra pagar no pix?",), "payment"),
    faq("en-faq-cancellation-lower", "en", ("what's your cancellation policy",), "cancellation"),
    faq("pt-faq-estacionar", "pt", ("tem onde estacionar?",), "parking"),
    faq("en-faq-park", "en", ("Where can I park?",), "parking"),
    faq("pt-faq-ate-quando-cancelar", "pt", ("até quando posso cancelar sem pagar nada?",),
        "cancellation"),
    faq("en-faq-car", "en", ("Is there a place to leave my car?",), "parking"),
    nothing("pt-faq-produtos-unknown", "pt", ("Vocês vendem produtos de cabelo?",), (SEARCH,),
            "faq", outcome="no_answer"),
    nothing("en-faq-wifi-unknown", "en", ("Do you have wifi?",), (SEARCH,), "faq",
            outcome="no_answer"),
    # handoff
    handoff("pt-handoff-alguem", "pt", ("quero falar com alguém de verdade",)),
    handoff("en-handoff-human-pls", "en", ("get me a human pls",)),
]  # fmt: skip

CASES += [
    info("pt-refusal-not-repeated-after-sim", "pt", ("Quero agendar barba amanhã às 20h", "sim"),
         ("Qual dia e horário",), (BOOK,), category="refusal"),
    info("en-refusal-not-repeated-after-yes", "en", ("Book a beard trim on Sunday at 10am",
         "yes"), ("Which day and time",), (BOOK,), category="refusal"),
]  # fmt: skip

CASES += [
    info("pt-range-quinta-a-sabado", "pt", ("Quais horários de barba de quinta a sábado?",),
         ("03/12", "04/12", "05/12", "09:00"), (CHECK,), category="date-range"),
    info("en-range-this-week", "en", ("What times does Marina have for nails this week?",),
         ("2026-12-01", "2026-12-05"), (CHECK,), category="date-range"),
    booked("pt-fix-asks-what-to-change", "pt",
           ("Quero corte feminino com a Júlia amanhã às 10h", "muda o horário", "às 15h", "sim"),
           "corte", "ana", local(TUE, time(15)), tools=(BOOK, BOOK, BOOK),
           category="corrections"),
    nothing("en-fix-without-a-value-asks", "en",
            ("Book a beard trim with Rafael tomorrow at 10am", "actually, another time", "yes"),
            (BOOK,), "corrections"),
    info("pt-range-semana-que-vem", "pt", ("Quais horários de barba semana que vem?",),
         ("07/12", "12/12"), (CHECK,), category="date-range"),
    info("en-range-next-week", "en", ("Any times for a beard trim next week?",),
         ("2026-12-07", "2026-12-12"), (CHECK,), category="date-range"),
    info("pt-range-fim-de-semana", "pt", ("Tem manicure no fim de semana?",),
         ("05/12", "06/12"), (CHECK,), category="date-range"),
    info("en-range-until-thursday", "en", ("Free slots for nails until Thursday?",),
         ("2026-11-30", "2026-12-03"), (CHECK,), category="date-range"),
    info("pt-range-proximos-dias", "pt", ("Quais horários de barba nos próximos dias?",),
         ("01/12", "03/12"), (CHECK,), category="date-range"),
]  # fmt: skip

# A change asked with no new value, or a decline worded as one, after a proposal (blind batch
# of 2026-12-06, written and scored before the fix): nothing is booked, whatever the customer
# says next; the reply asks what to change (or drops the proposal) and states no time or name
# of its own.
CASES += [
    nothing("pt-vague-outro-dia", "pt",
            ("Quero barba com o Rafael amanhã às 10h", "hmm, prefiro outro dia", "sim"),
            (BOOK,), "corrections"),
    nothing("pt-vague-trocar-horario", "pt",
            ("Marca unha com a Marina quinta às 14h", "dá pra trocar o horário?", "pode ser"),
            (BOOK,), "corrections"),
    nothing("pt-vague-na-verdade-outro", "pt",
            ("Corte feminino com a Júlia sexta às 11h", "na verdade quero alterar", "sim"),
            (BOOK,), "corrections"),
    nothing("pt-vague-esquece-mudar", "pt",
            ("Hidratação com o Paulo amanhã às 9h", "na verdade, esquece", "sim"),
            (BOOK,), "corrections"),
    nothing("en-vague-different-day", "en",
            ("Nails with Marina on Thursday at 2pm", "hmm, I'd rather a different day", "yes"),
            (BOOK,), "corrections"),
    nothing("en-vague-change-it", "en",
            ("Haircut with Júlia on Friday at 11am", "can we change it?", "sure"),
            (BOOK,), "corrections"),
    nothing("en-vague-another-day", "en",
            ("Beard trim with Rafael tomorrow at 9am", "another day would be better", "yes"),
            (BOOK,), "corrections"),
    nothing("es-vague-otro-dia", "es",
            ("Quiero barba con Rafael mañana a las 10", "mejor otro día", "sí"),
            (BOOK,), "corrections"),
    nothing("es-vague-cambiar-hora", "es",
            ("Manicura con Marina el jueves a las 14", "¿se puede cambiar la hora?", "sí"),
            (BOOK,), "corrections"),
    nothing("es-vague-en-realidad", "es",
            ("Corte de pelo con Júlia el viernes a las 11", "en realidad, prefiero cambiar", "sí"),
            (BOOK,), "corrections"),
]  # fmt: skip

# A question that names its topic, led by a word another entry's answer holds ("antes": the
# cancellation policy's "2 horas antes"; "free": the car park's "free for 2 hours"). Blind batch
# of 2026-12-06, written and scored before the fix: the entry the question is about answers.
CASES += [
    faq("pt-faq-lead-antes-pix", "pt", ("Antes de ir: vocês aceitam pix?",), "payment"),
    faq("pt-faq-lead-custo-estacionar", "pt", ("Sem custo nenhum, dá pra estacionar aí?",),
        "parking"),
    faq("pt-faq-lead-horas-endereco", "pt", ("Umas horas antes eu vou, qual o endereço?",),
        "address"),
    faq("en-faq-lead-before-where", "en", ("Before I come over, where are you located?",),
        "address"),
    faq("en-faq-lead-free-pay", "en", ("Free question: how can I pay?",), "payment"),
    faq("es-faq-lead-antes-donde", "es", ("Antes de ir, ¿cuál es la dirección?",), "address"),
]  # fmt: skip

# A word of one language (or of one sense) read where it means something else: Spanish "fecha"
# (date) is Portuguese for "closes", Portuguese "no" (in the) is a Spanish and English no, "vale"
# (voucher) is a Spanish yes, "once" is Spanish for eleven, "May", "sun", "segunda", "tarde" and
# "mañana" are calendar words only in context. Blind batch of 2026-12-06 (session 37), written
# and scored before any fix.
CASES += [
    nothing("es-ff-otra-fecha", "es",
            ("Quiero barba con Rafael mañana a las 10", "mejor otra fecha", "sí"),
            (BOOK,), "false-friends"),
    info("es-ff-que-fechas", "es", ("¿Qué fechas tiene Marina para manicura esta semana?",),
         ("Marina",), (CHECK,), category="false-friends"),
    nothing("pt-ff-vale-presente", "pt",
            ("Quero barba com o Rafael amanhã às 10h", "vale presente serve?"),
            (BOOK, SEARCH), "false-friends"),
    booked("pt-ff-no-sabado", "pt",
           ("Quero barba com o Rafael amanhã às 10h", "pode ser no sábado às 10h?", "sim"),
           "barba", "bruno", local(SAT, time(10)), tools=(BOOK, BOOK, BOOK),
           category="false-friends"),
    booked("pt-ff-sim-no-horario", "pt",
           ("Quero barba com o Rafael amanhã às 10h", "sim, no horário que você falou"),
           "barba", "bruno", local(TUE, time(10)), category="false-friends"),
    booked("en-ff-once", "en",
           ("I come once a month. Beard trim with Rafael on Friday at 3pm please", "yes"),
           "barba", "bruno", local(FRI, time(15)), category="false-friends"),
    booked("en-ff-may", "en", ("May I book a beard trim with Rafael tomorrow at 10am?", "yes"),
           "barba", "bruno", local(TUE, time(10)), category="false-friends"),
    booked("en-ff-sun", "en",
           ("Too much sun dried my hair: hair treatment with Paulo on Thursday at 10am", "yes"),
           "hidratacao", "paulo", local(THU, time(10)), category="false-friends"),
    booked("pt-ff-segunda-vez", "pt",
           ("É a segunda vez que peço: barba com o Rafael sexta às 11h", "sim"),
           "barba", "bruno", local(FRI, time(11)), category="false-friends"),
    booked("pt-ff-tarde", "pt",
           ("Sei que já é tarde, mas quero barba com o Rafael amanhã às 10h", "sim"),
           "barba", "bruno", local(TUE, time(10)), category="false-friends"),
    booked("es-ff-manana-viernes", "es",
           ("Quiero barba con Rafael el viernes por la mañana, a las 10", "sí"),
           "barba", "bruno", local(FRI, time(10)), category="false-friends"),
    booked("es-ff-no-se-si", "es",
           ("Quiero manicura con Marina el jueves a las 14", "no sé si llego… sí, confirmo"),
           "manicure", "carla", local(THU, time(14)), category="false-friends"),
]  # fmt: skip

# Days and times in other words: relative days, a date with its month, noon, "half past",
# "da tarde" / "de la tarde". Blind batch of 2026-12-06 (session 37), written and scored
# before any fix.
CASES += [
    booked("pt-when-daqui-a-3-dias", "pt", ("barba com o Rafael daqui a 3 dias às 10h", "sim"),
           "barba", "bruno", local(THU, time(10)), category="when-words"),
    booked("en-when-in-two-days", "en", ("Beard trim with Rafael in two days at 11am", "yes"),
           "barba", "bruno", local(WED, time(11)), category="when-words"),
    booked("es-when-pasado-manana", "es", ("Barba con Rafael pasado mañana a las 9", "sí"),
           "barba", "bruno", local(WED, time(9)), category="when-words"),
    booked("pt-when-meio-dia", "pt", ("Quero barba com o Rafael dia 4 ao meio-dia", "sim"),
           "barba", "bruno", local(FRI, time(12)), category="when-words"),
    booked("en-when-noon", "en", ("Can I get a beard trim with Rafael Friday at noon?", "yes"),
           "barba", "bruno", local(FRI, time(12)), category="when-words"),
    booked("es-when-mediodia", "es", ("Barba con Rafael el viernes a mediodía", "sí"),
           "barba", "bruno", local(FRI, time(12)), category="when-words"),
    booked("pt-when-3-da-tarde", "pt", ("Marca barba com o Rafael quinta-feira às 3 da tarde",
           "sim"), "barba", "bruno", local(THU, time(15)), category="when-words"),
    booked("en-when-half-past-two", "en",
           ("Beard trim with Rafael on Thursday at half past two in the afternoon", "yes"),
           "barba", "bruno", local(THU, time(14, 30)), category="when-words"),
    booked("es-when-cuatro-y-media", "es",
           ("Barba con Rafael el jueves a las cuatro y media de la tarde", "sí"),
           "barba", "bruno", local(THU, time(16, 30)), category="when-words"),
    booked("pt-when-nove-e-meia", "pt", ("Quero barba com o Rafael sábado às nove e meia", "sim"),
           "barba", "bruno", local(SAT, time(9, 30)), category="when-words"),
    booked("en-when-the-4th", "en", ("Book a beard trim with Rafael on the 4th at 5pm", "yes"),
           "barba", "bruno", local(FRI, time(17)), category="when-words"),
    booked("es-when-3-de-diciembre", "es",
           ("Quiero barba con Rafael el 3 de diciembre a las 11", "sí"),
           "barba", "bruno", local(THU, time(11)), category="when-words"),
]  # fmt: skip

# A time chosen from the listed free times, in the customer's words ("o das 14h", "the first
# one", "el de las 16"). Blind batch of 2026-12-06 (session 37), written and scored before any
# fix.
CASES += [
    booked("pt-pick-o-das-14h", "pt", ("Quais horários de barba amanhã?", "o das 14h", "sim"),
           "barba", "bruno", local(TUE, time(14)), tools=(CHECK, BOOK, BOOK), category="pick"),
    booked("pt-pick-o-primeiro", "pt", ("Quais horários de barba amanhã?", "pode ser o primeiro",
           "sim"), "barba", "bruno", local(TUE, time(9)), tools=(CHECK, BOOK, BOOK),
           category="pick"),
    booked("en-pick-the-3pm-one", "en", ("What times does Rafael have tomorrow for a beard trim?",
           "the 3pm one", "yes"), "barba", "bruno", local(TUE, time(15)),
           tools=(CHECK, BOOK, BOOK), category="pick"),
    booked("en-pick-first-one", "en", ("Any beard trim times tomorrow?", "I'll take the first one",
           "yes"), "barba", "bruno", local(TUE, time(9)), tools=(CHECK, BOOK, BOOK),
           category="pick"),
    booked("es-pick-el-de-las-16", "es", ("¿Qué horarios hay para barba mañana?", "el de las 16",
           "sí"), "barba", "bruno", local(TUE, time(16)), tools=(CHECK, BOOK, BOOK),
           category="pick"),
    booked("es-pick-el-primero", "es", ("¿Qué horarios hay para barba mañana?", "el primero",
           "sí"), "barba", "bruno", local(TUE, time(9)), tools=(CHECK, BOOK, BOOK),
           category="pick"),
    booked("pt-pick-quero-as-11", "pt", ("Tem horário pra barba quinta?", "quero às 11", "sim"),
           "barba", "bruno", local(THU, time(11)), tools=(CHECK, BOOK, BOOK), category="pick"),
    booked("en-pick-works", "en", ("When is Rafael free on Friday?", "2:30pm works", "yes"),
           "barba", "bruno", local(FRI, time(14, 30)), tools=(CHECK, BOOK, BOOK),
           category="pick"),
    booked("es-pick-me-va-bien", "es", ("¿Cuándo tiene libre Rafael el viernes?",
           "a las 10 me va bien", "sí"), "barba", "bruno", local(FRI, time(10)),
           tools=(CHECK, BOOK, BOOK), category="pick"),
    booked("pt-pick-10h30-pode-ser", "pt", ("horários de barba amanhã de manhã?",
           "10h30 pode ser", "sim"), "barba", "bruno", local(TUE, time(10, 30)),
           tools=(CHECK, BOOK, BOOK), category="pick"),
]  # fmt: skip

# Cancelling or moving an appointment in other words, in the three languages (a cancellation
# without "cancel", a move with "push back", "adia", "me cambias"). Blind batch of 2026-12-06
# (session 37), written and scored before any fix.
CASES += [
    changed("pt-other-nao-vou-conseguir", "pt", ("não vou conseguir ir no corte de quinta",
            "sim"), "cancelled", "corte", (CUT_THURSDAY, BEARD_FRIDAY)),
    changed("en-other-wont-make-it", "en", ("I won't make it to Thursday's haircut, please "
            "cancel it", "yes"), "cancelled", "corte", (CUT_THURSDAY, BEARD_FRIDAY)),
    changed("es-other-no-podre-ir", "es", ("no podré ir a mi corte del jueves", "sí"),
            "cancelled", "corte", (CUT_THURSDAY, BEARD_FRIDAY)),
    changed("pt-other-adia", "pt", ("adia minha barba de sexta pra sábado às 10h", "sim"),
            "rescheduled", "barba", (CUT_THURSDAY, BEARD_FRIDAY), start=local(SAT, time(10))),
    changed("en-other-push-back", "en", ("push my beard trim back to Saturday 10am", "yes"),
            "rescheduled", "barba", (CUT_THURSDAY, BEARD_FRIDAY), start=local(SAT, time(10))),
    changed("es-other-me-cambias", "es", ("¿me cambias la barba del viernes al sábado a las 10?",
            "sí"), "rescheduled", "barba", (CUT_THURSDAY, BEARD_FRIDAY),
            start=local(SAT, time(10))),
    changed("pt-other-desmarca-a-barba", "pt", ("desmarca a barba", "sim"), "cancelled",
            "barba", (CUT_THURSDAY, BEARD_FRIDAY)),
    changed("es-other-anula", "es", ("anula mi cita de barba", "sí"), "cancelled", "barba",
            (CUT_THURSDAY, BEARD_FRIDAY)),
    changed("en-other-scrap", "en", ("scrap my beard appointment", "yes"), "cancelled", "barba",
            (CUT_THURSDAY, BEARD_FRIDAY)),
    changed("es-other-ya-no-necesito", "es", ("ya no necesito el corte del jueves", "sí"),
            "cancelled", "corte", (CUT_THURSDAY, BEARD_FRIDAY)),
]  # fmt: skip

# Questions in other words: a price, a duration, who does a service, one's own appointments,
# and asking for a person. Blind batch of 2026-12-06 (session 37), written and scored before
# any fix.
CASES += [
    info("pt-ask-preco-da-barba", "pt", ("qto tá a barba?",), ("40",), ("list_services",),
         category="questions"),
    info("en-ask-how-much-nails", "en", ("how much do you charge for nails?",), ("35",),
         ("list_services",), category="questions"),
    info("es-ask-cuanto-sale-corte", "es", ("¿cuánto sale el corte?",), ("80",),
         ("list_services",), category="questions"),
    info("pt-ask-quanto-tempo", "pt", ("quanto tempo demora a hidratação?",), ("30",),
         ("list_services",), category="questions"),
    info("en-ask-how-long", "en", ("How long does the haircut take?",), ("60",),
         ("list_services",), category="questions"),
    info("es-ask-quien-hace-unas", "es", ("¿quién hace las uñas?",), ("Marina",),
         ("list_professionals",), category="questions"),
    info("pt-ask-tenho-algo-marcado", "pt", ("tenho algo marcado essa semana?",),
         ("Corte e escova",), (LIST_MINE,), category="questions", existing=(CUT_THURSDAY,)),
    info("en-ask-whats-booked", "en", ("what have I got coming up?",), ("Corte e escova",),
         (LIST_MINE,), category="questions", existing=(CUT_THURSDAY,)),
    info("es-ask-mis-citas", "es", ("¿tengo alguna cita reservada?",), ("Corte e escova",),
         (LIST_MINE,), category="questions", existing=(CUT_THURSDAY,)),
    handoff("pt-ask-falar-com-o-dono", "pt", ("posso falar com o dono do salão?",)),
    handoff("en-ask-someone-from-staff", "en", ("can someone from the staff text me back?",)),
    handoff("es-ask-hablar-con-alguien", "es", ("necesito hablar con alguien del salón",)),
]  # fmt: skip

# A correction with the new value, in other words, in the three languages; and a booking that
# names only the professional (who does one service). Blind batch of 2026-12-06 (session 37),
# written and scored before any fix.
CASES += [
    booked("es-fix-mejor-a-las-12", "es", ("Barba con Rafael mañana a las 10",
           "mejor a las 12", "sí"), "barba", "bruno", local(TUE, time(12)),
           tools=(BOOK, BOOK, BOOK), category="corrections-2"),
    booked("es-fix-el-jueves-mejor", "es", ("Manicura con Marina mañana a las 9",
           "¿y el jueves a la misma hora?", "sí"), "manicure", "carla", local(THU, time(9)),
           tools=(BOOK, BOOK, BOOK), category="corrections-2"),
    booked("pt-fix-troca-pra-sexta", "pt", ("Barba com o Rafael amanhã às 10h",
           "troca pra sexta no mesmo horário", "sim"), "barba", "bruno", local(FRI, time(10)),
           tools=(BOOK, BOOK, BOOK), category="corrections-2"),
    booked("en-fix-same-time-thursday", "en", ("Beard trim with Rafael tomorrow at 10am",
           "same time on Thursday instead", "yes"), "barba", "bruno", local(THU, time(10)),
           tools=(BOOK, BOOK, BOOK), category="corrections-2"),
    booked("pt-fix-uma-hora-depois", "pt", ("Barba com o Rafael amanhã às 10h",
           "pode ser uma hora mais tarde?", "sim"), "barba", "bruno", local(TUE, time(11)),
           tools=(BOOK, BOOK, BOOK), category="corrections-2"),
    booked("en-fix-half-hour-earlier", "en", ("Beard trim with Rafael tomorrow at 10am",
           "could it be half an hour earlier?", "yes"), "barba", "bruno",
           local(TUE, time(9, 30)), tools=(BOOK, BOOK, BOOK), category="corrections-2"),
    booked("pt-only-pro-rafael", "pt", ("quero marcar com o Rafael amanhã às 15h", "sim"),
           "barba", "bruno", local(TUE, time(15)), category="corrections-2"),
    booked("en-only-pro-marina", "en", ("Can I see Marina on Thursday at 2pm?", "yes"),
           "manicure", "carla", local(THU, time(14)), category="corrections-2"),
    booked("es-only-pro-rafael", "es", ("quiero una cita con Rafael el viernes a las 9", "sí"),
           "barba", "bruno", local(FRI, time(9)), category="corrections-2"),
    booked("es-fix-con-paulo", "es", ("Hidratación con Júlia mañana a las 15",
           "mejor con Paulo", "sí"), "hidratacao", "paulo", local(TUE, time(15)),
           tools=(BOOK, BOOK, BOOK), category="corrections-2"),
]  # fmt: skip

# Days beyond this week (a date with its month, "next Monday", "a week from today") and any
# professional in Spanish and English. Blind batch of 2026-12-06 (session 37), written and
# scored before any fix.
DEC_7, DEC_10 = date(2026, 12, 7), date(2026, 12, 10)
CASES += [
    booked("pt-far-dia-10", "pt", ("dia 10 às 14h barba com o Rafael", "sim"), "barba", "bruno",
           local(DEC_10, time(14)), category="far-days"),
    booked("en-far-december-10th", "en", ("beard trim with Rafael on December 10th at 2pm",
           "yes"), "barba", "bruno", local(DEC_10, time(14)), category="far-days"),
    booked("es-far-10-de-diciembre", "es", ("barba con Rafael el 10 de diciembre a las 14", "sí"),
           "barba", "bruno", local(DEC_10, time(14)), category="far-days"),
    booked("pt-far-proxima-segunda", "pt", ("próxima segunda às 9h, barba com o Rafael", "sim"),
           "barba", "bruno", local(DEC_7, time(9)), category="far-days"),
    booked("en-far-next-monday", "en", ("next Monday 9am beard trim with Rafael", "yes"),
           "barba", "bruno", local(DEC_7, time(9)), category="far-days"),
    booked("es-far-lunes-que-viene", "es", ("el lunes que viene a las 9, barba con Rafael", "sí"),
           "barba", "bruno", local(DEC_7, time(9)), category="far-days"),
    booked("pt-far-10-barra-12", "pt", ("10/12 às 11h barba com o Rafael", "sim"), "barba",
           "bruno", local(DEC_10, time(11)), category="far-days"),
    booked("en-far-a-week-from-today", "en", ("a week from today at 10am, beard trim with Rafael",
           "yes"), "barba", "bruno", local(DEC_7, time(10)), category="far-days"),
    team("es-any-cualquiera", "es", ("hidratación el viernes a las 16 con cualquiera", "sí"),
         "ana", local(FRI, time(16))),
    team("es-any-me-da-igual", "es", ("hidratación el sábado a las 14, me da igual quién", "sí"),
         "ana", local(SAT, time(14))),
    team("en-any-whoever", "en", ("hair treatment Friday 4pm, whoever is free", "yes"), "ana",
         local(FRI, time(16))),
]  # fmt: skip

# Chat spelling in English and Spanish (abbreviations, dropped letters, "w/", "pa", "hs").
# Blind batch of 2026-12-06 (session 37), written and scored before any fix.
CASES += [
    booked("en-chat-wanna-tmrw", "en", ("wanna book a beard trim tmrw 10am", "yes"), "barba",
           "bruno", local(TUE, time(10)), category="chat-spelling"),
    booked("en-chat-thurs", "en", ("u guys free thurs 2pm for nails w/ marina?", "yep"),
           "manicure", "carla", local(THU, time(14)), category="chat-spelling"),
    booked("en-chat-pls-fri", "en", ("pls book haircut w/ julia fri 11am", "ok"), "corte", "ana",
           local(FRI, time(11)), category="chat-spelling"),
    booked("en-chat-sat-9", "en", ("beard trim sat 9am plz", "sure"), "barba", "bruno",
           local(SAT, time(9)), category="chat-spelling"),
    booked("es-chat-kiero", "es", ("kiero reservar barba mañana a las 10", "si"), "barba",
           "bruno", local(TUE, time(10)), category="chat-spelling"),
    booked("es-chat-pa-manicura", "es", ("hay hueco pa manicura el jueves a las 14?", "dale"),
           "manicure", "carla", local(THU, time(14)), category="chat-spelling"),
    booked("es-chat-11hs", "es", ("porfa barba el viernes 11hs", "va"), "barba", "bruno",
           local(FRI, time(11)), category="chat-spelling"),
    booked("es-chat-sabado-sin-tilde", "es", ("corte con julia el sabado a las 11", "ok"),
           "corte", "ana", local(SAT, time(11)), category="chat-spelling"),
    booked("pt-chat-qui-14h", "pt", ("qro marcar unha c a marina qui 14h", "s"), "manicure",
           "carla", local(THU, time(14)), category="chat-spelling"),
    booked("pt-chat-sab-9h", "pt", ("barba sab 9h pfv", "ss"), "barba", "bruno",
           local(SAT, time(9)), category="chat-spelling"),
]  # fmt: skip

# Moving or cancelling an appointment, second round (other words again), and FAQ questions in
# other words. Blind batch of 2026-12-06 (session 37), written and scored before any fix.
CASES += [
    changed("pt-other2-consegue-passar", "pt", ("consegue passar meu corte de quinta pra sexta "
            "às 10h?", "sim"), "rescheduled", "corte", (CUT_THURSDAY, BEARD_FRIDAY),
            start=local(FRI, time(10))),
    changed("en-other2-something-came-up", "en", ("something came up, can we move Thursday's "
            "haircut to Friday at 10?", "yes"), "rescheduled", "corte",
            (CUT_THURSDAY, BEARD_FRIDAY), start=local(FRI, time(10))),
    changed("es-other2-surgio-algo", "es", ("surgió algo, ¿podemos mover el corte del jueves al "
            "viernes a las 10?", "sí"), "rescheduled", "corte", (CUT_THURSDAY, BEARD_FRIDAY),
            start=local(FRI, time(10))),
    changed("pt-other2-nao-vou-poder-quinta", "pt", ("preciso desmarcar, não vou poder ir "
            "quinta", "sim"), "cancelled", "corte", (CUT_THURSDAY, BEARD_FRIDAY)),
    changed("en-other2-remove", "en", ("please remove my Friday beard appointment", "yes"),
            "cancelled", "barba", (CUT_THURSDAY, BEARD_FRIDAY)),
    changed("es-other2-borrame", "es", ("bórrame la cita del viernes", "sí"), "cancelled",
            "barba", (CUT_THURSDAY, BEARD_FRIDAY)),
    changed("en-other2-thursday-doesnt-work", "en", ("I need to reschedule. Thursday doesn't "
            "work anymore, Saturday 10am?", "yes"), "rescheduled", "corte",
            (CUT_THURSDAY,), start=local(SAT, time(10))),
    faq("pt-faq2-debito", "pt", ("aceita cartão de débito?",), "payment"),
    faq("en-faq2-park-nearby", "en", ("is there somewhere to park nearby?",), "parking"),
    faq("es-faq2-tarjeta", "es", ("¿se puede pagar con tarjeta?",), "payment"),
    faq("es-faq2-ubicados", "es", ("¿dónde están ubicados?",), "address"),
    faq("pt-faq2-endereco-vcs", "pt", ("qual o endereço de vcs?",), "address"),
]  # fmt: skip

# A task told over several messages, and follow-ups that lean on the message before ("e na
# quinta?", "the first one", "with Júlia", "book her"). Blind batch of 2026-12-06 (session 37),
# written and scored before any fix.
CASES += [
    info("pt-follow-e-na-quinta", "pt", ("Quais horários de barba amanhã?", "e na quinta?"),
         ("03/12",), (CHECK, CHECK), category="follow-ups"),
    info("en-follow-what-about-thursday", "en", ("What times for a beard trim tomorrow?",
         "what about Thursday?"), ("2026-12-03",), (CHECK, CHECK), category="follow-ups"),
    info("es-follow-y-el-jueves", "es", ("¿Qué horarios hay para barba mañana?", "¿y el jueves?"),
         ("2026-12-03",), (CHECK, CHECK), category="follow-ups"),
    booked("pt-follow-o-de-barba", "pt", ("Quais serviços vocês têm?",
           "quero o de barba amanhã às 10h", "sim"), "barba", "bruno", local(TUE, time(10)),
           category="follow-ups"),
    booked("en-follow-book-her", "en", ("Who does nails?", "book her on Thursday at 2pm", "yes"),
           "manicure", "carla", local(THU, time(14)), category="follow-ups"),
    booked("pt-follow-in-pieces", "pt", ("Quero marcar barba", "amanhã", "10h", "sim"), "barba",
           "bruno", local(TUE, time(10)), category="follow-ups"),
    booked("en-follow-in-pieces", "en", ("I want a haircut", "with Júlia", "Friday", "11am",
           "yes"), "corte", "ana", local(FRI, time(11)), category="follow-ups"),
    booked("es-follow-in-pieces", "es", ("quiero manicura", "el jueves", "a las 14", "sí"),
           "manicure", "carla", local(THU, time(14)), category="follow-ups"),
    booked("pt-follow-price-then-yes", "pt", ("Quero barba amanhã às 10h", "quanto custa?",
           "ok, pode marcar"), "barba", "bruno", local(TUE, time(10)), category="follow-ups"),
    booked("es-follow-price-then-yes", "es", ("Barba con Rafael mañana a las 10",
           "¿cuánto cuesta?", "vale, resérvala"), "barba", "bruno", local(TUE, time(10)),
           category="follow-ups"),
]  # fmt: skip

# Questions in other words, second round: a service offered or not, a price, a duration, who,
# Sunday opening. Blind batch of 2026-12-06 (session 37), written and scored before any fix.
CASES += [
    info("pt-ask2-sobrancelha", "pt", ("vocês fazem sobrancelha?",), ("Barba na navalha",),
         (), category="questions-2"),
    info("en-ask2-beards", "en", ("do you do beards?",), ("Barba na navalha", "40"), (),
         category="questions-2"),
    info("es-ask2-tinte", "es", ("¿hacen tinte?",), ("Corte e escova",), (),
         category="questions-2"),
    info("pt-ask2-valor-corte", "pt", ("qual o valor do corte feminino?",), ("80",), (),
         category="questions-2"),
    info("en-ask2-price-treatment", "en", ("what's the price for a hair treatment?",), ("60",),
         (), category="questions-2"),
    info("es-ask2-cuanto-dura", "es", ("¿cuánto dura la manicura?",), ("45",), (),
         category="questions-2"),
    info("pt-ask2-quem-corta", "pt", ("quem corta cabelo aí?",), ("Júlia",), (),
         category="questions-2"),
    info("en-ask2-barber", "en", ("who's the barber?",), ("Rafael",), (),
         category="questions-2"),
    info("es-ask2-profesionales", "es", ("¿qué profesionales tienen?",), ("Júlia", "Rafael"),
         (), category="questions-2"),
    faq("pt-ask2-domingos", "pt", ("vocês atendem aos domingos?",), "hours"),
    faq("en-ask2-sundays", "en", ("are you open on Sundays?",), "hours"),
    faq("es-ask2-domingos", "es", ("¿abren los domingos?",), "hours"),
]  # fmt: skip

# An answer word with a change asked for ("pode, mas quero mudar o dia", "yes, but a different
# day"): the proposal is not what the customer wants, so the next "yes" books nothing unless a
# new proposal was made; with the new value said, the new proposal is booked. Blind batch of
# 2026-12-06 (session 37), written and scored before any fix.
CASES += [
    nothing("pt-yes-but-change-dia", "pt", ("Barba com o Rafael amanhã às 10h",
            "pode, mas quero mudar o dia", "sim"), (BOOK,), "yes-but-change"),
    nothing("en-yes-but-change-time", "en", ("Beard trim with Rafael tomorrow at 10am",
            "ok but I want to change the time", "yes"), (BOOK,), "yes-but-change"),
    nothing("es-yes-but-cambiar-hora", "es", ("Barba con Rafael mañana a las 10",
            "vale, pero quiero cambiar la hora", "sí"), (BOOK,), "yes-but-change"),
    nothing("pt-yes-but-outro-horario", "pt", ("Manicure com a Marina quinta às 14h",
            "sim, mas em outro horário", "sim"), (BOOK,), "yes-but-change"),
    nothing("en-yes-but-different-day", "en", ("Nails with Marina Thursday 2pm",
            "yes, but a different day", "yes"), (BOOK,), "yes-but-change"),
    nothing("es-yes-but-otro-dia", "es", ("Manicura con Marina el jueves a las 14",
            "sí, pero otro día", "sí"), (BOOK,), "yes-but-change"),
    booked("pt-yes-but-muda-11h", "pt", ("Barba com o Rafael amanhã às 10h",
           "sim, mas muda pra 11h", "sim"), "barba", "bruno", local(TUE, time(11)),
           tools=(BOOK, BOOK, BOOK), category="yes-but-change"),
    booked("en-yes-but-make-it-11", "en", ("Beard trim with Rafael tomorrow at 10am",
           "yes but make it 11am", "yes"), "barba", "bruno", local(TUE, time(11)),
           tools=(BOOK, BOOK, BOOK), category="yes-but-change"),
]  # fmt: skip

# Answers to a cancellation or a move, and yes-with-a-change in other words again (keep it,
# "yes but 11am instead", "if he's free at 3pm instead", "aunque preferiría otro día").
# Blind batch of 2026-12-06 (session 37), written and scored before any fix.
CASES += [
    nothing("pt-keep-na-verdade-manter", "pt", ("cancela minha barba de sexta",
            "não, espera, na verdade quero manter", "sim"), (LIST_MINE, CANCEL), "answers-2",
            existing=(BEARD_FRIDAY,)),
    nothing("en-keep-actually-keep-it", "en", ("cancel my beard trim on Friday",
            "wait, actually keep it", "yes"), (LIST_MINE, CANCEL), "answers-2",
            existing=(BEARD_FRIDAY,)),
    nothing("es-keep-la-mantengo", "es", ("cancela mi barba del viernes",
            "mejor no, la mantengo", "sí"), (LIST_MINE, CANCEL), "answers-2",
            existing=(BEARD_FRIDAY,)),
    changed("pt-move-but-11h", "pt", ("remarca minha barba de sexta pra sábado às 10h",
            "sim, mas prefiro às 11h", "sim"), "rescheduled", "barba", (BEARD_FRIDAY,),
            start=local(SAT, time(11))),
    changed("en-move-but-11am", "en", ("move my beard trim from Friday to Saturday at 10am",
            "yes but 11am instead", "yes"), "rescheduled", "barba", (BEARD_FRIDAY,),
            start=local(SAT, time(11))),
    changed("es-move-but-11", "es", ("pasa mi barba del viernes al sábado a las 10",
            "sí, pero mejor a las 11", "sí"), "rescheduled", "barba", (BEARD_FRIDAY,),
            start=local(SAT, time(11))),
    nothing("pt-yes-other-barber", "pt", ("Barba com o Rafael amanhã às 10h",
            "sim sim, só que com outro barbeiro", "sim"), (BOOK,), "answers-2"),
    booked("en-yes-if-3pm-instead", "en", ("Beard trim with Rafael tomorrow at 10am",
           "sure, if he's free at 3pm instead", "yes"), "barba", "bruno", local(TUE, time(15)),
           tools=(BOOK, BOOK, BOOK), category="answers-2"),
    nothing("es-yes-aunque-otro-dia", "es", ("Barba con Rafael mañana a las 10",
            "sí, aunque preferiría otro día", "sí"), (BOOK,), "answers-2"),
]  # fmt: skip

# Answers that hesitate, or say yes and no at once ("sí pero no mañana"): nothing may be booked
# by the next "yes" unless a new proposal was made. Blind batch of 2026-12-06 (session 37),
# written and scored before any fix.
CASES += [
    nothing("pt-unsure-nao-sei-talvez", "pt", ("Barba com o Rafael amanhã às 10h",
            "não sei, talvez", "sim"), (BOOK,), "answers-3"),
    nothing("en-unsure-let-me-check", "en", ("Beard trim with Rafael tomorrow at 10am",
            "hmm maybe, let me check my schedule", "yes"), (BOOK,), "answers-3"),
    nothing("es-unsure-dejame-pensarlo", "es", ("Barba con Rafael mañana a las 10",
            "no sé, déjame pensarlo", "sí"), (BOOK,), "answers-3"),
    nothing("en-no-tomorrow-wont-work", "en", ("Beard trim with Rafael tomorrow at 10am",
            "no, tomorrow won't work", "yes"), (BOOK,), "answers-3"),
    nothing("es-si-pero-no-manana", "es", ("Barba con Rafael mañana a las 10",
            "sí pero no mañana", "sí"), (BOOK,), "answers-3"),
    nothing("pt-sim-mas-nao-amanha", "pt", ("Barba com o Rafael amanhã às 10h",
            "sim, mas não amanhã", "sim"), (BOOK,), "answers-3"),
    nothing("en-yes-but-not-tomorrow", "en", ("Beard trim with Rafael tomorrow at 10am",
            "yes but not tomorrow", "yes"), (BOOK,), "answers-3"),
]  # fmt: skip

# A yes in other words after a proposal ("fechado", "sounds good", "dale"): booked once. Blind
# batch of 2026-12-06 (session 38), written and scored before any fix.
CASES += [
    booked("pt-yes2-fechado", "pt", ("Barba com o Rafael amanhã às 10h", "fechado"), "barba",
           "bruno", local(TUE, time(10)), category="yes-words"),
    booked("pt-yes2-bora", "pt", ("Manicure com a Marina quinta às 14h", "bora"), "manicure",
           "carla", local(THU, time(14)), category="yes-words"),
    booked("pt-yes2-pode-marcar", "pt", ("Corte feminino com a Júlia sexta às 15h",
           "pode marcar"), "corte", "ana", local(FRI, time(15)), category="yes-words"),
    booked("pt-yes2-beleza-confirma", "pt", ("Barba com o Rafael sábado às 9h",
           "beleza, confirma"), "barba", "bruno", local(SAT, time(9)), category="yes-words"),
    booked("en-yes2-sounds-good", "en", ("Beard trim with Rafael tomorrow at 10am",
           "sounds good"), "barba", "bruno", local(TUE, time(10)), category="yes-words"),
    booked("en-yes2-perfect-go-ahead", "en", ("Nails with Marina Thursday at 2pm",
           "perfect, go ahead"), "manicure", "carla", local(THU, time(14)),
           category="yes-words"),
    booked("en-yes2-that-works", "en", ("Haircut with Júlia Friday at 3pm", "that works"),
           "corte", "ana", local(FRI, time(15)), category="yes-words"),
    booked("en-yes2-yep-book-it", "en", ("Beard trim with Rafael Saturday at 9am",
           "yep, book it"), "barba", "bruno", local(SAT, time(9)), category="yes-words"),
    booked("es-yes2-dale", "es", ("Barba con Rafael mañana a las 10", "dale"), "barba",
           "bruno", local(TUE, time(10)), category="yes-words"),
    booked("es-yes2-perfecto-reservalo", "es", ("Manicura con Marina el jueves a las 14",
           "perfecto, resérvalo"), "manicure", "carla", local(THU, time(14)),
           category="yes-words"),
    booked("es-yes2-de-acuerdo", "es", ("Corte con Júlia el viernes a las 15", "de acuerdo"),
           "corte", "ana", local(FRI, time(15)), category="yes-words"),
    booked("es-yes2-listo", "es", ("Barba con Rafael el sábado a las 9", "listo"), "barba",
           "bruno", local(SAT, time(9)), category="yes-words"),
]  # fmt: skip

# A question about the business while a proposal waits, then a yes: answered, and the same
# proposal is booked once. Blind batch of 2026-12-06 (session 38), written and scored before any
# fix.
CASES += [
    booked("pt-mid-pix", "pt", ("Barba com o Rafael amanhã às 10h", "aceita pix?", "sim"),
           "barba", "bruno", local(TUE, time(10)), category="mid-question"),
    booked("pt-mid-estacionamento", "pt", ("Manicure com a Marina quinta às 14h",
           "tem estacionamento?", "pode confirmar"), "manicure", "carla", local(THU, time(14)),
           category="mid-question"),
    booked("pt-mid-endereco", "pt", ("Corte feminino com a Júlia sexta às 15h",
           "qual o endereço mesmo?", "sim"), "corte", "ana", local(FRI, time(15)),
           category="mid-question"),
    booked("en-mid-parking", "en", ("Beard trim with Rafael tomorrow at 10am",
           "is there parking?", "yes"), "barba", "bruno", local(TUE, time(10)),
           category="mid-question"),
    booked("en-mid-cards", "en", ("Nails with Marina Thursday at 2pm", "do you take cards?",
           "yes please"), "manicure", "carla", local(THU, time(14)), category="mid-question"),
    booked("en-mid-where", "en", ("Haircut with Júlia Friday at 3pm", "where are you located?",
           "ok, confirm"), "corte", "ana", local(FRI, time(15)), category="mid-question"),
    booked("es-mid-tarjeta", "es", ("Barba con Rafael mañana a las 10", "¿aceptan tarjeta?",
           "sí"), "barba", "bruno", local(TUE, time(10)), category="mid-question"),
    booked("es-mid-donde", "es", ("Manicura con Marina el jueves a las 14",
           "¿dónde están?", "sí, confirmo"), "manicure", "carla", local(THU, time(14)),
           category="mid-question"),
    booked("es-mid-estacionamiento", "es", ("Corte con Júlia el viernes a las 15",
           "¿tienen estacionamiento?", "sí"), "corte", "ana", local(FRI, time(15)),
           category="mid-question"),
]  # fmt: skip

# Thanks and goodbyes after a booking: nothing more is written, the booking stays one. Blind
# batch of 2026-12-06 (session 38), written and scored before any fix.
CASES += [
    booked("pt-thanks-obrigada", "pt", ("Barba com o Rafael amanhã às 10h", "sim",
           "obrigada!"), "barba", "bruno", local(TUE, time(10)), category="thanks"),
    booked("pt-thanks-valeu-ate", "pt", ("Manicure com a Marina quinta às 14h", "sim",
           "valeu, até quinta"), "manicure", "carla", local(THU, time(14)), category="thanks"),
    booked("en-thanks-see-you", "en", ("Beard trim with Rafael tomorrow at 10am", "yes",
           "thanks, see you then"), "barba", "bruno", local(TUE, time(10)), category="thanks"),
    booked("en-thanks-great", "en", ("Nails with Marina Thursday at 2pm", "yes",
           "great, thank you so much"), "manicure", "carla", local(THU, time(14)),
           category="thanks"),
    booked("es-thanks-nos-vemos", "es", ("Barba con Rafael mañana a las 10", "sí",
           "gracias, nos vemos"), "barba", "bruno", local(TUE, time(10)), category="thanks"),
    booked("es-thanks-genial", "es", ("Manicura con Marina el jueves a las 14", "sí",
           "genial, muchas gracias"), "manicure", "carla", local(THU, time(14)),
           category="thanks"),
]  # fmt: skip

# Times written in other formats ("14:30", "2:30pm", "3 da tarde", "meio-dia", "a las 5 de la
# tarde"). Blind batch of 2026-12-06 (session 38), written and scored before any fix.
CASES += [
    booked("pt-fmt-14-30", "pt", ("Corte feminino com a Júlia amanhã 14:30", "sim"), "corte",
           "ana", local(TUE, time(14, 30)), category="time-formats"),
    booked("pt-fmt-3-da-tarde", "pt", ("Barba com o Rafael quinta às 3 da tarde", "sim"),
           "barba", "bruno", local(THU, time(15)), category="time-formats"),
    booked("pt-fmt-15h30", "pt", ("Manicure com a Marina sexta 15h30", "sim"), "manicure",
           "carla", local(FRI, time(15, 30)), category="time-formats"),
    booked("pt-fmt-meio-dia", "pt", ("Barba com o Rafael sábado ao meio-dia", "sim"), "barba",
           "bruno", local(SAT, time(12)), category="time-formats"),
    booked("en-fmt-2-30pm", "en", ("Haircut with Júlia tomorrow at 2:30pm", "yes"), "corte",
           "ana", local(TUE, time(14, 30)), category="time-formats"),
    booked("en-fmt-half-past-two", "en", ("Beard trim with Rafael Thursday at half past two",
           "yes"), "barba", "bruno", local(THU, time(14, 30)), category="time-formats"),
    booked("en-fmt-10-in-the-morning", "en", ("Nails with Marina Friday, 10 in the morning",
           "yes"), "manicure", "carla", local(FRI, time(10)), category="time-formats"),
    booked("es-fmt-5-de-la-tarde", "es", ("Barba con Rafael el jueves a las 5 de la tarde",
           "sí"), "barba", "bruno", local(THU, time(17)), category="time-formats"),
    booked("es-fmt-17-30", "es", ("Manicura con Marina el viernes a las 17:00", "sí"),
           "manicure", "carla", local(FRI, time(17)), category="time-formats"),
    booked("es-fmt-mediodia", "es", ("Corte con Júlia el sábado al mediodía", "sí"), "corte",
           "ana", local(SAT, time(12)), category="time-formats"),
]  # fmt: skip

# One of two appointments, named by its day, time or service: cancelled or moved, the other
# kept. Blind batch of 2026-12-06 (session 38), written and scored before any fix.
_BOTH = (CUT_THURSDAY, BEARD_FRIDAY)
CASES += [
    changed("pt-which-o-de-sexta", "pt", ("cancela o de sexta", "sim"), "cancelled", "barba",
            _BOTH),
    changed("pt-which-o-das-10", "pt", ("quero desmarcar o das 10h", "sim"), "cancelled",
            "corte", _BOTH),
    changed("en-which-thursday-one", "en", ("move the Thursday one to Saturday at 10am",
            "yes"), "rescheduled", "corte", _BOTH, start=local(SAT, time(10))),
    changed("en-which-the-haircut", "en", ("please cancel the haircut", "yes"), "cancelled",
            "corte", _BOTH),
    changed("es-which-la-de-las-11", "es", ("cancela la de las 11", "sí"), "cancelled",
            "barba", _BOTH),
    changed("es-which-barba-al-sabado", "es", ("cambia la barba al sábado a las 11", "sí"),
            "rescheduled", "barba", _BOTH, start=local(SAT, time(11))),
]  # fmt: skip

# Asking for a person in other words, in the three languages: handed off in code. Blind batch of
# 2026-12-06 (session 38), written and scored before any fix.
CASES += [
    handoff("pt-person2-alguem-de-verdade", "pt", ("posso falar com alguém de verdade?",)),
    handoff("pt-person2-me-passa-atendente", "pt", ("me passa pra uma atendente por favor",)),
    handoff("en-person2-real-person", "en", ("can I talk to a real person?",)),
    handoff("en-person2-speak-to-someone", "en", ("I'd like to speak to someone from the salon",)),
    handoff("es-person2-pasame-con-alguien", "es", ("¿me pasas con alguien del salón?",)),
    handoff("es-person2-hablar-persona", "es", ("quiero hablar con una persona",)),
]  # fmt: skip

# Questions about one's own appointment (when, with whom): the list, with its time and
# professional. Blind batch of 2026-12-06 (session 38), written and scored before any fix.
CASES += [
    info("pt-mine2-que-horas", "pt", ("que horas é meu horário?",), ("10:00", "Júlia"),
         (LIST_MINE,), category="own-questions", existing=(CUT_THURSDAY,)),
    info("pt-mine2-com-quem", "pt", ("com quem ficou minha barba?",), ("Rafael",),
         (LIST_MINE,), category="own-questions", existing=(BEARD_FRIDAY,)),
    info("en-mine2-when-is", "en", ("when is my appointment?",), ("10:00", "Júlia"),
         (LIST_MINE,), category="own-questions", existing=(CUT_THURSDAY,)),
    info("en-mine2-do-i-have", "en", ("do I have anything booked this week?",),
         ("Rafael",), (LIST_MINE,), category="own-questions", existing=(BEARD_FRIDAY,)),
    info("es-mine2-a-que-hora", "es", ("¿a qué hora es mi cita?",), ("10:00", "Júlia"),
         (LIST_MINE,), category="own-questions", existing=(CUT_THURSDAY,)),
    info("es-mine2-con-quien", "es", ("¿con quién tengo la cita del viernes?",), ("Rafael",),
         (LIST_MINE,), category="own-questions", existing=(BEARD_FRIDAY,)),
]  # fmt: skip

# Names misspelled or without accents (professional, service): booked as meant. Blind batch of
# 2026-12-06 (session 38), written and scored before any fix.
CASES += [
    booked("pt-typo-rafel", "pt", ("barba com o Rafel amanhã às 10h", "sim"), "barba",
           "bruno", local(TUE, time(10)), category="name-typos"),
    booked("pt-typo-julia-sem-acento", "pt", ("corte feminino com a Julia quinta às 11h",
           "sim"), "corte", "ana", local(THU, time(11)), category="name-typos"),
    booked("en-typo-marinna", "en", ("nails with Marinna on Friday at 2pm", "yes"),
           "manicure", "carla", local(FRI, time(14)), category="name-typos"),
    booked("en-typo-hidration", "en", ("hidration treatment with Paulo Thursday at 3pm",
           "yes"), "hidratacao", "paulo", local(THU, time(15)), category="name-typos"),
    booked("es-typo-manicur", "es", ("manicur con Marina el sábado a las 10", "sí"),
           "manicure", "carla", local(SAT, time(10)), category="name-typos"),
    booked("es-typo-rafa", "es", ("barba con Rafa mañana a las 16", "sí"), "barba", "bruno",
           local(TUE, time(16)), category="name-typos"),
]  # fmt: skip

# Cancelling or moving with no appointment to change: nothing is written, the reply says so.
# Blind batch of 2026-12-06 (session 38), written and scored before any fix.
CASES += [
    nothing("pt-none2-cancelar", "pt", ("quero cancelar meu horário de amanhã",), (LIST_MINE,),
            "no-appointment"),
    nothing("en-none2-reschedule", "en", ("can I reschedule my appointment to Friday?",),
            (LIST_MINE,), "no-appointment"),
    nothing("es-none2-cancelar", "es", ("cancela mi cita del jueves por favor",), (LIST_MINE,),
            "no-appointment"),
]  # fmt: skip

# Two services in one message, in English and Spanish: both booked after one yes. Blind batch
# of 2026-12-06 (session 38), written and scored before any fix.
CASES += [
    _case("en-two2-haircut-and-nails", ("haircut with Júlia and nails with Marina on Friday "
          "at 10am", "yes"), Expected(category="two-services", language="en", outcome="booked",
          tools=(BOOK, BOOK), service="corte", professional="ana", start=local(FRI, time(10)),
          also=(("manicure", "carla", local(FRI, time(11))),))),
    _case("es-two2-corte-y-barba", ("corte con Júlia y barba con Rafael el jueves a las 14",
          "sí"), Expected(category="two-services", language="es", outcome="booked",
          tools=(BOOK, BOOK), service="corte", professional="ana", start=local(THU, time(14)),
          also=(("barba", "bruno", local(THU, time(15))),))),
]  # fmt: skip

# Third round (session 38, 2026-12-06), written and scored before any fix: a move to the same
# time on another day; a closed day, then a day that is open (the refused attempt is a call);
# the service swapped mid-flow; a correction by negation ("não é corte, é barba"). Its three
# language-switch cases were mis-specified (the eval checks every reply against one language)
# and are left out; the product answered in the new language (eval/baselines).
CASES += [
    changed("pt-same-time-sexta", "pt", ("passa meu corte pra sexta no mesmo horário", "sim"),
            "rescheduled", "corte", (CUT_THURSDAY,), start=local(FRI, time(10))),
    changed("en-same-time-saturday", "en", ("move my haircut to Saturday, same time", "yes"),
            "rescheduled", "corte", (CUT_THURSDAY,), start=local(SAT, time(10))),
    changed("es-same-time-viernes", "es", ("cambia mi corte al viernes a la misma hora", "sí"),
            "rescheduled", "corte", (CUT_THURSDAY,), start=local(FRI, time(10))),
    booked("pt-closed-then-sabado", "pt", ("barba com o Rafael domingo às 10h",
           "então sábado às 10h", "sim"), "barba", "bruno", local(SAT, time(10)),
           tools=(BOOK, BOOK, BOOK), category="closed-then-open"),
    booked("en-closed-then-saturday", "en", ("beard trim with Rafael on Sunday at 10am",
           "ok, Saturday at 10am then", "yes"), "barba", "bruno", local(SAT, time(10)),
           tools=(BOOK, BOOK, BOOK), category="closed-then-open"),
    booked("es-closed-then-sabado", "es", ("barba con Rafael el domingo a las 10",
           "entonces el sábado a las 10", "sí"), "barba", "bruno", local(SAT, time(10)),
           tools=(BOOK, BOOK, BOOK), category="closed-then-open"),
    booked("pt-swap-hidratacao", "pt", ("corte feminino com a Júlia quinta às 14h",
           "na verdade quero hidratação em vez de corte", "sim"), "hidratacao", "ana",
           local(THU, time(14)), tools=(BOOK, BOOK, BOOK), category="service-swap"),
    booked("en-swap-treatment", "en", ("haircut with Júlia Thursday at 2pm",
           "actually make it a hair treatment instead of the haircut", "yes"), "hidratacao",
           "ana", local(THU, time(14)), tools=(BOOK, BOOK, BOOK), category="service-swap"),
    booked("es-swap-hidratacion", "es", ("corte con Júlia el jueves a las 14",
           "mejor una hidratación en vez del corte", "sí"), "hidratacao", "ana",
           local(THU, time(14)), tools=(BOOK, BOOK, BOOK), category="service-swap"),
    booked("pt-neg-nao-e-corte", "pt", ("quero marcar corte amanhã às 10h",
           "não é corte, é barba com o Rafael", "sim"), "barba", "bruno", local(TUE, time(10)),
           tools=(BOOK, BOOK, BOOK), category="negated-correction"),
    booked("en-neg-not-haircut", "en", ("I want to book a haircut tomorrow at 10am",
           "not a haircut, a beard trim with Rafael", "yes"), "barba", "bruno",
           local(TUE, time(10)), tools=(BOOK, BOOK, BOOK), category="negated-correction"),
    booked("es-neg-no-es-corte", "es", ("quiero reservar un corte mañana a las 10",
           "no es corte, es barba con Rafael", "sí"), "barba", "bruno", local(TUE, time(10)),
           tools=(BOOK, BOOK, BOOK), category="negated-correction"),
]  # fmt: skip

# A booking told step by step over several messages, in the three languages (service, then
# day, part of day, time, yes). Blind batch of 2026-12-06 (session 38, fourth round), written and
# scored before any fix.
CASES += [
    booked("en-steps-beard", "en", ("hi, I need a beard trim", "tomorrow", "in the morning",
           "9am", "yes"), "barba", "bruno", local(TUE, time(9)), category="step-by-step"),
    booked("es-steps-manicura", "es", ("hola, quiero una manicura", "el jueves",
           "por la tarde", "a las 15", "sí"), "manicure", "carla", local(THU, time(15)),
           category="step-by-step"),
    booked("en-steps-nails-marina", "en", ("can I get my nails done?", "Friday works",
           "with Marina", "2pm", "yes"), "manicure", "carla", local(FRI, time(14)),
           category="step-by-step"),
    booked("es-steps-corte-julia", "es", ("necesito un corte", "con Júlia",
           "el sábado a las 10", "sí"), "corte", "ana", local(SAT, time(10)),
           category="step-by-step"),
    booked("pt-steps-unha", "pt", ("queria fazer a unha", "sexta", "de tarde", "15h", "sim"),
           "manicure", "carla", local(FRI, time(15)), category="step-by-step"),
    booked("pt-steps-barba-fechado", "pt", ("oi! tem horário pra barba?", "amanhã de manhã",
           "pode ser às 10", "fechado"), "barba", "bruno", local(TUE, time(10)),
           category="step-by-step"),
    booked("es-steps-hueco-barba", "es", ("¿tienen hueco para barba?", "mañana", "a las 11",
           "vale"), "barba", "bruno", local(TUE, time(11)), category="step-by-step"),
    booked("en-steps-haircut-julia", "en", ("I'd like a haircut", "Júlia please",
           "Saturday", "10am", "yes please"), "corte", "ana", local(SAT, time(10)),
           category="step-by-step"),
]  # fmt: skip

# Answers with emoji or said at length ("👍", "✅", "ok 👌", "sim pode marcar sim, obrigada"),
# and emoji refusals ("👎", "❌"). Blind batch of 2026-12-06 (session 38, fourth round), written
# and scored before any fix.
CASES += [
    booked("pt-emoji-joinha", "pt", ("Barba com o Rafael amanhã às 10h", "👍"), "barba",
           "bruno", local(TUE, time(10)), category="emoji-answers"),
    booked("en-emoji-check", "en", ("Beard trim with Rafael tomorrow at 10am", "✅"), "barba",
           "bruno", local(TUE, time(10)), category="emoji-answers"),
    booked("es-emoji-ok-hand", "es", ("Barba con Rafael mañana a las 10", "ok 👌"), "barba",
           "bruno", local(TUE, time(10)), category="emoji-answers"),
    booked("pt-long-yes", "pt", ("Manicure com a Marina quinta às 14h",
           "sim pode marcar sim, obrigada"), "manicure", "carla", local(THU, time(14)),
           category="emoji-answers"),
    booked("en-long-yes", "en", ("Nails with Marina Thursday at 2pm",
           "yes yes please go ahead, thank you!"), "manicure", "carla", local(THU, time(14)),
           category="emoji-answers"),
    nothing("pt-emoji-no", "pt", ("Barba com o Rafael amanhã às 10h", "👎", "sim"), (BOOK,),
            "emoji-answers"),
    nothing("en-emoji-cross", "en", ("Beard trim with Rafael tomorrow at 10am", "❌", "yes"),
            (BOOK,), "emoji-answers"),
    nothing("es-emoji-no-thanks", "es", ("Barba con Rafael mañana a las 10", "no 🙅", "sí"),
            (BOOK,), "emoji-answers"),
]  # fmt: skip

# Session 39 blind batch (2026-12-06), written and scored before any fix: a yes that restates
# the proposal (the same details book, another time is a change), two business questions in
# one message, a move by an amount ("uma hora mais tarde"), a time outside the hours then one
# inside, and dates in other formats.
CASES += [
    booked("pt-restate-same", "pt", ("Barba com o Rafael amanhã às 10h", "sim, amanhã às 10h"),
           "barba", "bruno", local(TUE, time(10)), category="yes-restating"),
    booked("en-restate-same", "en", ("Beard trim with Rafael tomorrow at 10am",
           "yes, tomorrow at 10"), "barba", "bruno", local(TUE, time(10)),
           category="yes-restating"),
    booked("es-restate-same", "es", ("Barba con Rafael mañana a las 10", "sí, mañana a las 10"),
           "barba", "bruno", local(TUE, time(10)), category="yes-restating"),
    booked("pt-restate-other-time", "pt", ("Barba com o Rafael amanhã às 10h", "sim, às 11h",
           "sim"), "barba", "bruno", local(TUE, time(11)), tools=(BOOK, BOOK, BOOK),
           category="yes-restating"),
    booked("en-restate-other-time", "en", ("Beard trim with Rafael tomorrow at 10am",
           "yes, 11am", "yes"), "barba", "bruno", local(TUE, time(11)),
           tools=(BOOK, BOOK, BOOK), category="yes-restating"),
    booked("es-restate-other-time", "es", ("Barba con Rafael mañana a las 10",
           "sí, a las 11", "sí"), "barba", "bruno", local(TUE, time(11)),
           tools=(BOOK, BOOK, BOOK), category="yes-restating"),
    info("pt-two-questions", "pt", ("qual o endereço e vocês aceitam pix?",),
         ("Rua dos Ipês", "Pix"), (SEARCH,), category="two-questions"),
    info("en-two-questions", "en", ("where are you and do you take cards?",),
         ("Rua dos Ipês", "card"), (SEARCH,), category="two-questions"),
    info("es-two-questions", "es", ("¿dónde están y tienen estacionamiento?",),
         ("Rua dos Ipês", "2"), (SEARCH,), category="two-questions"),
    changed("pt-move-hour-later", "pt", ("dá pra passar meu corte de quinta pra uma hora "
            "mais tarde?", "sim"), "rescheduled", "corte", (CUT_THURSDAY,),
            start=local(THU, time(11))),
    changed("en-move-hour-later", "en", ("can you push my Thursday haircut back an hour?",
            "yes"), "rescheduled", "corte", (CUT_THURSDAY,), start=local(THU, time(11))),
    changed("es-move-hour-later", "es", ("¿puedes pasar mi corte del jueves una hora más "
            "tarde?", "sí"), "rescheduled", "corte", (CUT_THURSDAY,),
            start=local(THU, time(11))),
    changed("pt-move-hour-earlier", "pt", ("pode adiantar minha barba de sexta em 1 hora?",
            "sim"), "rescheduled", "barba", (BEARD_FRIDAY,), start=local(FRI, time(10))),
    booked("pt-late-then-17", "pt", ("barba com o Rafael amanhã às 20h", "então às 17h",
           "sim"), "barba", "bruno", local(TUE, time(17)), tools=(BOOK, BOOK, BOOK),
           category="out-of-hours"),
    booked("en-late-then-5pm", "en", ("beard trim with Rafael tomorrow at 8pm",
           "5pm then", "yes"), "barba", "bruno", local(TUE, time(17)),
           tools=(BOOK, BOOK, BOOK), category="out-of-hours"),
    booked("es-late-then-17", "es", ("barba con Rafael mañana a las 21",
           "entonces a las 17", "sí"), "barba", "bruno", local(TUE, time(17)),
           tools=(BOOK, BOOK, BOOK), category="out-of-hours"),
    booked("pt-date-slash", "pt", ("Quero barba com o Rafael dia 3/12 às 10h", "sim"),
           "barba", "bruno", local(THU, time(10)), category="date-formats"),
    booked("en-date-ordinal", "en", ("Beard trim with Rafael on December 3rd at 10am",
           "yes"), "barba", "bruno", local(THU, time(10)), category="date-formats"),
    booked("es-date-month-name", "es", ("Barba con Rafael el 3 de diciembre a las 10", "sí"),
           "barba", "bruno", local(THU, time(10)), category="date-formats"),
    booked("pt-date-weekday-and-date", "pt", ("barba com o Rafael na quinta-feira, 03/12, "
           "às 10 da manhã", "sim"), "barba", "bruno", local(THU, time(10)),
           category="date-formats"),
]  # fmt: skip

# Session 39 third blind batch (2026-12-06), written and scored before any fix: the price of
# two services, a day already gone, a time in number words, a long chatty request, and
# "cancel my appointments" with two on record (which one is asked, nothing is cancelled).
CASES += [
    info("pt-price-two", "pt", ("quanto fica corte e barba?",), ("80", "40"), (),
         category="price-two"),
    info("en-price-two", "en", ("how much for a haircut and a beard trim?",), ("80", "40"), (),
         category="price-two"),
    info("es-price-two", "es", ("¿cuánto cuestan el corte y la barba?",), ("80", "40"), (),
         category="price-two"),
    nothing("pt-past-ontem", "pt", ("barba com o Rafael ontem às 10h",), (), "past-day"),
    nothing("en-past-yesterday", "en", ("beard trim with Rafael yesterday at 10am",), (),
            "past-day"),
    nothing("es-past-ayer", "es", ("barba con Rafael ayer a las 10",), (), "past-day"),
    booked("pt-words-dez-horas", "pt", ("quero barba com o Rafael amanhã às dez horas", "sim"),
           "barba", "bruno", local(TUE, time(10)), category="number-words"),
    booked("en-words-ten", "en", ("beard trim with Rafael tomorrow at ten", "yes"), "barba",
           "bruno", local(TUE, time(10)), category="number-words"),
    booked("es-words-diez-y-media", "es", ("barba con Rafael mañana a las diez y media", "sí"),
           "barba", "bruno", local(TUE, time(10, 30)), category="number-words"),
    booked("pt-chatty", "pt", ("oi tudo bem? então, semana passada cortei o cabelo em outro "
           "lugar e não gostei muito kkk, queria fazer a barba com o Rafael amanhã às 11h se "
           "der, obrigado!", "sim"), "barba", "bruno", local(TUE, time(11)), category="chatty"),
    booked("en-chatty", "en", ("hey there! hope you're well. my brother recommended you guys, "
           "so I'd love a beard trim with Rafael tomorrow at 11am if that works, cheers",
           "yes"), "barba", "bruno", local(TUE, time(11)), category="chatty"),
    booked("es-chatty", "es", ("hola! qué tal? una amiga me habló muy bien de ustedes, "
           "quería una barba con Rafael mañana a las 11 si se puede, gracias!", "sí"),
           "barba", "bruno", local(TUE, time(11)), category="chatty"),
    nothing("pt-cancel-both-which", "pt", ("cancela meus horários",), (), "which-of-two",
            existing=(CUT_THURSDAY, BEARD_FRIDAY)),
    nothing("en-cancel-both-which", "en", ("cancel my appointments",), (), "which-of-two",
            existing=(CUT_THURSDAY, BEARD_FRIDAY)),
    nothing("es-cancel-both-which", "es", ("cancela mis citas",), (), "which-of-two",
            existing=(CUT_THURSDAY, BEARD_FRIDAY)),
]  # fmt: skip

# Session 40 blind batch (2026-12-06), written and scored before any fix: the earliest time of a
# day, a weekday of next week, booking for someone else, an indirect ask ("could Rafael fit me
# in"), today, a move to the same time next week, and a service named by what is done ("fazer as
# unhas").
MON = date(2026, 11, 30)
NEXT_WED = date(2026, 12, 9)
NEXT_THU = date(2026, 12, 10)
CASES += [
    booked("pt-earliest-mais-cedo", "pt", ("barba com o Rafael amanhã, o mais cedo possível",
           "sim"), "barba", "bruno", local(TUE, time(9)), category="earliest"),
    booked("en-earliest", "en", ("Beard trim with Rafael tomorrow, the earliest you have",
           "yes"), "barba", "bruno", local(TUE, time(9)), category="earliest"),
    booked("es-earliest-primera-hora", "es", ("barba con Rafael mañana a primera hora", "sí"),
           "barba", "bruno", local(TUE, time(9)), category="earliest"),
    booked("pt-next-week-quarta", "pt", ("barba com o Rafael na quarta da semana que vem às "
           "10h", "sim"), "barba", "bruno", local(NEXT_WED, time(10)), category="next-week-day"),
    booked("en-next-week-wednesday", "en", ("beard trim with Rafael Wednesday next week at "
           "10am", "yes"), "barba", "bruno", local(NEXT_WED, time(10)),
           category="next-week-day"),
    booked("es-next-week-miercoles", "es", ("barba con Rafael el miércoles de la semana que "
           "viene a las 10", "sí"), "barba", "bruno", local(NEXT_WED, time(10)),
           category="next-week-day"),
    booked("pt-for-husband", "pt", ("quero marcar uma barba pro meu marido amanhã às 10h com o "
           "Rafael", "sim"), "barba", "bruno", local(TUE, time(10)), category="for-someone"),
    booked("en-for-husband", "en", ("I'd like to book a beard trim for my husband tomorrow at "
           "10am with Rafael", "yes"), "barba", "bruno", local(TUE, time(10)),
           category="for-someone"),
    booked("es-for-husband", "es", ("quiero reservar una barba para mi esposo mañana a las 10 "
           "con Rafael", "sí"), "barba", "bruno", local(TUE, time(10)), category="for-someone"),
    booked("pt-indirect-sera-que", "pt", ("Será que o Rafael consegue me atender amanhã às 10 "
           "pra fazer a barba?", "sim"), "barba", "bruno", local(TUE, time(10)),
           category="indirect-ask"),
    booked("en-indirect-fit-me-in", "en", ("Could Rafael fit me in for a beard trim tomorrow "
           "at 10?", "yes"), "barba", "bruno", local(TUE, time(10)), category="indirect-ask"),
    booked("es-indirect-podria", "es", ("¿Rafael me podría atender mañana a las 10 para la "
           "barba?", "sí"), "barba", "bruno", local(TUE, time(10)), category="indirect-ask"),
    booked("pt-today-15h", "pt", ("dá pra fazer barba hoje às 15h com o Rafael?", "sim"),
           "barba", "bruno", local(MON, time(15)), category="today"),
    booked("en-today-3pm", "en", ("can Rafael do a beard trim today at 3pm?", "yes"), "barba",
           "bruno", local(MON, time(15)), category="today"),
    booked("es-today-15", "es", ("¿puede Rafael hacerme la barba hoy a las 15?", "sí"),
           "barba", "bruno", local(MON, time(15)), category="today"),
    changed("pt-move-same-time-next-week", "pt", ("passa meu corte pra mesma hora na semana "
            "que vem", "sim"), "rescheduled", "corte", (CUT_THURSDAY,),
            start=local(NEXT_THU, time(10))),
    changed("en-move-same-time-next-week", "en", ("move my haircut to the same time next "
            "week", "yes"), "rescheduled", "corte", (CUT_THURSDAY,),
            start=local(NEXT_THU, time(10))),
    changed("es-move-same-time-next-week", "es", ("pasa mi corte a la misma hora la semana "
            "que viene", "sí"), "rescheduled", "corte", (CUT_THURSDAY,),
            start=local(NEXT_THU, time(10))),
    booked("pt-doing-fazer-as-unhas", "pt", ("quero fazer as unhas com a Marina sexta às 14h",
           "sim"), "manicure", "carla", local(FRI, time(14)), category="service-doing"),
    booked("en-doing-my-nails", "en", ("can Marina do my nails Friday at 2pm?", "yes"),
           "manicure", "carla", local(FRI, time(14)), category="service-doing"),
    booked("es-doing-las-unas", "es", ("quiero hacerme las uñas con Marina el viernes a las "
           "14", "sí"), "manicure", "carla", local(FRI, time(14)), category="service-doing"),
]  # fmt: skip

# Session 40 second blind batch (2026-12-06), written and scored before any fix: a service the
# salon does not offer (nothing booked, the services it has are said), "em ponto"/"o'clock", which
# days a professional works, a move to the next day at the same time, a cancel told with its
# reason, and half past twelve in words.
_OFFERED = ("Corte e escova", "Barba na navalha", "Cuidado das unhas")


def _facts(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    facts: tuple[tuple[str, ...], ...],
    category: str,
) -> EvalCase:
    expected = Expected(category=category, language=language, outcome="info", tools=(), facts=facts)
    return _case(name, messages, expected)


CASES += [
    info("pt-not-offered-sobrancelha", "pt", ("vocês fazem design de sobrancelha?",),
         _OFFERED, (), category="not-offered"),
    info("en-not-offered-eyebrow", "en", ("do you do eyebrow waxing?",), _OFFERED, (),
         category="not-offered"),
    info("es-not-offered-cejas", "es", ("¿hacen depilación de cejas?",), _OFFERED, (),
         category="not-offered"),
    booked("pt-em-ponto", "pt", ("barba com o Rafael amanhã às 10 em ponto", "sim"), "barba",
           "bruno", local(TUE, time(10)), category="oclock"),
    booked("en-oclock", "en", ("beard trim with Rafael tomorrow at 10 o'clock", "yes"), "barba",
           "bruno", local(TUE, time(10)), category="oclock"),
    booked("es-en-punto", "es", ("barba con Rafael mañana a las 10 en punto", "sí"), "barba",
           "bruno", local(TUE, time(10)), category="oclock"),
    _facts("pt-days-rafael-works", "pt", ("que dias o Rafael trabalha?",),
           (("sábado", "sabado"),), "work-days"),
    _facts("en-days-rafael-works", "en", ("which days does Rafael work?",), (("Saturday",),),
           "work-days"),
    _facts("es-days-rafael-works", "es", ("¿qué días trabaja Rafael?",),
           (("sábado", "sabado"),), "work-days"),
    changed("pt-move-next-day", "pt", ("passa meu corte pro dia seguinte, mesmo horário",
            "sim"), "rescheduled", "corte", (CUT_THURSDAY,), start=local(FRI, time(10))),
    changed("en-move-next-day", "en", ("move my haircut to the next day, same time", "yes"),
            "rescheduled", "corte", (CUT_THURSDAY,), start=local(FRI, time(10))),
    changed("es-move-next-day", "es", ("pasa mi corte al día siguiente, a la misma hora", "sí"),
            "rescheduled", "corte", (CUT_THURSDAY,), start=local(FRI, time(10))),
    changed("pt-cancel-reason", "pt", ("não vou poder ir, vou viajar. cancela a barba de sexta "
            "por favor", "sim"), "cancelled", "barba", (BEARD_FRIDAY,)),
    changed("en-cancel-reason", "en", ("something came up and I can't make it on Friday, "
            "please cancel", "yes"), "cancelled", "barba", (BEARD_FRIDAY,)),
    changed("es-cancel-reason", "es", ("me surgió algo y no puedo ir el viernes, cancélalo por "
            "favor", "sí"), "cancelled", "barba", (BEARD_FRIDAY,)),
    booked("pt-meio-dia-e-meia", "pt", ("barba com o Rafael amanhã ao meio-dia e meia", "sim"),
           "barba", "bruno", local(TUE, time(12, 30)), category="half-past"),
    booked("en-half-past-twelve", "en", ("beard trim with Rafael tomorrow at half past twelve",
           "yes"), "barba", "bruno", local(TUE, time(12, 30)), category="half-past"),
    booked("es-doce-y-media", "es", ("barba con Rafael mañana a las doce y media", "sí"),
           "barba", "bruno", local(TUE, time(12, 30)), category="half-past"),
]  # fmt: skip

# Session 40 third blind batch (2026-12-06), written and scored before any fix: the latest time
# of a day, times between two hours, times from an hour on, a cancel in other words ("não quero
# mais"), openings asked in slang ("tem vaga", "any openings", "hay hueco"), and "fit me in".
CASES += [
    booked("pt-latest-ultimo", "pt", ("barba com o Rafael amanhã no último horário", "sim"),
           "barba", "bruno", local(TUE, time(17, 30)), category="latest"),
    booked("en-latest", "en", ("beard trim with Rafael tomorrow, the latest slot you have",
           "yes"), "barba", "bruno", local(TUE, time(17, 30)), category="latest"),
    booked("es-latest-ultima-hora", "es", ("barba con Rafael mañana a última hora", "sí"),
           "barba", "bruno", local(TUE, time(17, 30)), category="latest"),
    _facts("pt-window-entre", "pt", ("horários de barba com o Rafael amanhã entre 14h e 16h",),
           (("14:00", "14h"), ("15:30", "15h30")), "window"),
    _facts("en-window-between", "en", ("beard trim times with Rafael tomorrow between 2pm and "
           "4pm",), (("14:00", "2pm", "2:00"), ("15:30", "3:30")), "window"),
    _facts("es-window-entre", "es", ("horarios de barba con Rafael mañana entre las 14 y las "
           "16",), (("14:00",), ("15:30",)), "window"),
    _facts("pt-from-a-partir", "pt", ("quais horários de barba amanhã a partir das 15h?",),
           (("15:00", "15h"), ("17:30", "17h30")), "from-hour"),
    _facts("en-from-on", "en", ("what times for a beard trim tomorrow from 3pm on?",),
           (("15:00", "3pm", "3:00"), ("17:30", "5:30")), "from-hour"),
    _facts("es-from-a-partir", "es", ("¿qué horarios hay para barba mañana a partir de las "
           "15?",), (("15:00",), ("17:30",)), "from-hour"),
    changed("pt-cancel-nao-quero-mais", "pt", ("não quero mais a barba de sexta", "sim"),
            "cancelled", "barba", (BEARD_FRIDAY,)),
    changed("en-cancel-dont-want-anymore", "en", ("I don't want the Friday beard trim anymore",
            "yes"), "cancelled", "barba", (BEARD_FRIDAY,)),
    changed("es-cancel-ya-no-quiero", "es", ("ya no quiero la barba del viernes", "sí"),
            "cancelled", "barba", (BEARD_FRIDAY,)),
    _facts("pt-openings-tem-vaga", "pt", ("tem vaga pra barba amanhã?",), (("09:00", "9h"),),
           "slang-openings"),
    _facts("en-openings-any", "en", ("any openings for a beard trim tomorrow?",),
           (("09:00", "9am", "9:00"),), "slang-openings"),
    _facts("es-openings-hueco", "es", ("¿hay hueco para barba mañana?",), (("09:00",),),
           "slang-openings"),
    booked("pt-fit-encaixar", "pt", ("consegue me encaixar amanhã às 15h pra barba com o "
           "Rafael?", "sim"), "barba", "bruno", local(TUE, time(15)), category="fit-me-in"),
    booked("en-fit-squeeze", "en", ("can you squeeze me in tomorrow at 3pm for a beard trim "
           "with Rafael?", "yes"), "barba", "bruno", local(TUE, time(15)),
           category="fit-me-in"),
    booked("es-fit-hueco", "es", ("¿me puedes hacer un hueco mañana a las 15 para barba con "
           "Rafael?", "sí"), "barba", "bruno", local(TUE, time(15)), category="fit-me-in"),
]  # fmt: skip

# Session 40 fourth blind batch (2026-12-06), written and scored before any fix: a price asked
# by the professional's name, a move that names only the new time, a cancel naming the
# professional, "in two days", and a proposal declined for another day at the same time.
CASES += [
    _facts("pt-price-by-pro", "pt", ("quanto o Rafael cobra?",), (("40",),), "price-by-pro"),
    _facts("en-price-by-pro", "en", ("how much does Rafael charge?",), (("40",),),
           "price-by-pro"),
    _facts("es-price-by-pro", "es", ("¿cuánto cobra Rafael?",), (("40",),), "price-by-pro"),
    changed("pt-move-time-only", "pt", ("pode mudar minha barba pras 15h?", "sim"),
            "rescheduled", "barba", (BEARD_FRIDAY,), start=local(FRI, time(15))),
    changed("en-move-time-only", "en", ("can you change my beard trim to 3pm?", "yes"),
            "rescheduled", "barba", (BEARD_FRIDAY,), start=local(FRI, time(15))),
    changed("es-move-time-only", "es", ("¿puedes cambiar mi barba a las 15?", "sí"),
            "rescheduled", "barba", (BEARD_FRIDAY,), start=local(FRI, time(15))),
    changed("pt-cancel-by-pro", "pt", ("cancela meu horário com o Rafael", "sim"),
            "cancelled", "barba", (CUT_THURSDAY, BEARD_FRIDAY)),
    changed("en-cancel-by-pro", "en", ("cancel my appointment with Rafael", "yes"),
            "cancelled", "barba", (CUT_THURSDAY, BEARD_FRIDAY)),
    changed("es-cancel-by-pro", "es", ("cancela mi cita con Rafael", "sí"), "cancelled",
            "barba", (CUT_THURSDAY, BEARD_FRIDAY)),
    booked("pt-in-two-days", "pt", ("barba com o Rafael daqui a 2 dias às 10h", "sim"),
           "barba", "bruno", local(WED, time(10)), category="in-days"),
    booked("en-in-two-days", "en", ("beard trim with Rafael in two days at 10am", "yes"),
           "barba", "bruno", local(WED, time(10)), category="in-days"),
    booked("es-in-two-days", "es", ("barba con Rafael dentro de dos días a las 10", "sí"),
           "barba", "bruno", local(WED, time(10)), category="in-days"),
    booked("pt-decline-other-day", "pt", ("barba com o Rafael amanhã às 10h", "amanhã não "
           "posso, pode ser quinta no mesmo horário?", "sim"), "barba", "bruno",
           local(THU, time(10)), tools=(BOOK, BOOK, BOOK), category="decline-other-day"),
    booked("en-decline-other-day", "en", ("beard trim with Rafael tomorrow at 10am", "I can't "
           "tomorrow, how about Thursday same time?", "yes"), "barba", "bruno",
           local(THU, time(10)), tools=(BOOK, BOOK, BOOK), category="decline-other-day"),
    booked("es-decline-other-day", "es", ("barba con Rafael mañana a las 10", "mañana no "
           "puedo, ¿el jueves a la misma hora?", "sí"), "barba", "bruno", local(THU, time(10)),
           tools=(BOOK, BOOK, BOOK), category="decline-other-day"),
]  # fmt: skip

# Session 40 fifth blind batch (2026-12-06), written and scored before any fix: what the salon
# has for a kind of service, a weekday misspelled, and hours marked "hrs"/"hs".
CASES += [
    info("pt-kind-unha", "pt", ("o que vocês fazem de unha?",), ("Cuidado das unhas",), (),
         category="kind-question"),
    info("en-kind-nails", "en", ("what do you have for nails?",), ("Cuidado das unhas",), (),
         category="kind-question"),
    info("es-kind-unas", "es", ("¿qué tienen para uñas?",), ("Cuidado das unhas",), (),
         category="kind-question"),
    booked("pt-typo-qinta", "pt", ("barba com o Rafael qinta às 10h", "sim"), "barba", "bruno",
           local(THU, time(10)), category="weekday-typo"),
    booked("en-typo-thrusday", "en", ("beard trim with Rafael on thrusday at 10am", "yes"),
           "barba", "bruno", local(THU, time(10)), category="weekday-typo"),
    booked("es-typo-juebes", "es", ("barba con Rafael el juebes a las 10", "sí"), "barba",
           "bruno", local(THU, time(10)), category="weekday-typo"),
    booked("pt-hrs", "pt", ("barba com o Rafael amanhã às 10hrs", "sim"), "barba", "bruno",
           local(TUE, time(10)), category="hour-marks"),
    booked("en-hrs", "en", ("beard trim with Rafael tomorrow at 10 hrs", "yes"), "barba",
           "bruno", local(TUE, time(10)), category="hour-marks"),
    booked("es-hs", "es", ("barba con Rafael mañana a las 10hs", "sí"), "barba", "bruno",
           local(TUE, time(10)), category="hour-marks"),
]  # fmt: skip

# Session 41 blind batch (2026-12-06), written and scored before any fix: times before an hour,
# a booking "in N hours", a yes on a condition that changes the time ("contanto que seja às
# 11h"), a booking naming only the professional, "the weekend", the address asked as how to get
# there, an answer that is no answer ("não entendi"), and two days offered as either.
CASES += [
    _facts("pt-before-antes-das", "pt", ("horários de barba com o Rafael amanhã antes das 11h",),
           (("09:00", "9h"), ("10:30", "10h30")), "before-hour"),
    _facts("en-before", "en", ("beard trim times with Rafael tomorrow before 11am",),
           (("09:00", "9am", "9:00"), ("10:30",)), "before-hour"),
    _facts("es-before-antes-de", "es", ("horarios de barba con Rafael mañana antes de las 11",),
           (("09:00",), ("10:30",)), "before-hour"),
    booked("pt-in-hours-daqui-a", "pt", ("dá pra fazer a barba com o Rafael daqui a 3 horas?",
           "sim"), "barba", "bruno", local(MON, time(12)), category="in-hours"),
    booked("en-in-hours", "en", ("can Rafael do a beard trim in 3 hours?", "yes"), "barba",
           "bruno", local(MON, time(12)), category="in-hours"),
    booked("es-in-hours-dentro-de", "es", ("¿Rafael me puede hacer la barba dentro de 3 horas?",
           "sí"), "barba", "bruno", local(MON, time(12)), category="in-hours"),
    booked("pt-yes-if-contanto", "pt", ("barba com o Rafael amanhã às 10h", "ok, contanto que "
           "seja às 11h", "sim"), "barba", "bruno", local(TUE, time(11)),
           tools=(BOOK, BOOK, BOOK), category="yes-on-condition"),
    booked("en-yes-if-as-long-as", "en", ("beard trim with Rafael tomorrow at 10am", "fine, as "
           "long as it's at 11am", "yes"), "barba", "bruno", local(TUE, time(11)),
           tools=(BOOK, BOOK, BOOK), category="yes-on-condition"),
    booked("es-yes-if-siempre-que", "es", ("barba con Rafael mañana a las 10", "vale, siempre "
           "que sea a las 11", "sí"), "barba", "bruno", local(TUE, time(11)),
           tools=(BOOK, BOOK, BOOK), category="yes-on-condition"),
    booked("pt-pro-only", "pt", ("quero marcar com a Marina sexta às 14h", "sim"), "manicure",
           "carla", local(FRI, time(14)), category="pro-only"),
    booked("en-pro-only", "en", ("book me with Marina on Friday at 2pm", "yes"), "manicure",
           "carla", local(FRI, time(14)), category="pro-only"),
    booked("es-pro-only", "es", ("quiero una cita con Marina el viernes a las 14", "sí"),
           "manicure", "carla", local(FRI, time(14)), category="pro-only"),
    booked("pt-weekend", "pt", ("barba com o Rafael no fim de semana às 10h", "sim"), "barba",
           "bruno", local(SAT, time(10)), category="weekend"),
    booked("en-weekend", "en", ("beard trim with Rafael this weekend at 10am", "yes"), "barba",
           "bruno", local(SAT, time(10)), category="weekend"),
    booked("es-weekend", "es", ("barba con Rafael el fin de semana a las 10", "sí"), "barba",
           "bruno", local(SAT, time(10)), category="weekend"),
    faq("pt-address-chegar", "pt", ("como faço pra chegar aí?",), "address",
        category="address-how"),
    faq("en-address-get-there", "en", ("how do I get to you?",), "address",
        category="address-how"),
    faq("es-address-llegar", "es", ("¿cómo llego al salón?",), "address",
        category="address-how"),
    nothing("pt-non-answer", "pt", ("barba com o Rafael amanhã às 10h", "hã? não entendi"),
            (BOOK,), "non-answer"),
    nothing("en-non-answer", "en", ("beard trim with Rafael tomorrow at 10am", "sorry, what?"),
            (BOOK,), "non-answer"),
    nothing("es-non-answer", "es", ("barba con Rafael mañana a las 10", "¿cómo? no entendí"),
            (BOOK,), "non-answer"),
    booked("pt-either-day", "pt", ("barba com o Rafael quinta ou sexta às 10h, tanto faz",
           "sim"), "barba", "bruno", local(THU, time(10)), category="either-day"),
    booked("en-either-day", "en", ("beard trim with Rafael Thursday or Friday at 10am, either "
           "works", "yes"), "barba", "bruno", local(THU, time(10)), category="either-day"),
    booked("es-either-day", "es", ("barba con Rafael jueves o viernes a las 10, me da igual",
           "sí"), "barba", "bruno", local(THU, time(10)), category="either-day"),
]  # fmt: skip

# Session 41 second blind batch (2026-12-06), written and scored before any fix: two times
# offered as either ("10h ou 11h"), a move in other words ("joga", "bump", "aplaza") to a day
# with no time, "next week, any day" at an hour, a greeting before an FAQ question, "bem
# cedinho"/"first thing"/"tempranito", and the price and length of one service in one question.
NEXT_MON = date(2026, 12, 7)
CASES += [
    booked("pt-either-time", "pt", ("barba com o Rafael amanhã às 10h ou 11h", "sim"), "barba",
           "bruno", local(TUE, time(10)), category="either-time"),
    booked("en-either-time", "en", ("beard trim with Rafael tomorrow at 10 or 11am", "yes"),
           "barba", "bruno", local(TUE, time(10)), category="either-time"),
    booked("es-either-time", "es", ("barba con Rafael mañana a las 10 o a las 11", "sí"),
           "barba", "bruno", local(TUE, time(10)), category="either-time"),
    changed("pt-move-joga", "pt", ("joga minha barba de sexta pro sábado", "sim"),
            "rescheduled", "barba", (BEARD_FRIDAY,), start=local(SAT, time(11))),
    changed("en-move-bump", "en", ("bump my Friday beard trim to Saturday", "yes"),
            "rescheduled", "barba", (BEARD_FRIDAY,), start=local(SAT, time(11))),
    changed("es-move-aplaza", "es", ("aplaza mi barba del viernes al sábado", "sí"),
            "rescheduled", "barba", (BEARD_FRIDAY,), start=local(SAT, time(11))),
    booked("pt-next-week-any-day", "pt", ("barba com o Rafael semana que vem, qualquer dia às "
           "10h", "sim"), "barba", "bruno", local(NEXT_MON, time(10)),
           category="next-week-any-day"),
    booked("en-next-week-any-day", "en", ("beard trim with Rafael next week, any day at 10am",
           "yes"), "barba", "bruno", local(NEXT_MON, time(10)), category="next-week-any-day"),
    booked("es-next-week-any-day", "es", ("barba con Rafael la semana que viene, cualquier día "
           "a las 10", "sí"), "barba", "bruno", local(NEXT_MON, time(10)),
           category="next-week-any-day"),
    faq("pt-greeting-faq", "pt", ("boa tarde! vocês aceitam pix?",), "payment",
        category="greeting-faq"),
    faq("en-greeting-faq", "en", ("hi there! do you take cards?",), "payment",
        category="greeting-faq"),
    faq("es-greeting-faq", "es", ("¡hola! ¿aceptan tarjeta?",), "payment",
        category="greeting-faq"),
    booked("pt-early-cedinho", "pt", ("barba com o Rafael amanhã bem cedinho", "sim"), "barba",
           "bruno", local(TUE, time(9)), category="early"),
    booked("en-early-first-thing", "en", ("beard trim with Rafael tomorrow, first thing",
           "yes"), "barba", "bruno", local(TUE, time(9)), category="early"),
    booked("es-early-tempranito", "es", ("barba con Rafael mañana tempranito", "sí"), "barba",
           "bruno", local(TUE, time(9)), category="early"),
    _facts("pt-price-and-length", "pt", ("quanto custa e quanto tempo demora a barba?",),
           (("40",), ("30",)), "price-and-length"),
    _facts("en-price-and-length", "en", ("how much is a beard trim and how long does it take?",),
           (("40",), ("30",)), "price-and-length"),
    _facts("es-price-and-length", "es", ("¿cuánto cuesta la barba y cuánto dura?",),
           (("40",), ("30",)), "price-and-length"),
]  # fmt: skip

# Session 41 third blind batch (2026-12-06), written and scored before any fix: a question that
# checks the proposal itself before the yes ("é com o Rafael mesmo?", "that's tomorrow, right?",
# "¿es a las 10, no?"): answered, and the next yes books what was proposed. Scored before any fix
# with two calls of the booking tool expected: 5/6 task, 1/6 trajectory. The question is
# answered by proposing again what was proposed (a third call, a fresh id), as a changed answer
# is: that trajectory is the expected one (AGAIN), set after the score.
AGAIN = (BOOK, BOOK, BOOK)
CASES += [
    booked("pt-check-pro", "pt", ("barba com o Rafael amanhã às 10h", "é com o Rafael mesmo?",
           "sim"), "barba", "bruno", local(TUE, time(10)), tools=AGAIN, category="check-proposal"),
    booked("en-check-pro", "en", ("beard trim with Rafael tomorrow at 10am", "that's with "
           "Rafael, right?", "yes"), "barba", "bruno", local(TUE, time(10)),
           tools=AGAIN, category="check-proposal"),
    booked("es-check-pro", "es", ("barba con Rafael mañana a las 10", "¿es con Rafael, "
           "verdad?", "sí"), "barba", "bruno", local(TUE, time(10)), tools=AGAIN,
           category="check-proposal"),
    booked("pt-check-day", "pt", ("barba com o Rafael amanhã às 10h", "é amanhã, né?", "sim"),
           "barba", "bruno", local(TUE, time(10)), tools=AGAIN, category="check-proposal"),
    booked("en-check-day", "en", ("beard trim with Rafael tomorrow at 10am", "that's "
           "tomorrow, right?", "yes"), "barba", "bruno", local(TUE, time(10)),
           tools=AGAIN, category="check-proposal"),
    booked("es-check-time", "es", ("barba con Rafael mañana a las 10", "¿a las 10, no?", "sí"),
           "barba", "bruno", local(TUE, time(10)), tools=AGAIN, category="check-proposal"),
]  # fmt: skip
