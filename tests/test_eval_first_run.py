"""A user's first ``mobilegym eval`` runs: missing optional packages, a dead or live endpoint, progress
off a terminal, Ctrl-C, and the messages each gives.

Missing packages are simulated in a child process whose import system refuses them, as a core-only
install would; endpoints are real HTTP servers on loopback (and a port nothing listens on).
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLOCK = ["--task", "clock.CountAlarms"]


def _without(modules: list[str], argv: list[str], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``mobilegym ARGV`` in a child process where ``modules`` (and their submodules) cannot be imported."""
    script = textwrap.dedent(f"""
        import sys
        BLOCKED = {modules!r}

        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in BLOCKED:
                    raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
                return None

        for name in list(sys.modules):
            if name.split(".")[0] in BLOCKED:
                del sys.modules[name]
        sys.meta_path.insert(0, Block())
        from mobilegym.cli import main
        sys.exit(main({argv!r}))
    """)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=cwd)


def test_without_httpx_the_openai_agent_fails_at_the_start_naming_the_extra(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = _without(["httpx"], ["eval", *CLOCK, "--agent", "openai", "--agent-arg", "base_url=http://127.0.0.1:9/v1",
                                "--agent-arg", "model=m", "--out", str(out)])
    assert done.returncode == 1, done.stderr
    assert "pip install 'mobilegym[eval]'" in done.stderr and "httpx" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()  # stopped before any episode


def test_without_matplotlib_the_report_is_written_without_plots(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = _without(["matplotlib", "tqdm"], ["eval", *CLOCK, "--agent", "oracle", "--no-trajectories",
                                             "--progress", "on", "--out", str(out)])
    assert done.returncode == 0, done.stderr
    assert "note: plots skipped" in done.stdout and "pip install 'mobilegym[eval]'" in done.stdout
    assert (out / "report.html").is_file() and not (out / "plots").exists()
    assert "eval: 1/1 episodes (100%), success 100.0% of 1 scored" in done.stderr  # plain lines without tqdm
    assert json.loads((out / "summary.json").read_text())["scored"] == 1
