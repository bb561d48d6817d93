"""normalize, detect_language, best_match, extract_name and ordinal_choice."""

from __future__ import annotations

import pytest

from agent_service.infrastructure.agent.offline.nlu import (
    Language,
    best_match,
    detect_language,
    extract_name,
    normalize,
    ordinal_choice,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Amanhã   às 10h", "amanha as 10h"),
        ("  SÃO  Paulo\n", "sao paulo"),
        ("Olá! Tudo bem?", "ola! tudo bem?"),
        ("R$ 50,00", "r$ 50,00"),
        ("10:30 - 05/12", "10:30 - 05/12"),
        ("ação coração", "acao coracao"),
        ("emoji 👍 here", "emoji here"),
        ("ﬁm", "fim"),
        ("", ""),
    ],
)
def test_normalize(text: str, expected: str) -> None:
    assert normalize(text) == expected


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("quero agendar amanhã", "en", "pt"),
        ("Você tem horário?", "en", "pt"),
        ("não, obrigado", "en", "pt"),
        # Portuguese and Spanish both say "por favor": evidence for neither keeps the default.
        ("por favor", "en", "en"),
        ("quisiera una cita mañana", "pt", "es"),
        ("às 10", "en", "pt"),
        ("I want to book tomorrow", "pt", "en"),
        ("please", "pt", "en"),
        ("with my friend at 3", "pt", "en"),
        ("ok", "pt", "pt"),
        ("ok", "en", "en"),
        ("10h", "en", "en"),
        ("", "pt", "pt"),
    ],
)
def test_detect_language(text: str, default: Language, expected: Language) -> None:
    assert detect_language(text, default) == expected


PROS = ["Ana Souza", "Bruno Lima", "Carla Dias"]
SERVICES = ["Corte masculino", "Corte feminino", "Manicure", "Manicure e pedicure", "Coloração"]


@pytest.mark.parametrize(
    ("text", "candidates", "expected"),
    [
        ("com a Ana", PROS, 0),
        ("pode ser com o bruno", PROS, 1),
        ("CARLA", PROS, 2),
        ("Ana Souza por favor", PROS, 0),
        ("with Carla Dias", PROS, 2),
        ("com a Júlia", PROS, None),
        ("tanto faz", PROS, None),
        ("corte masculino", SERVICES, 0),
        ("cortes femininos", SERVICES, 1),
        ("corte", SERVICES, None),  # two cuts tie
        ("manicure", SERVICES, 2),  # the exact full name beats the partial one
        ("manicure e pedicure", SERVICES, 3),
        ("quero fazer pedicure", SERVICES, 3),
        ("coloracoes", SERVICES, 4),
        ("coloração", SERVICES, 4),
        ("", SERVICES, None),
        ("de a o", SERVICES, None),
        ("corte", [], None),
        ("Ana", ["Ana Souza", "Ana Lima"], None),
        ("Ana Lima", ["Ana Souza", "Ana Lima"], 1),
        ("haircuts", ["Haircut", "Beard trim"], 0),
        ("the beard", ["Haircut", "Beard trim"], 1),
    ],
)
def test_best_match(text: str, candidates: list[str], expected: int | None) -> None:
    assert best_match(text, candidates) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("meu nome é Maria Silva", "Maria Silva"),
        ("Meu nome é maria da silva e quero agendar", "Maria da Silva"),
        ("me chamo João", "João"),
        ("oi, me chamo joão pedro", "João Pedro"),
        ("sou a Carla", "Carla"),
        ("Sou o Pedro.", "Pedro"),
        ("pode me chamar de Zé", "Zé"),
        ("MEU NOME É JOSÉ", "José"),
        ("meu nome é Ana Maria Souza Lima", "Ana Maria Souza"),
        ("my name is John Smith", "John Smith"),
        ("I'm Anna", "Anna"),
        ("Hi, I am Mary-Jane", "Mary-Jane"),
        ("this is Bob", "Bob"),
        ("call me Liz", "Liz"),
        ("sou cliente", None),
        ("sou cliente novo", None),
        ("sou de São Paulo", None),
        ("I'm looking for a haircut", None),
        ("I'm interested", None),
        ("this is great", None),
        ("quero agendar", None),
        ("meu nome é", None),
        ("", None),
    ],
)
def test_extract_name(text: str, expected: str | None) -> None:
    assert extract_name(text) == expected


@pytest.mark.parametrize(
    ("text", "count", "expected"),
    [
        ("o primeiro", 3, 0),
        ("a primeira", 3, 0),
        ("a segunda", 3, 1),
        ("quero o terceiro horário", 3, 2),
        ("opção 2", 3, 1),
        ("opcao 3", 3, 2),
        ("2", 3, 1),
        ("a 2", 3, 1),
        ("2º", 3, 1),
        ("#1", 3, 0),
        ("número dois", 3, 1),
        ("o último", 3, 2),
        ("penúltimo", 3, 1),
        ("the first", 3, 0),
        ("second one", 3, 1),
        ("option 3", 3, 2),
        ("option three", 3, 2),
        ("the 2nd", 3, 1),
        ("the last", 3, 2),
        ("the last one", 5, 4),
        ("second to last", 5, 3),
        ("option 4", 3, None),
        ("0", 3, None),
        ("the first", 0, None),
        ("segunda-feira", 3, None),
        ("é minha primeira vez", 3, None),
        ("quero 3 cortes", 5, None),
        ("não o primeiro, o segundo", 3, None),
        ("nenhum", 3, None),
        ("", 3, None),
    ],
)
def test_ordinal_choice(text: str, count: int, expected: int | None) -> None:
    assert ordinal_choice(text, count) == expected
