"""The ninth batch, blind: written from categories (never from a reported sentence) and run
before any change for it, in Portuguese, English and Spanish, on a business of another kind: a
physiotherapy and pilates studio ("Estúdio Aroeira Fisioterapia & Pilates": a physiotherapy
assessment, physiotherapy sessions, private and duo pilates, lymphatic drainage and RPG) that
configured **no aliases**, so "physio", "private pilates class", "pilates en pareja", "drenaje"
must be understood from the customer's own words or another language.

Categories: booking with every detail in one message (``one-message``); booking step by step,
one detail a message (``step-by-step``); which professional does a service (``who-does``); a
price (``price``); how long a service takes (``duration``); whether a professional works a
given weekday (``works-day``: they do not, and the reply names a day they do); the earliest
and the latest time of a day, booked (``earliest``, ``latest``); "semana que vem"/"next
week"/"la semana que viene" (``next-week``); a date ("dia 3", "December 4th", "el 4 de
diciembre"; ``date``); a weekday and a time (``weekday-time``); cancelling one of several
appointments and moving one (``appointments``); FAQ questions (``faq``: insurance, parking, what
to wear, the cancellation policy, a doctor's referral); a service the studio does not offer,
followed by a "yes" (nothing booked; ``not-offered``); emoji answers (``emoji``: 👍/👌/✅ are a
yes, 👎 a no). Wrong-write bait: a yes on a condition (``conditional-yes``: a condition that
cannot hold — another professional who does not do the service or is not in at that time, a
plan the FAQ says is not accepted, a time of day the proposal is not in — books nothing; "sí,
pero mejor a las 16" books the new time after its own yes); "ok" to a message that was no
proposal (``ok-not-proposal``); a "no" (``declined``); a question right after a proposal, the
conversation's last message (``question-after-proposal``: not a yes). Every case also requires
that no two consecutive replies are the same text.

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid):
"hoje"/"today" is Monday 11/30 (nothing before 10:00), "amanhã"/"tomorrow" Tuesday 12/01,
Wednesday 12/02, Thursday 12/03 ("dia 3"), Friday 12/04 ("December 4th", "el 4 de
diciembre"), Saturday 12/05; next week's Monday is 12/07, Tuesday 12/08, Friday 12/11.
Camila Rezende (physiotherapist: assessment, physiotherapy, RPG) works Monday to Friday
08:00–12:00 and 14:00–18:00 (lunch 12:00–14:00); Rodrigo Sato (pilates instructor: private
and duo pilates) works only Tuesday and Thursday 07:00–15:00 and Saturday 08:00–12:00 (not
Monday, Wednesday or Friday); Patrícia Nogueira (physiotherapist and pilates instructor:
physiotherapy, private pilates, lymphatic drainage) works Monday to Friday 12:00–20:00. So
before noon private pilates is only Rodrigo's and physiotherapy only Camila's; on Thursday at
15:00 private pilates is only Patrícia's (Rodrigo's last hour starts at 14:00); duo pilates is
only Rodrigo's, drainage only Patrícia's, assessment and RPG only Camila's. Durations: the
assessment, physiotherapy and both pilates 60 minutes, drainage 90, RPG 45; so Friday's latest
drainage is 18:30, Saturday's latest duo pilates 11:00, Friday's latest assessment 17:00, and
today's earliest physiotherapy with Camila 10:00. The customer has, in the appointment cases,
physiotherapy with Camila on Tuesday at 09:00 and on Thursday at 15:00, private pilates with
Rodrigo on Saturday at 09:00, and drainage with Patrícia on Wednesday at 17:00.
"""

from __future__ import annotations

from datetime import date, time

from agent_service.domain.catalog import WorkingHours
from eval.dataset import (
    BOOK,
    CHECK,
    SEARCH,
    EvalCase,
)
from eval.harness import SALONS, Booked, SalonSpec, local
from eval.salon_cases import SalonCases

SALON = "aroeira"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))
NEXT_MON, NEXT_TUE, NEXT_FRI = (date(2026, 12, d) for d in (7, 8, 11))

SERVICES = {
    "avaliacao": (
        "Avaliação Fisioterapêutica",
        60,
        15000,
        "Anamnese, testes físicos e plano de tratamento.",
    ),
    "fisio": ("Sessão de Fisioterapia", 60, 13000, "Terapia manual, exercícios e eletroterapia."),
    "pilates_ind": ("Pilates Individual", 60, 12000, "Aula no aparelho só com o instrutor."),
    "pilates_dupla": ("Pilates em Dupla", 60, 16000, "Aula para duas pessoas; valor por dupla."),
    "drenagem": (
        "Drenagem Linfática",
        90,
        16000,
        "Manual, corpo inteiro; ótima no pós-operatório.",
    ),
    "rpg": ("RPG", 45, 14000, "Reeducação Postural Global, posturas ativas com alongamento."),
}

AROEIRA = SalonSpec(
    name="Estúdio Aroeira Fisioterapia & Pilates",
    services=SERVICES,
    # No aliases: the studio wrote its catalog and nothing else.
    service_aliases={key: () for key in SERVICES},
    professionals={
        "camila": ("Camila Rezende", "Fisioterapeuta", ("avaliacao", "fisio", "rpg")),
        "rodrigo": ("Rodrigo Sato", "Instrutor de pilates", ("pilates_ind", "pilates_dupla")),
        "patricia": (
            "Patrícia Nogueira",
            "Fisioterapeuta e instrutora de pilates",
            ("fisio", "pilates_ind", "drenagem"),
        ),
    },
    hours={
        "camila": tuple(
            WorkingHours(day_of_week=d, start=start, end=end)
            for d in range(1, 6)
            for start, end in ((time(8), time(12)), (time(14), time(18)))
        ),
        "rodrigo": (
            *(WorkingHours(day_of_week=d, start=time(7), end=time(15)) for d in (2, 4)),
            WorkingHours(day_of_week=6, start=time(8), end=time(12)),
        ),
        "patricia": tuple(
            WorkingHours(day_of_week=d, start=time(12), end=time(20)) for d in range(1, 6)
        ),
    },
    # Written in Portuguese only, and with no entry about opening hours.
    faq={
        "address": (
            "Onde fica o estúdio?",
            "Avenida Jacarandá, 455, sala 3 — Moema, São Paulo.",
            ("endereço", "localização"),
        ),
        "insurance": (
            "Vocês atendem convênio?",
            "Não atendemos convênio direto; emitimos nota fiscal e relatório para você pedir "
            "reembolso ao seu plano.",
            ("convênio", "plano de saúde", "seguro"),
        ),
        "parking": (
            "Tem estacionamento?",
            "Sim, temos 4 vagas gratuitas em frente ao estúdio.",
            ("estacionamento", "vaga", "carro"),
        ),
        "clothing": (
            "Que roupa devo usar?",
            "Roupa confortável que permita movimento (legging, short, camiseta); no pilates "
            "usamos meia antiderrapante.",
            ("roupa", "vestimenta", "meia"),
        ),
        "cancellation": (
            "Qual é a política de cancelamento?",
            "Desmarcações com até 12 horas de antecedência não são cobradas; depois disso a "
            "sessão é cobrada integralmente.",
            ("cancelamento", "desmarcar", "falta"),
        ),
        "referral": (
            "Preciso de pedido médico?",
            "Não é obrigatório; se tiver pedido médico ou exames recentes, traga na avaliação.",
            ("pedido médico", "encaminhamento", "exames"),
        ),
    },
    faq_facts={
        "address": ("Jacarandá",),
        "insurance": ("reembolso", "reimbursement"),
        "parking": ("4 vagas", "4 spaces", "four spaces", "4 parking", "4 plazas"),
        "clothing": ("antiderrapante", "non-slip", "antideslizante"),
        "cancellation": ("12 horas", "12 hours", "12 h"),
        "referral": ("exames", "exams", "exámenes", "pedido médico"),
    },
)
SALONS[SALON] = AROEIRA

FISIO_TUE = Booked("fisio", "camila", local(TUE, time(9)))
FISIO_THU = Booked("fisio", "camila", local(THU, time(15)))
PILATES_SAT = Booked("pilates_ind", "rodrigo", local(SAT, time(9)))
DREN_WED = Booked("drenagem", "patricia", local(WED, time(17)))
EXISTING = (FISIO_TUE, FISIO_THU, PILATES_SAT, DREN_WED)

# A proposal, the proposal changed as asked, the confirmed write (as :mod:`eval.whatsapp`).
FIX = (BOOK, BOOK, BOOK)
_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, states = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.states,
)  # fmt: skip


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("m-pt-tudo-numa-mensagem", "pt",
           ("Oi, boa tarde! Sou a Juliana Prates, to com uma dor na lombar faz umas semanas e "
            "queria marcar uma avaliação fisioterapeutica com a Dra Camila na quarta dia 2 as "
            "10h, pode ser?", "sim"),
           ("avaliacao", "camila", WED, time(10)), "one-message"),
    booked("m-pt-passo-a-passo", "pt",
           ("oii queria marcar uma drenagem linfatica", "sexta", "as 14h", "pode marcar"),
           ("drenagem", "patricia", FRI, time(14)), "step-by-step"),
    states("m-pt-quem-faz-rpg", "pt", ("quem faz o RPG ai?",), "who-does", ("Camila",)),
    states("m-pt-preco-dupla", "pt", ("qto ta o pilates em dupla? eu e meu marido",), "price",
           ("160",)),
    states("m-pt-quanto-dura-drenagem", "pt", ("a drenagem dura qto tempo mais ou menos?",),
           "duration", ("90", "1h30", "1h 30", "uma hora e meia", "1 hora e 30", "1:30")),
    states("m-pt-rodrigo-segunda", "pt",
           ("o Rodrigo trabalha segunda? pq so consigo nesse dia",), "works-day", ("terça",)),
    booked("m-pt-primeiro-de-hoje", "pt",
           ("qual o primeiro horario q a dra camila tem hj pra fisioterapia? quero esse", "sim"),
           ("fisio", "camila", MON, time(10)), "earliest"),
    booked("m-pt-ultimo-de-sexta", "pt",
           ("qual o ultimo horario de sexta pra drenagem linfatica? pode ser nele", "sim"),
           ("drenagem", "patricia", FRI, time(18, 30)), "latest"),
    booked("m-pt-semana-que-vem", "pt",
           ("pilates em dupla com o rodrigo semana q vem na terça as 9h", "sim"),
           ("pilates_dupla", "rodrigo", NEXT_TUE, time(9)), "next-week"),
    booked("m-pt-dia-3", "pt", ("tem como fazer a avaliação dia 3 às 15h?", "pode ser"),
           ("avaliacao", "camila", THU, time(15)), "date"),
    booked("m-pt-quinta-11h", "pt", ("tem rpg quinta as 11h?", "pode marcar"),
           ("rpg", "camila", THU, time(11)), "weekday-time"),
    changed("m-pt-fisio-de-quinta-pra-sexta", "pt",
            ("preciso mudar a fisio de quinta pra sexta, mesmo horario", "sim"), FISIO_THU,
            (FRI, time(15))),
    changed("m-pt-cancela-a-de-terca", "pt", ("cancela a fisio de terça pfv, surgiu um imprevisto",
            "isso"), FISIO_TUE),
    faq("m-pt-convenio", "pt", ("vcs aceitam convenio? tenho unimed",), "insurance"),
    faq("m-pt-roupa", "pt", ("q roupa vc recomenda ir pro pilates?",), "clothing"),
    nothing("m-pt-acupuntura", "pt",
            ("vcs fazem acupuntura? queria marcar quinta 10h", "sim"), "not-offered"),
    nothing("m-pt-sim-se-for-com-a-patricia", "pt",
            ("pilates individual terça 8h", "sim, se for com a Patricia"), "conditional-yes",
            (BOOK,)),
    nothing("m-pt-sim-se-aceitar-convenio", "pt",
            ("fisio com a dra camila quarta 10h", "sim, se vcs aceitarem convenio"),
            "conditional-yes", (BOOK, SEARCH)),
    nothing("m-pt-ok-ao-endereco", "pt", ("qual o endereço do estudio?", "ok"),
            "ok-not-proposal", (SEARCH,)),
    nothing("m-pt-nao-outra-hora", "pt",
            ("pilates individual com o rodrigo quinta 9h", "nao, deixa pra outra hora"),
            "declined", (BOOK,)),
    nothing("m-pt-precisa-levar-exame", "pt",
            ("avaliação com a dra camila sexta 9h", "precisa levar exame?"),
            "question-after-proposal", (BOOK,)),
    booked("m-pt-joinha", "pt", ("rpg com a camila terça 16h", "👍"),
           ("rpg", "camila", TUE, time(16)), "emoji"),
    # -- English --------------------------------------------------------------------------------
    booked("m-en-all-in-one", "en",
           ("Hi there, this is Mark Ellison. I hurt my shoulder playing tennis last weekend and "
            "I'd like to book a physiotherapy session with Camila on Wednesday, December 2nd at "
            "9am. Thanks!", "yes"),
           ("fisio", "camila", WED, time(9)), "one-message"),
    booked("m-en-step-by-step", "en",
           ("I'd like to book a private pilates class", "Saturday", "10am please", "yes"),
           ("pilates_ind", "rodrigo", SAT, time(10)), "step-by-step"),
    states("m-en-who-does-duo", "en", ("which of your instructors teaches pilates for two?",),
           "who-does", ("Rodrigo",)),
    states("m-en-assessment-price", "en", ("how much is the initial assessment?",), "price",
           ("150",)),
    states("m-en-rpg-length", "en", ("how long is an RPG session?",), "duration", ("45",)),
    states("m-en-patricia-saturdays", "en", ("Does Patricia work on Saturdays?",), "works-day",
           ("Friday",)),
    booked("m-en-earliest-thursday", "en",
           ("what's the earliest physio slot with Camila on Thursday? book it for me", "yes"),
           ("fisio", "camila", THU, time(8)), "earliest"),
    booked("m-en-latest-duo-saturday", "en",
           ("what's the latest duo pilates you have on Saturday? I'll take it", "yes"),
           ("pilates_dupla", "rodrigo", SAT, time(11)), "latest"),
    booked("m-en-next-week-monday", "en", ("RPG with Camila on Monday next week at 2pm", "yes"),
           ("rpg", "camila", NEXT_MON, time(14)), "next-week"),
    booked("m-en-december-4th", "en", ("lymphatic drainage on December 4th at 1pm?", "yes"),
           ("drenagem", "patricia", FRI, time(13)), "date"),
    booked("m-en-thursday-3pm", "en", ("can I do a private pilates class on thursday 3pm?", "yes"),
           ("pilates_ind", "patricia", THU, time(15)), "weekday-time"),
    changed("m-en-move-tuesday-physio", "en",
            ("can you move my Tuesday physio to 10:30?", "yes"), FISIO_TUE, (TUE, time(10, 30))),
    changed("m-en-cancel-saturday-pilates", "en",
            ("please cancel my pilates on Saturday, I'll be travelling", "yes"), PILATES_SAT),
    faq("m-en-parking", "en", ("is there parking at the studio?",), "parking"),
    faq("m-en-cancellation-policy", "en", ("what's your cancellation policy?",), "cancellation"),
    nothing("m-en-sports-massage", "en",
            ("do you do sports massage? I'd want one tomorrow at 5pm", "yes"), "not-offered"),
    nothing("m-en-yes-if-before-noon", "en",
            ("duo pilates on Thursday at 2pm", "yes if it's before noon"), "conditional-yes",
            (BOOK,)),
    nothing("m-en-yes-if-with-patricia", "en",
            ("assessment with Camila on Wednesday at 3pm", "yes, as long as it's with Patricia"),
            "conditional-yes", (BOOK,)),
    nothing("m-en-ok-to-who-does", "en", ("who does RPG there?", "ok"), "ok-not-proposal"),
    nothing("m-en-no-never-mind", "en",
            ("lymphatic drainage Wednesday at 6pm", "no, never mind"), "declined", (BOOK,)),
    nothing("m-en-bring-anything", "en",
            ("private pilates with Rodrigo Tuesday 7am", "do I need to bring anything?"),
            "question-after-proposal", (BOOK,)),
    booked("m-en-ok-hand", "en", ("RPG Friday 10am", "👌"), ("rpg", "camila", FRI, time(10)),
           "emoji"),
    nothing("m-en-thumbs-down", "en", ("physio with Patricia today at 4pm", "👎"), "emoji",
            (BOOK,)),
    # -- Spanish --------------------------------------------------------------------------------
    booked("m-es-todo-en-uno", "es",
           ("¡Hola! Me llamo Sofía Márquez, estoy embarazada de 7 meses y se me hinchan mucho "
            "las piernas. Quería reservar un drenaje linfático con Patricia el jueves 3 de "
            "diciembre a las 17 h. ¡Gracias!", "sí"),
           ("drenagem", "patricia", THU, time(17)), "one-message"),
    booked("m-es-paso-a-paso", "es",
           ("quiero reservar una sesión de fisioterapia", "con Camila", "el miércoles a las 9",
            "sí"),
           ("fisio", "camila", WED, time(9)), "step-by-step"),
    states("m-es-quien-pilates-individual", "es",
           ("¿quién da las clases de pilates individual?",), "who-does", ("Rodrigo",),
           ("Patrícia",)),
    states("m-es-precio-rpg", "es", ("¿cuánto cuesta la sesión de RPG?",), "price", ("140",)),
    states("m-es-cuanto-dura-pareja", "es", ("¿cuánto dura una clase de pilates en pareja?",),
           "duration", ("60", "1 hora", "una hora", "1h")),
    states("m-es-rodrigo-miercoles", "es", ("¿Rodrigo trabaja los miércoles?",), "works-day",
           ("martes",)),
    booked("m-es-lo-mas-temprano-martes", "es",
           ("lo más temprano posible el martes para pilates individual", "sí"),
           ("pilates_ind", "rodrigo", TUE, time(7)), "earliest"),
    booked("m-es-ultima-evaluacion-viernes", "es",
           ("la última hora del viernes para una evaluación con Camila, por favor", "sí"),
           ("avaliacao", "camila", FRI, time(17)), "latest"),
    booked("m-es-semana-que-viene", "es",
           ("drenaje linfático la semana que viene, el viernes a las 12", "sí"),
           ("drenagem", "patricia", NEXT_FRI, time(12)), "next-week"),
    booked("m-es-4-de-diciembre", "es",
           ("el 4 de diciembre a las 11, fisioterapia con Camila", "sí"),
           ("fisio", "camila", FRI, time(11)), "date"),
    booked("m-es-jueves-3-de-la-tarde", "es",
           ("¿me reservas RPG el jueves a las 3 de la tarde?", "sí"),
           ("rpg", "camila", THU, time(15)), "weekday-time"),
    changed("m-es-drenaje-al-viernes", "es",
            ("quiero cambiar mi drenaje del miércoles al viernes a las 18", "sí"), DREN_WED,
            (FRI, time(18))),
    changed("m-es-cancela-fisio-jueves", "es", ("cancela mi fisio del jueves, porfa", "sí"),
            FISIO_THU),
    faq("m-es-seguro-medico", "es", ("¿trabajan con seguro médico?",), "insurance"),
    faq("m-es-orden-medica", "es", ("¿necesito orden médica para ir a fisioterapia?",),
        "referral"),
    nothing("m-es-yoga", "es", ("¿hacen yoga? quiero una clase el sábado a las 9", "sí"),
            "not-offered"),
    nothing("m-es-si-por-la-manana", "es",
            ("evaluación con Camila el martes a las 15", "sí, siempre que sea por la mañana"),
            "conditional-yes", (BOOK,)),
    booked("m-es-si-pero-a-las-16", "es",
           ("fisioterapia con Camila el martes a las 15", "sí, pero mejor a las 16", "sí"),
           ("fisio", "camila", TUE, time(16)), "conditional-yes", tools=FIX),
    nothing("m-es-ok-a-los-horarios", "es",
            ("¿qué horarios tiene Patricia el viernes para drenaje?", "ok, gracias"),
            "ok-not-proposal", (CHECK,)),
    nothing("m-es-al-final-no", "es",
            ("pilates individual con Rodrigo el sábado a las 8", "no, al final no"), "declined",
            (BOOK,)),
    nothing("m-es-donde-queda", "es",
            ("RPG con Camila el miércoles a las 14", "¿dónde queda el estudio?"),
            "question-after-proposal", (BOOK,)),
    booked("m-es-check", "es", ("drenaje con Patricia el martes a las 13", "✅"),
           ("drenagem", "patricia", TUE, time(13)), "emoji"),
]  # fmt: skip
