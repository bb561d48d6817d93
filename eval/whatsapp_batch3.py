"""The WhatsApp-style set's third batch: new phrasings against the two salons of the first
batches (Barbearia Dom Bigode, Espaço Lírio), written after the second batch's fixes and run
before any change for it (baseline: ``eval/baselines/whatsapp-batch3-before.md``). Clock and
salons: see :mod:`eval.whatsapp` and :mod:`eval.whatsapp_lirio`."""

from __future__ import annotations

from datetime import time

from eval import whatsapp as wa
from eval import whatsapp_lirio as wl
from eval.dataset import BOOK, CHECK, SEARCH, EvalCase
from eval.whatsapp import FRI, MON, SAT, THU, TUE, WED

FIX = (BOOK, BOOK, BOOK)

CASES: list[EvalCase] = [
    # -- Barbearia Dom Bigode -----------------------------------------------------------------
    wa.booked("wb-pt-umas-10h", "pt",
              ("quero marcar um combo c o pedro, pode ser amanha umas 10h?", "sim"),
              ("combo", "pedro", TUE, time(10)), "wa-times"),
    wa.booked("wb-pt-10-e-meia-fix", "pt",
              ("barba com o lucas quinta 10h", "tem como ser 10 e meia?", "sim"),
              ("barba", "lucas", THU, time(10, 30)), "wa-corrections", FIX),
    wa.booked("wb-pt-full-date", "pt",
              ("marca pra mim gel com a fernanda, dia 03/12 as 16:00", "isso"),
              ("gel", "fernanda", THU, time(16)), "wa-dates"),
    wa.booked("wb-pt-sou-a-carla", "pt",
              ("oi, sou a Carla", "queria fazer pe e mao sabado", "as 11", "sim"),
              ("pemao", "fernanda", SAT, time(11)), "wa-typos", (BOOK, BOOK)),
    wa.changed("wb-pt-cancel-de-quinta", "pt", ("preciso cancelar o horario de quinta", "sim"),
               (wa.GEL_THU, wa.CUT_SAT), wa.GEL_THU),
    wa.changed("wb-pt-na-vdd-remarcar", "pt",
               ("na vdd quero remarcar o de sabado pra sexta 15h", "sim"),
               (wa.CUT_TUE, wa.CUT_SAT), wa.CUT_SAT, (FRI, time(15))),
    wa.nothing("wb-pt-ver-vaga-sabado", "pt",
               ("boa noite! tem vaga pro lucas sabado de manha pra corte?",), "wa-ask", (CHECK,)),
    wa.booked("wb-en-630pm", "en", ("book a haircut with Lucas on Friday at 6:30pm", "yes"),
              ("corte", "lucas", FRI, time(18, 30)), "wa-times"),
    wa.booked("wb-en-make-it-11", "en",
              ("beard with Pedro tomorrow at 10", "hmm make it 11 instead", "yes"),
              ("barba", "pedro", TUE, time(11)), "wa-corrections", FIX),
    wa.booked("wb-en-is-camila-in", "en",
              ("hi, is Camila in on Saturday? I want gel nails at 2pm", "yes"),
              ("gel", "camila", SAT, time(14)), "wa-multi"),
    wa.faq("wb-en-kids", "en", ("do you guys do kids haircuts?",), "kids"),
    wa.handoff("wb-en-refund", "en", ("I'd like to talk to someone about a refund",)),
    wa.nothing("wb-pt-abrem-domingo", "pt", ("vcs abrem domingo?",), "wa-faq", (SEARCH,),
               outcome="faq", faq="hours"),
    # -- Espaço Lírio -------------------------------------------------------------------------
    wl.booked("wb-pt-massagem-dia-2", "pt", ("massagem dia 2 as 9", "pode ser"),
              ("massage", "rodrigo", WED, time(9)), "wa-dates"),
    wl.booked("wb-pt-p-barra", "pt",
              ("Bom dia, qro agendar sobrancelha c a juliana p/ sexta 14h", "ok"),
              ("brow", "juliana", FRI, time(14)), "wa-typos"),
    wl.nothing("wb-pt-alongamento-tarde-demais", "pt", ("alongamento sabado 18h", "sim"),
               "wa-ask", (BOOK,)),
    wl.changed("wb-pt-desmarcar-a-massagem", "pt", ("quero desmarcar", "a massagem", "sim"),
               (wl.BROW_TUE, wl.MASSAGE_WED), wl.MASSAGE_WED),
    wl.nothing("wb-pt-patricia-segunda", "pt", ("manicure com a patricia segunda 10h", "sim"),
               "wa-ask", (BOOK,)),
    wl.booked("wb-en-around-3", "en",
              ("could I book brows with Juliana for Friday around 3?", "yes"),
              ("brow", "juliana", FRI, time(15)), "wa-times"),
    wl.booked("wb-en-tmr-w", "en", ("massage tmr 9am w Rodrigo", "ok"),
              ("massage", "rodrigo", TUE, time(9)), "wa-typos"),
    wl.changed("wb-en-cancel-thursdays", "en", ("I need to cancel Thursday's appointment", "yes"),
               (wl.MANI_THU, wl.MANI_SAT), wl.MANI_THU),
    wl.changed("wb-en-move-brows", "en", ("move my brows to wednesday 11am", "yes"),
               (wl.BROW_TUE, wl.MASSAGE_WED), wl.BROW_TUE, (WED, time(11))),
    wl.nothing("wb-en-hoje-closed", "en", ("any nail extensions today at 3pm?", "yes"),
               "wa-ask", (BOOK,)),
    wa.nothing("wb-pt-today-monday-lucas", "pt", ("corte com o lucas hj 16h", "sim"), "wa-ask",
               (BOOK,)),
]  # fmt: skip

__all__ = ["CASES", "MON"]
