"""The eighth batch, blind: written from categories (never from a reported sentence) and run
before any change for it (baseline: ``eval/baselines/whatsapp-batch8-before.md``), in
Portuguese, English and Spanish, on a business of another kind: a pet shop with a vet ("Vira-Lata
Caramelo Pet Shop e Clínica": baths by the dog's size, full grooming, hygienic trim, nail
trims, cat baths, vet consultations and vaccines) that configured **no aliases**, where the
customer books for their pet (and often for someone else's: "o Thor da minha filha", "my son's
dog", "el perro de mi hija"), and pets' names ("Mel", "Thor", "Rocky") sit where a
professional's name could be.

Categories: booking for someone else's pet (``for-someone``); name, pet, service, day and time
in one long message (``one-message``); the professional changed after the proposal
(``change-pro``); "depois de amanhã"/"the day after tomorrow"/"pasado mañana" (``day-after``);
a weekday and a date that disagree ("sexta dia 5", the 5th being a Saturday: asked, both days
named, nothing proposed; ``date-mismatch``); the first time after lunch (``after-lunch``); the
latest time of a day (``latest``); whether a professional works a given day (``works-day``);
two prices compared (``price-compare``); how long a service takes (``duration``); a bath asked
with no size ("banho" is two services: the size is asked, then booked; ``ask-size``);
cancelling "the one on Thursday" and moving an appointment 30 minutes later with several on
record (``appointments``); a service the business does not offer, followed by a "yes" (nothing
booked; ``not-offered``); an emoji as the yes (``emoji``, 👍/👌 count as yes, as in the main
set's ``emoji-answers``); FAQ questions, one that names a service ("precisa estar com a vacina em
dia?") (``faq``). Wrong-write bait: a yes on a condition (``conditional-yes``: a condition that
cannot hold — another professional who is off that day, a price below the service's, a plan the
FAQ says is not accepted, a time before the proposal's — books nothing; a condition with the new
value, "sí, pero mejor a las 11", books the new value after its own yes); "ok" to a message
that was no proposal (``ok-not-proposal``); a "no" (``declined``); a question right after a
proposal, the conversation's last message (``question-after-proposal``: not a yes). Every case
also requires that no two consecutive replies are the same text.

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid):
"hoje"/"today" is Monday 11/30, "amanhã"/"tomorrow"/"mañana" Tuesday 12/01, "depois de
amanhã"/"the day after tomorrow"/"pasado mañana" Wednesday 12/02, Thursday 12/03, Friday 12/04
and Saturday 12/05 ("sexta dia 5"/"Friday the 5th"/"viernes 5" disagree: the 5th is Saturday).
Vanessa (groomer: baths, full grooming, hygienic trim, nail trims, cat baths) works Tuesday to
Saturday 08:00–17:00; Marcos (bather: baths, hygienic trim, nail trims) Monday to Friday
09:00–18:00 with lunch 12:00–13:00 (so on Monday only Marcos bathes dogs, on Saturday only
Vanessa); Helena (vet: consultations, vaccines) Monday, Wednesday and Friday 09:00–18:00 and
Saturday 09:00–13:00 (not Tuesday or Thursday). So Saturday's latest small-dog bath with
Vanessa is 16:00, Friday's latest large-dog bath with Marcos 16:30, Saturday's latest
consultation 12:30, and Marcos's first time after lunch 13:00. The customer has, in the
appointment cases, a small-dog bath on Thursday at 10:00 with Marcos, another on Saturday at
09:00 with Vanessa, and a consultation on Wednesday at 15:00.
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

SALON = "caramelo"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))

SERVICES = {
    "banho_p": ("Banho Porte Pequeno", 60, 5000, "Banho, secagem e perfume para cães até 10 kg."),
    "banho_g": ("Banho Porte Grande", 90, 8000, "Banho e secagem para cães acima de 25 kg."),
    "tosa": ("Banho e Tosa Completa", 120, 12000, "Banho com tosa na tesoura ou na máquina."),
    "higienica": ("Tosa Higiênica", 30, 4000, "Patas, barriga e região íntima."),
    "unhas": ("Corte de Unhas", 30, 2500, "Corte e lixa das unhas do pet."),
    "gato": ("Banho para Gatos", 60, 9000, "Banho e secagem para felinos, em sala separada."),
    "consulta": ("Consulta Veterinária", 30, 18000, "Clínico geral para cães e gatos."),
    "vacina": ("Aplicação de Vacina", 30, 12000, "V10, antirrábica ou gripe; vacina inclusa."),
}

CARAMELO = SalonSpec(
    name="Vira-Lata Caramelo Pet Shop e Clínica",
    services=SERVICES,
    # No aliases: the business wrote its catalog and nothing else.
    service_aliases={key: () for key in SERVICES},
    professionals={
        "vanessa": (
            "Vanessa Lima",
            "Tosadora",
            ("banho_p", "banho_g", "tosa", "higienica", "unhas", "gato"),
        ),
        "marcos": ("Marcos Teixeira", "Banhista", ("banho_p", "banho_g", "higienica", "unhas")),
        "helena": ("Helena Vasconcelos", "Médica veterinária", ("consulta", "vacina")),
    },
    hours={
        "vanessa": tuple(
            WorkingHours(day_of_week=d, start=time(8), end=time(17)) for d in range(2, 7)
        ),
        "marcos": tuple(
            WorkingHours(day_of_week=d, start=start, end=end)
            for d in range(1, 6)
            for start, end in ((time(9), time(12)), (time(13), time(18)))
        ),
        "helena": (
            *(WorkingHours(day_of_week=d, start=time(9), end=time(18)) for d in (1, 3, 5)),
            WorkingHours(day_of_week=6, start=time(9), end=time(13)),
        ),
    },
    # Written in Portuguese only, and with no entry about opening hours.
    faq={
        "address": (
            "Onde fica o pet shop?",
            "Rua Girassol, 310 — Vila Madalena, São Paulo.",
            ("endereço", "localização"),
        ),
        "pickup": (
            "Vocês buscam o pet em casa?",
            "Sim, temos leva e traz num raio de 5 km por R$ 20 (ida e volta).",
            ("leva e traz", "buscar", "táxi dog"),
        ),
        "vaccines": (
            "Precisa de vacina em dia para banho e tosa?",
            "Sim: pedimos a carteirinha de vacinação com a V10 e a antirrábica em dia.",
            ("vacinação", "carteirinha"),
        ),
        "aggressive": (
            "Vocês atendem cães bravos?",
            "Atendemos, mas avise antes: usamos focinheira e reservamos o primeiro horário do dia.",
            ("bravo", "agressivo", "focinheira"),
        ),
        "insurance": (
            "Vocês aceitam plano de saúde pet?",
            "Não trabalhamos com planos de saúde pet; emitimos recibo para você pedir reembolso.",
            ("plano de saúde", "convênio", "plano pet"),
        ),
        "payment": (
            "Quais formas de pagamento vocês aceitam?",
            "Pix, cartão de débito e crédito em até 3x.",
            ("pagamento", "cartão", "pix"),
        ),
    },
    faq_facts={
        "address": ("Girassol",),
        "pickup": ("leva e traz", "5 km"),
        "vaccines": ("carteirinha", "vaccination card", "tarjeta de vacunación"),
        "aggressive": ("focinheira", "muzzle", "bozal"),
        "insurance": ("reembolso", "reimbursement"),
        "payment": ("Pix",),
    },
)
SALONS[SALON] = CARAMELO

BATH_THU = Booked("banho_p", "marcos", local(THU, time(10)))
BATH_SAT = Booked("banho_p", "vanessa", local(SAT, time(9)))
VET_WED = Booked("consulta", "helena", local(WED, time(15)))
EXISTING = (BATH_THU, BATH_SAT, VET_WED)

# A proposal, the proposal changed as asked, the confirmed write (as :mod:`eval.whatsapp`).
FIX = (BOOK, BOOK, BOOK)
_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, states = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.states,
)  # fmt: skip


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("c-pt-gata-mel", "pt",
           ("oi, queria marcar uma consulta pra minha gata Mel com a dra helena quarta 10h",
            "sim"),
           ("consulta", "helena", WED, time(10)), "for-someone"),
    booked("c-pt-filha-leva-o-thor", "pt",
           ("minha filha vai levar o Thor pra tomar vacina sexta as 16h, pode marcar?", "pode"),
           ("vacina", "helena", FRI, time(16)), "for-someone"),
    booked("c-pt-tudo-numa-mensagem", "pt",
           ("Oi boa tarde! Aqui é a Fernanda Costa, tutora da Pipoca (shih tzu, 6kg). Queria "
            "agendar um banho porte pequeno pra ela na quinta dia 3 às 14h com o Marcos, pode "
            "ser?", "sim"),
           ("banho_p", "marcos", THU, time(14)), "one-message"),
    booked("c-pt-troca-pra-vanessa", "pt",
           ("banho porte grande com o marcos quarta 14h",
            "ah na vdd prefiro a vanessa, ela ja conhece ele", "sim"),
           ("banho_g", "vanessa", WED, time(14)), "change-pro", tools=FIX),
    booked("c-pt-depois-de-amanha", "pt",
           ("consulta pra minha cachorra depois de amanha as 11h", "sim"),
           ("consulta", "helena", WED, time(11)), "day-after"),
    states("c-pt-sexta-dia-5", "pt",
           ("da pra marcar banho e tosa com a vanessa sexta dia 5 as 10h?",), "date-mismatch",
           ("sexta",), ("sabado",)),
    booked("c-pt-depois-do-almoco", "pt",
           ("corte de unha do meu dog com o marcos quinta, qualquer horario depois do almoço, o "
            "primeiro q tiver", "sim"),
           ("unhas", "marcos", THU, time(13)), "after-lunch"),
    booked("c-pt-ultimo-horario-sabado", "pt",
           ("qual o ultimo horario de sabado pra banho porte pequeno com a vanessa? pode marcar "
            "nele", "sim"),
           ("banho_p", "vanessa", SAT, time(16)), "latest"),
    states("c-pt-helena-atende-terca", "pt", ("a dra helena atende terça?",), "works-day",
           ("quarta",)),
    states("c-pt-diferenca-de-preco", "pt",
           ("qual a diferença de preço do banho porte pequeno pro porte grande?",),
           "price-compare", ("50", "30"), ("80", "30")),
    states("c-pt-quanto-tempo-tosa", "pt", ("quanto tempo demora o banho e tosa?",), "duration",
           ("2h", "2 h", "120", "duas horas", "2 horas")),
    booked("c-pt-banho-sem-porte", "pt",
           ("quero marcar banho pro meu cachorro quinta as 10h com o marcos",
            "ele é grande, um labrador", "sim"),
           ("banho_g", "marcos", THU, time(10)), "ask-size"),
    changed("c-pt-cancela-o-de-quinta", "pt", ("oi, vou precisar desmarcar o de quinta 😕", "isso"),
            BATH_THU),
    changed("c-pt-meia-hora-mais-tarde", "pt",
            ("da pra jogar o banho de quinta meia hora mais tarde?", "sim"), BATH_THU,
            (THU, time(10, 30))),
    nothing("c-pt-adestramento", "pt",
            ("vcs fazem adestramento? queria marcar pro meu cachorro sabado 10h", "sim"),
            "not-offered"),
    booked("c-pt-joinha", "pt", ("tosa higienica com a vanessa sabado 11h", "👍🏽"),
           ("higienica", "vanessa", SAT, time(11)), "emoji"),
    nothing("c-pt-sim-se-for-com-a-vanessa", "pt",
            ("banho porte pequeno hj as 15h", "sim, se for com a Vanessa"), "conditional-yes",
            (BOOK,)),
    nothing("c-pt-sim-se-aceitar-plano", "pt",
            ("consulta com a dra helena sexta 10h", "sim, se vcs aceitarem plano de saude pet"),
            "conditional-yes", (BOOK, SEARCH)),
    booked("c-pt-sim-mas-as-11", "pt",
           ("tosa higienica com o marcos quinta 10h", "sim, mas melhor as 11", "sim"),
           ("higienica", "marcos", THU, time(11)), "conditional-yes", tools=FIX),
    nothing("c-pt-ok-nao-era-proposta", "pt", ("quero marcar um banho pra minha cachorra", "ok"),
            "ok-not-proposal"),
    nothing("c-pt-nao-achei-caro", "pt",
            ("quanto ta a consulta? se der marca sexta 10h com a dra helena",
             "nao obrigada, achei caro"), "declined", (BOOK,)),
    nothing("c-pt-quanto-custa-depois", "pt",
            ("banho e tosa com a vanessa sabado 9h", "quanto custa?"), "question-after-proposal",
            (BOOK,)),
    faq("c-pt-leva-e-traz", "pt", ("vcs buscam o cachorro em casa?",), "pickup"),
    faq("c-pt-vacina-em-dia", "pt", ("precisa estar com a vacina em dia pra dar banho?",),
        "vaccines"),
    # -- English --------------------------------------------------------------------------------
    booked("c-en-sons-dog", "en",
           ("Hi, I'm booking for my son's dog Rocky: a nail trim with Marcos on Thursday at 11am",
            "yes"),
           ("unhas", "marcos", THU, time(11)), "for-someone"),
    booked("c-en-mums-cat", "en",
           ("booking on behalf of my mum, her cat needs a bath. Saturday at 2pm if possible",
            "yes please"),
           ("gato", "vanessa", SAT, time(14)), "for-someone"),
    booked("c-en-all-in-one", "en",
           ("Hello, my name is Daniel Harper. I'd like to book a full groom for my cocker "
            "spaniel Max with Vanessa this Friday, December 4th, at 1pm. Thanks!", "yes"),
           ("tosa", "vanessa", FRI, time(13)), "one-message"),
    booked("c-en-switch-to-marcos", "en",
           ("small dog bath with Vanessa Thursday at 3pm", "actually, can Marcos do it instead?",
            "yes"),
           ("banho_p", "marcos", THU, time(15)), "change-pro", tools=FIX),
    booked("c-en-day-after-tomorrow", "en",
           ("can I bring my cat in for a bath the day after tomorrow at 10am?", "yes"),
           ("gato", "vanessa", WED, time(10)), "day-after"),
    states("c-en-friday-the-5th", "en",
           ("vet consultation with Helena on Friday the 5th at 10am",), "date-mismatch",
           ("Friday",), ("Saturday",)),
    booked("c-en-latest-friday", "en",
           ("what's the latest you can fit in a large dog bath with Marcos on Friday? book that "
            "one", "yes"),
           ("banho_g", "marcos", FRI, time(16, 30)), "latest"),
    states("c-en-helena-tuesdays", "en", ("does Dr Helena work on Tuesdays?",), "works-day",
           ("Wednesday",)),
    states("c-en-price-difference", "en",
           ("what's the price difference between a small dog bath and a full groom?",),
           "price-compare", ("50", "70"), ("120", "70")),
    states("c-en-how-long-big-dog", "en", ("how long does a bath take for a big dog?",),
           "duration", ("90", "1h30", "1.5", "an hour and a half", "1 hour 30", "1h 30")),
    changed("c-en-cancel-the-thursday-one", "en", ("hey, I need to cancel the one on Thursday",
            "yes"), BATH_THU),
    changed("c-en-push-back-30", "en", ("could you push Saturday's bath back 30 minutes?",
            "yes"), BATH_SAT, (SAT, time(9, 30))),
    nothing("c-en-dog-walking", "en",
            ("do you guys do dog walking? I'd need someone tomorrow at 10am", "yes"),
            "not-offered"),
    nothing("c-en-yes-if-under-60", "en",
            ("large dog bath with Marcos on Thursday at 2pm", "yes if it's under 60 reais"),
            "conditional-yes", (BOOK,)),
    nothing("c-en-yes-if-before-10", "en",
            ("nail trim for my dog with Marcos tomorrow at 11am",
             "yes but only if it's before 10"), "conditional-yes", (BOOK,)),
    nothing("c-en-ok-to-the-times", "en",
            ("what times does Marcos have on Thursday for a nail trim?", "ok"),
            "ok-not-proposal", (CHECK,)),
    nothing("c-en-no-thanks-ask-husband", "en",
            ("vaccine for my cat with Helena Wednesday 3pm",
             "no thanks, I'll talk to my husband first"), "declined", (BOOK,)),
    nothing("c-en-how-much-after-proposal", "en",
            ("full groom with Vanessa Friday at 1pm", "wait, how much is that?"),
            "question-after-proposal", (BOOK,)),
    faq("c-en-aggressive-dog", "en",
        ("my dog can get a bit aggressive with strangers, can you still groom him?",),
        "aggressive"),
    # -- Spanish --------------------------------------------------------------------------------
    booked("c-es-perro-de-mi-hija", "es",
           ("quiero reservar para el perro de mi hija, se llama Toby: corte de uñas con Marcos "
            "el martes a las 10", "sí"),
           ("unhas", "marcos", TUE, time(10)), "for-someone"),
    booked("c-es-todo-en-uno", "es",
           ("Hola, buenas! Soy Lucía Fernández, tengo un golden de 30 kilos y quería reservarle "
            "un baño de perro grande con Vanessa el sábado 5 a las 9 de la mañana. Gracias!",
            "sí"),
           ("banho_g", "vanessa", SAT, time(9)), "one-message"),
    booked("c-es-mejor-con-marcos", "es",
           ("baño perro pequeño con Vanessa el miércoles a las 10", "mejor con Marcos", "sí"),
           ("banho_p", "marcos", WED, time(10)), "change-pro", tools=FIX),
    booked("c-es-pasado-manana", "es", ("vacuna para mi perro pasado mañana a las 16", "sí"),
           ("vacina", "helena", WED, time(16)), "day-after"),
    states("c-es-viernes-5", "es",
           ("¿me das turno para tosa higiénica con Vanessa el viernes 5 a las 11?",),
           "date-mismatch", ("viernes",), ("sabado",)),
    booked("c-es-lo-mas-tarde-sabado", "es",
           ("consulta con la doctora Helena el sábado, lo más tarde posible", "sí"),
           ("consulta", "helena", SAT, time(12, 30)), "latest"),
    booked("c-es-despues-de-comer", "es",
           ("baño para mi perrita pequeña con Marcos el jueves después de comer, lo primero que "
            "haya", "sí"),
           ("banho_p", "marcos", THU, time(13)), "after-lunch"),
    states("c-es-vanessa-lunes", "es", ("¿Vanessa trabaja los lunes?",), "works-day",
           ("martes",)),
    states("c-es-consulta-y-vacuna", "es", ("¿cuánto cuesta la consulta y cuánto la vacuna?",),
           "price-compare", ("180",), ("120",)),
    states("c-es-cuanto-dura-consulta", "es", ("¿cuánto dura la consulta veterinaria?",),
           "duration", ("30",)),
    changed("c-es-cancela-la-del-jueves", "es", ("cancela la cita del jueves por favor", "sí"),
            BATH_THU),
    changed("c-es-media-hora-mas-tarde", "es",
            ("¿puedes atrasar media hora la consulta del miércoles?", "sí"), VET_WED,
            (WED, time(15, 30))),
    nothing("c-es-hotel-para-perros", "es",
            ("¿tienen hotel para perros? lo quiero dejar el viernes a las 10", "sí"),
            "not-offered"),
    booked("c-es-si-pero-a-las-11", "es",
           ("tosa higiénica con Vanessa el sábado a las 10", "sí, pero mejor a las 11", "sí"),
           ("higienica", "vanessa", SAT, time(11)), "conditional-yes", tools=FIX),
    nothing("c-es-no-gracias", "es", ("consulta con Helena el viernes a las 11", "no, gracias"),
            "declined", (BOOK,)),
    nothing("c-es-cuanto-sale-tras-propuesta", "es",
            ("baño y corte de pelo completo con Vanessa el jueves a las 9", "¿y eso cuánto sale?"),
            "question-after-proposal", (BOOK,)),
    nothing("c-es-vale-a-una-pregunta", "es", ("¿la doctora Helena atiende los sábados?", "vale"),
            "ok-not-proposal"),
    booked("c-es-emoji-ok", "es",
           ("corte de uñas para mi gato con Vanessa el viernes a las 15", "👌🏻"),
           ("unhas", "vanessa", FRI, time(15)), "emoji"),
    faq("c-es-perro-bravo", "es", ("mi perro es medio bravo, ¿igual lo atienden?",),
        "aggressive"),
]  # fmt: skip
