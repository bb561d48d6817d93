"""A second, independent conversation set: a barbershop and nail studio ("Barbearia Dom
Bigode", named and stocked unlike the demo's salon and the main set's) and customers writing
the way they do on WhatsApp — typos, no accents, abbreviations ("vc", "amanha", "pra", "tb"),
"2 da tarde", "14h30", "meio dia e meia", "half past two", "dia 5", "5/12", "the 12th",
corrections mid-flow, "tanto faz"/"any barber", one of several appointments described by
service, professional or day, several requests in one message, chit-chat, asking for a human.

"Next Friday"/"próxima sexta" said on a Monday is asked (this week's or next week's?): those
two cases answer the question ("dia 4", "the 4th"); their first version, without the answer,
expected the nearest Friday. Written before any fix for it (the baseline is in
``eval/baselines/whatsapp-before.md``), so it measures robustness to unseen phrasing rather
than the phrasings the model was tuned on.

The clock is Monday 2026-11-30 09:00 in São Paulo ("hoje" is Monday, "amanhã" Tuesday 12/01,
"dia 5" Saturday 12/05, "the 12th" Saturday 12/12). Lucas works Tuesday to Saturday 09:00–19:00,
Pedro Monday to Saturday 09:00–18:00 (so on Monday only Pedro cuts hair, after 18:00 only
Lucas), Fernanda Monday to Saturday 09:00–18:00, Camila the same with lunch 12:00–13:00.
"""

from __future__ import annotations

from datetime import date, time

from pydantic_evals import Case

from agent_service.domain.catalog import WorkingHours
from eval.dataset import (
    BOOK,
    CANCEL,
    HANDOFF,
    LIST_MINE,
    RESCHEDULE,
    SEARCH,
    Conversation,
    EvalCase,
    Expected,
    Language,
    Outcome,
)
from eval.harness import SALONS, SPLIT, Booked, SalonSpec, local

SALON = "bigode"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))
SAT_12 = date(2026, 12, 12)

BIGODE = SalonSpec(
    name="Barbearia Dom Bigode",
    services={
        "corte": ("Corte social", 30, 4500, "Máquina e tesoura, com lavagem."),
        "barba": ("Barba completa", 30, 3500, "Navalha e toalha quente."),
        "combo": ("Corte + barba", 60, 7000, "Corte social e barba completa."),
        "pemao": ("Pé e mão", 60, 6000, "Manicure e pedicure."),
        "gel": ("Esmaltação em gel", 45, 5000, "Esmalte em gel com cabine UV."),
    },
    service_aliases={
        "corte": ("corte", "corte de cabelo", "cabelo", "haircut", "men's haircut", "cut"),
        "barba": ("barba", "fazer a barba", "beard", "beard trim", "shave"),
        "combo": ("combo", "corte e barba", "cabelo e barba", "haircut and beard", "cut and beard"),
        "pemao": ("pe e mao", "manicure e pedicure", "mani pedi", "mani and pedi"),
        "gel": ("unha em gel", "unha de gel", "gel", "gel nails", "gel manicure"),
    },
    professionals={
        "lucas": ("Lucas Almeida", "Barbeiro", ("corte", "barba", "combo")),
        "pedro": ("Pedro Santos", "Barbeiro", ("corte", "barba", "combo")),
        "fernanda": ("Fernanda Oliveira", "Manicure", ("pemao", "gel")),
        "camila": ("Camila Rocha", "Nail designer", ("gel",)),
    },
    hours={
        "lucas": tuple(
            WorkingHours(day_of_week=d, start=time(9), end=time(19)) for d in range(2, 7)
        ),
        "camila": SPLIT,
    },
    faq={
        "address": (
            "Onde fica a barbearia?",
            "Estamos na Av. Brasil, 900, Jardim América.",
            ("endereço", "onde", "localização", "address", "where", "located", "location"),
        ),
        "payment": (
            "Quais formas de pagamento?",
            "Aceitamos Pix, débito e crédito.",
            ("pagamento", "pix", "cartão", "crédito", "débito", "payment", "card", "pay"),
        ),
        "hours": (
            "Qual o horário de funcionamento?",
            "Segunda a sábado, das 9h às 19h.",
            ("horário", "funcionamento", "abre", "fecha", "hours", "open", "close"),
        ),
        "kids": (
            "Vocês atendem crianças?",
            "Sim, cortamos cabelo de crianças a partir de 3 anos.",
            ("criança", "crianças", "infantil", "filho", "kids", "children", "child"),
        ),
        "address_en": (
            "Where is the barbershop?",
            "We are at 900 Av. Brasil, Jardim América.",
            ("address", "where", "located", "location"),
        ),
        "payment_en": (
            "How can I pay?",
            "We take Pix, debit and credit cards.",
            ("payment", "pay", "card", "credit", "debit", "pix"),
        ),
        "hours_en": (
            "What are your opening hours?",
            "Monday to Saturday, 9am to 7pm.",
            ("hours", "open", "close", "closing", "opening"),
        ),
    },
    localized_faq={
        # The kids entry has its English answer inside the entry (the other English answers
        # are separate entries, as a salon may keep them); Lírio's pets entry has none.
        "kids": {"en": ("Do you cut children's hair?", "Yes, we cut kids' hair from 3 years old.")},
    },
    faq_facts={
        "address": ("Av. Brasil",),
        "payment": ("Pix",),
        "hours": ("19h", "7pm"),
        "kids": ("3 anos", "3 years"),
    },
)
SALONS[SALON] = BIGODE

CUT_TUE = Booked("corte", "lucas", local(TUE, time(10)))
CUT_SAT = Booked("corte", "pedro", local(SAT, time(11)))
GEL_THU = Booked("gel", "fernanda", local(THU, time(15)))
BEARD_FRI = Booked("barba", "lucas", local(FRI, time(17)))


def _case(
    name: str,
    messages: tuple[str, ...],
    expected: Expected,
    booked: tuple[Booked, ...] = (),
) -> EvalCase:
    return Case(name=name, inputs=Conversation(messages, booked, SALON), metadata=expected)


def booked(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    what: tuple[str, str, date, time],
    category: str,
    tools: tuple[str, ...] = (BOOK, BOOK),
) -> EvalCase:
    service, professional, day, at = what
    expected = Expected(
        category=category,
        language=language,
        outcome="booked",
        tools=tools,
        service=service,
        professional=professional,
        start=local(day, at),
    )
    return _case(name, messages, expected)


def changed(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    existing: tuple[Booked, ...],
    target: Booked,
    to: tuple[date, time] | None = None,
) -> EvalCase:
    outcome: Outcome = "cancelled" if to is None else "rescheduled"
    tool = CANCEL if to is None else RESCHEDULE
    expected = Expected(
        category="wa-which-appointment",
        language=language,
        outcome=outcome,
        tools=(LIST_MINE, tool, tool),
        service=target.service,
        start=None if to is None else local(*to),
        target=target.start,
    )
    return _case(name, messages, expected, existing)


def nothing(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    category: str,
    tools: tuple[str, ...] = (),
    existing: tuple[Booked, ...] = (),
    outcome: Outcome = "nothing",
    faq: str | None = None,
) -> EvalCase:
    expected = Expected(category=category, language=language, outcome=outcome, tools=tools, faq=faq)
    return _case(name, messages, expected, existing)


def faq(name: str, language: Language, messages: tuple[str, ...], entry: str) -> EvalCase:
    return nothing(name, language, messages, "wa-faq", (SEARCH,), outcome="faq", faq=entry)


def handoff(name: str, language: Language, messages: tuple[str, ...]) -> EvalCase:
    return nothing(name, language, messages, "wa-handoff", (HANDOFF,), outcome="handoff")


FIX = (BOOK, BOOK, BOOK)  # a proposal, the corrected proposal, the confirmed write

CASES: list[EvalCase] = [
    # -- booking in WhatsApp Portuguese: typos, no accents, abbreviations ----------------------
    booked("wa-pt-typo-amanha", "pt",
           ("oi quero marcar um corte com o lucas amanha as 10", "sim"),
           ("corte", "lucas", TUE, time(10)), "wa-typos"),
    booked("wa-pt-c-abbrev-dia5", "pt",
           ("boa tarde, da pra fazer a barba c o pedro dia 5 as 14h30?", "pode ser"),
           ("barba", "pedro", SAT, time(14, 30)), "wa-typos"),
    booked("wa-pt-2-da-tarde", "pt",
           ("quero fazer unha em gel c a camila na quinta as 2 da tarde", "isso"),
           ("gel", "camila", THU, time(14)), "wa-times"),
    booked("wa-pt-slash-date-meio-dia", "pt",
           ("queria agendar corte e barba com o lucas 5/12 meio dia", "ok"),
           ("combo", "lucas", SAT, time(12)), "wa-dates"),
    booked("wa-pt-depois-de-amanha", "pt",
           ("marca um pe e mao pra mim com a fernanda depois de amanha 9h", "sim pode marcar"),
           ("pemao", "fernanda", WED, time(9)), "wa-dates"),
    booked("wa-pt-verb-cortar", "pt",
           ("qro cortar o cabelo sexta 16h com o pedro", "blz"),
           ("corte", "pedro", FRI, time(16)), "wa-typos"),
    booked("wa-pt-meio-dia-e-meia", "pt",
           ("tem como marcar barba com o lucas amanha meio dia e meia?", "sim"),
           ("barba", "lucas", TUE, time(12, 30)), "wa-times"),
    booked("wa-pt-dia-4-14h30", "pt",
           ("agenda gel com a fernanda dia 4 14h30 por favor", "confirmo"),
           ("gel", "fernanda", FRI, time(14, 30)), "wa-times"),
    booked("wa-pt-9-da-manha", "pt",
           ("corte com o pedro quarta 9 da manha", "isso mesmo"),
           ("corte", "pedro", WED, time(9)), "wa-times"),
    booked("wa-pt-5-da-tarde-sabado", "pt",
           ("queria fazer a barba sabado 5 da tarde com o lucas", "sim"),
           ("barba", "lucas", SAT, time(17)), "wa-times"),
    booked("wa-pt-step-by-step", "pt",
           ("oi", "quero marcar", "corte", "com o pedro", "amanha", "as 15h", "sim"),
           ("corte", "pedro", TUE, time(15)), "wa-typos"),
    booked("wa-pt-dia-12", "pt",
           ("corte com o lucas dia 12 as 10h", "sim"),
           ("corte", "lucas", SAT_12, time(10)), "wa-dates"),
    booked("wa-pt-proxima-sexta", "pt",
           ("quero marcar barba c o pedro na proxima sexta 11h", "dia 4", "sim"),
           ("barba", "pedro", FRI, time(11)), "wa-dates"),
    booked("wa-pt-hoje-14-30-colon", "pt",
           ("consigo um corte hj 14:30 com o pedro?", "sim"),
           ("corte", "pedro", MON, time(14, 30)), "wa-times"),
    # -- corrections and changes of mind --------------------------------------------------------
    booked("wa-pt-fix-time", "pt",
           ("quero marcar corte com o lucas amanha as 10h", "nao, melhor as 15h", "sim"),
           ("corte", "lucas", TUE, time(15)), "wa-corrections", FIX),
    booked("wa-pt-fix-professional", "pt",
           ("marca barba com o lucas quinta 11h", "com o lucas nao, com o pedro", "sim"),
           ("barba", "pedro", THU, time(11)), "wa-corrections", FIX),
    booked("wa-pt-fix-day", "pt",
           ("agendar gel com a camila sexta 10h", "pera, sexta nao, sabado", "sim"),
           ("gel", "camila", SAT, time(10)), "wa-corrections", FIX),
    booked("wa-pt-fix-day-na-vdd", "pt",
           ("quero pe e mao com a fernanda amanha 14h", "na vdd prefiro quarta", "pode ser"),
           ("pemao", "fernanda", WED, time(14)), "wa-corrections", FIX),
    booked("wa-pt-fix-service", "pt",
           ("quero marcar corte com o pedro sexta 10h", "muda pra corte e barba", "sim"),
           ("combo", "pedro", FRI, time(10)), "wa-corrections", FIX),
    booked("wa-pt-fix-time-mudei", "pt",
           ("barba com o pedro amanha 9h", "mudei de ideia, 11h30 fica melhor", "sim"),
           ("barba", "pedro", TUE, time(11, 30)), "wa-corrections", FIX),
    # -- any professional -----------------------------------------------------------------------
    booked("wa-pt-qualquer-um-hoje", "pt",
           ("quero um corte hoje as 15h, qualquer barbeiro", "sim"),
           ("corte", "pedro", MON, time(15)), "wa-any-professional"),
    booked("wa-pt-tanto-faz-later", "pt",
           ("quero cortar o cabelo amanha 18h30", "tanto faz", "sim"),
           ("corte", "lucas", TUE, time(18, 30)), "wa-any-professional"),
    # -- one of several appointments ------------------------------------------------------------
    changed("wa-pt-cancel-corte-de-sabado", "pt", ("quero cancelar o corte de sabado", "sim"),
            (CUT_TUE, CUT_SAT), CUT_SAT),
    changed("wa-pt-desmarcar-barba", "pt", ("preciso desmarcar a barba", "sim"),
            (CUT_TUE, BEARD_FRI), BEARD_FRI),
    changed("wa-pt-move-corte-de-terca", "pt",
            ("da pra passar meu corte de terca pra quinta as 16h?", "sim"),
            (CUT_TUE, CUT_SAT), CUT_TUE, (THU, time(16))),
    changed("wa-pt-cancel-by-professional", "pt", ("cancela o horario com a fernanda", "isso"),
            (CUT_TUE, GEL_THU), GEL_THU),
    changed("wa-pt-move-unha", "pt", ("remarca minha unha pra sexta 10h", "sim"),
            (GEL_THU, CUT_SAT), GEL_THU, (FRI, time(10))),
    changed("wa-pt-cancel-asks-which", "pt",
            ("quero cancelar meu corte", "o de sabado", "sim"),
            (CUT_TUE, CUT_SAT), CUT_SAT),
    nothing("wa-pt-cancel-ambiguous-asks", "pt", ("cancela meu corte",),
            "wa-which-appointment", (LIST_MINE,), existing=(CUT_TUE, CUT_SAT)),
    # -- when a slot is missing or unknown: ask, never guess -------------------------------------
    nothing("wa-pt-no-service-asks", "pt", ("quero marcar amanha as 10",), "wa-ask"),
    nothing("wa-pt-no-time-asks", "pt", ("marca um corte com o lucas amanha",), "wa-ask"),
    nothing("wa-pt-unknown-professional", "pt", ("marca barba com o joao amanha 10h", "sim"),
            "wa-ask"),
    nothing("wa-pt-no-professional-asks", "pt", ("quero marcar corte sexta as 10h",), "wa-ask"),
    # -- several requests, chit-chat, humans, FAQ -----------------------------------------------
    booked("wa-pt-faq-and-booking", "pt",
           ("oi! qual o endereço? e queria marcar barba com o pedro sexta 15h", "sim"),
           ("barba", "pedro", FRI, time(15)), "wa-multi"),
    booked("wa-pt-chitchat-midflow", "pt",
           ("marca corte com o pedro amanha 16h", "nossa ta calor hj ne", "sim"),
           ("corte", "pedro", TUE, time(16)), "wa-chitchat", FIX),
    nothing("wa-pt-kkk-vlw", "pt", ("kkkk vlw",), "wa-chitchat"),
    nothing("wa-pt-tudo-bem", "pt", ("bom diaaa tudo bem?",), "wa-chitchat"),
    handoff("wa-pt-falar-com-dono", "pt", ("quero falar com o dono",)),
    handoff("wa-pt-tem-alguem-ai", "pt", ("tem alguem ai? preciso falar com uma pessoa",)),
    faq("wa-pt-onde-fica", "pt", ("onde fica a barbearia?",), "address"),
    faq("wa-pt-aceita-pix", "pt", ("aceita pix?",), "payment"),
    faq("wa-pt-crianca", "pt", ("vcs atendem crianca?",), "kids"),
    faq("wa-pt-que-horas-fecham", "pt", ("que horas vcs fecham?",), "hours"),
    # -- English, WhatsApp style ----------------------------------------------------------------
    booked("wa-en-tmrw", "en", ("hey can i book a haircut w lucas tmrw at 10am", "yes"),
           ("corte", "lucas", TUE, time(10)), "wa-typos"),
    booked("wa-en-half-past-two", "en",
           ("I want a beard trim with Pedro on Friday at half past two", "yep"),
           ("barba", "pedro", FRI, time(14, 30)), "wa-times"),
    booked("wa-en-the-5th", "en", ("gel nails with Camila on the 5th at 3pm pls", "ok"),
           ("gel", "camila", SAT, time(15)), "wa-dates"),
    booked("wa-en-next-friday", "en",
           ("book me a mani pedi with Fernanda next Friday 11am", "the 4th", "sure"),
           ("pemao", "fernanda", FRI, time(11)), "wa-dates"),
    booked("wa-en-the-12th-noon", "en", ("haircut with Lucas on the 12th at noon", "yes"),
           ("corte", "lucas", SAT_12, time(12)), "wa-dates"),
    booked("wa-en-day-after-tomorrow", "en",
           ("beard trim with Pedro at 10:30 the day after tomorrow", "yes"),
           ("barba", "pedro", WED, time(10, 30)), "wa-dates"),
    booked("wa-en-fix-day", "en",
           ("haircut with Pedro on Wednesday at 2pm", "actually make it Thursday", "yes"),
           ("corte", "pedro", THU, time(14)), "wa-corrections", FIX),
    booked("wa-en-fix-time", "en",
           ("I'd like a beard with Lucas tomorrow at 4pm", "no wait, 5pm is better", "yes"),
           ("barba", "lucas", TUE, time(17)), "wa-corrections", FIX),
    booked("wa-en-fix-professional", "en",
           ("cut and beard with Pedro Saturday 10am", "not Pedro, Lucas please", "yes"),
           ("combo", "lucas", SAT, time(10)), "wa-corrections", FIX),
    booked("wa-en-any-barber-today", "en", ("any barber is fine, haircut today at 3pm", "yes"),
           ("corte", "pedro", MON, time(15)), "wa-any-professional"),
    booked("wa-en-faq-and-booking", "en",
           ("hi! what time do you close? also I'd like to book a beard with Lucas on Saturday "
            "at 9am", "yes"),
           ("barba", "lucas", SAT, time(9)), "wa-multi"),
    changed("wa-en-cancel-nails", "en", ("cancel my nails appointment", "yes"),
            (CUT_TUE, GEL_THU), GEL_THU),
    changed("wa-en-move-saturday-haircut", "en",
            ("can you move my saturday haircut to friday at 11am?", "yes"),
            (CUT_TUE, CUT_SAT), CUT_SAT, (FRI, time(11))),
    nothing("wa-en-cancel-which", "en", ("cancel my appointment",), "wa-which-appointment",
            (LIST_MINE,), existing=(CUT_TUE, BEARD_FRI)),
    nothing("wa-en-no-time-asks", "en", ("book a haircut tomorrow",), "wa-ask"),
    nothing("wa-en-lunch-refused", "en", ("gel manicure with camila thursday 12pm", "yes"),
            "wa-ask", (BOOK,)),
    faq("wa-en-where", "en", ("where are you guys?",), "address"),
    faq("wa-en-credit-card", "en", ("do u take credit card",), "payment"),
    handoff("wa-en-human", "en", ("I want to talk to a human",)),
    nothing("wa-en-thanks-bye", "en", ("thanks, bye!",), "wa-chitchat"),
]  # fmt: skip
