"""Words that say whom a service is for (a pet's size, a cat, a private or pair class:
``[matching].qualifier_kinds``) name no service alone: "queria marcar pro meu cachorro sábado
10h" at a pet shop that does no dog training proposed a small dog's bath, and a yes booked it.
Generated over every phrase of every qualifier kind, against catalogs whose every entry has
that kind; with a service's own word too, the entry still fits."""

from __future__ import annotations

from agent_service.infrastructure.language.lexicon import service_lexicon


def test_every_qualifier_is_a_kind() -> None:
    lexicon = service_lexicon()
    assert lexicon.qualifiers and lexicon.qualifiers <= lexicon.kinds.keys()


def test_a_qualifier_alone_names_no_service_and_with_a_service_still_fits() -> None:
    lexicon = service_lexicon()
    services = sorted(lexicon.kinds.keys() - lexicon.qualifiers)
    for kind in sorted(lexicon.qualifiers):
        for phrase in lexicon.kinds[kind]:
            entries = [(f"{lexicon.kinds[service][0]} {phrase}",) for service in services]
            said = f"queria marcar pro {phrase} sabado 10h"
            if lexicon.kinds_in(said).keys() <= lexicon.qualifiers:
                assert set(lexicon.scores(said, entries)) == {0.0}, said
        phrase = lexicon.kinds[kind][0]
        for service in services:
            entry = (f"{lexicon.kinds[service][0]} {phrase}",)
            named = f"{lexicon.kinds[service][0]} pro {phrase}"
            assert lexicon.scores(named, [entry])[0] > 0, (named, entry)
