"""Several services in one message (offline/matching.py visit_parts): whatever word of any
language joins them ([matching].and_words, or a comma), each part that names a service is
kept — none dropped — while one catalog name whose words span the parts is one service."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent.offline.matching import visit_parts
from agent_service.infrastructure.language.grammar.vocabulary import union

CATALOG = [["Corte Masculino"], ["Barboterapia", "barba"], ["Manicure"], ["Corte e Escova"]]
JOINERS = sorted({*union("matching", "and_words"), ","})


@pytest.mark.parametrize("joiner", JOINERS)
def test_each_named_service_is_kept_whatever_joins_them(joiner: str) -> None:
    glue = ", " if joiner == "," else f" {joiner} "
    parts = visit_parts(f"quero manicure{glue}barba amanhã", CATALOG)
    assert [found for _, found in parts] == [[2], [1]], parts


def test_one_service_is_no_visit() -> None:
    assert visit_parts("corte e escova sexta", CATALOG) == []  # one catalog name spans both
    assert visit_parts("barba amanhã às 10", CATALOG) == []
    assert visit_parts("barba e barba", CATALOG) == []  # the same service twice
