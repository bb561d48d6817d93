"""An OpenAI-compatible Chat Completions server (aiohttp) answering from a script, for tests.

async with running_openai_server(salon_script) as server:
    model = build_model("openai-chat:fake-model", openai_base_url=server.base_url,
                        openai_api_key=server.api_key)
    ...
    router = server.completions[0]          # every request is recorded, with its usage
    server.inject(Fault.server_error(times=3))

Only ``POST /v1/chat/completions``, whole or streamed (``stream: true``: server-sent chunks,
the content a word at a time; the specialists stream their replies, agent/streaming.py).

The request is checked the way the real endpoint checks it (roles, tool-call pairing,
function tool definitions with a JSON-schema ``parameters`` object), and so is the script's
answer (it may only call offered tools, with arguments its schema allows), so a test cannot
pass on a request or answer the real API would refuse.
"""

from __future__ import annotations

import json
import math
import re
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from aiohttp import web

JSON = dict[str, Any]
Script = Callable[[JSON], JSON]
"""``(request body) -> assistant message``: build it with :func:`text` or :func:`tool_calls`."""

ROLES = frozenset({"system", "user", "assistant", "tool"})
TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
SCHEMA_TYPES = frozenset({"object", "string", "integer", "number", "boolean", "array", "null"})


class RequestError(Exception):
    """The request is one the real endpoint would refuse with a 400."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.param = param


# --- what a script returns -------------------------------------------------------------


def text(content: str) -> JSON:
    """An assistant message with text only."""
    return {"role": "assistant", "content": content}


def tool_calls(*calls: tuple[str, JSON]) -> JSON:
    """An assistant message calling ``(name, arguments)`` tools, with fresh call ids."""
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"call_{uuid.uuid4().hex[:24]}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
            for name, arguments in calls
        ],
    }


# --- faults and records ------------------------------------------------------------------


@dataclass
class Fault:
    """One way to fail the next ``times`` requests (after ``after`` good ones)."""

    status: int = 200
    error_type: str = ""
    code: str | None = None
    message: str = ""
    retry_after: float | None = None
    raw: bytes | None = None
    times: int = 1
    after: int = 0

    @classmethod
    def rate_limited(cls, *, retry_after: float = 0.05, times: int = 1, after: int = 0) -> Fault:
        """429 with ``Retry-After`` (whole seconds) and ``retry-after-ms``, as OpenAI sends."""
        return cls(
            429,
            "requests",
            "rate_limit_exceeded",
            "Rate limit reached for requests. Please try again later.",
            retry_after=retry_after,
            times=times,
            after=after,
        )

    @classmethod
    def server_error(cls, *, times: int = 1, after: int = 0) -> Fault:
        """500 without ``Retry-After``: the SDK backs off exponentially (0.5 s, 1 s)."""
        return cls(
            500,
            "server_error",
            None,
            "The server had an error while processing your request. Sorry about that!",
            times=times,
            after=after,
        )

    @classmethod
    def malformed_json(cls, *, times: int = 1, after: int = 0) -> Fault:
        """A 200 whose ``application/json`` body is cut off mid-object."""
        return cls(raw=b'{"id": "chatcmpl-cut", "choices": [{"mess', times=times, after=after)

    @classmethod
    def empty_choices(cls, *, times: int = 1, after: int = 0) -> Fault:
        """A 200 completion with ``choices: []`` (seen from some gateways' content filters)."""
        body = {
            "id": "chatcmpl-empty",
            "object": "chat.completion",
            "created": 0,
            "model": "fake-model",
            "choices": [],
            "usage": {"prompt_tokens": 1, "completion_tokens": 0, "total_tokens": 1},
        }
        return cls(raw=json.dumps(body).encode(), times=times, after=after)


@dataclass
class RecordedRequest:
    """One request as received, and what the server answered."""

    body: JSON
    authorized: bool
    received_at: float = 0.0
    status: int = 0
    message: JSON | None = None
    usage: JSON | None = None
    error: str = ""

    @property
    def tools(self) -> dict[str, JSON]:
        """The offered function definitions by name."""
        return {
            tool["function"]["name"]: tool["function"]
            for tool in self.body.get("tools") or []
            if isinstance(tool, dict) and isinstance(tool.get("function"), dict)
        }

    @property
    def tool_names(self) -> set[str]:
        return set(self.tools)

    @property
    def system_text(self) -> str:
        return system_text(self.body)

    @property
    def called(self) -> list[str]:
        """The tools the answer called."""
        calls = (self.message or {}).get("tool_calls") or []
        return [call["function"]["name"] for call in calls]


@dataclass
class FakeOpenAI:
    """The server's programmable parts: the script, faults, the accepted key, the records."""

    script: Script
    api_key: str = "test-key"
    root_url: str = ""
    requests: list[RecordedRequest] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    script_errors: list[str] = field(default_factory=list)

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    @property
    def completions(self) -> list[RecordedRequest]:
        """The requests answered with a completion (not faults, not refused ones)."""
        return [r for r in self.requests if r.status == 200 and r.usage is not None]

    def usage_totals(self) -> tuple[int, int]:
        """Summed ``(prompt_tokens, completion_tokens)`` of every completion sent."""
        prompt = sum(int((r.usage or {})["prompt_tokens"]) for r in self.completions)
        completion = sum(int((r.usage or {})["completion_tokens"]) for r in self.completions)
        return prompt, completion

    def inject(self, fault: Fault) -> None:
        self.faults.append(fault)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat_completions)
        app.router.add_get("/v1/models", self._models)
        return app

    async def _models(self, request: web.Request) -> web.Response:
        """``GET /v1/models``, as OpenAI-compatible servers list what they serve."""
        if request.headers.get("Authorization", "") != f"Bearer {self.api_key}":
            return web.json_response({"error": {"message": "bad key"}}, status=401)
        model = {"id": "fake-model", "object": "model", "created": 0, "owned_by": "test"}
        return web.json_response({"object": "list", "data": [model]})

    async def _chat_completions(self, request: web.Request) -> web.StreamResponse:
        authorized = request.headers.get("Authorization", "") == f"Bearer {self.api_key}"
        try:
            body: Any = await request.json()
        except ValueError:
            body = None
        record = RecordedRequest(
            body if isinstance(body, dict) else {}, authorized, time.monotonic()
        )
        self.requests.append(record)
        response = self._answer(record, body)
        record.status = response.status
        return response

    def _answer(self, record: RecordedRequest, body: Any) -> web.Response:
        if not record.authorized:
            return _error(
                record,
                401,
                "invalid_request_error",
                "invalid_api_key",
                "Incorrect API key provided. You can find your API key in your account settings.",
            )
        fault = self._next_fault()
        if fault is not None:
            return _fault_response(record, fault, streamed=bool(body.get("stream")))
        try:
            validate_request(body)
            message = self.script(body)
            validate_answer(message, body)
        except RequestError as error:
            return _error(record, 400, "invalid_request_error", None, error.message, error.param)
        except (AssertionError, LookupError, TypeError, ValueError) as error:
            # A bug in the script, not the client's fault: answer 500 without retries and
            # keep it for the test to report.
            self.script_errors.append(f"{type(error).__name__}: {error}")
            return _error(
                record,
                500,
                "server_error",
                None,
                f"script failed: {error}",
                None,
                {"x-should-retry": "false"},
            )
        completion = _completion(record, body, message)
        if body.get("stream"):
            return _event_stream(completion, body)
        return web.json_response(completion)

    def _next_fault(self) -> Fault | None:
        if not self.faults:
            return None
        fault = self.faults[0]
        if fault.after > 0:
            fault.after -= 1
            return None
        fault.times -= 1
        if fault.times <= 0:
            self.faults.pop(0)
        return fault


@asynccontextmanager
async def running_openai_server(
    script: Script, *, api_key: str = "test-key"
) -> AsyncIterator[FakeOpenAI]:
    """The server on ``127.0.0.1`` and a free port, for the block's duration."""
    fake = FakeOpenAI(script, api_key=api_key)
    runner = web.AppRunner(fake.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    fake.root_url = f"http://127.0.0.1:{port}"
    try:
        yield fake
    finally:
        await runner.cleanup()


# --- responses -----------------------------------------------------------------------------


def _error(
    record: RecordedRequest,
    status: int,
    error_type: str,
    code: str | None,
    message: str,
    param: str | None = None,
    headers: dict[str, str] | None = None,
) -> web.Response:
    record.error = message
    payload = {"error": {"message": message, "type": error_type, "param": param, "code": code}}
    return web.json_response(payload, status=status, headers=headers)


def _fault_response(record: RecordedRequest, fault: Fault, *, streamed: bool) -> web.Response:
    if fault.raw is not None:
        record.error = "raw body"
        if streamed:  # the same cut body as the stream's first event
            raw = b"data: " + fault.raw + b"\n\n"
            return web.Response(status=fault.status, body=raw, content_type="text/event-stream")
        return web.Response(status=fault.status, body=fault.raw, content_type="application/json")
    headers: dict[str, str] = {}
    if fault.retry_after is not None:
        headers["Retry-After"] = str(max(1, math.ceil(fault.retry_after)))
        headers["retry-after-ms"] = str(round(fault.retry_after * 1000))
    return _error(record, fault.status, fault.error_type, fault.code, fault.message, None, headers)


def _event_stream(completion: JSON, body: JSON) -> web.Response:
    """``completion`` as the endpoint streams it (``stream: true``): server-sent
    ``chat.completion.chunk`` events — the role, the content a word at a time, each tool call
    whole, the finish reason, the usage when ``stream_options.include_usage`` — then
    ``[DONE]``."""
    choice = completion["choices"][0]
    answer = choice["message"]
    head = {k: completion[k] for k in ("id", "created", "model", "system_fingerprint")}

    def chunk(delta: JSON, finish: str | None = None) -> JSON:
        choices = [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]
        return {**head, "object": "chat.completion.chunk", "choices": choices}

    chunks = [chunk({"role": "assistant", "content": ""})]
    chunks += [
        chunk({"content": word}) for word in re.findall(r"\s*\S+\s*", answer["content"] or "")
    ]
    for index, call in enumerate(answer.get("tool_calls") or []):
        chunks.append(chunk({"tool_calls": [{"index": index, **call}]}))
    chunks.append(chunk({}, choice["finish_reason"]))
    if (body.get("stream_options") or {}).get("include_usage"):
        chunks.append(
            {**head, "object": "chat.completion.chunk", "choices": [], "usage": completion["usage"]}
        )
    text = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    return web.Response(text=text, content_type="text/event-stream")


def _completion(record: RecordedRequest, body: JSON, message: JSON) -> JSON:
    calls = message.get("tool_calls") or []
    content = message.get("content")
    usage = {
        "prompt_tokens": prompt_tokens(body),
        "completion_tokens": rough_tokens(content or "") + rough_tokens(json.dumps(calls)),
    }
    usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    answer: JSON = {"role": "assistant", "content": content, "refusal": None}
    if calls:
        answer["tool_calls"] = calls
    record.message, record.usage = answer, usage
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body["model"],
        "system_fingerprint": "fp_fake",
        "choices": [
            {
                "index": 0,
                "message": answer,
                "logprobs": None,
                "finish_reason": "tool_calls" if calls else "stop",
            }
        ],
        "usage": usage,
    }


def rough_tokens(value: str) -> int:
    """About four characters a token, as OpenAI's rule of thumb for English."""
    return math.ceil(len(value) / 4) if value else 0


def prompt_tokens(body: JSON) -> int:
    """A rough count: each message's text plus a few tokens of framing, plus the tools."""
    total = 3
    for message in body["messages"]:
        content = message.get("content")
        total += 4 + rough_tokens(content if isinstance(content, str) else json.dumps(content))
        total += rough_tokens(json.dumps(message.get("tool_calls") or ""))
    return total + rough_tokens(json.dumps(body.get("tools") or ""))


# --- validation ------------------------------------------------------------------------------


def validate_request(body: Any) -> None:
    """Refuse what the real endpoint refuses (the parts a client can get wrong)."""
    if not isinstance(body, dict):
        raise RequestError("We could not parse the JSON body of your request.")
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise RequestError("you must provide a model parameter", "model")
    if "stream_options" in body and not body.get("stream"):
        raise RequestError("stream_options is only allowed when stream is true", "stream_options")
    if body.get("n", 1) != 1:
        raise RequestError("n must be 1", "n")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise RequestError("[] is too short - 'messages'", "messages")
    _validate_messages(messages)
    tools = body.get("tools")
    names: set[str] = set()
    if tools is not None:
        if not isinstance(tools, list) or not tools:
            raise RequestError("'tools' must be a non-empty array", "tools")
        for index, tool in enumerate(tools):
            names.add(_validate_tool(tool, f"tools[{index}]"))
        if len(names) != len(tools):
            raise RequestError("tool names must be unique", "tools")
    _validate_tool_choice(body.get("tool_choice"), names)


def _validate_messages(messages: list[Any]) -> None:
    open_calls: set[str] = set()
    for index, message in enumerate(messages):
        where = f"messages[{index}]"
        if not isinstance(message, dict) or message.get("role") not in ROLES:
            raise RequestError(f"Invalid value for 'role' in {where}", f"{where}.role")
        role = message["role"]
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in open_calls:
                raise RequestError(
                    "Invalid parameter: messages with role 'tool' must be a response to a "
                    "preceeding message with 'tool_calls'.",
                    f"{where}.role",
                )
            open_calls.discard(call_id)
            _require_text(message.get("content"), where)
            continue
        if open_calls:
            raise RequestError(
                "An assistant message with 'tool_calls' must be followed by tool messages "
                "responding to each 'tool_call_id'. The following tool_call_ids did not have "
                f"response messages: {', '.join(sorted(open_calls))}",
                "messages",
            )
        if role == "assistant":
            open_calls = _validate_assistant(message, where)
        else:
            _require_text(message.get("content"), where)
    if open_calls:
        raise RequestError("tool calls without tool messages at the end", "messages")


def _require_text(content: Any, where: str) -> None:
    if isinstance(content, str):
        return
    if isinstance(content, list) and all(
        isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)
        for part in content
    ):
        return
    raise RequestError(f"Invalid type for '{where}.content'", f"{where}.content")


def _validate_assistant(message: JSON, where: str) -> set[str]:
    calls = message.get("tool_calls")
    if calls is None:
        _require_text(message.get("content"), where)
        return set()
    if message.get("content") is not None:
        _require_text(message["content"], where)
    if not isinstance(calls, list) or not calls:
        raise RequestError(f"'{where}.tool_calls' must be a non-empty array", f"{where}.tool_calls")
    ids: set[str] = set()
    for call in calls:
        function = call.get("function") if isinstance(call, dict) else None
        if (
            not isinstance(call, dict)
            or not isinstance(call.get("id"), str)
            or call.get("type") != "function"
            or not isinstance(function, dict)
            or not isinstance(function.get("name"), str)
            or not isinstance(function.get("arguments"), str)
        ):
            raise RequestError(f"Invalid tool call in {where}", f"{where}.tool_calls")
        ids.add(call["id"])
    return ids


def _validate_tool(tool: Any, where: str) -> str:
    function = tool.get("function") if isinstance(tool, dict) else None
    if (
        not isinstance(tool, dict)
        or tool.get("type") != "function"
        or not isinstance(function, dict)
    ):
        raise RequestError(f"'{where}' must be a function tool", where)
    name = function.get("name")
    if not isinstance(name, str) or not TOOL_NAME.match(name):
        raise RequestError(f"Invalid 'tools[].function.name': {name!r}", f"{where}.function.name")
    if "description" in function and not isinstance(function["description"], str):
        raise RequestError("description must be a string", f"{where}.function.description")
    parameters = function.get("parameters", {"type": "object", "properties": {}})
    _validate_schema(parameters, f"{where}.function.parameters", top=True)
    if function.get("strict"):
        _validate_strict(parameters, f"{where}.function.parameters")
    return name


def _validate_strict(schema: Any, where: str) -> None:
    """Strict mode's rules: every object lists all its properties as required and forbids
    others (OpenAI refuses the request otherwise)."""
    if not isinstance(schema, dict):
        return
    properties = schema.get("properties")
    if isinstance(properties, dict):
        if set(schema.get("required", [])) != set(properties):
            raise RequestError(
                f"Invalid schema for function: In context={where}, 'required' is required to "
                "be supplied and to be an array including every key in properties.",
                where,
            )
        if schema.get("additionalProperties") is not False:
            raise RequestError(
                f"Invalid schema for function: In context={where}, 'additionalProperties' is "
                "required to be supplied and to be false.",
                where,
            )
        for key, sub in properties.items():
            _validate_strict(sub, f"{where}.properties.{key}")
    for key in ("anyOf", "allOf"):
        for sub in schema.get(key, []):
            _validate_strict(sub, where)
    _validate_strict(schema.get("items"), f"{where}.items")
    for name, sub in (schema.get("$defs") or {}).items():
        _validate_strict(sub, f"{where}.$defs.{name}")


def _validate_schema(schema: Any, where: str, *, top: bool = False) -> None:
    """The JSON-schema subset function parameters use; ``top`` must be an object schema."""
    if not isinstance(schema, dict):
        raise RequestError(f"Invalid schema for function: {where} is not an object", where)
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind is not None else []
    if top and kinds != ["object"]:
        raise RequestError(
            f"Invalid schema for function: schema must be a JSON Schema of 'type: \"object\"', "
            f"got 'type: \"{kind}\"'.",
            where,
        )
    if any(k not in SCHEMA_TYPES for k in kinds):
        raise RequestError(f"Invalid schema for function: unknown type {kind!r}", where)
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        raise RequestError("Invalid schema for function: 'properties' must be an object", where)
    for key, sub in properties.items():
        _validate_schema(sub, f"{where}.properties.{key}")
    required = schema.get("required", [])
    if not isinstance(required, list) or not set(required) <= set(properties):
        raise RequestError(
            "Invalid schema for function: 'required' names unknown properties", where
        )
    if "enum" in schema and (not isinstance(schema["enum"], list) or not schema["enum"]):
        raise RequestError("Invalid schema for function: 'enum' must be a non-empty array", where)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            _validate_schema(schema[key], f"{where}.{key}")
    for key in ("anyOf", "oneOf", "allOf"):
        for index, sub in enumerate(schema.get(key, [])):
            _validate_schema(sub, f"{where}.{key}[{index}]")
    for name, sub in (schema.get("$defs") or {}).items():
        _validate_schema(sub, f"{where}.$defs.{name}")


def _validate_tool_choice(choice: Any, names: set[str]) -> None:
    if choice is None:
        return
    if choice in ("none", "auto", "required"):
        if choice == "required" and not names:
            raise RequestError("tool_choice 'required' needs tools", "tool_choice")
        return
    if (
        isinstance(choice, dict)
        and choice.get("type") == "function"
        and (choice.get("function") or {}).get("name") in names
    ):
        return
    raise RequestError(f"Invalid value for 'tool_choice': {choice!r}", "tool_choice")


def validate_answer(message: JSON, body: JSON) -> None:
    """The script's answer must be something a real model could return for this request:
    calls only to offered tools, with JSON-object arguments carrying the required fields
    and allowed enum values. A broken script is a test bug, reported as an AssertionError."""
    tools = RecordedRequest(body, True).tools
    calls = message.get("tool_calls") or []
    assert calls or isinstance(message.get("content"), str), f"script answered {message!r}"
    choice = body.get("tool_choice")
    assert not (choice == "required" and not calls), "tool_choice=required but no tool call"
    for call in calls:
        name = call["function"]["name"]
        assert name in tools, f"script called {name!r}, not offered: {sorted(tools)}"
        arguments = json.loads(call["function"]["arguments"])
        parameters = tools[name].get("parameters") or {}
        assert isinstance(arguments, dict), arguments
        missing = set(parameters.get("required", [])) - set(arguments)
        assert not missing, f"{name} called without {missing}"
        for key, value in arguments.items():
            allowed = (parameters.get("properties", {}).get(key) or {}).get("enum")
            assert allowed is None or value in allowed, f"{name}.{key}={value!r} not in {allowed}"


# --- reading a request, for scripts --------------------------------------------------------


def system_text(body: JSON) -> str:
    """All system messages' text."""
    return "\n".join(_text(m.get("content")) for m in body["messages"] if m["role"] == "system")


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def last_user_text(body: JSON) -> str:
    users = [m for m in body["messages"] if m["role"] == "user"]
    return _text(users[-1].get("content")) if users else ""


@dataclass(frozen=True)
class ToolResult:
    name: str
    arguments: JSON
    result: str

    @property
    def data(self) -> JSON:
        """The structured result (agent/tools/results.py: JSON with a ``result`` code)."""
        try:
            loaded = json.loads(self.result)
        except ValueError:
            return {}
        return loaded if isinstance(loaded, dict) else {}


def tool_results(messages: list[JSON]) -> Iterator[ToolResult]:
    """Each answered tool call in ``messages``, in order."""
    calls: dict[str, tuple[str, JSON]] = {}
    for message in messages:
        for call in message.get("tool_calls") or []:
            function = call["function"]
            calls[call["id"]] = (function["name"], json.loads(function["arguments"] or "{}"))
        if message["role"] == "tool" and message.get("tool_call_id") in calls:
            name, arguments = calls[message["tool_call_id"]]
            yield ToolResult(name, arguments, _text(message.get("content")))


def this_turn(body: JSON) -> list[JSON]:
    """The messages after the last user message."""
    messages: list[JSON] = body["messages"]
    last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
    return messages[last_user:]


# --- a competent model for the demo salon --------------------------------------------------

ROUTES = (
    ("appointments", ("cancel", "remarc", "meus agendamentos", "my appointments", "reschedul")),
    ("booking", ("agendar", "marcar", "book", "reservar")),
    ("faq", ("endereço", "address", "funciona", "pagamento", "payment", "opening")),
    ("handoff", ("atendente", "humano", "human", "pessoa")),
)
AFFIRMATIVE = re.compile(r"^\s*(sim|pode|confirmo|isso|ok|yes|sure)\b", re.IGNORECASE)
HOUR = re.compile(r"\b(\d{1,2})(?::(\d{2})|h(\d{2})?)\b|\b(?:at|às|as)\s+(\d{1,2})\b")
SAY = {
    "pt": {
        "confirm": "Certo, é só confirmar.",
        "booked": "Pronto!",
        "not_free": "Esse horário não está livre. Horários livres: {times}.",
        "ask": "Qual serviço, profissional, dia e horário você quer?",
        "failed": "Não consegui agendar: {result}",
        "handoff": "Um atendente vai responder em breve.",
    },
    "en": {
        "confirm": "All right, just confirm.",
        "booked": "Done!",
        "not_free": "That time is not free. Free times: {times}.",
        "ask": "Which service, professional, day and time would you like?",
        "failed": "I could not book it: {result}",
        "handoff": "A person will answer you soon.",
    },
}


def salon_script(body: JSON) -> JSON:
    """Routes by keywords, then plays the specialist whose tools the request offers, using
    only what the prompt and the tool results say (ids, free times, confirmation)."""
    tools = RecordedRequest(body, True).tools
    if "route_to" in tools:
        return _route(body, tools["route_to"])
    say = SAY["en" if "Language: en" in system_text(body) else "pt"]
    results = list(tool_results(this_turn(body)))
    if "book_appointment" in tools:
        return _booking(body, results, say)
    # The other specialists: one look-up (or the hand-off), then relay what it returned.
    message = last_user_text(body)
    lookups: tuple[tuple[str, JSON], ...] = (
        ("search_faq", {"query": message}),
        ("list_my_appointments", {}),
        ("handoff_to_human", {"reason": message[:200]}),
        ("list_services", {}),
    )
    for name, arguments in lookups:
        if name in tools:
            if not results:
                return tool_calls((name, arguments))
            return text(say["handoff"] if name == "handoff_to_human" else results[-1].result)
    return tool_calls(("transfer_to_router", {"reason": message[:60]}))


def _route(body: JSON, route_to: JSON) -> JSON:
    enum: list[str] = route_to["parameters"]["properties"]["specialist"]["enum"]
    message = last_user_text(body).lower()
    choice = next((name for name, words in ROUTES if any(w in message for w in words)), "")
    return tool_calls(("route_to", {"specialist": choice if choice in enum else "discovery"}))


def _booking(body: JSON, results: list[ToolResult], say: dict[str, str]) -> JSON:
    message = last_user_text(body)
    if not results:
        confirmed = (
            _pending_arguments(body) or _asked_to_confirm(body["messages"][:-1])
            if AFFIRMATIVE.match(message)
            else None
        )
        if confirmed is not None:
            return tool_calls(("book_appointment", confirmed))
        return tool_calls(("list_services", {}), ("list_professionals", {}))
    last = results[-1]
    if last.name == "book_appointment":
        return _relay_booking(last, say)
    if last.name == "check_availability":
        return _pick_time(message, last, say)
    found = {r.name: r.data for r in results}
    service = _id_named(found.get("list_services", {}).get("services", []), message)
    professional = _id_named(found.get("list_professionals", {}).get("professionals", []), message)
    day = _day(body, message)
    if service is None or professional is None or day is None:
        return text(say["ask"])
    arguments = {
        "professional_id": professional,
        "target_date": day.isoformat(),
        "service_id": service,
    }
    return tool_calls(("check_availability", arguments))


def _pending_arguments(body: JSON) -> JSON | None:
    """The call the context's "Pending action:" line says to repeat after a yes (the confirm
    step is sent without the task's messages)."""
    line = re.search(r"^Pending action: (.*)$", system_text(body), re.M)
    if line is None:
        return None
    pending = json.loads(line.group(1))
    if pending.get("tool") != "book_appointment" or not pending.get("confirmed"):
        return None
    arguments: JSON = pending["arguments"]
    return arguments


def _asked_to_confirm(messages: list[JSON]) -> JSON | None:
    """The arguments of the last book_appointment call that asked for confirmation."""
    asked = [
        r.arguments
        for r in tool_results(messages)
        if r.name == "book_appointment" and r.data.get("result") == "CONFIRMATION_NEEDED"
    ]
    return asked[-1] if asked else None


def _relay_booking(result: ToolResult, say: dict[str, str]) -> JSON:
    code = result.data.get("result")
    if code == "CONFIRMATION_NEEDED":
        return text(say["confirm"].format(summary=result.data["summary"]))
    if code == "BOOKED":
        return text(say["booked"].format(summary=result.data["summary"]))
    return text(say["failed"].format(result=result.data.get("note") or result.result))


def _pick_time(message: str, availability: ToolResult, say: dict[str, str]) -> JSON:
    days = availability.data.get("days") or [{}]
    free: list[str] = days[0].get("times", [])
    wanted = _hour(message)
    if wanted is None or wanted not in free:
        return text(say["not_free"].format(times=", ".join(free[:8]) or "-"))
    start = f"{days[0]['day']}T{wanted}:00{days[0]['utc_offset']}"
    arguments = {
        "professional_id": availability.arguments["professional_id"],
        "service_id": availability.arguments["service_id"],
        "start_time": start,
    }
    return tool_calls(("book_appointment", arguments))


def _id_named(listing: list[JSON], message: str) -> str | None:
    """The id of the listed entry whose name (or first name) the customer mentioned."""
    lowered = message.lower()
    for item in listing:
        name = str(item["name"]).lower()
        if name in lowered or name.split()[0] in lowered.split():
            return str(item["id"])
    return None


def _day(body: JSON, message: str) -> date | None:
    now = re.search(r"Current local date-time: (\S+)", system_text(body))
    if now is None:
        return None
    today = datetime.fromisoformat(now.group(1)).date()
    lowered = message.lower()
    if "amanhã" in lowered or "tomorrow" in lowered:
        return today + timedelta(days=1)
    if "hoje" in lowered or "today" in lowered:
        return today
    return None


def _hour(message: str) -> str | None:
    match = HOUR.search(message)
    if match is None:
        return None
    hour = match.group(1) or match.group(4)
    minute = match.group(2) or match.group(3) or "00"
    return f"{int(hour):02d}:{minute}"
