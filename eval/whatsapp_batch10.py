"""The tenth batch, blind: written from categories (never from a reported sentence, and without
reading the offline model's words or grammar) and run before any change for it (baseline:
``eval/baselines/whatsapp-batch10-before.md``), in Portuguese, English and Spanish, on a
business of another kind: a dental clinic ("Clínica Odontológica Pequi": an assessment
consultation, prophylaxis (the cleaning), laser whitening, resin fillings, root canal sessions
and braces maintenance) that configured **no aliases**, so "limpeza", "cleaning", "limpieza",
"filling", "empaste", "root canal", "conducto", "braces", "ortodoncia", "whitening",
"blanqueamiento" must be understood from the customer's own words or another language.

Categories, as in :mod:`eval.whatsapp_batch9`: booking with every detail in one message, the
customer giving their name (``one-message``); booking step by step, one detail a message
(``step-by-step``); which professional does a service (``who-does``); a price (``price``); how
long a service takes (``duration``); whether a professional works a given weekday
(``works-day``: they do not, and the reply names a day they do); the earliest and the latest
time of a day, booked (``earliest``, ``latest``); "semana que vem"/"next week"/"la semana que
viene" (``next-week``); a date ("dia 4", "December 2nd", "el 3 de diciembre"; ``date``); a
weekday and a time (``weekday-time``); cancelling one of two appointments of the same service
and moving one (``appointments``); FAQ questions (``faq``: insurance plans, children,
emergencies); a service the clinic does not offer, followed by a "yes" (nothing booked;
``not-offered``); emoji answers (``emoji``: 👍/👌/✅ are a yes, 👎 a no). Wrong-write bait: a
yes on a condition (``conditional-yes``: a condition that cannot hold — a professional who is
not in that day, a price below the service's, more instalments than the FAQ allows — books
nothing; "sí, pero mejor a las 12" books the new time after its own yes); "ok" to a message
that was no proposal (``ok-not-proposal``); a "no" (``declined``); a question right after a
proposal, the conversation's last message (``question-after-proposal``: not a yes).

New categories: a part of the day instead of a time ("depois do almoço", "after work", "en la
tarde"), the times of that part listed, then one picked in the next message, which only one
professional can take (``day-part``: listed with ``check_availability``, then proposed and
confirmed); two services in one message, booked as one visit back to back after a single yes
(``two-services``); the customer correcting themself in the same message ("quinta as 10h, nao
pera, sexta", "3pm — sorry, I meant 4pm", "a las 11, perdón, a las 11 y media": the corrected
value is booked; ``self-correction``); a professional's name misspelled ("iasmim", "Enrique",
"Beatris"; ``name-misspelled``). Every case also requires that no two consecutive replies are
the same text.

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid):
"hoje"/"today" is Monday 11/30 (nothing before 10:00), "amanhã"/"tomorrow" Tuesday 12/01,
Wednesday 12/02 ("December 2nd"), Thursday 12/03 ("el 3 de diciembre"), Friday 12/04 ("dia
4"), Saturday 12/05; next week's Monday is 12/07 ("lunes 7 de diciembre"), Tuesday 12/08,
Wednesday 12/09. No case says a bare "Monday"/"segunda"/"lunes" to book (said on a Monday it
could mean today or next week).

Beatriz Lacerda (general dentist: assessment, cleaning, fillings) works Monday to Friday
08:00–12:00 and 13:00–17:00 (lunch 12:00–13:00); Henrique Tavares (endodontist: assessment,
fillings, root canals) works only Tuesday and Thursday 13:00–20:00 and Saturday 08:00–12:00;
Yasmin Okabe (orthodontist and aesthetic dentist: cleaning, whitening, braces maintenance)
works Monday, Wednesday and Friday 10:00–19:00. So root canals are only Henrique's, whitening
and braces only Yasmin's; on Tuesday and Thursday a cleaning is only Beatriz's, a filling or an
assessment after 17:00 only Henrique's; before 10:00 a cleaning is only Beatriz's, after 17:00
only Yasmin's; on Saturday only Henrique is in (no cleaning at all). Durations: the assessment
and braces maintenance 30 minutes, cleaning and fillings 60, whitening and root canals 90; so
Friday's latest whitening is 17:30, Saturday's latest root canal 10:30, Thursday's latest
filling 19:00 (Henrique; Beatriz's last is 16:00), Thursday's earliest root canal 13:00,
Wednesday's earliest cleaning 08:00 (Beatriz) and Friday's earliest whitening 10:00. Prices:
assessment R$ 120, cleaning R$ 180, whitening R$ 850, filling R$ 220, root canal R$ 650 a
session, braces maintenance R$ 130. The FAQ (in Portuguese only, with no entry about opening
hours) says the clinic takes Odontoprev and Amil Dental, splits treatments from R$ 500 in up to
6 instalments, sees children from 3 years old, fits emergencies in the same day by phone, and
does fillings and root canals under local anaesthesia. It does no implants, veneers or
dentures. The customer has, in the appointment cases, two root canal sessions with Henrique
(Tuesday 14:00 and Thursday 15:00), braces maintenance with Yasmin on Wednesday at 11:00 and a
filling with Beatriz on Friday at 09:00.
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

SALON = "pequi"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))
NEXT_MON, NEXT_TUE, NEXT_WED = (date(2026, 12, d) for d in (7, 8, 9))

SERVICES = {
    "avaliacao": (
        "Consulta de Avaliação",
        30,
        12000,
        "Exame clínico completo, radiografia se necessário e plano de tratamento.",
    ),
    "limpeza": (
        "Profilaxia e Remoção de Tártaro",
        60,
        18000,
        "Limpeza profissional: raspagem do tártaro, polimento e aplicação de flúor.",
    ),
    "clareamento": (
        "Clareamento a Laser",
        90,
        85000,
        "Clareamento feito no consultório, com gel e luz.",
    ),
    "restauracao": (
        "Restauração em Resina",
        60,
        22000,
        "Cárie ou dente lascado restaurado com resina da cor do dente.",
    ),
    "canal": ("Tratamento de Canal", 90, 65000, "Endodontia; valor por sessão."),
    "aparelho": (
        "Manutenção Ortodôntica",
        30,
        13000,
        "Ajuste mensal do aparelho fixo (troca de fios e borrachinhas).",
    ),
}

PEQUI = SalonSpec(
    name="Clínica Odontológica Pequi",
    services=SERVICES,
    # No aliases: the clinic wrote its catalog and nothing else.
    service_aliases={key: () for key in SERVICES},
    professionals={
        "beatriz": (
            "Beatriz Lacerda",
            "Cirurgiã-dentista clínica geral",
            ("avaliacao", "limpeza", "restauracao"),
        ),
        "henrique": ("Henrique Tavares", "Endodontista", ("avaliacao", "restauracao", "canal")),
        "yasmin": (
            "Yasmin Okabe",
            "Ortodontista e dentista estética",
            ("limpeza", "clareamento", "aparelho"),
        ),
    },
    hours={
        "beatriz": tuple(
            WorkingHours(day_of_week=d, start=start, end=end)
            for d in range(1, 6)
            for start, end in ((time(8), time(12)), (time(13), time(17)))
        ),
        "henrique": (
            *(WorkingHours(day_of_week=d, start=time(13), end=time(20)) for d in (2, 4)),
            WorkingHours(day_of_week=6, start=time(8), end=time(12)),
        ),
        "yasmin": tuple(
            WorkingHours(day_of_week=d, start=time(10), end=time(19)) for d in (1, 3, 5)
        ),
    },
    # Written in Portuguese only, and with no entry about opening hours.
    faq={
        "address": (
            "Onde fica a clínica?",
            "Rua Pium-í, 1180, sala 402 — Sion, Belo Horizonte.",
            ("endereço", "localização"),
        ),
        "insurance": (
            "Vocês aceitam convênio?",
            "Atendemos pelos planos Odontoprev e Amil Dental; para outros planos o atendimento é "
            "particular, com recibo para você pedir reembolso.",
            ("convênio", "plano odontológico", "seguro"),
        ),
        "payment": (
            "Dá para parcelar?",
            "Tratamentos a partir de R$ 500 podem ser parcelados em até 6x sem juros no cartão "
            "de crédito.",
            ("parcelar", "parcelamento", "pagamento", "cartão"),
        ),
        "emergency": (
            "Vocês atendem urgência?",
            "Sim: dor forte, dente quebrado ou inchaço são encaixados no mesmo dia; ligue para "
            "(31) 3555-0192.",
            ("urgência", "emergência", "dor"),
        ),
        "kids": (
            "Vocês atendem crianças?",
            "Sim, a partir de 3 anos, sempre com um responsável presente na consulta.",
            ("criança", "infantil", "filho"),
        ),
        "anesthesia": (
            "Os procedimentos são feitos com anestesia?",
            "Sim, restaurações e tratamentos de canal são feitos com anestesia local; a "
            "limpeza normalmente não precisa.",
            ("anestesia", "dói"),
        ),
        "cancellation": (
            "Qual é a política de cancelamento?",
            "Desmarcações com até 24 horas de antecedência são gratuitas; faltas sem aviso têm "
            "taxa de R$ 50.",
            ("cancelamento", "desmarcar", "falta"),
        ),
    },
    faq_facts={
        "address": ("Pium",),
        "insurance": ("Odontoprev",),
        "payment": ("6x", "6 vezes", "6 instalments", "6 installments", "6 cuotas", "seis"),
        "emergency": ("3555-0192",),
        "kids": ("3 anos", "3 years", "three years", "3 años", "tres años"),
        "anesthesia": ("anestesia local", "local anaesthe", "local anesthe"),
        "cancellation": ("24 horas", "24 hours", "24 h"),
    },
)
SALONS[SALON] = PEQUI

CANAL_TUE = Booked("canal", "henrique", local(TUE, time(14)))
CANAL_THU = Booked("canal", "henrique", local(THU, time(15)))
APARELHO_WED = Booked("aparelho", "yasmin", local(WED, time(11)))
RESTAURACAO_FRI = Booked("restauracao", "beatriz", local(FRI, time(9)))
EXISTING = (CANAL_TUE, CANAL_THU, APARELHO_WED, RESTAURACAO_FRI)

# A proposal, the proposal changed as asked, the confirmed write (as :mod:`eval.whatsapp`).
FIX = (BOOK, BOOK, BOOK)
# A part of the day: its times listed, then the one picked proposed, then confirmed.
LISTED = (CHECK, BOOK, BOOK)
_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, states = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.states,
)  # fmt: skip


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("q-pt-tudo-numa-mensagem", "pt",
           ("Oi boa tarde! Aqui é a Renata Alves, to com um dente doendo faz uns dias e queria "
            "marcar uma consulta de avaliacao com a dra Beatriz amanha as 8h, pode ser?", "sim"),
           ("avaliacao", "beatriz", TUE, time(8)), "one-message"),
    booked("q-pt-passo-a-passo", "pt",
           ("oii queria marcar uma limpeza", "com a yasmin", "quarta", "as 16h", "pode"),
           ("limpeza", "yasmin", WED, time(16)), "step-by-step"),
    states("q-pt-quem-faz-canal", "pt", ("quem faz tratamento de canal ai?",), "who-does",
           ("Henrique",)),
    states("q-pt-preco-clareamento", "pt", ("qto ta o clareamento?",), "price", ("850",)),
    states("q-pt-quanto-demora-canal", "pt", ("quanto tempo demora um canal?",), "duration",
           ("90", "1h30", "1h 30", "uma hora e meia", "1 hora e 30", "1 hora e meia", "1:30")),
    states("q-pt-henrique-segunda", "pt",
           ("o dr henrique atende segunda? so consigo esse dia",), "works-day",
           ("terça", "quinta", "sábado")),
    booked("q-pt-mais-cedo-quarta", "pt",
           ("qual o horario mais cedo q vcs tem pra limpeza na quarta? quero esse", "sim"),
           ("limpeza", "beatriz", WED, time(8)), "earliest"),
    booked("q-pt-ultimo-sexta", "pt",
           ("qual o ultimo horario de sexta pro clareamento? pode marcar nele", "sim"),
           ("clareamento", "yasmin", FRI, time(17, 30)), "latest"),
    booked("q-pt-semana-que-vem", "pt",
           ("manutenção do aparelho semana q vem na quarta as 15h", "sim"),
           ("aparelho", "yasmin", NEXT_WED, time(15)), "next-week"),
    booked("q-pt-dia-4", "pt",
           ("dia 4 as 11h da pra fazer uma restauração com a dra beatriz?", "pode ser"),
           ("restauracao", "beatriz", FRI, time(11)), "date"),
    booked("q-pt-terca-9h", "pt", ("tem limpeza terça as 9h?", "pode marcar"),
           ("limpeza", "beatriz", TUE, time(9)), "weekday-time"),
    changed("q-pt-desmarca-canal-de-terca", "pt",
            ("desmarca o canal de terça pfv, vou viajar", "isso"), CANAL_TUE),
    faq("q-pt-convenio", "pt", ("vcs atendem convenio? tenho amil dental",), "insurance"),
    nothing("q-pt-implante", "pt",
            ("vcs fazem implante? queria marcar pra quinta 14h", "sim"), "not-offered"),
    booked("q-pt-joinha", "pt", ("limpeza com a beatriz quinta 14h", "👍"),
           ("limpeza", "beatriz", THU, time(14)), "emoji"),
    nothing("q-pt-sim-se-for-com-a-yasmin", "pt",
            ("limpeza amanha 10h", "sim, se for com a Yasmin"), "conditional-yes", (BOOK,)),
    nothing("q-pt-sim-se-parcelar-10x", "pt",
            ("clareamento com a yasmin quarta 10h", "sim, se der pra parcelar em 10x"),
            "conditional-yes", (BOOK, SEARCH)),
    nothing("q-pt-ok-ao-endereco", "pt", ("onde fica a clinica?", "ok"), "ok-not-proposal",
            (SEARCH,)),
    nothing("q-pt-nao-deixa-quieto", "pt",
            ("manutenção do aparelho com a yasmin sexta 17h", "nao, deixa quieto"), "declined",
            (BOOK,)),
    nothing("q-pt-demora-muito", "pt",
            ("restauração com a dra beatriz quinta 10h", "demora muito?"),
            "question-after-proposal", (BOOK,)),
    booked("q-pt-depois-do-almoco", "pt",
           ("quais horarios vc tem pra limpeza quarta depois do almoço?", "pode ser as 16h30",
            "sim"),
           ("limpeza", "yasmin", WED, time(16, 30)), "day-part", tools=LISTED),
    booked("q-pt-avaliacao-e-limpeza", "pt",
           ("queria fazer uma avaliação e tb uma limpeza com a dra beatriz sexta as 14h", "sim"),
           ("avaliacao", "beatriz", FRI, time(14)), "two-services",
           (("limpeza", "beatriz", FRI, time(14, 30)),)),
    booked("q-pt-nao-pera-sexta", "pt",
           ("restauração quinta as 10h, nao pera, sexta as 10h", "sim"),
           ("restauracao", "beatriz", FRI, time(10)), "self-correction"),
    booked("q-pt-iasmim", "pt", ("limpeza com a iasmim sexta 15h", "sim"),
           ("limpeza", "yasmin", FRI, time(15)), "name-misspelled"),
    # -- English --------------------------------------------------------------------------------
    booked("q-en-all-in-one", "en",
           ("Hi, this is Tom Becker. I chipped a front tooth eating popcorn last night and I'd "
            "like to book a filling with Dr. Henrique on Thursday, December 3rd at 2:30pm. "
            "Cheers!", "yes"),
           ("restauracao", "henrique", THU, time(14, 30)), "one-message"),
    booked("q-en-step-by-step", "en",
           ("I need to get a filling", "Beatriz please", "Friday", "10:30", "yes"),
           ("restauracao", "beatriz", FRI, time(10, 30)), "step-by-step"),
    states("q-en-who-does-braces", "en", ("who does the braces adjustments?",), "who-does",
           ("Yasmin",)),
    states("q-en-filling-price", "en", ("how much is a filling?",), "price", ("220",)),
    states("q-en-cleaning-length", "en", ("how long does a teeth cleaning take?",), "duration",
           ("60", "1 hour", "one hour", "an hour", "1h")),
    states("q-en-yasmin-tuesdays", "en", ("Does Dr. Yasmin work on Tuesdays?",), "works-day",
           ("Monday", "Wednesday", "Friday")),
    booked("q-en-earliest-root-canal", "en",
           ("what's the earliest you can do a root canal on Thursday? book me in", "yes"),
           ("canal", "henrique", THU, time(13)), "earliest"),
    booked("q-en-latest-root-canal-saturday", "en",
           ("what's the latest slot for a root canal on Saturday? I'll take it", "yes"),
           ("canal", "henrique", SAT, time(10, 30)), "latest"),
    booked("q-en-next-week-monday", "en",
           ("cleaning with Beatriz on Monday next week at 9am", "yes"),
           ("limpeza", "beatriz", NEXT_MON, time(9)), "next-week"),
    booked("q-en-december-2nd", "en", ("whitening on December 2nd at 2pm?", "yes"),
           ("clareamento", "yasmin", WED, time(14)), "date"),
    booked("q-en-tuesday-6pm", "en", ("can I get a filling on Tuesday at 6pm?", "yes"),
           ("restauracao", "henrique", TUE, time(18)), "weekday-time"),
    changed("q-en-move-thursday-root-canal", "en",
            ("can you move my Thursday root canal to 6pm?", "yes"), CANAL_THU,
            (THU, time(18))),
    faq("q-en-kids", "en", ("do you see kids? my daughter is 5",), "kids"),
    nothing("q-en-veneers", "en",
            ("do you do veneers? I'd like to come in Friday at 11am", "yes"), "not-offered"),
    booked("q-en-ok-hand", "en", ("filling with Henrique Saturday 8am", "👌"),
           ("restauracao", "henrique", SAT, time(8)), "emoji"),
    nothing("q-en-thumbs-down", "en", ("whitening with Yasmin today at 4pm", "👎"), "emoji",
            (BOOK,)),
    nothing("q-en-yes-if-under-300", "en",
            ("root canal with Henrique on Thursday at 1pm", "yes if it's under 300"),
            "conditional-yes", (BOOK,)),
    nothing("q-en-ok-to-who-does", "en", ("who does whitening?", "ok thanks"),
            "ok-not-proposal"),
    nothing("q-en-too-pricey", "en",
            ("whitening Wednesday at 11am", "no thanks, too pricey for me right now"),
            "declined", (BOOK,)),
    nothing("q-en-take-amil", "en",
            ("cleaning with Yasmin Friday at 2pm", "do you take Amil Dental?"),
            "question-after-proposal", (BOOK,)),
    booked("q-en-after-work", "en",
           ("what times do you have for a filling on Thursday after work? I finish at 6",
            "7pm works", "yes"),
           ("restauracao", "henrique", THU, time(19)), "day-part", tools=LISTED),
    booked("q-en-cleaning-and-whitening", "en",
           ("can I get a cleaning and then a whitening with Yasmin on Wednesday at 2pm?", "yes"),
           ("limpeza", "yasmin", WED, time(14)), "two-services",
           (("clareamento", "yasmin", WED, time(15)),)),
    booked("q-en-sorry-i-meant-4", "en",
           ("whitening Wednesday at 3pm — sorry, I meant 4pm", "yes"),
           ("clareamento", "yasmin", WED, time(16)), "self-correction"),
    booked("q-en-dr-enrique", "en", ("filling with Dr Enrique on Tuesday at 3pm", "yes"),
           ("restauracao", "henrique", TUE, time(15)), "name-misspelled"),
    # -- Spanish --------------------------------------------------------------------------------
    booked("q-es-todo-en-uno", "es",
           ("¡Hola! Soy Valentina Ríos, llevo brackets desde hace un año y necesito el ajuste "
            "mensual de la ortodoncia con la doctora Yasmin el lunes 7 de diciembre a las 11. "
            "¡Gracias!", "sí"),
           ("aparelho", "yasmin", NEXT_MON, time(11)), "one-message"),
    booked("q-es-paso-a-paso", "es",
           ("quiero pedir turno para un blanqueamiento", "el miércoles", "a las 15", "sí"),
           ("clareamento", "yasmin", WED, time(15)), "step-by-step"),
    states("q-es-quien-hace-limpiezas", "es", ("¿quién hace limpiezas?",), "who-does",
           ("Beatriz",), ("Yasmin",)),
    states("q-es-precio-limpieza", "es", ("¿cuánto sale una limpieza?",), "price", ("180",)),
    states("q-es-cuanto-dura-evaluacion", "es", ("¿cuánto dura la consulta de evaluación?",),
           "duration", ("30",)),
    states("q-es-beatriz-sabados", "es", ("¿la doctora Beatriz trabaja los sábados?",),
           "works-day", ("lunes", "viernes")),
    booked("q-es-lo-mas-temprano-viernes", "es",
           ("lo más temprano posible el viernes para un blanqueamiento", "sí"),
           ("clareamento", "yasmin", FRI, time(10)), "earliest"),
    booked("q-es-ultima-hora-jueves", "es",
           ("la última hora del jueves para un empaste, por favor", "sí"),
           ("restauracao", "henrique", THU, time(19)), "latest"),
    booked("q-es-semana-que-viene", "es",
           ("una evaluación con el doctor Henrique la semana que viene, el martes a las 14",
            "sí"),
           ("avaliacao", "henrique", NEXT_TUE, time(14)), "next-week"),
    booked("q-es-3-de-diciembre", "es",
           ("el 3 de diciembre a las 17, tratamiento de conducto", "sí"),
           ("canal", "henrique", THU, time(17)), "date"),
    booked("q-es-miercoles-5-de-la-tarde", "es",
           ("¿me das turno para limpieza el miércoles a las 5 de la tarde?", "sí"),
           ("limpeza", "yasmin", WED, time(17)), "weekday-time"),
    changed("q-es-ortodoncia-al-viernes", "es",
            ("quiero pasar la ortodoncia del miércoles al viernes, a la misma hora", "sí"),
            APARELHO_WED, (FRI, time(11))),
    faq("q-es-urgencias", "es", ("¿atienden urgencias? se me partió un diente",), "emergency"),
    nothing("q-es-protesis", "es",
            ("¿hacen prótesis dentales? quería turno el miércoles a las 10", "sí"),
            "not-offered"),
    booked("q-es-check", "es", ("evaluación con Beatriz el viernes a las 16", "✅"),
           ("avaliacao", "beatriz", FRI, time(16)), "emoji"),
    nothing("q-es-si-con-beatriz", "es",
            ("empaste con Henrique el sábado a las 9", "sí, si es con la doctora Beatriz"),
            "conditional-yes", (BOOK,)),
    booked("q-es-si-pero-a-las-12", "es",
           ("limpieza con Yasmin el viernes a las 11", "sí, pero mejor a las 12", "sí"),
           ("limpeza", "yasmin", FRI, time(12)), "conditional-yes", tools=FIX),
    nothing("q-es-ok-a-los-horarios", "es",
            ("¿qué horarios tiene el doctor Henrique el jueves para un conducto?", "ok, gracias"),
            "ok-not-proposal", (CHECK,)),
    nothing("q-es-lo-pienso", "es",
            ("evaluación con Henrique el martes a las 15", "no, gracias, lo pienso y te escribo"),
            "declined", (BOOK,)),
    nothing("q-es-con-anestesia", "es",
            ("conducto con Henrique el sábado a las 8", "¿es con anestesia?"),
            "question-after-proposal", (BOOK,)),
    booked("q-es-en-la-tarde", "es",
           ("¿qué turnos tienen para evaluación el martes en la tarde?", "a las 5 y media",
            "sí"),
           ("avaliacao", "henrique", TUE, time(17, 30)), "day-part", tools=LISTED),
    booked("q-es-evaluacion-y-empaste", "es",
           ("una evaluación y un empaste con Henrique el jueves a las 14", "sí"),
           ("avaliacao", "henrique", THU, time(14)), "two-services",
           (("restauracao", "henrique", THU, time(14, 30)),)),
    booked("q-es-perdon-11-y-media", "es",
           ("evaluación el miércoles a las 11, perdón, a las 11 y media", "sí"),
           ("avaliacao", "beatriz", WED, time(11, 30)), "self-correction"),
    booked("q-es-doctora-beatris", "es",
           ("evaluación con la doctora Beatris el jueves a las 9", "sí"),
           ("avaliacao", "beatriz", THU, time(9)), "name-misspelled"),
]  # fmt: skip
