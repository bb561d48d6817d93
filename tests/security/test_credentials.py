"""Credentials → principals, through a real calendar server: signed JWTs (every way a token
can be wrong is UNAUTHENTICATED), the principals file (hashed tokens only, rotation without a
restart, a broken file keeps the last good one), mTLS client certificates by CN/SAN, and the
zero-config development tokens."""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.server
import ipaddress
import json
import threading
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import grpc
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from google.protobuf import timestamp_pb2

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.auth.devtokens import TOKEN_FILES, token_path
from agenda_kit.auth.directory import token_hash
from agenda_kit.auth.principals import Role
from agenda_kit.auth.setup import build_directory
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import CalendarApp, bootstrap
from calendar_service.infrastructure.settings import CalendarSettings
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.fakes.in_memory_holds import InMemoryHolds
from tests.security.principals import (
    AUDIENCE,
    EXPIRED_AT,
    ISSUER,
    KEY_ID,
    VALID_UNTIL,
    IdentityProvider,
    bearer,
    claims,
)

CALENDAR = "jwt-cal-1"
FAR_PAST, FAR_FUTURE = datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC)
NOT_BOOLEANS: tuple[object, ...] = ("false", "true", 0, 1, None, [])
GRANT = {"agenda_roles": ["calendar-client"], "agenda_calendars": [{"pattern": "jwt-*"}]}


def _principals_file(directory: Path, body: str) -> Path:
    path = directory / "principals.toml"
    path.write_text(body)
    return path


async def _app(directory: Path, principals: Path, **settings: Any) -> CalendarApp:
    app = await bootstrap(
        CalendarSettings(grpc_port=0, metrics_port=0, **settings),
        SharedSettings(AGENDA_DATA_DIR=directory, AGENDA_PRINCIPALS_FILE=principals),
        backend=InMemoryCalendar(),
        holds=InMemoryHolds(),
    )
    await app.start()
    return app


def _list(calendar: str = CALENDAR) -> pb.ListEventsRequest:
    start, end = timestamp_pb2.Timestamp(seconds=0), timestamp_pb2.Timestamp(seconds=86_400)
    return pb.ListEventsRequest(calendar_id=calendar, range=pb.TimeRange(start=start, end=end))


async def _code(channel: grpc.aio.Channel, metadata: Any, calendar: str = CALENDAR) -> str:
    try:
        await pb_grpc.CalendarServiceStub(channel).ListEvents(
            _list(calendar), metadata=metadata, timeout=10
        )
    except grpc.aio.AioRpcError as error:
        return str(error.code().name)
    return "OK"


@pytest.fixture
async def jwt_server(tmp_path: Path) -> AsyncIterator[tuple[grpc.aio.Channel, IdentityProvider]]:
    idp = IdentityProvider()
    (tmp_path / "jwks.json").write_text(json.dumps(idp.jwks()))
    principals = _principals_file(
        tmp_path,
        f'[jwt]\nissuer = "{ISSUER}"\naudience = "{AUDIENCE}"\njwks_file = "jwks.json"\n',
    )
    app = await _app(tmp_path, principals)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            yield channel, idp
    finally:
        await app.stop(0)


def _unsigned(payload: dict[str, Any]) -> str:
    def part(data: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'none', 'kid': KEY_ID, 'typ': 'JWT'})}.{part(payload)}."


def _bad_tokens(idp: IdentityProvider) -> dict[str, str]:
    good = claims(**GRANT)
    public_pem = idp.key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return {
        "wrong signature": IdentityProvider().token(good),
        "wrong issuer": idp.token(claims(**GRANT, iss="https://evil.example")),
        "wrong audience": idp.token(claims(**GRANT, aud="another-service")),
        "expired": idp.token(claims(**GRANT, exp=EXPIRED_AT)),
        "not yet valid": idp.token(claims(**GRANT, nbf=VALID_UNTIL)),
        "alg none": _unsigned(good),
        "HS256 keyed with the public key": _hs256(good, public_pem),
        "unknown key id": idp.token(good, headers={"kid": "other"}),
        "missing sub": idp.token(claims(**GRANT, sub=None)),
        "missing exp": idp.token(claims(**GRANT, exp=None)),
        "missing aud": idp.token(claims(**GRANT, aud=None)),
        "missing iss": idp.token(claims(**GRANT, iss=None)),
        "missing roles": idp.token(claims(**GRANT | {"agenda_roles": None})),
        "unknown role": idp.token(claims(agenda_roles=["root"])),
        "malformed": "eyJhbGciOiJSUzI1NiJ9.not-json.sig",
        "truncated": idp.token(good)[:-8],
        # Issue 24: grants are parsed strictly — a string, number or null is not a boolean.
        **{
            f"write = {value!r}": idp.token(claims(**_grant({"pattern": "jwt-*", "write": value})))
            for value in NOT_BOOLEANS
        },
        "unknown grant field": idp.token(claims(**_grant({"pattern": "jwt-*", "writes": True}))),
        "unknown agenda claim": idp.token(claims(**GRANT, agenda_tenant=["*"])),
        "roles not strings": idp.token(claims(agenda_roles=[1])),
        "tenant not a UUID": idp.token(claims(**GRANT, agenda_tenants=["{0}"])),
        "sub not a string": idp.token(claims(**GRANT, sub=7)),
    }


def _grant(grant: dict[str, Any]) -> dict[str, Any]:
    return {"agenda_roles": ["calendar-client"], "agenda_calendars": [grant]}


def _hs256(payload: dict[str, Any], secret: bytes) -> str:
    """The algorithm-confusion attack: HMAC keyed with the (public) RSA key."""

    def part(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    header = part(json.dumps({"alg": "HS256", "kid": KEY_ID, "typ": "JWT"}).encode())
    body = part(json.dumps(payload).encode())
    signature = hmac.new(secret, f"{header}.{body}".encode(), hashlib.sha256).digest()
    return f"{header}.{body}.{part(signature)}"


async def test_every_bad_jwt_is_unauthenticated(
    jwt_server: tuple[grpc.aio.Channel, IdentityProvider],
) -> None:
    channel, idp = jwt_server
    assert await _code(channel, bearer(idp.token(claims(**GRANT)))) == "OK"
    outcomes = {name: await _code(channel, bearer(t)) for name, t in _bad_tokens(idp).items()}
    assert outcomes == dict.fromkeys(outcomes, "UNAUTHENTICATED")
    print(f"\nFIGURE jwt negatives: {len(outcomes)} bad tokens -> UNAUTHENTICATED")


async def test_jwt_claims_scope_the_principal(
    jwt_server: tuple[grpc.aio.Channel, IdentityProvider],
) -> None:
    channel, idp = jwt_server
    assert await _code(channel, bearer(idp.token(claims(**GRANT))), "other-cal") == (
        "PERMISSION_DENIED"
    )
    gateway = idp.token(claims(agenda_roles=["gateway"], agenda_tenants=["*"]))
    assert await _code(channel, bearer(gateway)) == "PERMISSION_DENIED"


async def test_principals_file_rotation_without_restart(tmp_path: Path) -> None:
    body = 'role = "calendar-client"\ncalendars = ["jwt-*"]\n'
    old, new = "old-token-0123456789", "new-token-0123456789"
    path = _principals_file(
        tmp_path, f'[[principal]]\nname = "c"\n{body}token_sha256 = ["{token_hash(old)}"]\n'
    )
    assert old not in path.read_text()
    app = await _app(tmp_path, path)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            assert await _code(channel, bearer(old)) == "OK"
            assert await _code(channel, bearer(new)) == "UNAUTHENTICATED"
            both = f'["{token_hash(old)}", "{token_hash(new)}"]'
            path.write_text(f'[[principal]]\nname = "c"\n{body}token_sha256 = {both}\n')
            assert (await _code(channel, bearer(old)), await _code(channel, bearer(new))) == (
                "OK",
                "OK",
            )
            path.write_text(
                f'[[principal]]\nname = "c"\n{body}token_sha256 = ["{token_hash(new)}"]\n'
            )
            assert await _code(channel, bearer(old)) == "UNAUTHENTICATED"
            path.write_text("[[principal]]\nname = broken")  # not TOML: the last good file stays
            assert await _code(channel, bearer(new)) == "OK"
    finally:
        await app.stop(0)


@pytest.mark.parametrize(
    "body",
    [
        '[[principal]]\nname = "p"\nrole = "calendar-client"\ntoken_sha256 = ["plain-token"]\n',
        '[[principal]]\nname = "p"\nrole = "root"\n',
        '[[principal]]\nrole = "operator"\n',
        '[[principal]]\nname = "p"\nrole = "operator"\n'
        '[[principal]]\nname = "p"\nrole = "gateway"\n',
        '[jwt]\nissuer = "i"\naudience = "a"\njwks_file = "k.json"\nalgorithms = ["HS256"]\n',
        '[jwt]\nissuer = "i"\naudience = "a"\n',
        "not toml at all [",
        # Issue 24: one strict schema; names unique across sources, ``jwt:`` reserved.
        '[[principal]]\nname = "jwt:webchat-gateway"\nrole = "gateway"\n',
        '[[principal]]\nname = "p"\nrole = "calendar-client"\ncalendars = [{ pattern = "x", '
        'write = "false" }]\n',
        '[[principal]]\nname = "p"\nrole = "calendar-client"\ncalendars = [{ pattern = "x", '
        "writes = true }]\n",
        '[[principal]]\nname = "p"\nrole = "gateway"\ntenant = "*"\n',
        '[[principal]]\nname = "p"\nrole = "gateway"\nchannels = ["whatsapp\\n"]\n',
        '[[principal]]\nname = "p"\nrole = "gateway"\ntenants = ["not-a-uuid"]\n',
        '[[principal]]\nname = "calendar-client"\nrole = "gateway"\n',  # the env principal
        '[jwt]\nissuer = "i"\naudience = "a"\njwks_url = "http://x"\njwks_cache_seconds = 61\n',
        '[mtls]\nname_types = ["email"]\n[[principal]]\nname = "p"\nrole = "gateway"\n',
    ],
)
async def test_an_invalid_principals_file_stops_the_start(tmp_path: Path, body: str) -> None:
    pattern = r"principals|token_sha256|role|name|jwt|TOML|calendars|tenant|channels|mtls"
    with pytest.raises(ValueError, match=pattern):
        await _app(tmp_path, _principals_file(tmp_path, body), auth_tokens=["env-token-0123"])


async def test_a_bad_principals_file_stops_the_start_before_any_store_opens(tmp_path: Path) -> None:
    """Credentials are read first: no embedded MongoDB is spawned (nor its data directory
    made) for a configuration that cannot serve."""
    with pytest.raises(ValueError, match="role"):
        await bootstrap(
            CalendarSettings(grpc_port=0, metrics_port=0, auth_tokens=["env-token-0123"]),
            SharedSettings(
                AGENDA_DATA_DIR=tmp_path,
                AGENDA_PRINCIPALS_FILE=_principals_file(tmp_path, '[[principal]]\nname = "p"\n'),
            ),
        )
    assert not (tmp_path / "mongo").exists()


def test_zero_config_writes_one_token_per_role_and_only_hashes(tmp_path: Path) -> None:
    directory = build_directory(None, tmp_path, None)
    tokens = {name: token_path(tmp_path, name).read_text().strip() for name in TOKEN_FILES}
    assert len(set(tokens.values())) == len(TOKEN_FILES)
    text = (tmp_path / "principals.toml").read_text()
    assert not any(token in text for token in tokens.values())
    for name in TOKEN_FILES:
        assert token_path(tmp_path, name).stat().st_mode & 0o777 == 0o600
    roles = {e.principal.name: e.principal.roles for e in directory.current().entries}
    assert roles == {
        "gateway": {Role.GATEWAY},
        "backoffice": {Role.BACKOFFICE},
        "operator": {Role.OPERATOR},
        "calendar-agent": {Role.CALENDAR_CLIENT},
    }
    # No tenant yet: the gateway and back office are scoped to nothing until make run seeds.
    scoped = {e.principal.name: e.principal.tenants for e in directory.current().entries}
    assert scoped["gateway"] == frozenset() and scoped["backoffice"] == frozenset()


# -- mTLS --------------------------------------------------------------------------------------


def _certificate(
    name: str,
    key: ec.EllipticCurvePrivateKey,
    issuer: tuple[x509.Name, ec.EllipticCurvePrivateKey] | None,
    *,
    ca: bool,
    alternatives: list[x509.GeneralName] | None = None,
) -> x509.Certificate:
    """A certificate with common name ``name`` and, by default, the DNS SAN ``name``."""
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    issuer_name, signer = issuer if issuer else (subject, key)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(FAR_PAST)
        .not_valid_after(FAR_FUTURE)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    names = [x509.DNSName(name)] if alternatives is None else alternatives
    if names:
        builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
    return builder.sign(signer, hashes.SHA256())


def _pem(certificate: x509.Certificate) -> bytes:
    return certificate.public_bytes(serialization.Encoding.PEM)


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


async def test_mtls_client_certificates_map_to_principals(tmp_path: Path) -> None:
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _certificate("agenda-test-ca", ca_key, None, ca=True)
    issuer = (ca.subject, ca_key)
    server_key = ec.generate_private_key(ec.SECP256R1())
    server = _certificate("localhost", server_key, issuer, ca=False)
    files = {
        "ca.pem": _pem(ca),
        "server.pem": _pem(server),
        "server.key": _key_pem(server_key),
    }
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    principals = _principals_file(
        tmp_path,
        '[[principal]]\nname = "crm"\nrole = "calendar-client"\ncalendars = ["jwt-*"]\n'
        'mtls_names = ["crm.internal", "ops@crm.internal", "spiffe://agenda/crm", "10.0.0.7"]\n',
    )
    app = await _app(
        tmp_path,
        principals,
        tls_cert_file=tmp_path / "server.pem",
        tls_key_file=tmp_path / "server.key",
        tls_client_ca_file=tmp_path / "ca.pem",
    )
    try:
        outcomes = {}
        cases: tuple[tuple[str, str, list[x509.GeneralName] | None], ...] = (
            ("mapped", "crm.internal", None),
            ("unmapped", "stranger.internal", None),
            # Issue 24: only DNS/URI SANs and the CN name a principal, never e-mail or IP.
            ("URI SAN", "stranger", [x509.UniformResourceIdentifier("spiffe://agenda/crm")]),
            ("CN only", "crm.internal", []),
            ("e-mail SAN", "stranger", [x509.RFC822Name("ops@crm.internal")]),
            ("IP SAN", "stranger", [x509.IPAddress(ipaddress.ip_address("10.0.0.7"))]),
        )
        for label, client_name, alternatives in cases:
            key = ec.generate_private_key(ec.SECP256R1())
            client = _certificate(client_name, key, issuer, ca=False, alternatives=alternatives)
            credentials = grpc.ssl_channel_credentials(_pem(ca), _key_pem(key), _pem(client))
            async with grpc.aio.secure_channel(f"localhost:{app.port}", credentials) as channel:
                outcomes[label] = await _code(channel, ())
            if label == "mapped":
                async with grpc.aio.secure_channel(f"localhost:{app.port}", credentials) as channel:
                    outcomes[f"{label}, ungranted calendar"] = await _code(channel, (), "other")
        assert outcomes == {
            "mapped": "OK",
            "mapped, ungranted calendar": "PERMISSION_DENIED",
            "unmapped": "UNAUTHENTICATED",
            "URI SAN": "OK",
            "CN only": "OK",
            "e-mail SAN": "UNAUTHENTICATED",
            "IP SAN": "UNAUTHENTICATED",
        }
    finally:
        await app.stop(0)


class _JwksHandler(http.server.BaseHTTPRequestHandler):
    body = b""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *_args: Any) -> None:
        return


async def test_jwks_fetched_from_a_url(tmp_path: Path) -> None:
    idp = IdentityProvider()
    handler = type("Handler", (_JwksHandler,), {"body": json.dumps(idp.jwks()).encode()})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/jwks.json"
    principals = _principals_file(
        tmp_path, f'[jwt]\nissuer = "{ISSUER}"\naudience = "{AUDIENCE}"\njwks_url = "{url}"\n'
    )
    app = await _app(tmp_path, principals)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            assert await _code(channel, bearer(idp.token(claims(**GRANT)))) == "OK"
            forged = IdentityProvider().token(claims(**GRANT))
            assert await _code(channel, bearer(forged)) == "UNAUTHENTICATED"
    finally:
        await app.stop(0)
        server.shutdown()
        server.server_close()
