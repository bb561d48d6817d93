"""Principals from the principals file's tables or a JWT's claims: ONE strict schema.

File format (docs/security.md)::

    [[principal]]
    name = "whatsapp-gateway"
    roles = ["gateway"]                 # or role = "gateway"
    tenants = ["3f0c…"]                 # or "*" for every tenant
    channels = ["whatsapp"]             # optional; default every channel
    token_sha256 = ["9f86d0…"]          # SHA-256 (hex) of each accepted bearer token
    mtls_names = ["gw.internal"]        # client certificate CN or DNS/URI SAN

    [[principal]]
    name = "agent"
    role = "calendar-client"
    calendars = [{ pattern = "*", write = true }]

    [jwt]                                # optional: signed bearer tokens
    issuer = "https://idp.example.com/"
    audience = "agenda"
    jwks_file = "/etc/agenda/jwks.json"  # or jwks_url = "https://…/jwks.json"

Rules (``ScopeSpec``, the same for a file table and for a token's ``agenda_*`` claims): every
value has exactly its type — a boolean is ``true``/``false``, never ``"false"``, ``0`` or
null; a list is a list — and a field the schema does not know is refused, so a typo
(``tenant = …``, ``{ pattern = "x", writes = true }``) is an error, not a silently narrower or
wider grant. Tenants are canonical UUIDs, channels channel names (``agenda_kit.ids``).
Principal names are unique across every source; the ``jwt:`` prefix is reserved for token
subjects, so a file principal can never share an owner name with a JWT caller.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictStr,
    ValidationError,
    model_validator,
)

from agenda_kit.auth.principals import CalendarGrant, Principal, Role
from agenda_kit.ids import CHANNEL_RULE, canonical_uuid, is_channel

ALL = "*"
JWT_PREFIX = "jwt:"
"""Reserved: the names of JWT principals (``jwt:<sub>``)."""
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@:/+-]{0,127}", re.ASCII)
_SHA256_HEX = re.compile(r"[0-9a-f]{64}", re.ASCII)
M = TypeVar("M", bound=BaseModel)
MAX_TENANTS, MAX_CHANNELS, MAX_GRANTS, MAX_CREDENTIALS = 10_000, 64, 256, 64


class PrincipalConfigError(ValueError):
    """The principals file (or a token's claims) does not describe a valid principal."""


def _role(value: object) -> Role:
    if not isinstance(value, str):
        raise ValueError("a role is a string")
    try:
        return Role(value)
    except ValueError:
        raise ValueError(f"unknown role {value!r}") from None


def _tenant(value: str) -> str:
    if value == ALL:
        return value
    try:
        return canonical_uuid(value)
    except ValueError:
        raise ValueError("a tenant is a UUID (8-4-4-4-12 hex digits) or '*'") from None


def _channel(value: str) -> str:
    if value != ALL and not is_channel(value):
        raise ValueError(f"a channel is {CHANNEL_RULE}")
    return value


def _no_nul(value: str) -> str:
    if "\x00" in value or not value.strip():
        raise ValueError("must be non-blank text without NUL")
    return value


def _name(value: str) -> str:
    if not _NAME.fullmatch(value):
        raise ValueError("a name is 1..128 of A-Z a-z 0-9 . _ @ : / + - (starting alphanumeric)")
    if value.lower().startswith(JWT_PREFIX):
        raise ValueError(f"the {JWT_PREFIX!r} prefix is reserved for JWT subjects")
    return value


def _digest(value: str) -> str:
    if not _SHA256_HEX.fullmatch(value.lower()):
        raise ValueError("token_sha256 entries must be 64 hex characters")
    return value.lower()


Text = Annotated[StrictStr, Field(min_length=1, max_length=256), AfterValidator(_no_nul)]
TenantId = Annotated[StrictStr, AfterValidator(_tenant)]
Channel = Annotated[StrictStr, AfterValidator(_channel)]
RoleName = Annotated[Role, BeforeValidator(_role)]


class GrantSpec(BaseModel):
    """One calendar grant: ``pattern`` (exact id or glob), ``write``, ``all_owners``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    pattern: Text
    write: StrictBool = False
    all_owners: StrictBool = False

    def grant(self) -> CalendarGrant:
        return CalendarGrant(pattern=self.pattern, write=self.write, all_owners=self.all_owners)


class ScopeSpec(BaseModel):
    """Roles and scope of a principal: a principals-file table's or a JWT's ``agenda_*``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    roles: Annotated[list[RoleName], Field(min_length=1, max_length=4)]
    tenants: Literal["*"] | Annotated[list[TenantId], Field(max_length=MAX_TENANTS)] = []
    channels: Literal["*"] | Annotated[list[Channel], Field(max_length=MAX_CHANNELS)] = "*"
    calendars: Annotated[list[Text | GrantSpec], Field(max_length=MAX_GRANTS)] = []

    @model_validator(mode="before")
    @classmethod
    def _one_role(cls, data: Any) -> Any:
        """``role = "x"`` (file) or a single role string (claims) means ``roles = ["x"]``."""
        if not isinstance(data, Mapping):
            return data
        data = dict(data)
        if "role" in data:
            if "roles" in data:
                raise ValueError("give role or roles, not both")
            data["roles"] = [data.pop("role")]
        if isinstance(data.get("roles"), str):
            data["roles"] = [data["roles"]]
        return data

    def principal(self, name: str) -> Principal:
        return Principal(
            name=name,
            roles=frozenset(self.roles),
            tenants=_set_or_all(self.tenants),
            channels=_set_or_all(self.channels),
            calendars=tuple(
                CalendarGrant(pattern=item) if isinstance(item, str) else item.grant()
                for item in self.calendars
            ),
        )


class PrincipalSpec(ScopeSpec):
    """A ``[[principal]]`` table: a name, a scope and the credentials that resolve to it."""

    name: Annotated[StrictStr, AfterValidator(_name)]
    token_sha256: Annotated[
        list[Annotated[StrictStr, AfterValidator(_digest)]], Field(max_length=MAX_CREDENTIALS)
    ] = []
    mtls_names: Annotated[list[Text], Field(max_length=MAX_CREDENTIALS)] = []


def _set_or_all(values: str | list[str]) -> frozenset[str] | None:
    if values == ALL or ALL in values:
        return None
    return frozenset(values)


@dataclass(frozen=True, slots=True)
class PrincipalEntry:
    """A principal and the credentials that resolve to it."""

    principal: Principal
    token_hashes: tuple[str, ...] = ()
    mtls_names: tuple[str, ...] = ()


def parse_entry(data: Mapping[str, Any]) -> PrincipalEntry:
    """One ``[[principal]]`` table; ``PrincipalConfigError`` names what is wrong."""
    spec = validated(PrincipalSpec, data)
    return PrincipalEntry(
        spec.principal(spec.name), tuple(spec.token_sha256), tuple(spec.mtls_names)
    )


CLAIMS = {
    "agenda_roles": "roles",
    "agenda_tenants": "tenants",
    "agenda_channels": "channels",
    "agenda_calendars": "calendars",
}
"""The claims that carry a JWT principal's scope; any other ``agenda_*`` claim is refused."""
CLAIM_PREFIX = "agenda_"


def parse_claims(claims: Mapping[str, Any], name: str) -> Principal:
    """The principal of a token's claims (same schema as a file table)."""
    unknown = sorted(key for key in claims if key.startswith(CLAIM_PREFIX) and key not in CLAIMS)
    if unknown:
        raise PrincipalConfigError(f"unknown claims: {', '.join(unknown)}")
    if "agenda_roles" not in claims:
        raise PrincipalConfigError("token has no agenda_roles claim")
    mapped = {field: claims[claim] for claim, field in CLAIMS.items() if claim in claims}
    return validated(ScopeSpec, mapped).principal(name)


def validated(model: type[M], data: Mapping[str, Any]) -> M:
    """``model`` from ``data``; ``PrincipalConfigError`` naming the deepest problem."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise PrincipalConfigError(_describe(error)) from None


def _describe(error: ValidationError) -> str:
    """The deepest problem (for a union, the branch that got furthest), its path readable."""
    problems = error.errors(include_url=False, include_input=False)
    deepest = max(problems, key=lambda problem: len(problem["loc"]))
    where = ".".join(str(part) for part in deepest["loc"] if not _is_tag(part))
    message = deepest["msg"].removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def _is_tag(part: object) -> bool:
    """pydantic's names of union branches and validators in an error path."""
    return isinstance(part, str) and ("[" in part or part == GrantSpec.__name__)
