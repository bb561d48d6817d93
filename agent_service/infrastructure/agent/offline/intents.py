"""What the customer wants (intent) and whether a reply is a yes or a no.

Intent rules (keywords and phrases in pt and en, matched on folded text with word boundaries):

* ``handoff`` beats everything (a human, attendant, manager, complaint).
* ``appointments`` (the customer's existing ones: cancel, reschedule, "my appointment") beats
  the booking words, so "quero cancelar e marcar outro" is ``appointments``. The nouns
  ``cancelamento``/``cancellation`` are not cancel requests ("política de cancelamento" is faq).
* Otherwise the highest score among ``booking``, ``discovery`` and ``faq`` wins; strong phrases
  score 1, weak ones ("quero um", "available", "appointment") 0.5; ties go to booking, then
  discovery, then faq.
* With no keyword: a date/time mention alone ("amanhã às 10") is ``booking`` at 0.5; any other
  question (``?`` or a leading question word) is ``faq`` at 0.4; a greeting is ``greeting``;
  anything else is ``unknown`` with confidence 0.0.
* Confidence: 0.95 for handoff/appointments, else ``min(0.95, 0.6 + 0.15 * score)`` for the
  keyword intents; greetings 0.9.

Yes/no rules (:func:`is_affirmative`, :func:`is_negative`; never both true):

* Negative: the message starts (after fillers such as "ah", "então", "well") with a negative
  phrase ("não", "nope", "melhor não", "cancela", "never mind"...), ends with "não"/"no", is
  "n", or negates a verb/agreement anywhere ("não pode", "not ok", "don't", "do not").
  Portuguese ``no`` (= "in the") only counts when alone or followed by punctuation or an
  English word ("no thanks").
* Phrases that look negative but agree ("não tem problema", "no problem", "why not") are yes;
  uncertainty ("não sei", "talvez", "maybe", "not sure", "vou pensar") is neither yes nor no.
* A question is not a yes when its only yes-word is a weak one ("pode?", "isso?").
* Affirmative: not negative, and the message starts with an affirmative phrase. Weak words
  that are also ordinary words ("isso", "pode", "certo", "tá", "right", "fine", "great") must be
  followed by the end of the message, punctuation or another affirmative phrase.
* A 👍 counts as yes and a 👎 as no (checked on the raw text).
"""

from __future__ import annotations

import re
from typing import Literal

from agent_service.infrastructure.agent.offline.text import normalize
from agent_service.infrastructure.agent.offline.when import has_when_mention

__all__ = [
    "Intent",
    "asks_for_times",
    "cancels_in_other_words",
    "classify_intent",
    "is_affirmative",
    "is_negative",
]

Intent = Literal["discovery", "booking", "appointments", "faq", "handoff", "greeting", "unknown"]


def _rx(*phrases: str) -> re.Pattern[str]:
    """A word-bounded alternation of regex phrases (spaces match any whitespace run)."""
    body = "|".join(p.replace(" ", r"\s+") for p in phrases)
    return re.compile(r"(?<![a-z0-9])(?:" + body + r")(?![a-z0-9])")


_HANDOFF = _rx(
    r"falar (?:com|c|c/) (?:um |uma |o |a |algum |alguma )?(?:humano|atendente|pessoa"
    r"|gerente|responsavel|alguem|dono|dona|funcionari[oa]|recepcao|recepcionista)",
    r"atendimento humano", r"atendente", r"humano", r"pessoa (?:de verdade|real)",
    r"gerente", r"reclama\w*", r"quero reclamar", r"human", r"(?:live |real )?agent",
    r"real person", r"manager", r"complain\w*", r"complaint", r"representative",
    r"operator", r"(?:speak|talk) (?:to|with) (?:someone|somebody|a person)",
)  # fmt: skip
_APPOINTMENTS = _rx(
    r"meus agendamentos", r"meu agendamento", r"minha reserva", r"minhas reservas",
    r"meu horario", r"meus horarios", r"cancelar", r"cancela", r"cancele", r"cancelo",
    r"desmarc\w*", r"remarc\w*", r"reagend\w*", r"(?:mudar|trocar|alterar) (?:o |meu |de )?"
    r"(?:horario|dia|agendamento)", r"adiar", r"antecipar", r"my appointments?",
    r"(?:passar|mudar|trocar|mover|jogar|adiantar|transferir) (?:o |a )?(?:meu|minha)",
    r"(?:passar|mudar|trocar|mover|jogar|transferir|move|switch)\b.{0,40}\b(?:de|do|da|from)"
    r" \S+(?:[ -]feira)? (?:pra|para|pro|to)",
    r"my bookings?", r"my reservations?", r"cancel", r"reschedul\w*", r"move my",
    r"change my (?:appointment|booking|time|reservation)", r"when is my", r"do i have",
)  # fmt: skip
# Cancelling in negative words about the customer's OWN appointment ("não quero mais o meu
# corte", "não vou poder ir na minha massagem", "I can't make it to my haircut"). Without the
# possessive ("não quero mais o corte") the words may just decline what was proposed a moment
# ago, so they are left to the decline; a bare "não quero mais"/"never mind" is a decline.
_CANCEL_IN_OTHER_WORDS = _rx(
    r"nao (?:vou|vai|irei) (?:mais )?(?:poder|conseguir|dar pra) (?:ir|comparecer)"
    r" (?:n[oa]|a|ao|em) (?:meu|minha)",
    r"nao (?:quero|preciso) mais (?:d?[oa] )?(?:meu|minha) \w+",
    r"(?:can'?t|cannot|won'?t(?: be able to)?|will not(?: be able to)?|not able to)"
    r" make (?:it )?(?:to )?my",
    r"(?:don'?t|do not|no longer) need my [a-z' ]{1,40}?(?:any ?more|now)?",
)  # fmt: skip


def cancels_in_other_words(text: str) -> bool:
    """Whether the message cancels an appointment without the word "cancel"."""
    return _CANCEL_IN_OTHER_WORDS.search(normalize(text)) is not None


_BOOKING = _rx(
    r"agendar", r"agenda", r"agendo", r"agende", r"agendamento", r"marcar", r"marca",
    r"marque", r"marcaria", r"reservar", r"reserva", r"reserve", r"horarios? disponive\w*",
    r"tem (?:horario|vaga|agenda)", r"vagas?", r"disponibilidade", r"encaix\w*",
    r"(?:consigo|posso|da pra) (?:ir|passar|fazer)", r"book\w*", r"schedul\w*",
    r"appointment for", r"make an appointment", r"free slots?", r"any slots?",
    r"availability", r"can i come", r"could i come", r"set up an appointment",
)  # fmt: skip
_BOOKING_WEAK = _rx(
    r"(?:quero|queria|gostaria de|preciso de) (?:um|uma|fazer)", r"available",
    r"appointment", r"(?:i want|i'd like|i would like|i need) (?:a|an|to get)",
    r"slots?", r"horarios?",
    # a span of days asks for times ("tem manicure no fim de semana?")
    r"(?:no |este |esse |neste |nesse )?(?:fim|final) de semana", r"weekend",
    r"semana que vem", r"proxima semana", r"next week", r"proximos dias", r"next few days",
)  # fmt: skip
_DISCOVERY = _rx(
    r"(?:quais|que) (?:sao os )?servicos", r"servicos", r"precos?", r"quanto custa",
    r"quanto (?:e|fica|sai|cobra\w*)", r"valor(?:es)?", r"tabela", r"quem atende",
    r"profissiona\w*", r"o que (?:voces )?fazem", r"services?", r"prices?", r"pricing",
    r"how much", r"costs?", r"who works", r"staff", r"stylists?", r"what do you (?:offer|do)",
    r"menu", r"do you do", r"voces fazem",
)  # fmt: skip
_FAQ = _rx(
    r"endereco", r"onde fica\w*", r"onde (?:voces )?(?:ficam|estao)", r"localiza\w*",
    r"como chego", r"estaciona\w*", r"formas? de pagamento", r"pagamento", r"pagar", r"pix",
    r"cartao", r"cartoes", r"dinheiro", r"aceita\w*", r"horario de (?:funcionamento|atendimento)",
    r"funciona\w*", r"abre\w*", r"abrem", r"aberto", r"fecha\w*", r"politica",
    r"cancelamento", r"atraso", r"wifi", r"address", r"where are you", r"located",
    r"location", r"parking", r"park", r"payments?", r"pay", r"cards?", r"cash",
    r"opening hours", r"hours", r"open", r"close\w*", r"policy", r"cancellation",
)  # fmt: skip
_GREETING = _rx(
    r"oi+", r"ola", r"bom dia", r"boa tarde", r"boa noite", r"e ai", r"opa", r"tudo bem",
    r"hello", r"hi", r"hey", r"good (?:morning|afternoon|evening)", r"howdy",
)  # fmt: skip
_QUESTION = re.compile(
    r"\?|^(?:o que|como|qual|quais|quando|onde|por que|porque|voces|tem|existe|pode|posso"
    r"|what|how|when|where|why|which|do you|does|can you|is there|are you|is it)\b"
)
_TIMES_QUESTION = _rx(
    r"(?:quais|que|quantos) horarios?", r"horarios? (?:livres?|disponive\w*|vagos?)",
    r"tem (?:horario|vaga|agenda)", r"que horas? (?:tem|ha)", r"disponibilidade",
    r"what times?", r"which times?", r"free (?:times?|slots?)", r"any (?:slots?|times?)",
    r"availability", r"when (?:is|are) (?:\w+ )?(?:free|available)",
)  # fmt: skip
_ANYONE = _rx(
    r"tanto faz", r"qualquer (?:um|uma|profissional|barbeir[oa]|cabeleireir[oa]|manicure)",
    r"quem estiver livre", r"sem preferencia", r"any (?:professional|barber|stylist)",
    r"anyone", r"no preference", r"whoever",
)  # fmt: skip
# A question about the rules, not a request: "até quando posso cancelar?", "how late can I
# cancel?" are answered from the FAQ.
_POLICY_QUESTION = _rx(
    r"ate quando (?:posso|da pra|consigo|pode)", r"com quanto tempo (?:de )?antecedencia",
    r"quanto tempo antes", r"how (?:late|far in advance|long before) can i",
    r"until when can i",
)  # fmt: skip
_RANKED: tuple[tuple[Intent, re.Pattern[str], float], ...] = (
    ("booking", _BOOKING, 1.0),
    ("booking", _BOOKING_WEAK, 0.5),
    ("booking", _TIMES_QUESTION, 1.0),
    ("booking", _ANYONE, 1.0),  # "quais horários a profissional X tem?" is booking
    ("discovery", _DISCOVERY, 1.0),
    ("faq", _FAQ, 1.0),
)


def classify_intent(text: str) -> tuple[Intent, float]:
    """The customer's intent and a confidence in [0, 1]."""
    folded = normalize(text)
    if _HANDOFF.search(folded):
        return "handoff", 0.95
    if _POLICY_QUESTION.search(folded):
        return "faq", 0.9
    if _APPOINTMENTS.search(folded) or _CANCEL_IN_OTHER_WORDS.search(folded):
        return "appointments", 0.95
    scores: dict[Intent, float] = {}
    for intent, pattern, weight in _RANKED:
        hits = len(pattern.findall(folded))
        if hits:
            scores[intent] = scores.get(intent, 0.0) + weight * hits
    if scores.get("discovery") and has_when_mention(text):
        # "corte amanhã às 10h, tanto faz o profissional": a day or time asks for a booking.
        scores["booking"] = scores.get("booking", 0.0) + scores["discovery"]
    if scores:
        intent = max(scores, key=lambda name: (scores[name], -_order(name)))
        return intent, round(min(0.95, 0.6 + 0.15 * scores[intent]), 2)
    return _fallback(text, folded)


def _order(intent: Intent) -> int:
    return ("booking", "discovery", "faq").index(intent)


def _fallback(text: str, folded: str) -> tuple[Intent, float]:
    if has_when_mention(text):
        return "booking", 0.5
    if _QUESTION.search(folded):
        return "faq", 0.4
    if _GREETING.search(folded):
        return "greeting", 0.9
    return "unknown", 0.0


# --- yes / no ----------------------------------------------------------------------------

_FILLER = r"(?:(?:ah+|ahn|hm+|hum+|entao|bom|oi|ola|ok entao|well|oh|so|uh+|um+|err?)\W*\s*)*"
_AGREEING = _rx(
    r"nao tem problema", r"sem problemas?", r"nao ha problema", r"no problem", r"no worries",
    r"why not", r"por que nao", r"porque nao",
)  # fmt: skip
_UNSURE = _rx(
    r"nao sei", r"sei la", r"talvez", r"maybe", r"not sure", r"i don'?t know", r"dunno",
    r"perhaps", r"nao tenho certeza", r"vou pensar", r"let me think",
)  # fmt: skip
_NEG_START = re.compile(
    _FILLER + r"(?:nao|nop|nope|nah|negativo|melhor nao|acho que nao|de jeito nenhum|jamais"
    r"|nunca|cancela\w*|cancel|deixa pra la|esquece|never\s?mind|not now|not really"
    r"|nem|n|no(?=\s*(?:$|[,.!;?]|\s(?:thanks|thank|need|i|it|not|please|sorry|way|that"
    r"|thats|longer|more|to)\b)))(?![a-z0-9'])"
)
_NEG_ANYWHERE = _rx(
    r"nao (?:pode|quero|precisa|confirmo|marca|marque|posso|vou|da|obrigad[oa])",
    r"not (?:ok|okay|now|good|really|sure|yet|interested|today)", r"don'?t", r"do not",
    r"doesn'?t", r"won'?t", r"can'?t", r"cannot", r"i'?d rather not",
)  # fmt: skip
_NEG_END = re.compile(r"(?<![a-z0-9])(?:nao|no|not)\W*$")
_STRONG_YES = (
    r"sim", r"s", r"pode sim", r"pode marcar", r"pode ser", r"pode confirmar", r"confirm\w*",
    r"ok", r"okay", r"okey", r"k", r"beleza", r"blz", r"perfeito", r"fechado", r"claro",
    r"com certeza", r"isso mesmo", r"isso ai", r"exatamente", r"exato", r"correto", r"bora",
    r"manda ver", r"ta bom", r"ta otimo", r"otimo", r"combinado", r"fechou", r"demorou",
    r"pode pa", r"partiu",
    r"quero sim", r"acho que sim", r"yes", r"y", r"yeah", r"yea", r"yep", r"yup",
    r"sure", r"go ahead", r"please do", r"sounds good", r"of course", r"absolutely",
    r"definitely", r"correct", r"that'?s right", r"perfect", r"alright", r"all right",
    r"do it", r"book it", r"works for me", r"that works", r"let'?s do it",
)  # fmt: skip
_WEAK_YES = (
    r"isso", r"pode", r"certo", r"ta", r"show", r"top", r"vamos", r"por\s+favor", r"right",
    r"fine", r"great", r"good",
)  # fmt: skip
_ANY_YES = "|".join(p.replace(" ", r"\s+") for p in _STRONG_YES + _WEAK_YES)
_YES_START = re.compile(
    _FILLER + r"(?:(?:" + "|".join(p.replace(" ", r"\s+") for p in _STRONG_YES)
    + r")(?![a-z0-9'])|(?:" + "|".join(_WEAK_YES) + r")(?=\s*$|\s*[,.!;]|\s+(?:" + _ANY_YES
    + r")(?![a-z0-9'])))"
)  # fmt: skip


def is_negative(text: str) -> bool:
    """Whether the message says no (declines, cancels, negates)."""
    if "👎" in text:
        return True
    folded = normalize(text)
    if _AGREEING.search(folded) or _UNSURE.search(folded):
        return False
    return bool(_NEG_START.match(folded) or _NEG_ANYWHERE.search(folded) or _NEG_END.search(folded))


def is_affirmative(text: str) -> bool:
    """Whether the message says yes (agrees, confirms); never true when it is negative."""
    if is_negative(text):
        return False
    folded = normalize(text)
    if _UNSURE.search(folded):
        return False
    return "👍" in text or bool(_YES_START.match(folded) or _AGREEING.search(folded))


# --- questions for free times ------------------------------------------------------------


def asks_for_times(text: str) -> bool:
    """Whether the message asks which times are free (a new question, not a choice of time)."""
    return bool(_TIMES_QUESTION.search(normalize(text)))
