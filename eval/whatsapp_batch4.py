"""The WhatsApp-style set's fourth batch: more corrections, appointments described by time or
professional, relative and "same time" moves, combined service names — written after the third
batch's fixes and run before any change for it (baseline:
``eval/baselines/whatsapp-batch4-before.md``). Clock and salons: :mod:`eval.whatsapp`,
:mod:`eval.whatsapp_lirio`."""

from __future__ import annotations

from datetime import time

from eval import whatsapp as wa
from eval import whatsapp_lirio as wl
from eval.dataset import BOOK, LIST_MINE, EvalCase
from eval.whatsapp import FRI, SAT, THU, TUE, WED

# "bem cedinho", "first thing": the day's earliest time is proposed at once (session 41), so
# the customer's "9h" restates the question (asked again), then the yes books.
EARLIEST = (BOOK, BOOK, BOOK)

FIX = (BOOK, BOOK, BOOK)

CASES: list[EvalCase] = [
    wa.booked("wc-pt-errei-e-sabado", "pt",
              ("marca barba com o pedro sexta 14h", "opa, errei, é sábado", "sim"),
              ("barba", "pedro", SAT, time(14)), "wa-corrections", FIX),
    wa.booked("wc-pt-ou-melhor", "pt",
              ("corte com o lucas amanha 11h", "ou melhor, 11h30", "sim"),
              ("corte", "lucas", TUE, time(11, 30)), "wa-corrections", FIX),
    wa.booked("wc-pt-nao-nao-fernanda", "pt",
              ("quero gel com a camila quinta 15h", "nao nao, com a fernanda", "sim"),
              ("gel", "fernanda", THU, time(15)), "wa-corrections", FIX),
    wl.booked("wc-pt-uma-hora-mais-tarde", "pt",
              ("marca sobrancelha com a juliana amanha 14h", "pode ser 1 hora mais tarde?", "sim"),
              ("brow", "juliana", TUE, time(15)), "wa-corrections", FIX),
    wa.changed("wc-pt-desmarca-com-o-pedro", "pt", ("desmarca o corte com o pedro", "sim"),
               (wa.CUT_TUE, wa.CUT_SAT), wa.CUT_SAT),
    wa.changed("wc-pt-mesmo-horario", "pt",
               ("quero remarcar minha barba pra quinta no mesmo horario", "sim"),
               (wa.CUT_TUE, wa.BEARD_FRI), wa.BEARD_FRI, (THU, time(17))),
    wa.changed("wc-pt-cancela-o-das-10", "pt", ("cancela o das 10h", "sim"),
               (wa.CUT_TUE, wa.CUT_SAT), wa.CUT_TUE),
    wa.booked("wc-pt-barba-e-corte", "pt",
              ("quero marcar barba e corte com o pedro amanha 15h", "sim"),
              ("combo", "pedro", TUE, time(15)), "wa-typos"),
    wl.booked("wc-pt-depilacao-de-tarde", "pt",
              ("marca depilacao pra sexta de tarde", "16h", "sim"),
              ("wax", "juliana", FRI, time(16)), "wa-times"),
    wa.booked("wc-en-thurs-430", "en", ("haircut w/ Pedro thurs 4:30", "yes"),
              ("corte", "pedro", THU, time(16, 30)), "wa-times"),
    wa.booked("wc-en-i-meant-saturday", "en",
              ("cut with Lucas on Friday at 5", "oh wait, I meant Saturday", "yes"),
              ("corte", "lucas", SAT, time(17)), "wa-corrections", FIX),
    wa.changed("wc-en-cancel-with-pedro", "en", ("cancel the haircut with Pedro", "yes"),
               (wa.CUT_TUE, wa.CUT_SAT), wa.CUT_SAT),
    wa.changed("wc-en-my-10am-same-day", "en", ("reschedule my 10am to 2pm same day", "yes"),
               (wa.CUT_TUE, wa.CUT_SAT), wa.CUT_TUE, (TUE, time(14))),
    wa.booked("wc-en-dec-3", "en", ("gel nails with Fernanda on Dec 3 at 11", "yes"),
              ("gel", "fernanda", THU, time(11)), "wa-dates"),
    wl.nothing("wc-en-noon-lunch", "en", ("eyebrows with juliana tomorrow at noon", "yes"),
               "wa-ask", (BOOK,)),
    wl.nothing("wc-en-forget-it", "en",
               ("massage with Rodrigo on Wednesday at 9am", "actually no, forget it"), "wa-ask",
               (BOOK,)),
    wa.nothing("wc-pt-cancela-o-de-domingo", "pt", ("cancela o de domingo",),
               "wa-which-appointment", (LIST_MINE,), existing=(wa.CUT_TUE, wa.CUT_SAT)),
    wl.booked("wc-en-wed-brows-with-lunch", "en",
              ("brows with Juliana wed 1pm", "yes"),
              ("brow", "juliana", WED, time(13)), "wa-times"),
    wa.nothing("wc-pt-marca-dois", "pt", ("marca corte pra mim e pro meu filho amanha 10h",),
               "wa-ask"),
    wl.booked("wc-pt-massagem-sexta-cedo", "pt",
              ("massagem sexta bem cedinho", "9h", "pode ser"),
              ("massage", "rodrigo", FRI, time(9)), "wa-times", EARLIEST),
]  # fmt: skip
