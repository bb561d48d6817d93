"""No identical reply twice in a row: a repeated answer escalates instead of looping.

Rule: when this turn's reply is the same text (folded) as the assistant's previous reply in
the conversation — after taking off any lead this rule itself added — the reply is said
another way, by how many times in a row it would have repeated:

1. said again, and said so: a lead goes before it ("As I said: …"; no lead that promises
   other words, since the words are the same);
2. the choices: what the assistant can do, as a short numbered menu, instead of it;
3. and after: a human attendant is offered (the customer decides; nothing is handed off),
   with and without the menu in turn, so even a long loop never sends the same text twice.

A reply that carries the system's own lines (a receipt, the confirmation question) keeps them
last and whole: only what comes before them changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agent_service.application.text import normalize


@dataclass(frozen=True, slots=True)
class Escalation:
    """One language's sentences for the ladder (from the message catalog)."""

    rephrase: str
    """A lead before the repeated reply: "As I said:"."""
    choices: str
    """What the assistant can do, as a numbered menu."""
    human: str
    """The offer of a human attendant."""

    @property
    def leads(self) -> tuple[str, ...]:
        return (self.rephrase, self.choices, self.human)


def without_leads(reply: str, escalation: Escalation) -> str:
    """``reply`` without the leads this rule adds (what the model or the system said)."""
    text = reply.strip()
    changed = True
    while changed:
        changed = False
        for lead in escalation.leads:
            if text.startswith(lead):
                text = text[len(lead) :].strip()
                changed = True
    return text


def repeats(reply: str, earlier: Sequence[str], escalation: Escalation, tail: str = "") -> int:
    """How many of the assistant's last replies (newest first) ``reply`` repeats in a row
    (``tail``, the system's last lines, must be the same too)."""
    said = _body(reply, tail, escalation)
    count = 0
    for previous in earlier:
        if tail and not previous.endswith(tail):
            break
        before = _body(previous, tail, escalation)
        if before not in (said, ""):  # "": a step of this ladder replaced the whole body
            break
        if said and not _body(previous, tail, None):
            break  # the previous reply was the system's lines alone; this one says more
        count += 1
    return count


def _body(reply: str, tail: str, escalation: Escalation | None) -> str:
    """What ``reply`` says before ``tail``, folded; without the ladder's leads if given."""
    body = reply[: len(reply) - len(tail)] if tail and reply.endswith(tail) else reply
    return normalize(body if escalation is None else without_leads(body, escalation))


def vary(
    reply: str,
    earlier: Sequence[str],
    escalation: Escalation,
    tail: str = "",
    max_chars: int | None = None,
) -> str:
    """``reply`` said another way when it repeats the previous one (see the module);
    ``tail`` — the system's own lines at its end — is kept as is, last; what comes before it
    is cut so the whole stays within ``max_chars``."""
    count = repeats(reply, earlier, escalation, tail)
    if count == 0:
        return reply
    keep = tail if tail and reply.endswith(tail) else ""
    body = reply[: len(reply) - len(keep)].strip()
    if count == 1:
        said = f"{escalation.rephrase} {body}".strip()
    elif count == 2:
        said = escalation.choices
    else:
        said = escalation.human if count % 2 else f"{escalation.human}\n{escalation.choices}"
    if max_chars is not None:
        room = max(0, max_chars - (len(keep) + 2 if keep else 0))
        said = said if len(said) <= room else said[: max(0, room - 1)].rstrip() + "…"
    return f"{said}\n\n{keep}" if keep else said
