"""OpenTelemetry tracing for both services: off unless configured.

``AGENDA_TRACING`` picks the exporter (``otlp``, ``console`` or ``off``); unset, tracing is on
with the OTLP gRPC exporter exactly when ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set (the exporter
reads that and the other standard ``OTEL_*`` variables itself). When on, every gRPC server
call gets a span (the ``opentelemetry-instrumentation-grpc`` interceptors; health and
reflection excluded) and the calendar client propagates the context, so one conversation turn
is one trace across the agent and calendar services.
"""

from __future__ import annotations

import os
from enum import StrEnum
from typing import Any

import grpc
from opentelemetry import trace
from opentelemetry.instrumentation.grpc import (
    aio_client_interceptors,
    aio_server_interceptor,
)
from opentelemetry.instrumentation.grpc.filters import (
    any_of,
    health_check,
    negate,
    service_prefix,
)
from opentelemetry.sdk.resources import SERVICE_NAME, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    ConsoleSpanExporter,
    SpanExporter,
)


class TracingMode(StrEnum):
    OFF = "off"
    OTLP = "otlp"
    CONSOLE = "console"


class _State:
    provider: TracerProvider | None = None


def configure_tracing(service_name: str, mode: TracingMode) -> TracerProvider | None:
    """Install a global tracer provider exporting in batches; None (nothing done) when off."""
    if mode is TracingMode.OFF:
        return None
    attributes = {} if os.environ.get("OTEL_SERVICE_NAME") else {SERVICE_NAME: service_name}
    provider = TracerProvider(resource=Resource.create(attributes))
    provider.add_span_processor(BatchSpanProcessor(_exporter(mode)))
    trace.set_tracer_provider(provider)
    enable_tracing(provider)
    return provider


def _exporter(mode: TracingMode) -> SpanExporter:
    if mode is TracingMode.CONSOLE:
        return ConsoleSpanExporter()
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import (
        OTLPSpanExporter,
    )

    return OTLPSpanExporter()


def enable_tracing(provider: TracerProvider) -> None:
    """Servers and calendar clients created from now on trace with ``provider``."""
    _State.provider = provider


def disable_tracing() -> None:
    """Servers and clients created from now on do not trace (those already built still do)."""
    _State.provider = None


def shutdown_tracing(provider: TracerProvider | None) -> None:
    """Flush and stop ``provider`` (no-op for None)."""
    if provider is not None:
        provider.shutdown()
    disable_tracing()


def _traced_calls() -> Any:
    """Every call except health checks and reflection."""
    return negate(any_of(health_check(), service_prefix("grpc.reflection.")))


def server_interceptors() -> list[grpc.aio.ServerInterceptor]:
    """The OpenTelemetry server interceptor when tracing is on (put it first), else none."""
    if _State.provider is None:
        return []
    interceptor: grpc.aio.ServerInterceptor = aio_server_interceptor(  # type: ignore[no-untyped-call]
        tracer_provider=_State.provider, filter_=_traced_calls()
    )
    return [interceptor]


def client_interceptors() -> list[grpc.aio.ClientInterceptor]:
    """The OpenTelemetry client interceptors (context propagation) when tracing is on."""
    if _State.provider is None:
        return []
    interceptors: list[grpc.aio.ClientInterceptor] = aio_client_interceptors(  # type: ignore[no-untyped-call]
        tracer_provider=_State.provider, filter_=_traced_calls()
    )
    return interceptors


def current_trace_id() -> str | None:
    """The 32-hex-digit id of the trace being recorded, or None when there is none."""
    context = trace.get_current_span().get_span_context()
    if not context.is_valid:
        return None
    return trace.format_trace_id(context.trace_id)


def current_span_ids() -> dict[str, str]:
    """``trace_id`` and ``span_id`` of the current span, for log lines (empty without one)."""
    context = trace.get_current_span().get_span_context()
    if not context.is_valid:
        return {}
    return {
        "trace_id": trace.format_trace_id(context.trace_id),
        "span_id": trace.format_span_id(context.span_id),
    }
