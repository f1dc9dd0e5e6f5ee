"""A user's first ``mobilegym eval`` runs: missing optional packages, a dead or live endpoint, progress
off a terminal, Ctrl-C, and the messages each gives.

Missing packages are simulated in a child process whose import system refuses them, as a core-only
install would; endpoints are real HTTP servers on loopback (and a port nothing listens on).
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mobilegym.cli import main
from tests.fake_model import FakeModel

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


# the endpoint --------------------------------------------------------------------------------------
COMPLETE = '{"type": "complete"}'


def _openai(url: str, out: Path, *extra: str) -> list[str]:
    return ["eval", *CLOCK, "--agent", "openai", "--agent-arg", f"base_url={url}", "--agent-arg", "model=vl",
            "--no-report", "--no-trajectories", "--out", str(out), *extra]


def _dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed on exit: nothing listens there


def test_a_dead_endpoint_stops_the_run_before_any_episode(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    url = f"http://127.0.0.1:{_dead_port()}/v1"
    assert main(_openai(url, tmp_path / "run")) == 1
    err = capsys.readouterr().err
    assert f"cannot reach the model endpoint {url}/models" in err and "ConnectError" in err and "base_url" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "run").exists()


def test_an_endpoint_serving_another_model_is_named(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    with FakeModel(lambda body: COMPLETE, models=["qwen2.5-vl-7b"]) as server:
        assert main(_openai(server.url, tmp_path / "run")) == 1
    err = capsys.readouterr().err
    assert "does not serve model 'vl'" in err and "'qwen2.5-vl-7b'" in err
    assert [r[0] for r in server.requests] == ["GET"]  # nothing but the check was sent


@pytest.mark.parametrize("models", [["vl"], None])  # a server that lists its models, and one that does not
def test_a_live_endpoint_runs_and_scores(tmp_path: Path, capsys: pytest.CaptureFixture, models) -> None:
    with FakeModel(lambda body: COMPLETE, models=models) as server:
        assert main(_openai(server.url, tmp_path / "run", "--progress", "auto")) == 0
    out, err = capsys.readouterr()
    assert "all" in out and "0.0%" in out and "no scored" not in out  # scored: it completed without doing the task
    assert "eval: 1/1 episodes (100%), success 0.0% of 1 scored" in err  # plain progress: stderr is no terminal
    assert [r[:2] for r in server.requests] == [("GET", "/v1/models"), ("POST", "/v1/chat/completions")]


def test_no_scored_episode_exits_1_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    with FakeModel(lambda body: (503, {"error": "overloaded"}), models=["vl"]) as server:
        status = main(_openai(server.url, tmp_path / "run", "--agent-arg", "max_retries=0"))
    out, err = capsys.readouterr()
    assert status == 1 and "no scored episodes (1 errored)" in out and "%" not in out.splitlines()[1]
    assert "no scored episodes: all 1 errored" in err and "--rerun-failed" in err
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["scored"] == 0 and summary["success_rate"] == {"mean": None, "ci95": None}
    assert len(server.requests) == 2


def test_ctrl_c_says_resume_continues(tmp_path: Path) -> None:
    out = tmp_path / "run"

    def answer(body: dict) -> str:
        if sum(1 for r in server.requests if r[0] == "POST") > 1:
            server.stop.wait(120)  # the second episode's model never answers: the user presses Ctrl-C
        return COMPLETE

    with FakeModel(answer, models=["vl"]) as server:
        argv = _openai(server.url, out, "--task", "clock.AlarmTime")
        child = subprocess.Popen([sys.executable, "-m", "mobilegym", *argv],
                                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})
        results = out / "results.jsonl"
        for _ in range(1200):  # wait (up to 2 minutes) for the first episode's row
            if results.exists() and results.read_text().strip():
                break
            time.sleep(0.1)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    assert "interrupted; 1 finished episode(s) are saved in" in err and "with --resume to continue" in err
    assert "Traceback" not in err


# resuming ------------------------------------------------------------------------------------------
def _readme_resume_line() -> str:
    """The evaluation guide's short ``--resume`` example, as printed there."""
    section = (ROOT / "docs" / "evaluation.md").read_text(encoding="utf-8")
    return next(line.split("#")[0].strip() for line in section.splitlines() if line.rstrip().endswith(
        "# carry on after an interruption"))


def _drop_last_row(out: Path) -> None:
    results = out / "results.jsonl"
    results.write_text("".join(results.read_text().splitlines(keepends=True)[:-1]))


def test_the_readme_resume_example_continues_a_run_with_new_connection_settings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    line = _readme_resume_line()
    argv = line.split()
    assert argv[:2] == ["mobilegym", "eval"] and "--resume" in argv
    out = Path(argv[argv.index("--out") + 1])
    monkeypatch.chdir(tmp_path)
    with FakeModel(lambda body: COMPLETE, models=["vl"]) as first:
        assert main(["eval", "--task", "clock.CountAlarms", "--task", "clock.AlarmTime", "--agent", "openai",
                     "--agent-arg", f"base_url={first.url}", "--agent-arg", "model=vl", "--no-report",
                     "--out", str(out)]) == 0
    _drop_last_row(out)  # the run was cut short
    capsys.readouterr()
    with FakeModel(lambda body: COMPLETE, models=["vl"]) as second:  # another port; new connection options
        assert main([*argv[1:], "--no-report", "--agent-arg", f"base_url={second.url}",
                     "--agent-arg", "max_concurrency=2", "--agent-arg", "timeout_s=30"]) == 0, capsys.readouterr()
    assert [r[0] for r in second.requests] == ["GET", "POST"]  # only the missing episode ran, on the new server
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert [r["task_id"] for r in rows] == ["clock.AlarmTime", "clock.CountAlarms"]
    meta = json.loads((out / "meta.json").read_text())
    assert meta["config"]["agent_options"]["base_url"] == second.url


def test_a_resume_that_changes_the_rows_names_each_key_and_the_way_to_force_it(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "run"
    with FakeModel(lambda body: COMPLETE, models=["vl", "vl2"]) as server:
        first = _openai(server.url, out, "--task", "clock.AlarmTime")
        assert main(first) == 0
        _drop_last_row(out)
        capsys.readouterr()
        changed = ["eval", "--out", str(out), "--resume", "--no-report", "--agent-arg", "model=vl2",
                   "--agent-arg", "history=2", "--sample-n", "2"]
        assert main(changed) == 2
        err = capsys.readouterr().err
        assert "agent_options.model: \"vl\" then, \"vl2\" now" in err and "agent.model" in err
        assert "agent_options.history: null then, 2 now" in err and "agent.history: 4 then, 2 now" in err
        assert "sample_n: 1 then, 2 now" in err and "--force-resume" in err
        assert "base_url" not in err and "max_concurrency" not in err
        assert main([*changed, "--force-resume"]) == 0
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 4  # two tasks x two seeds: the missing ones ran with the forced options


def _readme_first_run() -> list[str]:
    """The README's first-run command against vLLM, as arguments (line continuations joined)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("by vLLM"):]
    block = section[section.index("```bash") + len("```bash"):section.index("```", section.index("```bash") + 7)]
    command = " ".join(line.rstrip("\\").strip() for line in block.strip().splitlines()
                       if not line.startswith("vllm"))
    return command.split()


def test_the_readme_first_run_works_against_an_openai_compatible_server(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    argv = _readme_first_run()
    assert argv[:2] == ["mobilegym", "eval"] and "base_url=http://localhost:8000/v1" in argv
    model = next(a.split("=", 1)[1] for a in argv if a.startswith("model="))
    done = ('<tool_call>\n{"name": "mobile_use", "arguments": {"action": "terminate", "status": "success"}}\n'
            "</tool_call>")
    monkeypatch.chdir(tmp_path)
    with FakeModel(lambda body: done, models=[model]) as server:
        argv = [a.replace("http://localhost:8000/v1", server.url) for a in argv]
        assert main([*argv[1:], "--no-trajectories"]) == 0
    out, err = capsys.readouterr()
    assert "results in runs/first/ (open runs/first/report.html)" in out and "eval: 6/6 episodes (100%)" in err
    rows = [json.loads(x) for x in (tmp_path / "runs/first/results.jsonl").read_text().splitlines()]
    assert len(rows) == 6 and all(r["end"] == "complete" and r["error_kind"] is None for r in rows)
    assert (tmp_path / "runs/first/report.html").is_file()


def test_the_readme_rerun_failed_example_reruns_what_errored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture) -> None:
    text = (ROOT / "docs" / "evaluation.md").read_text(encoding="utf-8")
    line = next(x.split("#")[0].split() for x in text.splitlines()
                if x.rstrip().endswith("# rerun the episodes that errored"))
    assert line[:2] == ["mobilegym", "eval"] and "--rerun-failed" in line
    monkeypatch.chdir(tmp_path)
    out = Path(line[line.index("--out") + 1])
    with FakeModel(lambda body: (503, {"error": "down"}), models=["vl"]) as broken:
        assert main(_openai(broken.url, out, "--agent-arg", "max_retries=0")) == 1
    with FakeModel(lambda body: COMPLETE, models=["vl"]) as fixed:
        assert main([*line[1:], "--agent-arg", f"base_url={fixed.url}"]) == 0
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["error_kind"] is None and rows[0]["end"] == "complete"
    assert (out / "errors.jsonl").read_text() == ""
