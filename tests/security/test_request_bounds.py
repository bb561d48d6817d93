"""Issue 24 item 5: every string and list of the agent's contracts has a length bound, checked
at the edge (``AGENT_BOUNDS``), found from the descriptors — a field added to a proto is
bounded without a test change.

For every string field (at any depth) of every AgentService and CatalogService request: its
bound in characters passes, one more is INVALID_ARGUMENT naming the field's path, a NUL is
refused; for every repeated field: its bound in items passes, one more is refused. The
bounds table names only real fields. (On main 6d0b5e0: 5,000 ``weekly_hours`` rows and a
``calendar_id`` with NUL were accepted by CreateProfessional.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from google.protobuf import descriptor_pool
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from agenda.agent.v1 import agent_service_pb2, catalog_service_pb2
from agenda_kit.errors import RequestValidationError
from agent_service.infrastructure.grpc.bounds import AGENT_BOUNDS, WEEK_ROWS

REQUESTS = [
    method.input_type
    for module in (agent_service_pb2, catalog_service_pb2)
    for service in module.DESCRIPTOR.services_by_name.values()
    for method in service.methods
]


def fields(
    descriptor: Descriptor, path: tuple[FieldDescriptor, ...] = ()
) -> Iterator[tuple[FieldDescriptor, ...]]:
    """Every (path of field descriptors) to a string or repeated field, messages expanded."""
    for field in descriptor.fields:
        here = (*path, field)
        if field.type == FieldDescriptor.TYPE_STRING or field.is_repeated:
            yield here
        nested = field.message_type
        if nested is not None and nested.full_name.startswith("agenda.") and len(path) < 3:
            yield from fields(nested, here)


def _holder(request: Message, path: tuple[FieldDescriptor, ...]) -> Any:
    """The message holding the last field of ``path`` (repeated parents get one element)."""
    holder: Any = request
    for field in path[:-1]:
        holder = (
            getattr(holder, field.name).add() if field.is_repeated else getattr(holder, field.name)
        )
    return holder


def _set(request: Message, path: tuple[FieldDescriptor, ...], size: int, text: str = "x") -> None:
    holder, last = _holder(request, path), path[-1]
    if last.is_repeated:
        items = getattr(holder, last.name)
        for _ in range(size):
            if last.type == FieldDescriptor.TYPE_MESSAGE:
                items.add()
            elif last.type == FieldDescriptor.TYPE_STRING:
                items.append("x")
            else:
                items.append(0)
    else:
        setattr(holder, last.name, text * size)


CASES = [
    (request, path)
    for request in REQUESTS
    for path in fields(request)
    if not (path[-1].message_type and path[-1].message_type.GetOptions().map_entry)
]


def _label(case: tuple[Descriptor, tuple[FieldDescriptor, ...]]) -> str:
    request, path = case
    return f"{request.name}.{'.'.join(f.name for f in path)}"


@pytest.mark.parametrize("case", CASES, ids=[_label(c) for c in CASES])
def test_every_field_is_bounded(case: tuple[Descriptor, tuple[FieldDescriptor, ...]]) -> None:
    request_type, path = case
    last, dotted = path[-1], ".".join(f.name for f in path)
    bound = AGENT_BOUNDS.list_bound(last) if last.is_repeated else AGENT_BOUNDS.string_bound(last)
    at_bound, over = GetMessageClass(request_type)(), GetMessageClass(request_type)()
    _set(at_bound, path, bound)
    _set(over, path, bound + 1)
    AGENT_BOUNDS.check(at_bound)
    with pytest.raises(RequestValidationError) as refused:
        AGENT_BOUNDS.check(over)
    assert refused.value.field == dotted
    if not last.is_repeated:
        nul = GetMessageClass(request_type)()
        _set(nul, path, 1, "a\x00")
        with pytest.raises(RequestValidationError, match="NUL"):
            AGENT_BOUNDS.check(nul)


def test_the_bounds_name_real_fields_and_the_reported_ones() -> None:
    pool = descriptor_pool.Default()
    for name in (*AGENT_BOUNDS.strings, *AGENT_BOUNDS.lists):
        pool.FindFieldByName(name)  # KeyError for a typo
    assert WEEK_ROWS == 56
    professional = pool.FindFieldByName("agenda.agent.v1.Professional.weekly_hours")
    assert AGENT_BOUNDS.list_bound(professional) == WEEK_ROWS
    print(f"\nFIGURE request bounds: {len(CASES)} string/list fields of agent requests bounded")
