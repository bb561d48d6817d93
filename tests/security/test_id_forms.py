"""Issue 24 item 5, property: an id has one spelling, in the policy and in every handler.

Through every agent-side RPC with ids (discovered from the descriptors), the scoped principal
of tenant A (its gateway, its back office) sends a valid request with ONE id field — the
tenant the policy reads, or an entity id — rewritten from a real id of A or of B by a drawn
spelling: the canonical one in any letter case (must mean that id), or braces, ``urn:uuid:``,
no or moved hyphens, ``_`` between digits, surrounding or trailing whitespace, a non-ASCII
digit or confusable letter, an inserted invisible character (must be INVALID_ARGUMENT, naming
a field). Judged against that independent statement:

- 0 wrong allows: B's tenant in any accepted spelling is PERMISSION_DENIED, B's entity id is
  answered as the isolation table says (NOT_FOUND unless listed), never with B's data;
- 0 misspellings accepted, 0 canonical spellings refused;
- 0 leaks: no error names a UUID the request did not carry.

On main 6d0b5e0 the policy compared lower-cased text while the handlers parsed with
``UUID()``, which also reads braces, ``urn:uuid:``, missing hyphens, ``_`` and non-ASCII digits.
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import grpc
import pytest
from google.protobuf import text_format
from google.protobuf.message import Message
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from agenda.agent.v1 import agent_service_pb2 as agent_pb
from agenda.agent.v1 import catalog_service_pb2 as catalog_pb
from agent_service.infrastructure.grpc.policy import AGENT_POLICY, CATALOG_POLICY
from tests.figures import record
from tests.security.authorization import (
    BO,
    GW,
    PLATFORM_RPCS,
    AgentSide,
    agent_request,
    agent_side,
)
from tests.security.conftest import scaled
from tests.security.isolation import EXPECTED, rpc_targets, set_field
from tests.security.principals import Principals
from tests.security.rpcs import Outcome, Rpc, invoke
from tests.security.stack import SecurityStack, TenantData

pytest_plugins = ["tests.security.matrix_setup"]
Code = grpc.StatusCode
RPCS = [
    Rpc(service.full_name, method)
    for module in (agent_pb, catalog_pb)
    for service in module.DESCRIPTOR.services_by_name.values()
    for method in service.methods
    if method.name not in PLATFORM_RPCS
]
ROWS = {**AGENT_POLICY.rows, **CATALOG_POLICY.rows}
SEEN: Counter[str] = Counter()
WRONG: list[str] = []
UUIDS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
HYPOTHESIS = settings(
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    phases=(Phase.explicit, Phase.generate),  # each example sweeps every RPC: no shrinking
)
Spelling = Callable[[str, st.DataObject], str]


def _case(u: str, data: st.DataObject) -> str:
    flips = data.draw(st.lists(st.booleans(), min_size=len(u), max_size=len(u)))
    return "".join(c.upper() if flip else c for c, flip in zip(u, flips, strict=True))


def _at(u: str, data: st.DataObject, char: str, *, replace: bool) -> str:
    index = data.draw(st.integers(0, len(u) - 1))
    return u[:index] + char + u[index + (1 if replace else 0) :]


def _digit_lookalike(u: str, data: st.DataObject) -> str:
    digits = [i for i, c in enumerate(u) if c.isdigit()] or [0]
    index = data.draw(st.sampled_from(digits))
    value = int(u[index]) if u[index].isdigit() else 0
    base = data.draw(st.sampled_from([0x0660, 0x06F0, 0x0966, 0xFF10, 0x1D7CE, 0x09E6]))
    return u[:index] + chr(base + value) + u[index + 1 :]


def _letter_lookalike(u: str, data: st.DataObject) -> str:
    lookalikes = {"a": "а", "c": "с", "e": "е", "b": "Ь", "d": "ԁ", "f": "ｆ"}
    letters = [i for i, c in enumerate(u) if c in lookalikes] or [0]
    index = data.draw(st.sampled_from(letters))
    return u[:index] + lookalikes.get(u[index], "а") + u[index + 1 :]


CANONICAL: dict[str, Spelling] = {"any letter case": _case}
MISSPELT: dict[str, Spelling] = {
    "braces": lambda u, _: f"{{{u}}}",
    "urn": lambda u, _: f"urn:uuid:{u}",
    "no hyphens": lambda u, _: u.replace("-", ""),
    "moved hyphen": lambda u, _: u[:7] + "-" + u[7] + u[9:],
    "underscore": lambda u, _: (h := u.replace("-", ""))[:4] + "_" + h[5:],
    "trailing newline": lambda u, _: u + "\n",
    "outer space": lambda u, d: d.draw(st.sampled_from([f" {u}", f"{u} ", f"\t{u}"])),
    "non-ASCII digit": _digit_lookalike,
    "confusable letter": _letter_lookalike,
    "invisible": lambda u, d: _at(
        u, d, d.draw(st.sampled_from(["\u200b", "\u2060", "\ufeff", "\u00ad"])), replace=False
    ),
    "fullwidth hyphen": lambda u, _: u.replace("-", "－", 1),
}


def _fields(rpc: Rpc) -> list[tuple[tuple[str, ...], str]]:
    """(path, kind) of the tenant the policy reads and of every entity id of the request."""
    row = ROWS[rpc.name]
    tenant = [(tuple(row.tenant.split(".")), "tenant")] if row.tenant else []
    return tenant + [(target.path, target.kind) for target in rpc_targets(rpc)]


IGNORED = frozenset(
    {
        ("CreateService", "service.id"),
        ("CreateProfessional", "professional.id"),
        ("CreateFaqEntry", "entry.id"),
        ("UpsertCustomer", "customer.id"),
    }
)
"""Fields the contract ignores ("id is ignored" on create and upsert): any value is OK."""


def _judge(outcome: Outcome, misspelt: bool, owner: str, kind: str, rpc: Rpc, path: str) -> str:
    """What is wrong with ``outcome`` ("" when nothing)."""
    code = outcome.code
    if (rpc.name, path) in IGNORED:
        return "" if code is Code.OK else "an ignored field was read"
    if misspelt:
        return "" if code is Code.INVALID_ARGUMENT and outcome.error.violations else "accepted"
    if owner == "B" and kind == "tenant":
        return "" if code is Code.PERMISSION_DENIED else "another tenant allowed"
    if owner == "B":  # as the isolation table says (an unknown reference in a body is named)
        want = EXPECTED.get((rpc.name, path), Code.NOT_FOUND)
        return "" if code is want else f"want {want.name}"
    if code is Code.INVALID_ARGUMENT and any(v[0] == path for v in outcome.error.violations):
        return "canonical spelling refused"
    return "own id refused" if code in (Code.PERMISSION_DENIED, Code.UNAUTHENTICATED) else ""


def _leaked_ids(outcome: Outcome, request: object) -> list[str]:
    sent = {uuid.UUID(u) for u in UUIDS.findall(text_format.MessageToString(request))}  # type: ignore[arg-type]
    named = " ".join(
        [
            outcome.details,
            *outcome.error.metadata.values(),
            *(v[1] for v in outcome.error.violations),
        ]
    )
    return [u for u in UUIDS.findall(named) if uuid.UUID(u) not in sent]


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    if SEEN:
        print(f"\nFIGURE id forms: {sum(SEEN.values())} calls -> {dict(SEEN)}")
        record(
            "id_forms",
            {
                "calls (RPC × id field × drawn spelling, A's or B's id)": sum(SEEN.values()),
                "outcomes": dict(sorted(SEEN.items())),
                "wrong answers (allows, accepted misspellings, refusals, leaks)": len(WRONG),
            },
        )


Prepared = tuple[SecurityStack, Principals, AgentSide]


@pytest.fixture
async def prepared(matrix_stack: tuple[SecurityStack, Principals]) -> Prepared:
    stack, principals = matrix_stack
    return stack, principals, await agent_side(stack)


def _real_id(request: Message, path: tuple[str, ...], owner: TenantData, kind: str) -> str:
    """A's: the id the valid request already holds there (so a delete hits the disposable
    entity, not a seeded one); B's: one of B's ids of that kind."""
    if owner.label == "A":
        held: Any = request
        for name in path:
            held = getattr(held, name)
        value = held[0] if isinstance(held, Sequence) and not isinstance(held, str) else held
        if value:
            return str(value)
    if kind == "tenant":
        return owner.id
    try:
        return owner.ids(kind)[0]
    except (AttributeError, IndexError):  # a kind nothing was seeded for: an absent id
        return str(uuid.uuid4())


@given(data=st.data())
@settings(HYPOTHESIS, max_examples=scaled(2, 20))
async def test_every_id_has_one_spelling_everywhere(
    prepared: Prepared, data: st.DataObject
) -> None:
    stack, principals, side = prepared
    a, b = stack.tenants["A"], stack.tenants["B"]
    for rpc in RPCS:
        who = GW if rpc.service.endswith("AgentService") else BO
        channel = stack.agent_channel
        for path, kind in _fields(rpc):
            request = agent_request(rpc, "own", side, a, b)
            if request is None:
                continue
            owner = data.draw(st.sampled_from(["A", "B"]))
            real = _real_id(request, path, a if owner == "A" else b, kind)
            misspelt = data.draw(st.booleans())  # half the calls: the one spelling
            name = data.draw(st.sampled_from(sorted(MISSPELT if misspelt else CANONICAL)))
            spelt = {**CANONICAL, **MISSPELT}[name](real, data)
            set_field(request, path, spelt)
            outcome = await invoke(channel, rpc, request, principals.metadata(who))
            SEEN[outcome.code.name] += 1
            field = ".".join(path)
            problem = _judge(outcome, misspelt, owner, kind, rpc, field)
            leaked = _leaked_ids(outcome, request)
            if owner == "B" and outcome.responses:
                text = "".join(text_format.MessageToString(r) for r in outcome.responses)
                leaked += [s for s in b.secrets() if s and s in text]
            if problem or leaked:
                got = f"{outcome.code.name} {outcome.details[:80]!r}"
                WRONG.append(f"{rpc}:{field} {name} {owner}: {got} {problem} {leaked}")
    if WRONG:
        pytest.fail("\n".join(WRONG), pytrace=False)
