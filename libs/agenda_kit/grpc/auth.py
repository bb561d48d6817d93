"""Authentication and authorization at the edge, for every RPC except health and reflection.

The interceptor resolves the caller's principal (bearer token, JWT or client certificate),
checks the method's row of the service's policy table (no row → denied), and binds the
principal for handlers and use cases, which check what only they can see (event owners).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

import grpc
import structlog

from agenda_kit.auth.context import bind_principal, unbind_principal
from agenda_kit.auth.directory import MissingCredentialError, PrincipalDirectory
from agenda_kit.auth.jwt_tokens import InvalidCredentialError
from agenda_kit.auth.policy import PolicyTable, Rule, authorize, authorize_method
from agenda_kit.auth.principals import Principal
from agenda_kit.grpc.handlers import (
    UNDECODABLE,
    Behavior,
    Context,
    Continuation,
    Handler,
    StreamBehavior,
    service_of,
    wrap_handler,
)

log = structlog.get_logger("agenda.auth")
EXEMPT_SERVICES = frozenset(
    {
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
        "grpc.reflection.v1.ServerReflection",
    }
)
_CERTIFICATE_KEYS = ("x509_common_name", "x509_subject_alternative_name")


def bearer_token(metadata: Iterable[tuple[str, str | bytes]] | None) -> str | None:
    """The token of an ``authorization: Bearer <token>`` metadata entry, if any."""
    for key, value in metadata or ():
        if key.lower() == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            if scheme.lower() == "bearer" and token:
                return token.strip()
    return None


def certificate_names(context: Context) -> list[str]:
    """The verified client certificate's CN and SANs (empty without mTLS)."""
    auth = context.auth_context() or {}
    names: list[str] = []
    for key in _CERTIFICATE_KEYS:
        names.extend(value.decode(errors="replace") for value in auth.get(key, ()))
    return names


class AuthorizationInterceptor(grpc.aio.ServerInterceptor):
    """UNAUTHENTICATED without a valid credential; PERMISSION_DENIED outside the policy."""

    def __init__(self, directory: PrincipalDirectory, policies: Sequence[PolicyTable]) -> None:
        self._directory = directory
        self._policies = {policy.service: policy for policy in policies}

    def add_policy(self, policy: PolicyTable) -> None:
        """Rows for a service registered after bootstrap (benchmarks' probes)."""
        self._policies[policy.service] = policy

    async def intercept_service(
        self,
        continuation: Continuation,
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        method = handler_call_details.method
        service = service_of(method)
        handler = await continuation(handler_call_details)
        if service in EXEMPT_SERVICES or handler is None:
            return handler
        policy = self._policies.get(service)
        row = None if policy is None else policy.rule_for(method.rsplit("/", 1)[-1])
        token = bearer_token(handler_call_details.invocation_metadata)
        return wrap_handler(
            handler,
            lambda behavior: self._unary(behavior, row, token),
            lambda behavior: self._stream(behavior, row, token),
        )

    def _unary(self, behavior: Behavior, row: Rule | None, token: str | None) -> Behavior:
        async def run(request: Any, context: Context) -> Any:
            principal = await self._admit(request, context, row, token)
            bound = bind_principal(principal)
            try:
                return await behavior(request, context)
            finally:
                unbind_principal(bound)

        return run

    def _stream(self, behavior: StreamBehavior, row: Rule | None, token: str | None) -> Any:
        async def run(request: Any, context: Context) -> AsyncIterator[Any]:
            principal = await self._admit(request, context, row, token)
            bound = bind_principal(principal)
            try:
                produced: Any = behavior(request, context)
                if hasattr(produced, "__aiter__"):
                    async for item in produced:
                        yield item
                else:  # writes with context.write()
                    await produced
            finally:
                with contextlib.suppress(ValueError):  # a generator may end in another context
                    unbind_principal(bound)

        return run

    async def _admit(
        self, request: Any, context: Context, row: Rule | None, token: str | None
    ) -> Principal:
        try:
            principal = await self._directory.resolve(token, certificate_names(context))
        except (MissingCredentialError, InvalidCredentialError) as error:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, str(error))
            raise  # abort raises; this keeps type checkers honest
        if request is UNDECODABLE:  # no fields to scope; the handler answers INVALID_ARGUMENT
            denial = authorize_method(row, principal)
        else:
            denial = authorize(row, principal, request)
        if denial is not None:
            log.warning("rpc_denied", principal=principal.name, reason=denial.reason)
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, denial.reason)
        return principal
