"""Bearer-token authentication for every RPC except health and reflection."""

from __future__ import annotations

import hmac
from collections.abc import Iterable

import grpc

from agenda_kit.grpc.handlers import Context, Continuation, Handler, service_of

EXEMPT_SERVICES = frozenset(
    {
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
        "grpc.reflection.v1.ServerReflection",
    }
)


def bearer_token(metadata: Iterable[tuple[str, str | bytes]] | None) -> str | None:
    """The token of an ``authorization: Bearer <token>`` metadata entry, if any."""
    for key, value in metadata or ():
        if key.lower() == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            if scheme.lower() == "bearer" and token:
                return token.strip()
    return None


class BearerAuthInterceptor(grpc.aio.ServerInterceptor):
    """Rejects calls without one of the configured tokens with UNAUTHENTICATED.

    Health and reflection stay open so load balancers and ``grpcurl list`` work.
    """

    def __init__(self, tokens: Iterable[str]) -> None:
        self._tokens = tuple(token.encode() for token in tokens if token)
        if not self._tokens:
            raise ValueError("at least one auth token is required")

    def allows(self, token: str | None) -> bool:
        """Constant-time comparison against every accepted token."""
        if token is None:
            return False
        candidate = token.encode()
        return any(hmac.compare_digest(candidate, known) for known in self._tokens)

    async def intercept_service(
        self,
        continuation: Continuation,
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        if service_of(handler_call_details.method) in EXEMPT_SERVICES:
            return await continuation(handler_call_details)
        token = bearer_token(handler_call_details.invocation_metadata)
        if self.allows(token):
            return await continuation(handler_call_details)
        message = "missing bearer token" if token is None else "invalid bearer token"
        return _rejecting_handler(message)


def _rejecting_handler(message: str) -> Handler:
    async def reject(_request: object, context: Context) -> None:
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    return grpc.unary_unary_rpc_method_handler(reject)
