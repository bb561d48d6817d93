# Over 300 lines: every tool result model is here, with the one reader of them (a schema table).
"""What the tools return: pydantic models, serialised to JSON for the model.

Every result names what happened in ``result`` (a stable upper-case code a model, the offline
model and the tests rely on) and carries the facts as fields (names, prices, local times,
reasons); ``note``, when present, is the instruction for the model rendered from those fields.
Nothing that reads a result parses its prose: :func:`read_result` turns a tool return (the
model itself within a run, its JSON form after the history is stored) back into the model.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
)


class Result(BaseModel):
    model_config = ConfigDict(frozen=True)

    note: str = ""

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """What the model reads: no empty note, no unset optional fact."""
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if v is not None and (k != "note" or v)}


class ServiceItem(BaseModel):
    id: str
    name: str
    minutes: int
    price: str
    aliases: list[str] = []
    """What the salon says customers call it."""
    kinds: list[str] = []
    """The kinds of service it is (the built-in lexicon's keys: "haircut", "manicure"...)."""


class Services(Result):
    result: Literal["SERVICES"] = "SERVICES"
    services: list[ServiceItem]


class ProfessionalItem(BaseModel):
    id: str
    name: str
    specialty: str
    services: list[str]
    aliases: list[str] = []


class Professionals(Result):
    result: Literal["PROFESSIONALS"] = "PROFESSIONALS"
    professionals: list[ProfessionalItem]


class DayTimes(BaseModel):
    """Free start times of one professional on one local date."""

    day: str
    """YYYY-MM-DD in the business's time zone."""
    weekday: str
    professional: str
    professional_id: str
    service: str
    minutes: int
    times: list[str]
    """HH:MM local starts; a start_time is ``<day>T<time>:00<utc_offset>``."""
    utc_offset: str
    closed: bool = False
    """Nobody works that day: the business is closed (``reason=closed_day``)."""
    day_off: bool = False
    """The professional does not work that day; others do (``reason=day_off``)."""


class FreeTimes(Result):
    result: Literal["FREE_TIMES"] = "FREE_TIMES"
    time_zone: str
    days: list[DayTimes]


class ServiceOption(BaseModel):
    name: str
    minutes: int


class AskService(Result):
    """The free times depend on the service's length: the customer is asked which one."""

    result: Literal["ASK_SERVICE"] = "ASK_SERVICE"
    professional: str
    options: list[ServiceOption]


Reason = Literal[
    "past",
    "beyond_horizon",
    "notice",
    "closed_day",
    "day_off",
    "outside_hours",
    "break",
    "off_grid",
    "taken",
]


class NotAvailable(Result):
    """The asked time cannot be booked: why, and the nearest free times that day."""

    result: Literal["NOT_AVAILABLE"] = "NOT_AVAILABLE"
    reason: Reason
    asked: str
    service: str
    professional: str
    nearest: list[str]
    more: int = 0
    """Free times that day beyond ``nearest``."""
    horizon_days: int | None = None
    working_that_day: list[str] = []
    """On a professional's day off: who offers the service that day (never a substitute)."""


class NotOffered(Result):
    result: Literal["NOT_OFFERED"] = "NOT_OFFERED"
    professional: str
    service: str
    offered_by: list[str]


class VisitItem(BaseModel):
    """One appointment of a proposed or booked visit."""

    service: str
    professional: str
    when: str
    start: str
    price: str


class Proposed(Result):
    """The write was only proposed: the system asks the customer (``note`` says how)."""

    result: Literal["CONFIRMATION_NEEDED"] = "CONFIRMATION_NEEDED"
    summary: str
    items: list[VisitItem] = []


class Done(Result):
    result: Literal["BOOKED", "CANCELLED", "RESCHEDULED"]
    summary: str
    appointment_ids: list[str] = []
    items: list[VisitItem] = []


class Pending(Result):
    """The calendar has not confirmed yet: neither booked nor failed."""

    result: Literal["PENDING", "NOT_CONFIRMED_YET"]
    summary: str


class Failed(Result):
    """Not done: ``reason`` says why (``not_found``, ``calendar_unavailable``,
    ``slot_taken``, ``not_possible``, ``not_done``, ``range``)."""

    result: Literal["NOT_FOUND", "UNAVAILABLE", "NOT_BOOKED", "NOT_CANCELLED", "NOT_RESCHEDULED",
                    "NOT_DONE"]  # fmt: skip
    reason: str
    summary: str = ""


class AppointmentItem(BaseModel):
    id: str
    service: str
    professional: str
    when: str
    """Local weekday, date and time as the customer reads them."""
    start: str
    """ISO 8601 with offset."""
    status: str
    professional_id: str
    service_id: str
    service_aliases: list[str] = []


class Appointments(Result):
    result: Literal["APPOINTMENTS"] = "APPOINTMENTS"
    appointments: list[AppointmentItem]


class FaqItem(BaseModel):
    id: str
    question: str
    answer: str
    quoted: bool = False
    """The answer is the salon's text in another language, under a localized lead-in."""


class DayHours(BaseModel):
    weekday: str
    opens: str
    closes: str
    day: int = 0
    """The ISO weekday (1 is Monday; 0 when unknown): only consecutive days are said as a
    range ("Monday to Friday" is never said of Monday, Wednesday and Friday)."""


class OpeningHours(BaseModel):
    """When the business is open, from its professionals' working hours (no FAQ entry); or,
    with ``professional``, the days and hours that professional works."""

    days: list[DayHours]
    closed: list[str]
    professional: str = ""


class FaqAnswer(Result):
    """The entries; none answering, the opening hours or the services named and who does them"""

    result: Literal["FAQ"] = "FAQ"
    entries: list[FaqItem] = []
    answering: int = 1
    """How many of the first entries answer the question: one per topic it names (two
    questions in one message get both answers)."""
    hours: OpeningHours | None = None
    services: list[ServiceItem] = []
    professionals: list[ProfessionalItem] = []


class NoMatch(Result):
    result: Literal["NO_MATCH"] = "NO_MATCH"


class HandedOff(Result):
    result: Literal["HANDED_OFF"] = "HANDED_OFF"


AnyResult = Annotated[
    Services | Professionals | FreeTimes | AskService | NotAvailable | NotOffered | Proposed
    | Done | Pending | Failed | Appointments | FaqAnswer | NoMatch | HandedOff,
    Field(discriminator="result"),
]  # fmt: skip
_ADAPTER: TypeAdapter[AnyResult] = TypeAdapter(AnyResult)
WRITE_DONE = frozenset({"BOOKED", "CANCELLED", "RESCHEDULED", "HANDED_OFF", "PENDING"})
"""Results that end a task (a write was made, a handoff, or one is settling)."""


def read_result(content: Any) -> AnyResult | None:
    """A tool's return as the model it was (``None`` for a plain text or unknown shape)."""
    if isinstance(content, Result):
        return content  # type: ignore[return-value]
    if isinstance(content, str):
        if not content.startswith("{"):
            return None
        try:
            return _ADAPTER.validate_json(content)
        except ValidationError:
            return None
    if isinstance(content, dict):
        try:
            return _ADAPTER.validate_python(content)
        except ValidationError:
            return None
    return None


class Retry(BaseModel):
    """A tool's ``ModelRetry`` message, structured: why the arguments were refused."""

    result: Literal["RETRY"] = "RETRY"
    reason: str
    note: str
    horizon_days: int | None = None

    def message(self) -> str:
        """What ``ModelRetry`` carries (the model reads this JSON)."""
        return self.model_dump_json(exclude_none=True)


def read_retry(text: str) -> Retry | None:
    """A retry message as :class:`Retry`, when a tool wrote it (``None`` otherwise: e.g.
    Pydantic AI's own validation message)."""
    start = text.find("{")
    end = text.rfind("}")
    if start < 0 or end < start:
        return None
    try:
        return Retry.model_validate_json(text[start : end + 1])
    except ValidationError:
        return None


def result_text(content: Any) -> str:
    """A tool's return as the text the model reads (JSON for a structured result): what
    replies are checked against (every fact a reply may state is in it)."""
    if isinstance(content, BaseModel):
        return content.model_dump_json()
    return str(content)


def result_code(content: Any) -> str | None:
    """The ``result`` code of a tool return, if it is a structured result."""
    read = read_result(content)
    return read.result if read is not None else None
