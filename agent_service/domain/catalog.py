# Over 300 lines: every catalog entity with its field rules; the per-language ones share one rule.
"""What a business offers: tenants, services, professionals, FAQ entries and customers."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time
from uuid import UUID, uuid4
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_LOCALE = re.compile(r"^[a-z]{2,3}(-[A-Z]{2})?$")
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_CHANNEL = re.compile(r"^[a-z0-9_-]{1,32}$")


def _now() -> datetime:
    return datetime.now(UTC)


class Entity(BaseModel):
    """Immutable, validated on construction; change with ``model_copy(update=...)``."""

    model_config = ConfigDict(frozen=True, str_strip_whitespace=True, validate_default=True)


class BookingPolicy(Entity):
    """How a business takes bookings."""

    minimum_notice_minutes: int = Field(default=60, ge=0, le=43_200)
    booking_horizon_days: int = Field(default=60, ge=1, le=365)
    cancellation_window_minutes: int = Field(default=120, ge=0, le=10_080)
    slot_step_minutes: int = Field(default=30, ge=5, le=720)

    @field_validator("slot_step_minutes")
    @classmethod
    def _divides_day(cls, value: int) -> int:
        if 1440 % value or value % 5:
            raise ValueError("must divide 1440 and be a multiple of 5")
        return value


class Tenant(Entity):
    """A business using the assistant; its zone is where all local times are read."""

    id: UUID = Field(default_factory=uuid4)
    revision: int = Field(default=0, ge=0)
    """Counts stored changes (the etag derives from it); an update names the one it read."""
    name: str = Field(min_length=1, max_length=200)
    time_zone: str = "UTC"
    locale: str = "pt-BR"
    policy: BookingPolicy = BookingPolicy()
    created_at: datetime = Field(default_factory=_now)

    @field_validator("time_zone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError, OSError) as error:  # OSError: name too long
            raise ValueError(f"unknown time zone {value[:64]!r}") from error
        return value

    @field_validator("locale")
    @classmethod
    def _locale(cls, value: str) -> str:
        if not _LOCALE.match(value):
            raise ValueError("expected a locale like 'pt-BR' or 'en-US'")
        return value

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    @property
    def language(self) -> str:
        """The locale's language ("pt" for "pt-BR", "es" for "es-MX"): what the assistant
        answers in until the customer writes in another language it speaks (a language it
        does not speak falls back to its default catalog)."""
        return self.locale.split("-")[0]


MAX_ALIASES = 20
MAX_ALIAS_CHARS = 100


def clean_aliases(values: tuple[str, ...]) -> tuple[str, ...]:
    """Aliases stripped, non-empty, at most ``MAX_ALIAS_CHARS`` each, duplicates dropped."""
    cleaned: list[str] = []
    for value in values:
        alias = value.strip()
        if not alias or len(alias) > MAX_ALIAS_CHARS:
            raise ValueError(f"each alias must have 1..{MAX_ALIAS_CHARS} characters")
        if alias.casefold() not in {c.casefold() for c in cleaned}:
            cleaned.append(alias)
    return tuple(cleaned)


_LANGUAGE = re.compile(r"^[a-z]{2,3}(?:-[a-z0-9]{2,8})?$")


def language_code(value: str) -> str:
    """``value`` lowercased when it is a language code like "pt", "en" or "pt-br"."""
    value = value.lower()
    if not _LANGUAGE.match(value):
        raise ValueError("expected a language code like 'pt', 'en' or 'pt-br'")
    return value


class LocalizedAliases(Entity):
    """The words customers of one language use for a service or a professional."""

    language: str = Field(min_length=2, max_length=12)
    aliases: tuple[str, ...] = Field(default=(), max_length=MAX_ALIASES)

    @field_validator("language")
    @classmethod
    def _language(cls, value: str) -> str:
        return language_code(value)

    @field_validator("aliases")
    @classmethod
    def _clean_aliases(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return clean_aliases(value)


def one_per_language(
    value: tuple[LocalizedAliases, ...],
) -> tuple[LocalizedAliases, ...]:
    languages = [entry.language for entry in value]
    if len(set(languages)) != len(languages):
        raise ValueError("one entry per language")
    return value


def words_for(
    aliases: tuple[str, ...], localized: tuple[LocalizedAliases, ...], language: str | None
) -> tuple[str, ...]:
    """Every other word for an entry: the ``language``'s own first (a regional tag counts
    for its language: "pt-br" for "pt"), then the flat ones, then other languages'."""

    base = None if language is None else language.split("-")[0]
    own: list[str] = []
    other: list[str] = []
    for entry in localized:
        same = base is not None and entry.language.split("-")[0] == base
        (own if same else other).extend(entry.aliases)
    seen: set[str] = set()
    ordered: list[str] = []
    for word in (*own, *aliases, *other):
        folded = word.casefold()
        if folded not in seen:
            seen.add(folded)
            ordered.append(word)
    return tuple(ordered)


class Aliased(Entity):
    """Other words customers use for an entry: in any language (``aliases``: "haircut", "Ju" for
    "Juliana") and per language (``localized_aliases``: "en": "haircut")."""

    aliases: tuple[str, ...] = Field(default=(), max_length=MAX_ALIASES)
    localized_aliases: tuple[LocalizedAliases, ...] = ()

    @field_validator("aliases")
    @classmethod
    def _clean_aliases(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return clean_aliases(value)

    @field_validator("localized_aliases")
    @classmethod
    def _one_per_language(cls, value: tuple[LocalizedAliases, ...]) -> tuple[LocalizedAliases, ...]:
        return one_per_language(value)

    def words(self, language: str | None = None) -> tuple[str, ...]:
        """Its other words, ``language``'s first (see :func:`words_for`)."""
        return words_for(self.aliases, self.localized_aliases, language)


class Service(Aliased):
    """Something sold by the appointment."""

    id: UUID = Field(default_factory=uuid4)
    revision: int = Field(default=0, ge=0)
    """Counts stored changes (the etag derives from it); an update names the one it read."""
    tenant_id: UUID
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=2000)
    duration_minutes: int = Field(ge=5, le=720, multiple_of=5)
    price_minor: int = Field(default=0, ge=0, le=10**12)
    currency: str = "BRL"

    @field_validator("currency")
    @classmethod
    def _currency(cls, value: str) -> str:
        if not _CURRENCY.match(value):
            raise ValueError("expected an ISO 4217 code like 'BRL'")
        return value

    def price_text(self) -> str:
        """``R$ 50,00`` for BRL, ``USD 50.00`` otherwise."""
        units, cents = divmod(self.price_minor, 100)
        if self.currency == "BRL":
            return f"R$ {units:,}".replace(",", ".") + f",{cents:02d}"
        return f"{self.currency} {units:,}.{cents:02d}"


class WorkingHours(Entity):
    """A weekly local window; breaks are the gaps between windows of the same day."""

    day_of_week: int = Field(ge=1, le=7)
    start: time
    end: time | None  # None = midnight at the end of the day

    @model_validator(mode="after")
    def _ordered(self) -> WorkingHours:
        if self.end is not None and self.end <= self.start:
            raise ValueError("end must be after start")
        return self


class LocalWindow(Entity):
    """A local window on one date."""

    start: time
    end: time | None

    @model_validator(mode="after")
    def _ordered(self) -> LocalWindow:
        if self.end is not None and self.end <= self.start:
            raise ValueError("end must be after start")
        return self


class DateException(Entity):
    """Hours that replace the weekly hours on one date; no hours = closed."""

    date: date
    hours: tuple[LocalWindow, ...] = ()
    reason: str = Field(default="", max_length=200)


class Professional(Aliased):
    """Someone customers book, with a calendar in the calendar service."""

    id: UUID = Field(default_factory=uuid4)
    revision: int = Field(default=0, ge=0)
    """Counts stored changes (the etag derives from it); an update names the one it read."""
    tenant_id: UUID
    name: str = Field(min_length=1, max_length=200)
    specialty: str = Field(default="", max_length=200)
    calendar_id: str = Field(min_length=1, max_length=1024)
    weekly_hours: tuple[WorkingHours, ...] = ()
    exceptions: tuple[DateException, ...] = ()
    service_ids: tuple[UUID, ...] = ()

    @field_validator("exceptions")
    @classmethod
    def _one_per_date(cls, value: tuple[DateException, ...]) -> tuple[DateException, ...]:
        dates = [exception.date for exception in value]
        if len(dates) != len(set(dates)):
            raise ValueError("at most one exception per date")
        return value

    def offers(self, service_id: UUID) -> bool:
        return service_id in self.service_ids


class LocalizedFaq(Entity):
    """A FAQ entry's question and answer in one language (the question may be left out)."""

    language: str = Field(min_length=2, max_length=12)
    question: str = Field(default="", max_length=500)
    answer: str = Field(min_length=1, max_length=4000)

    @field_validator("language")
    @classmethod
    def _language(cls, value: str) -> str:
        return language_code(value)


class FaqEntry(Entity):
    """A question the business always answers the same way; ``localized`` holds it in other
    languages (one per language), ``question``/``answer`` are the default."""

    id: UUID = Field(default_factory=uuid4)
    revision: int = Field(default=0, ge=0)
    """Counts stored changes (the etag derives from it); an update names the one it read."""
    tenant_id: UUID
    question: str = Field(min_length=1, max_length=500)
    answer: str = Field(min_length=1, max_length=4000)
    tags: tuple[str, ...] = ()
    localized: tuple[LocalizedFaq, ...] = ()

    @field_validator("localized")
    @classmethod
    def _one_per_language(cls, value: tuple[LocalizedFaq, ...]) -> tuple[LocalizedFaq, ...]:
        languages = [entry.language for entry in value]
        if len(set(languages)) != len(languages):
            raise ValueError("one entry per language")
        return value

    def in_language(self, language: str) -> LocalizedFaq | None:
        """The entry's own version in ``language`` (a regional tag counts for its language:
        "pt-br" for "pt"; an exact tag first), or None when the salon did not write one."""
        base = language.lower().split("-")[0]
        exact = [e for e in self.localized if e.language == language.lower()]
        same = [e for e in self.localized if e.language.split("-")[0] == base]
        found = exact or same
        return found[0] if found else None


class Customer(Entity):
    """A person talking to the business through a channel."""

    id: UUID = Field(default_factory=uuid4)
    tenant_id: UUID
    channel: str
    external_id: str = Field(min_length=1, max_length=256)
    name: str = Field(default="", max_length=200)
    phone: str = Field(default="", max_length=64)
    email: str = Field(default="", max_length=320)
    preferences: tuple[str, ...] = ()

    @field_validator("channel")
    @classmethod
    def _channel(cls, value: str) -> str:
        if not _CHANNEL.match(value):
            raise ValueError("lowercase letters, digits, '-' and '_' (1..32)")
        return value
