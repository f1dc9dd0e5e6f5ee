"""The README is short and every command in it runs: its Python snippets as scripts, its shell commands as the
command line, its extras as pyproject declares them, its links to files that exist.

Commands run elsewhere: ``scripts/test.sh`` is what CI runs; the vLLM first run is
tests/test_eval_first_run.py (against a loopback model server); ``mkdocs build`` is tests/test_docs.py."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from mobilegym.cli import main

from .snippets import marked, run_snippet

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
MAX_LINES = 250
MARK = "<!-- runs as a test: tests/test_readme.py -->"
SNIPPETS = marked(README, MARK)
SHRINK = {"learn(20_000)": "learn(16)", "PPO(\"MultiInputPolicy\", venv)":
          "PPO(\"MultiInputPolicy\", venv, n_steps=2, batch_size=16, n_epochs=1)"}
BASH = [line for block in re.findall(r"```bash\n(.*?)```", README, re.S)
        for line in re.sub(r"\\\n\s*", " ", block).splitlines() if line.strip()]
ELSEWHERE = ("bash scripts/test.sh", "vllm serve", "mobilegym eval --suite clock --filter difficulty=L1 --agent openai")


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= MAX_LINES


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s.splitlines()[0][:40] for s in SNIPPETS])
def test_readme_snippet_runs(snippet: str, tmp_path: Path) -> None:
    if "stable_baselines3" in snippet:
        pytest.importorskip("stable_baselines3")
    run_snippet(snippet, tmp_path, SHRINK)


def test_the_readme_has_three_snippets_and_its_commands() -> None:
    assert len(SNIPPETS) == 3
    commands = [line.split("#")[0].strip() for line in BASH]
    assert "bash scripts/demo.sh" in commands and "bash scripts/test.sh" in commands
    assert all(c.startswith(("bash scripts/", "mobilegym ", "vllm ")) for c in commands), commands


@pytest.mark.parametrize("line", [b for b in BASH if b.startswith("mobilegym ") and not b.startswith(ELSEWHERE)])
def test_readme_command_runs(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(shlex.split(line.split("#")[0])[1:]) == 0


def test_the_demo_script_runs_the_demo(tmp_path: Path) -> None:
    """scripts/demo.sh installs the package (pip, done by the test set-up) and runs ``mobilegym demo``."""
    script = (ROOT / "scripts" / "demo.sh").read_text()
    assert "pip install -q -e ." in script and 'mobilegym demo "$@"' in script
    assert main(["demo", "--out", str(tmp_path / "demo_out")]) == 0
    assert (tmp_path / "demo_out" / "trajectory.jsonl").is_file()


def test_the_extras_table_is_pyproject() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    listed = set(re.findall(r"^\| `(\w+)` \|", README, re.M))
    assert listed == declared


def test_the_readme_links_to_files_that_exist() -> None:
    targets = [t for t in re.findall(r"\]\(([^)#]+)", README) if not t.startswith("http")]
    assert targets and all((ROOT / t).exists() for t in targets), [t for t in targets if not (ROOT / t).exists()]
