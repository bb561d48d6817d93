# Over 300 lines: one business's catalog, its calendar facts and its 63 conversations.
"""The fifteenth batch, blind: written from categories (never from a reported sentence, and
without reading the offline model's code, words, grammar or language data) and run before any
change for it (baseline: ``eval/baselines/whatsapp-batch15-before.md``), in Portuguese, English
and Spanish, on a business of another kind: a pet grooming shop and veterinary clinic
("Focinho Feliz — Clínica Veterinária e Pet Shop": grooming ("Banho e Tosa"), a vet visit,
a vaccine, a nail trim, a coat conditioning, a microchip) that configured **no aliases**, so
"banho", "bath", "grooming", "baño y corte", "check-up", "vacuna", "vaccine", "nail trim",
"cortarle las uñas", "hidratación del pelo", "microchip" must be understood from the
customer's own words or another language. Held out: its cases are played by
``python -m eval --suite whatsapp-batch15`` only, not by the default run.

Categories kept from :mod:`eval.whatsapp_batch14`, with new wording, three cases each (one per
language): booking with every detail in one message, the customer giving their name
(``one-message``); step by step, one detail a message (``step-by-step``); who does a service
(``who-does``: both people who do it); a price (``price``); whether someone works a given
weekday (``works-day``: they do not, and the reply names a day they do); a date ("dia 4",
"December 2nd", "el 1 de diciembre"; ``date``); cancelling or moving one appointment
(``appointments``); FAQ questions (``faq``); a "no" to a proposal (``declined``); a yes on a
condition that cannot hold (``conditional-yes``: a vet who is off on Saturday, a price below
the service's, a free pick-up the FAQ says costs R$ 20): nothing booked; a question right after
a proposal, the conversation's last message (``question-after-proposal``: not a yes, nothing
booked).

New categories:

- ``part-of-day``: the customer asks what is free in a part of a day ("quinta de manhã",
  "Friday afternoon", "el sábado por la mañana"), picks a time in it ("pode ser às 9h", "4pm
  please", "a las 11 entonces"), then says yes: booked at that time.
- ``ordinal-pick``: the customer asks which times are free, then picks only by position ("o
  segundo", "the first one", "el último"), then says yes. Position is read in time order;
  "o segundo" and "el último" are asked of Saturday's vet services, which have exactly three
  starts (Otávio 08:00, 08:30, 09:00), so a listing cannot be cut short; "the first one" of
  today's nail trims is Rui's 13:00.
- ``run-on-yes``: the yes to a proposal is a WhatsApp run-on with courtesy and closing words
  and an emoji ("pode sim, obrigada, até lá 🐶", "yes please, thank you so much, see you then!
  🐾", "sí, perfecto, mil gracias, nos vemos el jueves 😊"): booked.
- ``for-pet``: the booking is for the customer's pet, named in the message ("banho pro Thor",
  "a nail trim for Luna", "vacunar a Canela"): the pet's name is neither a professional nor a
  service (nobody on the team has such a name); booked with the one professional free then.
- ``move-relative``: one of the customer's appointments moved relative to itself ("pro dia
  seguinte, mesmo horário", "one hour later", "adelantar media hora"): moved, with its
  professional, to that time; the others stay.
- ``cancel-all``: the customer, who has exactly two appointments (both Banho e Tosa: Bianca on
  Tuesday, Rui on Wednesday), cancels everything ("cancela todos os meus horários", "cancel
  everything I have booked", "cancela todas mis citas"), then says yes: both cancelled. These
  cases carry their own evaluator, :class:`AllCancelled`: the task-success judgement of
  :func:`eval.evaluators.task_problems` plus "every one of them is cancelled", and a
  trajectory that lists the appointments first and calls ``cancel_appointment`` either twice
  (one proposal naming both, one confirmation) or four times (each proposed and confirmed):
  how many calls a double cancellation takes is the tool's design, not the customer's concern.
  A case's own evaluators run before the dataset's and pydantic-evals keeps the first result
  of a name under that name (the dataset's become ``task_success_2`` and
  ``trajectory_match_2``, which no figure reads).
- ``cancel-with``: the appointment to cancel is named by its professional ("o banho com o
  Rui", "the one with Bianca", "la cita con Otávio"): only that one is cancelled.
- ``keep-one``: the customer says they must cancel one appointment, then in one message says
  which one stays and which one goes ("o banho não, esse fica. cancela a vacina de quinta",
  "not the vaccine, I'm keeping that one - cancel the Friday check-up", "la vacuna no, esa la
  mantengo; cancela el baño del miércoles"), then yes: only the named one is cancelled.
- ``change-of-mind``: after a proposal the customer changes the service ("pensando bem, faz
  só o corte de unhas mesmo", "actually, make it a vaccine instead", "mejor cámbialo a baño y
  corte"), then says yes: a new proposal (three ``book_appointment`` calls: proposal, new
  proposal, confirmation) and only the new service booked, at the same time, with the one
  professional who does it then.
- ``abbreviation``: a weekday or a day in WhatsApp shorthand ("qua 15h", "tmrw 3pm", "mñn a
  las 10"): booked at that day and time.

Every case also requires that no two consecutive replies are the same text.

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid), as in
batches 10 to 14: "hoje"/"today"/"hoy" is Monday 11/30 (nothing before 10:00), "amanhã"/
"tomorrow"/"mañana" Tuesday 12/01 ("el 1 de diciembre"), Wednesday 12/02 ("December 2nd"),
Thursday 12/03, Friday 12/04 ("dia 4"), Saturday 12/05, Sunday closed. No case says a bare
"segunda"/"Monday"/"lunes" to book.

Helena Duarte (vet: visit, vaccine, microchip) works Monday to Friday 08:00–14:00 (not
Saturday); Otávio Reis (vet: visit, vaccine, microchip) works Monday, Wednesday and Friday
14:00–19:00 and Saturday 08:00–09:30 (not Tuesday or Thursday); Bianca Sato (groomer: grooming,
coat conditioning, nail trim) works Tuesday to Saturday 08:00–13:00 (not Monday); Rui Campos
(groomer: grooming, coat conditioning, nail trim) works Monday to Friday 13:00–18:00 (not
Saturday). Durations: visit, vaccine, microchip and nail trim 30 minutes, coat conditioning 60,
grooming 90. So every service has exactly one professional at any time: a vet service is
Helena's before 14:00 on weekdays, Otávio's from 14:00 on Monday, Wednesday and Friday and on
Saturday (08:00, 08:30, 09:00: three starts), nobody's on Tuesday or Thursday afternoon; a
grooming service is Bianca's before 13:00 from Tuesday to Saturday and Rui's from 13:00 from
Monday to Friday, nobody's on Monday morning. Prices: grooming R$ 95, visit R$ 150, vaccine
R$ 90, nail trim R$ 35, coat conditioning R$ 60, microchip R$ 120. The FAQ (in Portuguese only)
gives the address (Rua Harmonia), the opening hours (weekdays 8h–19h, Saturday 8h–13h), payment
(Pix, cash, cards; visits and microchips in up to 2x interest-free), the pick-up service (leva e
traz within 5 km for R$ 20), vaccination (grooming needs vaccines up to date: bring the
vaccination card), cats (seen at separate times, in a room for felines) and cancellation (free
up to 6 hours before, then R$ 25). The customer has, in the appointment, move-relative,
cancel-with and keep-one cases, two groomings (Bianca, Tuesday 09:00; Rui, Wednesday 14:00), a
vaccine with Helena on Thursday at 10:00 and a vet visit with Otávio on Friday at 15:00; every
move target below is free and within the professional's hours.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time

from pydantic_evals import Case
from pydantic_evals.evaluators import EvaluationReason, Evaluator, EvaluatorContext

from agent_service.domain.catalog import WorkingHours
from eval.dataset import (
    BOOK,
    CANCEL,
    LIST_MINE,
    RESCHEDULE,
    Conversation,
    EvalCase,
    Expected,
    Language,
)
from eval.evaluators import TASK_SUCCESS, TRAJECTORY_MATCH, task_problems, trajectory_problem
from eval.harness import CANCELLED, SALONS, Booked, SalonSpec, Transcript, local
from eval.salon_cases import SalonCases

SALON = "focinho"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))

SERVICES = {
    "banho": (
        "Banho e Tosa",
        90,
        9500,
        "Banho com shampoo neutro, secagem, tosa na máquina ou na tesoura e limpeza de ouvidos.",
    ),
    "consulta": ("Consulta Veterinária", 30, 15000, "Exame clínico geral com a veterinária."),
    "vacina": ("Vacinação", 30, 9000, "Aplicação de V8, V10, antirrábica ou gripe canina."),
    "unhas": ("Corte de Unhas", 30, 3500, "Corte e lixamento das unhas de cães e gatos."),
    "hidratacao": ("Hidratação de Pelagem", 60, 6000, "Máscara hidratante para pelos secos."),
    "microchip": ("Microchipagem", 30, 12000, "Implante de microchip de identificação."),
}

VETS = ("consulta", "vacina", "microchip")
GROOMING = ("banho", "hidratacao", "unhas")

FOCINHO = SalonSpec(
    name="Focinho Feliz — Clínica Veterinária e Pet Shop",
    services=SERVICES,
    # No aliases: the shop wrote its catalog and nothing else.
    service_aliases={key: () for key in SERVICES},
    professionals={
        "helena": ("Helena Duarte", "Médica veterinária", VETS),
        "otavio": ("Otávio Reis", "Médico veterinário", VETS),
        "bianca": ("Bianca Sato", "Tosadora", GROOMING),
        "rui": ("Rui Campos", "Banhista e tosador", GROOMING),
    },
    hours={
        "helena": tuple(
            WorkingHours(day_of_week=d, start=time(8), end=time(14)) for d in range(1, 6)
        ),
        "otavio": (
            *(WorkingHours(day_of_week=d, start=time(14), end=time(19)) for d in (1, 3, 5)),
            WorkingHours(day_of_week=6, start=time(8), end=time(9, 30)),
        ),
        "bianca": tuple(
            WorkingHours(day_of_week=d, start=time(8), end=time(13)) for d in range(2, 7)
        ),
        "rui": tuple(
            WorkingHours(day_of_week=d, start=time(13), end=time(18)) for d in range(1, 6)
        ),
    },
    # Written in Portuguese only.
    faq={
        "address": (
            "Onde fica a clínica?",
            "Rua Harmonia, 410 — Vila Madalena, São Paulo (em frente à praça).",
            ("endereço", "localização"),
        ),
        "hours": (
            "Qual é o horário de funcionamento?",
            "De segunda a sexta, das 8h às 19h; aos sábados, das 8h às 13h. Domingo fechado.",
            ("horário", "funcionamento", "abre", "fecha"),
        ),
        "payment": (
            "Quais são as formas de pagamento?",
            "Pix, dinheiro ou cartão de débito e crédito; consultas e microchipagem podem ser "
            "parceladas em até 2x sem juros.",
            ("pagamento", "pix", "cartão", "parcelar"),
        ),
        "taxi": (
            "Vocês buscam o pet em casa?",
            "Sim: temos o serviço leva e traz num raio de 5 km da clínica, por R$ 20 (ida e "
            "volta).",
            ("leva e traz", "buscar", "busca", "táxi dog", "transporte"),
        ),
        "vaccines": (
            "Preciso levar a carteira de vacinação?",
            "Para banho, tosa e hidratação o pet precisa estar com as vacinas em dia (V8/V10 e "
            "antirrábica); traga a carteirinha de vacinação no dia.",
            ("carteirinha", "carteira de vacinação", "vacinas em dia"),
        ),
        "cats": (
            "Vocês atendem gatos?",
            "Sim: atendemos gatos na clínica e no banho, em horário separado dos cães e numa "
            "sala só para felinos.",
            ("gatos", "gato", "felinos"),
        ),
        "cancel": (
            "Qual é a política de cancelamento?",
            "Cancelamento ou remarcação sem custo até 6 horas antes do horário; depois disso "
            "cobramos uma taxa de R$ 25.",
            ("cancelamento", "cancelar", "remarcar", "política"),
        ),
    },
    faq_facts={
        "address": ("Harmonia",),
        "hours": ("19h", "7pm", "7 pm"),
        "payment": (
            "2x",
            "sem juros",
            "interest-free",
            "interest free",
            "sin interes",
            "2 cuotas",
            "dos cuotas",
        ),
        "taxi": ("leva e traz", "5 km", "5km", "R$ 20"),
        "vaccines": (
            "carteirinha",
            "em dia",
            "vaccination card",
            "up to date",
            "up-to-date",
            "al dia",
            "cartilla",
            "carnet",
        ),
        "cats": ("separado", "separate", "felinos", "felines"),
        "cancel": ("6 horas", "6 hours", "seis horas", "six hours"),
    },
)
SALONS[SALON] = FOCINHO

BANHO_TUE = Booked("banho", "bianca", local(TUE, time(9)))
BANHO_WED = Booked("banho", "rui", local(WED, time(14)))
VACINA_THU = Booked("vacina", "helena", local(THU, time(10)))
CONSULTA_FRI = Booked("consulta", "otavio", local(FRI, time(15)))
EXISTING = (BANHO_TUE, BANHO_WED, VACINA_THU, CONSULTA_FRI)
# The cancel-all cases: only the two groomings.
BOTH = (BANHO_TUE, BANHO_WED)

# A proposal, a new proposal for the change, then the confirmed write.
CHANGED = (BOOK, BOOK, BOOK)
HELENA_DAYS = ("segunda", "terça", "quarta", "quinta", "sexta")

_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, states = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.states,
)  # fmt: skip


def changed_as(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    target: Booked,
    category: str,
    to: tuple[date, time] | None = None,
) -> EvalCase:
    """``target`` (one of ``EXISTING``) cancelled, or moved ``to``; the others stay."""
    tool = CANCEL if to is None else RESCHEDULE
    expected = Expected(
        category=category, language=language,
        outcome="cancelled" if to is None else "rescheduled", tools=(LIST_MINE, tool, tool),
        service=target.service, start=None if to is None else local(*to), target=target.start,
        distinct_replies=True,
    )  # fmt: skip
    return _CASES.case(name, messages, expected, EXISTING)


@dataclass
class AllCancelled(Evaluator[Conversation, Transcript, Expected]):
    """Task success as :class:`eval.evaluators.TaskSuccess` judges it and every appointment
    the customer had is cancelled; trajectory: the appointments listed, then
    ``cancel_appointment`` called twice or four times (see the module docstring). Reported
    under ``task_success`` and ``trajectory_match``."""

    def evaluate(
        self, ctx: EvaluatorContext[Conversation, Transcript, Expected]
    ) -> dict[str, EvaluationReason]:
        assert ctx.metadata is not None
        problems = task_problems(ctx.output, ctx.metadata, SALONS[ctx.inputs.salon])
        kept = [a for a in ctx.output.appointments if a.preexisting and a.status != CANCELLED]
        if ctx.output.error is None and kept:
            problems.append(
                "not cancelled: "
                + ", ".join(f"{a.service} with {a.professional} at {a.start:%a %d/%m %H:%M}"
                            for a in kept)
            )  # fmt: skip
        reason = "; ".join(problems) if problems else "cancelled as expected"
        tools = ctx.output.tools
        trajectory = [
            trajectory_problem(tools, (LIST_MINE, *(CANCEL,) * calls)) for calls in (2, 4)
        ]
        route = None if None in trajectory else trajectory[0]
        return {
            TASK_SUCCESS: EvaluationReason(value=not problems, reason=reason),
            TRAJECTORY_MATCH: EvaluationReason(value=route is None, reason=route or f"{tools}"),
        }


def cancel_all(name: str, language: Language, messages: tuple[str, ...]) -> EvalCase:
    """Every appointment (``BOTH``) cancelled after one yes; nothing booked."""
    expected = Expected(
        category="cancel-all", language=language, outcome="cancelled",
        tools=(LIST_MINE, CANCEL, CANCEL), service="banho", distinct_replies=True,
    )  # fmt: skip
    return Case(
        name=name,
        inputs=Conversation(messages, BOTH, SALON),
        metadata=expected,
        evaluators=(AllCancelled(),),
    )


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("ff-pt-tudo-numa-mensagem", "pt",
           ("oi, bom dia! aqui é a Carla Mendes, queria marcar uma consulta com a Helena pra "
            "minha gata na quarta às 11h, consegue?", "sim"),
           ("consulta", "helena", WED, time(11)), "one-message"),
    booked("ff-pt-passo-a-passo", "pt",
           ("oi, queria vacinar meu cachorro", "sexta", "10h", "sim"),
           ("vacina", "helena", FRI, time(10)), "step-by-step"),
    states("ff-pt-quem-aplica-vacina", "pt", ("quem aplica vacina aí?",), "who-does",
           ("Helena",), ("Otávio",)),
    states("ff-pt-preco-banho-tosa", "pt", ("quanto tá o banho e tosa?",), "price", ("95",)),
    states("ff-pt-helena-sabado", "pt", ("a Helena atende no sábado?",), "works-day",
           HELENA_DAYS),
    booked("ff-pt-dia-4", "pt", ("dia 4 às 9h tem banho e tosa?", "pode ser"),
           ("banho", "bianca", FRI, time(9)), "date"),
    changed("ff-pt-desmarca-consulta", "pt",
            ("preciso desmarcar a consulta de sexta do meu gato", "pode"), CONSULTA_FRI),
    faq("ff-pt-buscam-em-casa", "pt", ("vcs buscam o cachorro em casa?",), "taxi"),
    nothing("ff-pt-deixa-pra-outra-hora", "pt",
            ("hidratação sábado 10h", "ah não, deixa pra outra hora, valeu"), "declined",
            (BOOK,)),
    nothing("ff-pt-se-for-helena", "pt", ("consulta sábado 9h", "sim, se for com a Helena"),
            "conditional-yes", (BOOK,)),
    nothing("ff-pt-carteirinha", "pt",
            ("vacina com o Otávio sexta 16h", "precisa levar a carteirinha?"),
            "question-after-proposal", (BOOK,)),
    booked("ff-pt-quinta-de-manha", "pt",
           ("tem horário pra banho e tosa quinta de manhã?", "pode ser às 9h", "sim"),
           ("banho", "bianca", THU, time(9)), "part-of-day"),
    booked("ff-pt-o-segundo", "pt",
           ("quais horários tem pra vacina no sábado?", "o segundo", "sim"),
           ("vacina", "otavio", SAT, time(8, 30)), "ordinal-pick"),
    booked("ff-pt-ate-la", "pt",
           ("banho e tosa sexta às 15h", "pode sim, obrigada, até lá 🐶"),
           ("banho", "rui", FRI, time(15)), "run-on-yes"),
    booked("ff-pt-banho-pro-thor", "pt", ("quero marcar banho pro Thor quinta às 10h", "sim"),
           ("banho", "bianca", THU, time(10)), "for-pet"),
    changed_as("ff-pt-dia-seguinte", "pt",
               ("dá pra passar o banho de terça pro dia seguinte, mesmo horário?", "sim"),
               BANHO_TUE, "move-relative", (WED, time(9))),
    cancel_all("ff-pt-cancela-todos", "pt",
               ("cancela todos os meus horários, vamos viajar", "sim")),
    changed_as("ff-pt-banho-com-rui", "pt", ("cancela o banho com o Rui", "sim"), BANHO_WED,
               "cancel-with"),
    changed_as("ff-pt-banho-fica", "pt",
               ("preciso desmarcar um horário", "o banho não, esse fica. cancela a vacina de "
                "quinta", "sim"), VACINA_THU, "keep-one"),
    booked("ff-pt-so-unhas", "pt",
           ("banho e tosa pra Pipoca sexta às 14h", "pensando bem, faz só o corte de unhas "
            "mesmo", "sim"),
           ("unhas", "rui", FRI, time(14)), "change-of-mind", tools=CHANGED),
    booked("ff-pt-qua-15h", "pt", ("banho e tosa qua 15h", "sim"),
           ("banho", "rui", WED, time(15)), "abbreviation"),
    # -- English --------------------------------------------------------------------------------
    booked("ff-en-all-in-one", "en",
           ("Hi, this is Tom Walsh. I'd like to book a microchip for my puppy with Otávio on "
            "Friday at 3pm, if possible.", "yes"),
           ("microchip", "otavio", FRI, time(15)), "one-message"),
    booked("ff-en-step-by-step", "en", ("hi, my dog needs a bath", "Thursday", "2pm", "yes"),
           ("banho", "rui", THU, time(14)), "step-by-step"),
    states("ff-en-who-grooms", "en", ("who does the grooming?",), "who-does", ("Bianca",),
           ("Rui",)),
    states("ff-en-nail-trim-price", "en", ("how much for a nail trim?",), "price", ("35",)),
    states("ff-en-rui-saturdays", "en", ("Does Rui work Saturdays?",), "works-day",
           ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")),
    booked("ff-en-december-2nd", "en",
           ("can I bring my cat in for a check-up on December 2nd at 3pm?", "yes"),
           ("consulta", "otavio", WED, time(15)), "date"),
    changed("ff-en-move-vaccine", "en",
            ("can I move my vaccine appointment from Thursday to Friday at 11am?", "yes"),
            VACINA_THU, (FRI, time(11))),
    faq("ff-en-vaccination-card", "en",
        ("do I need to bring his vaccination card for grooming?",), "vaccines"),
    nothing("ff-en-pass-for-now", "en",
            ("nail trim with Bianca on Thursday at 11am", "nah, I'll pass for now, thanks"),
            "declined", (BOOK,)),
    nothing("ff-en-under-50", "en",
            ("bath and haircut with Rui on Wednesday at 2pm", "yes, if it's under 50 reais"),
            "conditional-yes", (BOOK,)),
    nothing("ff-en-does-it-hurt", "en",
            ("microchip with Helena on Tuesday at 9am", "does it hurt?"),
            "question-after-proposal", (BOOK,)),
    booked("ff-en-friday-afternoon", "en",
           ("anything Friday afternoon for a vet check-up?", "4pm please", "yes"),
           ("consulta", "otavio", FRI, time(16)), "part-of-day"),
    booked("ff-en-the-first-one", "en",
           ("what's open for a nail trim today?", "the first one", "yes"),
           ("unhas", "rui", MON, time(13)), "ordinal-pick"),
    booked("ff-en-see-you-then", "en",
           ("vaccine with Otávio on Wednesday at 5pm",
            "yes please, thank you so much, see you then! 🐾"),
           ("vacina", "otavio", WED, time(17)), "run-on-yes"),
    booked("ff-en-nail-trim-for-luna", "en",
           ("can I book a nail trim for Luna on Friday at 2pm?", "yes"),
           ("unhas", "rui", FRI, time(14)), "for-pet"),
    changed_as("ff-en-one-hour-later", "en",
               ("can you push my Friday check-up one hour later?", "yes"), CONSULTA_FRI,
               "move-relative", (FRI, time(16))),
    cancel_all("ff-en-cancel-everything", "en",
               ("please cancel everything I have booked", "yes")),
    changed_as("ff-en-the-one-with-bianca", "en", ("cancel the one with Bianca please", "yes"),
               BANHO_TUE, "cancel-with"),
    changed_as("ff-en-keep-the-vaccine", "en",
               ("I have to cancel one of my appointments",
                "not the vaccine, I'm keeping that one - cancel the Friday check-up", "yes"),
               CONSULTA_FRI, "keep-one"),
    booked("ff-en-make-it-a-vaccine", "en",
           ("vet check-up with Helena tomorrow at 10am", "actually, make it a vaccine instead",
            "yes"),
           ("vacina", "helena", TUE, time(10)), "change-of-mind", tools=CHANGED),
    booked("ff-en-tmrw-3pm", "en", ("nail trim tmrw 3pm?", "yes"),
           ("unhas", "rui", TUE, time(15)), "abbreviation"),
    # -- Spanish --------------------------------------------------------------------------------
    booked("ff-es-todo-en-un-mensaje", "es",
           ("Hola, soy Lucía Fernández. Quisiera una hidratación para mi perro con Rui el "
            "miércoles a las 16, ¿puede ser?", "sí"),
           ("hidratacao", "rui", WED, time(16)), "one-message"),
    booked("ff-es-paso-a-paso", "es",
           ("hola, quiero ponerle microchip a mi gata", "el miércoles", "a las 15", "sí"),
           ("microchip", "otavio", WED, time(15)), "step-by-step"),
    states("ff-es-quien-hidratacion", "es", ("¿quién hace la hidratación del pelo?",),
           "who-does", ("Bianca",), ("Rui",)),
    states("ff-es-precio-microchip", "es", ("¿cuánto cuesta poner el microchip?",), "price",
           ("120",)),
    states("ff-es-otavio-martes", "es", ("¿Otávio atiende los martes?",), "works-day",
           ("lunes", "miércoles", "viernes", "sábado")),
    booked("ff-es-1-de-diciembre", "es",
           ("el 1 de diciembre a las 11, ¿tienen hidratación?", "sí"),
           ("hidratacao", "bianca", TUE, time(11)), "date"),
    changed("ff-es-bano-al-viernes", "es",
            ("¿puedo cambiar el baño del miércoles al viernes a las 15?", "sí"), BANHO_WED,
            (FRI, time(15))),
    faq("ff-es-atienden-gatos", "es", ("¿atienden gatos también?",), "cats"),
    nothing("ff-es-lo-voy-a-pensar", "es",
            ("consulta con Helena hoy a las 12", "no, gracias, lo voy a pensar"), "declined",
            (BOOK,)),
    nothing("ff-es-buscan-gratis", "es",
            ("baño y corte el viernes a las 10", "sí, si me lo buscan en casa sin costo"),
            "conditional-yes", (BOOK,)),
    nothing("ff-es-aceptan-tarjeta", "es",
            ("corte de uñas con Bianca el sábado a las 10", "¿aceptan tarjeta?"),
            "question-after-proposal", (BOOK,)),
    booked("ff-es-sabado-por-la-manana", "es",
           ("¿tienen algo el sábado por la mañana para cortarle las uñas a mi perro?",
            "a las 11 entonces", "sí"),
           ("unhas", "bianca", SAT, time(11)), "part-of-day"),
    booked("ff-es-el-ultimo", "es",
           ("¿qué turnos hay el sábado para ponerle el microchip?", "el último", "sí"),
           ("microchip", "otavio", SAT, time(9)), "ordinal-pick"),
    booked("ff-es-nos-vemos", "es",
           ("hidratación con Bianca el jueves a las 10",
            "sí, perfecto, mil gracias, nos vemos el jueves 😊"),
           ("hidratacao", "bianca", THU, time(10)), "run-on-yes"),
    booked("ff-es-vacunar-a-canela", "es", ("quiero vacunar a Canela el miércoles a las 11", "sí"),
           ("vacina", "helena", WED, time(11)), "for-pet"),
    changed_as("ff-es-media-hora-antes", "es",
               ("¿puedo adelantar media hora la vacuna del jueves?", "sí"), VACINA_THU,
               "move-relative", (THU, time(9, 30))),
    cancel_all("ff-es-cancela-todas", "es", ("cancela todas mis citas, por favor", "sí")),
    changed_as("ff-es-la-de-otavio", "es", ("quiero cancelar la cita con Otávio", "sí"),
               CONSULTA_FRI, "cancel-with"),
    changed_as("ff-es-la-vacuna-no", "es",
               ("tengo que cancelar una cita",
                "la vacuna no, esa la mantengo; cancela el baño del miércoles", "sí"),
               BANHO_WED, "keep-one"),
    booked("ff-es-mejor-bano-y-corte", "es",
           ("hidratación para Toby el jueves a las 9", "mejor cámbialo a baño y corte", "sí"),
           ("banho", "bianca", THU, time(9)), "change-of-mind", tools=CHANGED),
    booked("ff-es-mnn-a-las-10", "es", ("vacuna para mi gato mñn a las 10", "sí"),
           ("vacina", "helena", TUE, time(10)), "abbreviation"),
]  # fmt: skip
