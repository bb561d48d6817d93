"""The principals of the authorization tests: a principals file (hashed tokens), and JWTs
signed by a test identity provider whose public key is in a JWKS file.

JWT lifetimes are fixed instants (expired in 1970, valid until 2100): no clock is read.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from agenda_kit.auth.directory import token_hash
from agenda_kit.mongo import EmbeddedMongo
from tests.security.stack import SecurityStack, security_stack

ISSUER = "https://idp.test.agenda"
AUDIENCE = "agenda-tests"
KEY_ID = "test-key-1"
VALID_UNTIL = 4102444800  # 2100-01-01T00:00:00Z
EXPIRED_AT = 1000  # 1970-01-01T00:16:40Z
X_CALENDARS, Y_CALENDARS, SHARED = "mx-", "my-", "shared-"
A_CALENDARS = "sec-a-"  # tenant A's professionals' calendars (tests/security/stack.py)
Metadata = tuple[tuple[str, str], ...]


def bearer(token: str) -> Metadata:
    return (("authorization", f"Bearer {token}"),)


@dataclass
class IdentityProvider:
    """Signs tokens with its key; ``forger`` has another key under the same key id."""

    key: rsa.RSAPrivateKey = field(
        default_factory=lambda: rsa.generate_private_key(public_exponent=65537, key_size=2048)
    )

    def jwks(self) -> dict[str, Any]:
        public = json.loads(RSAAlgorithm.to_jwk(self.key.public_key()))
        return {"keys": [public | {"kid": KEY_ID, "alg": "RS256", "use": "sig"}]}

    def token(self, claims: dict[str, Any], *, headers: dict[str, Any] | None = None) -> str:
        header = {"kid": KEY_ID} | (headers or {})
        return jwt.encode(claims, self.key, algorithm="RS256", headers=header)


def claims(**overrides: Any) -> dict[str, Any]:
    """A valid gateway-of-``tenant`` claim set; ``overrides`` replace or (None) drop keys."""
    base: dict[str, Any] = {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": "webchat-gateway",
        "exp": VALID_UNTIL,
        "agenda_roles": ["gateway"],
        "agenda_tenants": [],
    }
    merged = base | overrides
    return {key: value for key, value in merged.items() if value is not None}


@dataclass
class Principals:
    """Tokens of every principal of the matrix, and the file that describes them."""

    tenant_a: str
    idp: IdentityProvider = field(default_factory=IdentityProvider)
    forger: IdentityProvider = field(default_factory=IdentityProvider)
    tokens: dict[str, str] = field(default_factory=dict)

    def write(self, directory: Path) -> Path:
        jwks_file = directory / "jwks.json"
        jwks_file.write_text(json.dumps(self.idp.jwks()))
        a = self.tenant_a
        tables = [
            _table("gateway-a", "gateway", f'["{a}"]', self._hash("gateway-a")),
            _table("gateway-a-whatsapp", "gateway", f'["{a}"]', self._hash("gateway-a-whatsapp"))
            + 'channels = ["whatsapp"]\n',
            _table("backoffice-a", "backoffice", f'["{a}"]', self._hash("backoffice-a"))
            + f'calendars = [{{ pattern = "{A_CALENDARS}*", write = true }}, '
            '{ pattern = "sec-new-*", write = true }]\n',
            _table("operator", "operator", '"*"', self._hash("operator")),
            _table("calendar-x", "calendar-client", "[]", self._hash("calendar-x"))
            + f'calendars = [{{ pattern = "{X_CALENDARS}*", write = true }}, '
            f'{{ pattern = "{SHARED}*", write = true }}]\n',
            _table("calendar-x-read", "calendar-client", "[]", self._hash("calendar-x-read"))
            + f'calendars = [{{ pattern = "{X_CALENDARS}*" }}, {{ pattern = "{SHARED}*" }}]\n',
            _table("calendar-y", "calendar-client", "[]", self._hash("calendar-y"))
            + f'calendars = [{{ pattern = "{Y_CALENDARS}*", write = true }}, '
            f'{{ pattern = "{SHARED}*", write = true }}]\n',
        ]
        jwt_table = (
            f'\n[jwt]\nissuer = "{ISSUER}"\naudience = "{AUDIENCE}"\njwks_file = "jwks.json"\n'
        )
        path = directory / "principals.toml"
        path.write_text("".join(tables) + jwt_table)
        return path

    def _hash(self, name: str) -> str:
        self.tokens[name] = secrets.token_urlsafe(24)
        return token_hash(self.tokens[name])

    def metadata(self, name: str) -> Metadata:
        """The credential of a principal of the matrix (by its column name)."""
        if name == "no credential":
            return ()
        if name == "gateway-a (JWT)":
            return bearer(self.idp.token(claims(agenda_tenants=[self.tenant_a])))
        if name == "gateway-a webchat (JWT)":
            scope: dict[str, Any] = {
                "agenda_tenants": [self.tenant_a],
                "agenda_channels": ["webchat"],
            }
            return bearer(self.idp.token(claims(sub="webchat-only", **scope)))
        if name == "JWT string grant":  # {"write": "false"}: a refused credential, not a grant
            grant = [{"pattern": f"{X_CALENDARS}*", "write": "false"}]
            scope = {"agenda_roles": ["calendar-client"], "agenda_calendars": grant}
            return bearer(self.idp.token(claims(sub="string-grant", **scope)))
        if name == "expired JWT":
            return bearer(self.idp.token(claims(agenda_tenants=["*"], exp=EXPIRED_AT)))
        if name == "forged JWT":  # another key under the provider's key id
            forged = claims(agenda_tenants=["*"], agenda_roles=["operator"])
            return bearer(self.forger.token(forged))
        return bearer(self.tokens[name])


def _table(name: str, role: str, tenants: str, digest: str) -> str:
    return (
        f'\n[[principal]]\nname = "{name}"\nrole = "{role}"\ntenants = {tenants}\n'
        f'token_sha256 = ["{digest}"]\n'
    )


@asynccontextmanager
async def principal_stack(
    directory: Path, mongo: EmbeddedMongo | None = None, **options: Any
) -> AsyncIterator[tuple[SecurityStack, Principals]]:
    """The security stack (``options``: those of ``security_stack``), then (once A exists)
    the matrix's principals file, which both servers pick up without a restart."""
    path = directory / "principals.toml"
    path.write_text("")
    async with security_stack(directory, mongo, principals_file=path, **options) as stack:
        principals = Principals(stack.tenants["A"].id)
        principals.write(directory)
        yield stack, principals
