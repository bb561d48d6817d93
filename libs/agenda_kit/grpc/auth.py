"""The edge of every RPC except health and reflection, in one fixed order:

1. **authenticate** the caller (bearer token, JWT or client certificate) → UNAUTHENTICATED;
2. the method's row of the policy table: the caller's role may call it → PERMISSION_DENIED
   (no row: denied);
3. **validate** the body: a body that does not decode, a field over its length bound or with a
   NUL (``RequestBounds``), a tenant or channel not in its one spelling → INVALID_ARGUMENT;
4. the row's **scope**: tenant, channel, calendars the request names → PERMISSION_DENIED;
5. **admission** (``EdgeAdmission``): open streams and calls in flight → RESOURCE_EXHAUSTED;

then the principal is bound for handlers and use cases, which check what only they can see
(event owners; the channel of a stored conversation or outbox message). So an anonymous
caller learns nothing about the body it sent, and nothing refused here costs a storage round
trip. Every refusal carries a stable ``ErrorInfo.reason`` (``agenda_kit.errors``).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any

import grpc
import structlog
from cryptography import x509
from cryptography.x509.oid import NameOID
from google.protobuf.message import Message

from agenda_kit.auth.context import bind_principal, unbind_principal
from agenda_kit.auth.directory import (
    CertificateName,
    MissingCredentialError,
    PrincipalDirectory,
)
from agenda_kit.auth.jwt_tokens import InvalidCredentialError
from agenda_kit.auth.policy import (
    Denial,
    PolicyTable,
    Rule,
    authorize,
    authorize_method,
    scoped_tenant,
)
from agenda_kit.auth.principals import Principal
from agenda_kit.errors import (
    CallerNotAllowedError,
    CallerUnauthenticatedError,
    RequestValidationError,
)
from agenda_kit.grpc.admission import EdgeAdmission
from agenda_kit.grpc.handlers import (
    UNDECODABLE,
    Behavior,
    Context,
    Continuation,
    Handler,
    StreamBehavior,
    mark_decoding,
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
RequestCheck = Callable[[Any], None]
"""Validates a decoded request (raises ``RequestValidationError``), e.g. ``RequestBounds``."""
MAX_TOKEN_CHARS = 16_384


def bearer_token(metadata: Iterable[tuple[str, str | bytes]] | None) -> str | None:
    """The token of an ``authorization: Bearer <token>`` metadata entry, if any."""
    for key, value in metadata or ():
        if key.lower() == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            if scheme.lower() == "bearer" and token:
                return token.strip()
    return None


def certificate_names(context: Context) -> list[CertificateName]:
    """The verified client certificate's names, typed: ``cn`` (subject common names),
    ``dns``/``uri``/``email``/``ip`` (subject alternative names), read from the certificate
    itself; empty without mTLS. Which types may name a principal is the directory's rule."""
    auth = context.auth_context() or {}
    pem = list(auth.get("x509_pem_cert", ()))
    if not pem:
        return [
            ("cn", value.decode(errors="replace")) for value in auth.get("x509_common_name", ())
        ]
    try:
        certificate = x509.load_pem_x509_certificate(pem[0])
    except ValueError:
        return []
    names: list[CertificateName] = [
        ("cn", str(attribute.value))
        for attribute in certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    ]
    try:
        alternatives = certificate.extensions.get_extension_for_class(
            x509.SubjectAlternativeName
        ).value
    except x509.ExtensionNotFound:
        return names
    for kind, name_type in _SAN_TYPES:
        names.extend((kind, str(value)) for value in alternatives.get_values_for_type(name_type))
    return names


_SAN_TYPES: tuple[tuple[str, Any], ...] = (
    ("dns", x509.DNSName),
    ("uri", x509.UniformResourceIdentifier),
    ("email", x509.RFC822Name),
    ("ip", x509.IPAddress),
)


class AuthorizationInterceptor(grpc.aio.ServerInterceptor):
    """The edge's steps, in the module's order (``check``: the service's body validation;
    ``admission``: its limits; both optional)."""

    def __init__(
        self,
        directory: PrincipalDirectory,
        policies: Sequence[PolicyTable],
        *,
        check: RequestCheck | None = None,
        admission: EdgeAdmission | None = None,
    ) -> None:
        self._directory = directory
        self._policies = {policy.service: policy for policy in policies}
        self._check = check
        self._admission = admission

    @property
    def admission(self) -> EdgeAdmission | None:
        return self._admission

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
            lambda behavior: mark_decoding(self._unary(behavior, row, token)),
            lambda behavior: mark_decoding(self._stream(behavior, row, token)),
        )

    def _unary(self, behavior: Behavior, row: Rule | None, token: str | None) -> Behavior:
        async def run(request: Any, context: Context) -> Any:
            principal = await self._admit(request, context, row, token)
            with self._held(principal, row, request, streaming=False):
                bound = bind_principal(principal)
                try:
                    return await behavior(request, context)
                finally:
                    unbind_principal(bound)

        return run

    def _stream(self, behavior: StreamBehavior, row: Rule | None, token: str | None) -> Any:
        async def run(request: Any, context: Context) -> AsyncIterator[Any]:
            principal = await self._admit(request, context, row, token)
            with self._held(principal, row, request, streaming=True):
                bound = bind_principal(principal)
                try:
                    produced: Any = behavior(request, context)
                    if hasattr(produced, "__aiter__"):
                        async for item in produced:
                            yield item
                    else:  # writes with context.write()
                        await produced
                finally:
                    with contextlib.suppress(ValueError):  # a generator may end elsewhere
                        unbind_principal(bound)

        return run

    def _held(
        self, principal: Principal, row: Rule | None, request: Any, *, streaming: bool
    ) -> contextlib.AbstractContextManager[None]:
        if self._admission is None:
            return contextlib.nullcontext()
        tenant = scoped_tenant(row, request)
        return self._admission.hold(principal.name, tenant, streaming=streaming)

    async def _admit(
        self, request: Any, context: Context, row: Rule | None, token: str | None
    ) -> Principal:
        """Steps 1–4 of the module's order (raises the edge's errors)."""
        principal = await self._authenticate(context, token)
        _refuse(principal, authorize_method(row, principal))
        if request is UNDECODABLE:
            raise RequestValidationError("request", "the message could not be decoded")
        if self._check is not None and isinstance(request, Message):  # not raw-bytes probes
            self._check(request)
        _refuse(principal, authorize(row, principal, request))
        return principal

    async def _authenticate(self, context: Context, token: str | None) -> Principal:
        if token is not None and len(token) > MAX_TOKEN_CHARS:
            raise CallerUnauthenticatedError("CREDENTIAL_INVALID", "invalid bearer token")
        try:
            return await self._directory.resolve(token, certificate_names(context))
        except MissingCredentialError as error:
            raise CallerUnauthenticatedError("CREDENTIAL_MISSING", str(error)) from None
        except InvalidCredentialError as error:
            raise CallerUnauthenticatedError("CREDENTIAL_INVALID", str(error)) from None


def _refuse(principal: Principal, denial: Denial | None) -> None:
    if denial is not None:
        log.warning("rpc_denied", principal=principal.name, reason=denial.reason)
        raise CallerNotAllowedError(denial.code, denial.reason)
