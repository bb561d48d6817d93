"""Every case ``make eval`` plays: the main set (:mod:`eval.dataset`) and the WhatsApp-style
sets written against two other salons (:mod:`eval.whatsapp`, :mod:`eval.whatsapp_lirio`)."""

from __future__ import annotations

from eval import (
    dataset,
    whatsapp,
    whatsapp_batch3,
    whatsapp_batch4,
    whatsapp_batch5,
    whatsapp_batch6,
    whatsapp_batch7,
    whatsapp_batch8,
    whatsapp_batch9,
    whatsapp_batch10,
    whatsapp_lirio,
)

CASES = [
    *dataset.CASES,
    *whatsapp.CASES,
    *whatsapp_lirio.CASES,
    *whatsapp_batch3.CASES,
    *whatsapp_batch4.CASES,
    *whatsapp_batch5.CASES,
    *whatsapp_batch6.CASES,
    *whatsapp_batch7.CASES,
    *whatsapp_batch8.CASES,
    *whatsapp_batch9.CASES,
    *whatsapp_batch10.CASES,
]
