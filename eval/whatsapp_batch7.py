"""The seventh batch, blind: written from categories (never from a reported sentence) and run
before any change for it (baseline: ``eval/baselines/whatsapp-batch7-before.md``; headline in
``eval/results/batch7.md``), in Portuguese, English and Spanish, on a salon that configured
**no aliases** at all ("Casa Jabuticaba", hair, beard, nails, brows and physiotherapy): every
service must be understood from the customer's everyday words or another language.

Categories: services in everyday words or another language (``svc-words``); relative dates
("in N days/weeks", "day N of next month", ``rel-dates``); time ranges ("before noon", "after
3", "between 2 and 4") and a range said on one turn that still holds on the next
(``ranges``); the earliest time of a day's part (``earliest``); several services in one
message, booked as one visit back to back after a single yes (``multi``); "what did I book?"
(``listing``); a price question in the middle of a booking (``mid-price``); opening hours with
no FAQ entry for them, answered from the working hours (``hours``); questions the FAQ does not
answer (``abstain``, no confident wrong answer); FAQ questions it does answer (``faq``);
unclear messages repeated (``loops``: never the same reply twice in a row, as in every case of
this batch); cancelling and moving (``appointments``).

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid):
"amanhã"/"tomorrow"/"mañana" is Tuesday 12/01, Thursday is 12/03, "in 3 days" Thursday 12/03,
"in 10 days" Thursday 12/10, "in two weeks" Monday 12/14, "in a week" Monday 12/07, "the 30th
of next month" Wednesday 12/30 (not today, the 30th of this month). Beatriz (hair) works
Tuesday to Saturday 09:00–19:00; Thiago (barber) Monday to Saturday 09:00–18:00; Larissa
(nails, brows) Monday to Saturday 09:00–18:00 with lunch 12:00–13:00; Renata (physio) Monday
to Friday 08:00–17:00. So the salon opens at 08:00 on weekdays (09:00 on Saturdays) and closes
at 19:00 (18:00 on Mondays).
"""

from __future__ import annotations

from datetime import date, time

from agent_service.domain.catalog import WorkingHours
from eval.dataset import (
    LIST_MINE,
    EvalCase,
    Expected,
    Language,
)
from eval.harness import SALONS, SPLIT, Booked, SalonSpec, local
from eval.salon_cases import SalonCases

SALON = "jabuticaba"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))
MON_7, THU_10, MON_14, WED_30 = (date(2026, 12, d) for d in (7, 10, 14, 30))

SERVICES = {
    "corte_f": ("Corte Feminino c/ Escova", 60, 9000, "Lavagem, corte e escova."),
    "corte_m": ("Corte Masculino Degradê", 30, 5000, "Máquina e tesoura."),
    "barba": ("Barboterapia", 30, 4000, "Toalha quente e navalha."),
    "escova": ("Escova Modeladora", 45, 6000, "Escova com finalização."),
    "cor": ("Coloração Global", 120, 18000, "Coloração da raiz às pontas."),
    "mani": ("Manicure Tradicional", 60, 3500, "Cutilagem e esmaltação."),
    "pes": ("Spa dos Pés", 60, 4500, "Esfoliação e hidratação dos pés."),
    "sobrancelha": ("Design de Sobrancelhas", 30, 4500, "Com pinça e linha."),
    "fisio": ("Sessão de Fisioterapia", 60, 15000, "Avaliação e exercícios."),
    "drenagem": ("Drenagem Linfática", 60, 13000, "Manual, corpo inteiro."),
}

JABUTICABA = SalonSpec(
    name="Casa Jabuticaba Beleza e Bem-estar",
    services=SERVICES,
    # No aliases: the salon wrote its catalog and nothing else.
    service_aliases={key: () for key in SERVICES},
    professionals={
        "beatriz": ("Beatriz Monteiro", "Cabeleireira", ("corte_f", "escova", "cor")),
        "thiago": ("Thiago Ramos", "Barbeiro", ("corte_m", "barba")),
        "larissa": ("Larissa Duarte", "Manicure", ("mani", "pes", "sobrancelha")),
        "renata": ("Renata Kobayashi", "Fisioterapeuta", ("fisio", "drenagem")),
    },
    hours={
        "beatriz": tuple(
            WorkingHours(day_of_week=d, start=time(9), end=time(19)) for d in range(2, 7)
        ),
        "larissa": SPLIT,
        "renata": tuple(
            WorkingHours(day_of_week=d, start=time(8), end=time(17)) for d in range(1, 6)
        ),
    },
    # Written in Portuguese only, and with no entry about opening hours.
    faq={
        "address": (
            "Onde fica a Casa Jabuticaba?",
            "Rua Cardeal Arcoverde, 1200 — Pinheiros, São Paulo.",
            ("endereço", "localização"),
        ),
        "payment": (
            "Quais formas de pagamento vocês aceitam?",
            "Pix, cartão de crédito em até 2x e débito.",
            ("pagamento", "cartão", "pix"),
        ),
        "cancellation": (
            "Qual é a política de cancelamento?",
            "Cancelamento gratuito até 4 horas antes; depois disso cobramos 50% do valor.",
            ("cancelamento", "desmarcar"),
        ),
        "insurance": (
            "Vocês atendem convênio?",
            "Não atendemos convênios; emitimos recibo para você pedir reembolso ao seu plano.",
            ("convênio", "plano de saúde"),
        ),
        "parking": (
            "Tem estacionamento?",
            "Temos manobrista na porta (R$ 15).",
            ("estacionamento",),
        ),
    },
    faq_facts={
        "address": ("Cardeal Arcoverde",),
        "payment": ("Pix",),
        "cancellation": ("4 horas", "4 hours", "50%"),
        "insurance": ("reembolso", "reimbursement"),
        "parking": ("manobrista", "valet"),
    },
)
SALONS[SALON] = JABUTICABA

CUT_THU = Booked("corte_m", "thiago", local(THU, time(10)))
MANI_SAT = Booked("mani", "larissa", local(SAT, time(11)))
FISIO_WED = Booked("fisio", "renata", local(WED, time(9)))
EXISTING = (CUT_THU, MANI_SAT, FISIO_WED)

OPENS_8 = ("8h", "08h", "8:00", "08:00", "8am", "8 am", "8 h")
OPENS_9 = ("9h", "09h", "9:00", "09:00", "9am", "9 am", "9 h")
CLOSES_19 = ("19h", "19:00", "7pm", "7 pm", "7:00 pm", "19 h")


_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, abstains = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.abstains,
)  # fmt: skip


def hours(
    name: str, language: Language, messages: tuple[str, ...], *facts: tuple[str, ...]
) -> EvalCase:
    """Opening hours with no FAQ entry for them: stated from the working hours, and never an
    unrelated FAQ answer."""
    return _CASES.states(name, language, messages, "hours", *facts, faq_free=True)


def listing(name: str, language: Language, messages: tuple[str, ...]) -> EvalCase:
    names = tuple(JABUTICABA.services[b.service][0] for b in EXISTING)
    expected = Expected(
        category="listing", language=language, outcome="info", tools=(LIST_MINE,),
        mentions=names, distinct_replies=True,
    )  # fmt: skip
    return _CASES.case(name, messages, expected, EXISTING)


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("j-pt-fazer-as-unhas", "pt", ("oi! queria fazer as unhas quinta às 10h", "sim"),
           ("mani", "larissa", THU, time(10)), "svc-words"),
    booked("j-pt-pintar-o-cabelo", "pt",
           ("quero pintar o cabelo com a Beatriz no sábado às 9h", "pode ser"),
           ("cor", "beatriz", SAT, time(9)), "svc-words"),
    booked("j-pt-tirar-sobrancelha", "pt", ("dá pra tirar a sobrancelha amanhã às 16h?", "sim"),
           ("sobrancelha", "larissa", TUE, time(16)), "svc-words"),
    booked("j-pt-fisio-joelho", "pt",
           ("preciso de uma sessão de fisio pro joelho, quarta às 8h", "confirmo"),
           ("fisio", "renata", WED, time(8)), "svc-words"),
    booked("j-pt-fazer-o-pe", "pt", ("quero fazer o pé sexta à tarde, 15h", "isso"),
           ("pes", "larissa", FRI, time(15)), "svc-words"),
    booked("j-pt-cortar-cabelo-thiago", "pt", ("cortar o cabelo com o Thiago amanhã às 11h", "sim"),
           ("corte_m", "thiago", TUE, time(11)), "svc-words"),
    booked("j-pt-daqui-a-3-dias", "pt", ("barba com o Thiago daqui a 3 dias às 14h", "sim"),
           ("barba", "thiago", THU, time(14)), "rel-dates"),
    booked("j-pt-dia-30-do-mes-que-vem", "pt",
           ("quero marcar drenagem linfática dia 30 do mês que vem às 10h", "sim"),
           ("drenagem", "renata", WED_30, time(10)), "rel-dates"),
    booked("j-pt-daqui-a-duas-semanas", "pt", ("fisioterapia daqui a duas semanas às 9h", "sim"),
           ("fisio", "renata", MON_14, time(9)), "rel-dates"),
    booked("j-pt-em-10-dias", "pt", ("manicure em 10 dias às 14h", "sim"),
           ("mani", "larissa", THU_10, time(14)), "rel-dates"),
    booked("j-pt-antes-do-meio-dia", "pt",
           ("corte masculino com o Thiago sexta antes do meio-dia", "pode ser às 11", "sim"),
           ("corte_m", "thiago", FRI, time(11)), "ranges"),
    booked("j-pt-depois-das-15-persiste", "pt",
           ("quero uma drenagem depois das 15h", "quarta", "o primeiro horário", "sim"),
           ("drenagem", "renata", WED, time(15)), "ranges"),
    booked("j-pt-entre-14-e-16", "pt", ("sobrancelha quinta entre 14h e 16h", "15h30", "sim"),
           ("sobrancelha", "larissa", THU, time(15, 30)), "ranges"),
    booked("j-pt-depois-das-3-no-turno-seguinte", "pt",
           ("tem horário pra barba amanhã?", "depois das 3", "o primeiro", "sim"),
           ("barba", "thiago", TUE, time(15)), "ranges"),
    booked("j-pt-mais-cedo-a-tarde", "pt",
           ("manicure amanhã à tarde, o mais cedo que tiver", "sim"),
           ("mani", "larissa", TUE, time(13)), "earliest"),
    booked("j-pt-primeiro-de-sexta-de-manha", "pt",
           ("primeiro horário de sexta de manhã com a Renata pra fisioterapia", "sim"),
           ("fisio", "renata", FRI, time(8)), "earliest"),
    booked("j-pt-corte-e-barba", "pt",
           ("corte masculino e barba com o Thiago amanhã às 10h", "sim"),
           ("corte_m", "thiago", TUE, time(10)), "multi",
           (("barba", "thiago", TUE, time(10, 30)),)),
    booked("j-pt-mao-e-pe", "pt", ("quero fazer mão e pé com a Larissa sábado às 9h", "pode ser"),
           ("mani", "larissa", SAT, time(9)), "multi", (("pes", "larissa", SAT, time(10)),)),
    booked("j-pt-duas-profissionais", "pt",
           ("corte com a Beatriz e sobrancelha com a Larissa sexta às 14h", "sim"),
           ("corte_f", "beatriz", FRI, time(14)), "multi",
           (("sobrancelha", "larissa", FRI, time(15)),)),
    listing("j-pt-o-que-eu-marquei", "pt", ("o que eu marquei?",)),
    booked("j-pt-preco-no-meio", "pt",
           ("coloração com a Beatriz quinta às 10h", "quanto custa?", "fechado"),
           ("cor", "beatriz", THU, time(10)), "mid-price"),
    hours("j-pt-horario-de-funcionamento", "pt", ("qual o horário de funcionamento de vocês?",),
          OPENS_8, CLOSES_19),
    abstains("j-pt-wifi", "pt", ("vocês têm wi-fi?",)),
    faq("j-pt-onde-fica", "pt", ("onde fica o espaço de vocês?",), "address"),
    nothing("j-pt-loop-aquele-de-sempre", "pt",
            ("quero aquele de sempre", "aquele lá, você sabe", "o mesmo da outra vez"), "loops"),
    changed("j-pt-desmarcar-fisio", "pt", ("preciso desmarcar a fisioterapia de quarta", "sim"),
            FISIO_WED),
    # -- English --------------------------------------------------------------------------------
    booked("j-en-haircut-beatriz", "en",
           ("Hi, could I get a haircut with Beatriz on Thursday at 2pm?", "yes"),
           ("corte_f", "beatriz", THU, time(14)), "svc-words"),
    booked("j-en-beard-trim", "en", ("beard trim with Thiago tomorrow at 5pm please", "sure"),
           ("barba", "thiago", TUE, time(17)), "svc-words"),
    booked("j-en-blow-dry", "en", ("can I book a blow-dry for Saturday at 11am?", "yes please"),
           ("escova", "beatriz", SAT, time(11)), "svc-words"),
    booked("j-en-nails-done", "en", ("I'd like to get my nails done on Wednesday at 10", "yes"),
           ("mani", "larissa", WED, time(10)), "svc-words"),
    booked("j-en-pedicure", "en", ("pedicure on Friday at 4pm", "yep"),
           ("pes", "larissa", FRI, time(16)), "svc-words"),
    booked("j-en-physio", "en", ("I need a physio session on Tuesday at 3pm", "yes"),
           ("fisio", "renata", TUE, time(15)), "svc-words"),
    booked("j-en-haircut-which-one", "en",
           ("I need a haircut tomorrow at 3pm", "a men's cut", "yes"),
           ("corte_m", "thiago", TUE, time(15)), "svc-words"),
    booked("j-en-in-3-days", "en", ("Can I book eyebrow shaping in 3 days at 11am?", "yes"),
           ("sobrancelha", "larissa", THU, time(11)), "rel-dates"),
    booked("j-en-next-month-30th", "en",
           ("lymphatic drainage next month on the 30th at 2pm", "yes"),
           ("drenagem", "renata", WED_30, time(14)), "rel-dates"),
    booked("j-en-in-two-weeks", "en", ("a manicure in two weeks, at 9am", "yes"),
           ("mani", "larissa", MON_14, time(9)), "rel-dates"),
    booked("j-en-before-noon", "en",
           ("beard trim with Thiago on Friday, any time before noon", "10:30 works", "yes"),
           ("barba", "thiago", FRI, time(10, 30)), "ranges"),
    booked("j-en-after-3-then-first", "en",
           ("is there anything for a pedicure after 3 on Thursday?", "ok the first one then",
            "yes"),
           ("pes", "larissa", THU, time(15)), "ranges"),
    booked("j-en-between-1-and-3", "en",
           ("physio on Wednesday between 1 and 3pm?", "the earliest", "yes"),
           ("fisio", "renata", WED, time(13)), "ranges"),
    booked("j-en-earliest-saturday-afternoon", "en",
           ("the earliest manicure you have on Saturday afternoon", "yes"),
           ("mani", "larissa", SAT, time(13)), "earliest"),
    booked("j-en-earliest-wednesday-morning", "en",
           ("earliest beard trim Wednesday morning with Thiago", "go ahead"),
           ("barba", "thiago", WED, time(9)), "earliest"),
    booked("j-en-cut-and-beard", "en",
           ("haircut and beard trim with Thiago on Thursday at 4pm", "yes"),
           ("corte_m", "thiago", THU, time(16)), "multi",
           (("barba", "thiago", THU, time(16, 30)),)),
    booked("j-en-mani-pedi", "en", ("mani and pedi with Larissa on Friday at 9am", "yes"),
           ("mani", "larissa", FRI, time(9)), "multi", (("pes", "larissa", FRI, time(10)),)),
    listing("j-en-what-have-i-booked", "en", ("what have I got booked?",)),
    booked("j-en-price-mid-booking", "en",
           ("physio with Renata on Thursday at 10am", "how much is it?", "ok, yes"),
           ("fisio", "renata", THU, time(10)), "mid-price"),
    hours("j-en-open-saturdays", "en", ("What time do you open on Saturdays?",), OPENS_9),
    abstains("j-en-gift-cards", "en", ("do you sell gift cards?",)),
    faq("j-en-pay-by-card", "en", ("can I pay by card?",), "payment"),
    nothing("j-en-loop-the-usual", "en",
            ("book the thing", "the thing I always get", "you know, the usual"), "loops"),
    changed("j-en-move-nails", "en",
            ("can you move my nails appointment to Friday at 11am?", "yes"), MANI_SAT,
            (FRI, time(11))),
    # -- Spanish --------------------------------------------------------------------------------
    booked("j-es-corte-de-pelo", "es",
           ("Hola, quisiera un corte de pelo con Beatriz el viernes a las 11", "sí"),
           ("corte_f", "beatriz", FRI, time(11)), "svc-words"),
    booked("j-es-arreglar-la-barba", "es",
           ("quiero arreglarme la barba con Thiago mañana a las 10", "sí, perfecto"),
           ("barba", "thiago", TUE, time(10)), "svc-words"),
    booked("j-es-manicura", "es",
           ("me gustaría hacerme la manicura el jueves a las 3 de la tarde", "sí"),
           ("mani", "larissa", THU, time(15)), "svc-words"),
    booked("j-es-cejas", "es",
           ("¿tienen hueco para depilarme las cejas el sábado a las 10?", "vale"),
           ("sobrancelha", "larissa", SAT, time(10)), "svc-words"),
    booked("j-es-tinte", "es", ("quiero hacerme el tinte con Beatriz el miércoles a las 9", "sí"),
           ("cor", "beatriz", WED, time(9)), "svc-words"),
    booked("j-es-fisioterapia-lunes-7", "es",
           ("necesito una sesión de fisioterapia el lunes 7 a las 9", "sí"),
           ("fisio", "renata", MON_7, time(9)), "svc-words"),
    booked("j-es-dentro-de-3-dias", "es", ("pedicura dentro de 3 días a las 11", "sí"),
           ("pes", "larissa", THU, time(11)), "rel-dates"),
    booked("j-es-30-del-mes-que-viene", "es",
           ("drenaje linfático el 30 del mes que viene a las 9", "sí"),
           ("drenagem", "renata", WED_30, time(9)), "rel-dates"),
    booked("j-es-en-una-semana", "es", ("corte de pelo con Thiago en una semana a las 17", "sí"),
           ("corte_m", "thiago", MON_7, time(17)), "rel-dates"),
    booked("j-es-antes-del-mediodia", "es",
           ("manicura el viernes antes del mediodía, la primera que haya", "sí"),
           ("mani", "larissa", FRI, time(9)), "ranges"),
    booked("j-es-despues-de-las-4", "es",
           ("¿hay algo para barba el jueves después de las 4?", "la primera", "sí"),
           ("barba", "thiago", THU, time(16)), "ranges"),
    booked("j-es-entre-las-10-y-las-12", "es",
           ("fisioterapia el martes entre las 10 y las 12", "a las 11", "sí"),
           ("fisio", "renata", TUE, time(11)), "ranges"),
    booked("j-es-lo-mas-temprano-por-la-tarde", "es",
           ("lo más temprano posible el sábado por la tarde para pedicura", "sí"),
           ("pes", "larissa", SAT, time(13)), "earliest"),
    booked("j-es-corte-y-barba", "es", ("corte y barba con Thiago el viernes a las 15", "sí"),
           ("corte_m", "thiago", FRI, time(15)), "multi",
           (("barba", "thiago", FRI, time(15, 30)),)),
    listing("j-es-que-citas-tengo", "es", ("¿qué citas tengo?",)),
    changed("j-es-cancelar-miercoles", "es", ("quiero cancelar mi cita del miércoles", "sí"),
            FISIO_WED),
    changed("j-es-pasar-manicura", "es", ("¿puedo pasar mi manicura al viernes a las 10?", "sí"),
            MANI_SAT, (FRI, time(10))),
    booked("j-es-precio-en-medio", "es",
           ("pedicura con Larissa el jueves a las 10", "¿cuánto cuesta?", "sí, resérvala"),
           ("pes", "larissa", THU, time(10)), "mid-price"),
    hours("j-es-a-que-hora-abren", "es", ("¿a qué hora abren?",), OPENS_8),
    abstains("j-es-aire-acondicionado", "es", ("¿tienen aire acondicionado?",)),
    faq("j-es-aceptan-tarjeta", "es", ("¿aceptan tarjeta?",), "payment"),
    nothing("j-es-loop-lo-de-siempre", "es",
            ("lo de siempre", "eso que me hago siempre", "ya sabes cuál"), "loops"),
]  # fmt: skip
