"""``make proto-langs`` emits other languages' stubs, and ``make lint``'s ``buf breaking`` step
compares with the previous commit — and skips, saying why, where there is none."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUF = ROOT / ".venv" / "bin" / "buf"
GIT = [
    "git",
    "-c",
    "user.email=t@example.com",
    "-c",
    "user.name=t",
    "-c",
    "init.defaultBranch=main",
]


def _breaking_step() -> str:
    """The ``buf breaking`` lines of the ``lint`` recipe, as the shell would run them."""
    makefile = (ROOT / "Makefile").read_text()
    match = re.search(r"\t@(if ! git rev-parse --is-inside-work-tree.*?fi)\n", makefile, re.S)
    assert match, "lint has no buf breaking step"
    return (
        match.group(1).replace("\\\n\t", "\n").replace("$$", "$").replace("$(BIN)", str(BUF.parent))
    )


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)


def _repo(path: Path, commits: int) -> Path:
    path.mkdir()
    shutil.copytree(ROOT / "protos", path / "protos")
    shutil.copy(ROOT / "buf.yaml", path / "buf.yaml")
    _run(path, *GIT, "init", "-q")
    for n in range(commits):
        (path / "n.txt").write_text(str(n))
        _run(path, *GIT, "add", ".")
        assert _run(path, *GIT, "commit", "-qm", f"c{n}").returncode == 0
    return path


def _lint_step(cwd: Path) -> subprocess.CompletedProcess[str]:
    return _run(cwd, "bash", "-eu", "-o", "pipefail", "-c", _breaking_step())


def test_a_single_commit_repository_is_skipped_with_the_reason(tmp_path: Path) -> None:
    result = _lint_step(_repo(tmp_path / "one", commits=1))
    assert result.returncode == 0, result.stderr
    assert "skipped (HEAD is the only commit" in result.stdout


def test_a_shallow_clone_is_skipped_with_the_reason(tmp_path: Path) -> None:
    source = _repo(tmp_path / "source", commits=2)
    clone = tmp_path / "shallow"
    assert (
        _run(tmp_path, "git", "clone", "-q", "--depth", "1", source.as_uri(), str(clone)).returncode
        == 0
    )
    result = _lint_step(clone)
    assert result.returncode == 0, result.stderr
    assert "skipped (shallow clone" in result.stdout


def test_a_breaking_change_against_the_previous_commit_fails(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo", commits=2)
    clean = _lint_step(repo)
    assert clean.returncode == 0 and "against the previous commit" in clean.stdout, clean
    proto = repo / "protos" / "agenda" / "agent" / "v1" / "agent_service.proto"
    proto.write_text(proto.read_text().replace("string reply = 2;", "string answer = 2;"))
    broken = _lint_step(repo)
    assert broken.returncode != 0
    assert 'changed name from "reply" to "answer"' in broken.stdout + broken.stderr


def test_proto_langs_emits_each_language(tmp_path: Path) -> None:
    env = {**os.environ, "PROTO_LANGS": "cpp java csharp"}
    result = subprocess.run(
        ["make", "-s", "proto-langs"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (ROOT / "gen" / "cpp" / "agenda" / "agent" / "v1" / "agent_service.pb.h").exists()
    assert (ROOT / "gen" / "csharp" / "AgentService.cs").exists()
    assert list((ROOT / "gen" / "java").rglob("AgentServiceOuterClass.java"))
