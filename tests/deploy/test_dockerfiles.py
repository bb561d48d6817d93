"""docker/Dockerfile and .dockerignore agree with the repository and the Makefile."""

from __future__ import annotations

import fnmatch
import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCKERFILE = REPO / "docker" / "Dockerfile"
DOCKERIGNORE = REPO / ".dockerignore"
MAKEFILE = REPO / "Makefile"
SERVICE_TARGETS = {"calendar": "calendar_service", "agent": "agent_service"}
FINAL_TARGETS = (*SERVICE_TARGETS, "google-emulator")


@dataclass
class Stage:
    name: str
    base: str
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def args(self, keyword: str) -> list[str]:
        return [rest for instruction, rest in self.instructions if instruction == keyword]


def parse_dockerfile(text: str) -> dict[str, Stage]:
    """Stages by name, each with its (INSTRUCTION, arguments) in order; continuations joined."""
    logical = re.sub(
        r"\\\n",
        " ",
        "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")),
    )
    stages: dict[str, Stage] = {}
    current: Stage | None = None
    for line in logical.splitlines():
        if not line.strip():
            continue
        instruction, _, rest = line.strip().partition(" ")
        instruction, rest = instruction.upper(), rest.strip()
        if instruction == "FROM":
            base, _, name = rest.partition(" AS ")
            current = Stage(name.strip(), base.strip())
            stages[current.name] = current
        elif current is not None:
            current.instructions.append((instruction, rest))
    return stages


@pytest.fixture(scope="module")
def stages() -> dict[str, Stage]:
    return parse_dockerfile(DOCKERFILE.read_text())


def ignore_patterns() -> list[str]:
    lines = DOCKERIGNORE.read_text().splitlines()
    return [line.strip().lstrip("/") for line in lines if line.strip() and line[0] != "#"]


def is_ignored(path: str) -> bool:
    parts = PurePosixPath(path).parts
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    for pattern in ignore_patterns():
        bare = pattern.removeprefix("**/")
        for prefix in prefixes:
            if fnmatch.fnmatch(prefix, pattern) or (
                pattern.startswith("**/") and fnmatch.fnmatch(PurePosixPath(prefix).name, bare)
            ):
                return True
    return False


def copy_parts(rest: str) -> tuple[str | None, list[str], str]:
    """``COPY [--from=X] SRC... DEST`` → (X, sources, dest)."""
    words = shlex.split(rest)
    source_stage = None
    for flag in [w for w in words if w.startswith("--")]:
        if flag.startswith("--from="):
            source_stage = flag.removeprefix("--from=")
        words.remove(flag)
    return source_stage, words[:-1], words[-1]


def absolute(path: str, workdir: str) -> str:
    return str(PurePosixPath(workdir) / path)


def workdir_of(stage: Stage, stages: dict[str, Stage]) -> str:
    workdirs = stage.args("WORKDIR")
    if workdirs:
        return workdirs[-1]
    base = stages.get(stage.base)
    return workdir_of(base, stages) if base else "/"


def produced_by(stage: Stage, path: str, stages: dict[str, Stage]) -> bool:
    """``path`` (absolute) was copied into ``stage`` or is named by one of its RUN/ENV lines."""
    workdir = workdir_of(stage, stages)
    for _, _, dest in (copy_parts(rest) for rest in stage.args("COPY")):
        target = absolute(dest, workdir).rstrip("/")
        if path == target or path.startswith(target + "/") or target.startswith(path + "/"):
            return True
    relative = str(PurePosixPath(path).relative_to(workdir)) if path.startswith(workdir) else path
    commands = " ".join(stage.args("RUN") + stage.args("ENV"))
    pattern = rf"(^|[\s=]){re.escape(relative)}(\s|/|$)"
    return path in commands or re.search(pattern, commands) is not None


def test_every_final_target_exists(stages: dict[str, Stage]) -> None:
    assert set(FINAL_TARGETS) <= set(stages)


def test_copy_sources_exist_and_are_not_ignored(stages: dict[str, Stage]) -> None:
    for stage in stages.values():
        for rest in stage.args("COPY"):
            source_stage, sources, _ = copy_parts(rest)
            for source in sources:
                if source_stage is None:
                    assert list(REPO.glob(source)), f"{stage.name}: COPY {source}: not in repo"
                    assert not is_ignored(source), f"{stage.name}: {source} is .dockerignored"
                else:
                    origin = stages[source_stage]
                    assert produced_by(origin, source, stages), (
                        f"{stage.name}: COPY --from={source_stage} {source}: "
                        f"nothing in stage {source_stage} creates it"
                    )


def test_later_stages_copy_only_from_earlier_ones(stages: dict[str, Stage]) -> None:
    order = list(stages)
    for index, stage in enumerate(stages.values()):
        for rest in stage.args("COPY"):
            source_stage, _, _ = copy_parts(rest)
            if source_stage is not None:
                assert order.index(source_stage) < index, f"{stage.name} ← {source_stage}"


@pytest.mark.parametrize(("target", "module"), sorted(SERVICE_TARGETS.items()))
def test_service_images_run_their_module(
    stages: dict[str, Stage], target: str, module: str
) -> None:
    assert json.loads(stages[target].args("CMD")[-1]) == ["python", "-m", module]
    assert (REPO / module / "__main__.py").is_file()


@pytest.mark.parametrize("target", FINAL_TARGETS)
def test_final_images_run_as_a_non_root_user(stages: dict[str, Stage], target: str) -> None:
    users = stages[target].args("USER")
    assert users, f"{target}: no USER"
    assert users[-1] not in {"root", "0"}, f"{target}: runs as root"


def test_emulator_image_runs_the_emulator_module(stages: dict[str, Stage]) -> None:
    command = json.loads(stages["google-emulator"].args("CMD")[-1])
    assert command[:3] == ["python", "-m", "tests.fakes.run_google_emulator"]
    assert (REPO / "tests" / "fakes" / "run_google_emulator.py").is_file()


def _makefile_variable(name: str) -> str:
    match = re.search(rf"^{name}\s*:?=\s*(\S+)", MAKEFILE.read_text(), re.MULTILINE)
    assert match, f"{name} not in the Makefile"
    return match.group(1)


def test_code_generation_matches_the_makefile(stages: dict[str, Stage]) -> None:
    makefile = MAKEFILE.read_text()
    gen_dir = _makefile_variable("GEN_DIR")
    make_flags = set(re.findall(r"(--\w+_out)=\$\(GEN_DIR\)", makefile))
    assert make_flags, "the Makefile's protoc command was not found"
    run = " ".join(stages["builder"].args("RUN"))
    assert "-m grpc_tools.protoc -I protos" in run
    assert set(re.findall(rf"(--\w+_out)={gen_dir}\b", run)) == make_flags
    make_plugins = set(re.findall(r"--plugin=(protoc-gen-\w+)=", makefile))
    assert set(re.findall(r"--plugin=(protoc-gen-\w+)=", run)) == make_plugins
    assert "find libs/agenda -type d -exec touch {}/__init__.py" in run


def test_builder_uses_the_makefiles_uv_and_the_lock(stages: dict[str, Stage]) -> None:
    run = " ".join(stages["builder"].args("RUN"))
    assert f"uv=={_makefile_variable('UV_VERSION')}" in run
    assert "uv sync --locked --no-dev" in run
    assert "grpcio-tools" in run, "codegen tools come from the lock's dev group"


def test_runtime_images_do_not_carry_the_codegen_venv(stages: dict[str, Stage]) -> None:
    for target in FINAL_TARGETS:
        stage: Stage | None = stages[target]
        while stage is not None:
            assert "/opt/codegen" not in " ".join(stage.args("COPY")), stage.name
            stage = stages.get(stage.base)


def test_base_image_python_matches_the_project() -> None:
    pyproject = (REPO / "pyproject.toml").read_text()
    assert 'requires-python = ">=3.11,<3.12"' in pyproject
    assert "ARG PYTHON_IMAGE=python:3.11-slim" in DOCKERFILE.read_text()


@pytest.mark.parametrize(
    "path", [".venv", ".tools", ".data", "bench/results", "calendar_service/__pycache__"]
)
def test_dockerignore_keeps_local_state_out(path: str) -> None:
    assert is_ignored(path)


@pytest.mark.parametrize("path", ["uv.lock", "pyproject.toml", "protos", "libs/agenda_kit"])
def test_dockerignore_keeps_the_sources_in(path: str) -> None:
    assert not is_ignored(path)
