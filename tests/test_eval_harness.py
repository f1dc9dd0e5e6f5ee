"""mobilegym eval: episodes, rows, trajectories, budgets, loops, errors, resuming, workers, the CLI."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from mobilegym.eval.agents import AgentSpecError
from mobilegym.eval.agents.human import HumanAgent
from mobilegym.eval.harness import ConfigError, EvalConfig, evaluate
from mobilegym.eval.harness.summary import pass_at_k, summarize, wilson

ROOT = Path(__file__).resolve().parents[1]
L1_CLOCK = {"suites": ["clock"], "filters": {"difficulty": ["L1"]}}
ROW_KEYS = {"episode_id", "task_id", "suite", "app", "difficulty", "objective", "seed", "world_seed", "repeat",
            "params", "instruction", "steps", "score", "success", "progress", "clean", "side_effects",
            "error_kind", "error", "end", "false_complete", "overdue", "loop", "tokens", "model_calls", "retries",
            "wall_time_s", "checks", "trajectory"}


def _rows(folder: Path, name: str = "results.jsonl") -> list[dict]:
    return [json.loads(line) for line in (folder / name).read_text(encoding="utf-8").splitlines()]


def _without_time(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "wall_time_s"} for r in rows]


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("oracle")
    return evaluate(agent="oracle", sample_n=2, out=str(out), report=False, **L1_CLOCK)


def test_the_oracle_succeeds_and_every_file_is_written(oracle_run) -> None:
    root, summary = oracle_run.root, oracle_run.summary
    rows = _rows(root)
    assert len(rows) == summary["episodes"] == 12 and [r["episode_id"] for r in rows] == \
        [r["episode_id"] for r in oracle_run.rows]
    assert all(set(r) == ROW_KEYS for r in rows)
    assert all(r["success"] and r["score"] == 1.0 and r["end"] in ("complete", "abort") and not r["false_complete"]
               and r["error_kind"] is None for r in rows)
    assert summary["success_rate"]["mean"] == 1.0 and summary["success_rate"]["ci95"][1] == 1.0
    assert set(summary["by"]["suite"]) == {"clock"} and set(summary["by"]["difficulty"]) == {"L1"}
    assert summary["pass_at_k"] == {"1": 1.0}
    meta = json.loads((root / "meta.json").read_text())
    assert meta["config"]["agent"] == "oracle" and meta["agent"]["name"] == "oracle"
    assert meta["mobilegym_version"] and "commit" in meta["git"]
    assert (root / "errors.jsonl").read_text() == ""
    row = rows[0]
    folder = root / row["trajectory"]
    steps = _rows(folder, "steps.jsonl")
    assert len(steps) == row["steps"] > 0 and steps[-1]["action"]["type"] == row["end"]
    for step in steps:
        shot = Image.open(folder / step["screenshot"])
        annotated = Image.open(folder / step["annotated"])
        assert shot.size == annotated.size == (540, 1200)
        assert (folder / step["tree"]).read_text().startswith("<?xml")
    tap = next(s for s in steps if s["action"]["type"] == "tap")
    plain, marked = Image.open(folder / tap["screenshot"]), Image.open(folder / tap["annotated"])
    x, y = tap["action"]["x"] // 2, tap["action"]["y"] // 2
    assert plain.getpixel((x, y)) != marked.getpixel((x, y))  # the tap point is drawn
    episode = json.loads((folder / "episode.json").read_text())
    assert episode["judge"]["success"] and episode["episode_id"] == row["episode_id"]
    assert (folder / "final.png").exists()


def test_the_same_run_gives_the_same_rows_in_worker_processes(oracle_run, tmp_path: Path) -> None:
    run = evaluate(agent="oracle", sample_n=2, out=str(tmp_path / "w"), report=False, workers=2, concurrency=2,
                   **L1_CLOCK)
    assert _without_time(_rows(run.root)) == _without_time(_rows(oracle_run.root))
    first, second = (json.loads((r / "summary.json").read_text()) for r in (oracle_run.root, run.root))
    assert first == second


def test_the_random_agent_runs_out_of_steps(tmp_path: Path) -> None:
    run = evaluate(agent="random", tasks=["clock.AddAlarm"], repeat_n=3, max_steps=6, out=str(tmp_path),
                   report=False, trajectories=False)
    assert [r["steps"] for r in run.rows] == [6, 6, 6]
    assert all(r["end"] == "step_budget" and r["overdue"] and not r["success"] and r["trajectory"] is None
               for r in run.rows)
    assert run.summary["overdue_rate"] == 1.0 and set(run.summary["pass_at_k"]) == {"1", "2", "3"}
    assert not (tmp_path / "trajectories").exists()


def test_a_repeated_action_on_an_unchanged_screen_ends_the_episode_as_a_loop(tmp_path: Path) -> None:
    run = evaluate(agent="tests.eval_agents:Stubborn", tasks=["clock.CountAlarms"], loop_limit=4,
                   out=str(tmp_path), report=False)
    row = run.rows[0]
    assert row["end"] == "loop" and row["loop"] and not row["success"] and row["steps"] < 30
    assert run.summary["loop_rate"] == 1.0
    off = evaluate(agent="tests.eval_agents:Stubborn", tasks=["clock.CountAlarms"], loop_limit=0, max_steps=12,
                   out=str(tmp_path / "off"), report=False, trajectories=False)
    assert off.rows[0]["end"] == "step_budget" and off.rows[0]["steps"] == 12


def test_an_agent_slower_than_the_time_budget_is_overdue(tmp_path: Path) -> None:
    run = evaluate(agent="tests.eval_agents:Sleepy", tasks=["clock.CountAlarms"], time_limit_s=0.3,
                   out=str(tmp_path), report=False, trajectories=False)
    row = run.rows[0]
    assert row["end"] == "time_budget" and row["overdue"] and row["error_kind"] is None and row["steps"] == 0


@pytest.mark.parametrize("kind, error_kind, message", [
    ("bug", "agent_error", "ZeroDivisionError"), ("model", "model_error", "503"),
    ("agent", "agent_error", "no idea"), ("type", "agent_error", "must return an action dict"),
])
def test_agent_failures_are_errors_apart_from_scores(tmp_path: Path, kind: str, error_kind: str,
                                                     message: str) -> None:
    run = evaluate(agent="tests.eval_agents:Failing", agent_options={"kind": kind}, tasks=["clock.CountAlarms"],
                   out=str(tmp_path), report=False)
    row = run.rows[0]
    assert row["error_kind"] == error_kind and message in row["error"] and row["end"] == "error"
    assert not row["success"] and run.summary["errors"] == 1 and run.summary["scored"] == 0
    errors = _rows(tmp_path, "errors.jsonl")
    assert [e["episode_id"] for e in errors] == [row["episode_id"]] and "Traceback" in errors[0]["traceback"]


def test_an_unparseable_response_costs_a_step_and_is_recorded(tmp_path: Path) -> None:
    run = evaluate(agent="tests.eval_agents:Failing", agent_options={"kind": "garbage"},
                   tasks=["clock.CountAlarms"], out=str(tmp_path), report=False)
    row = run.rows[0]
    assert row["steps"] == 2 and row["end"] == "complete" and row["false_complete"] and row["error_kind"] is None
    assert row["tokens"] == {"prompt": 220, "completion": 12} and row["model_calls"] == 2 and row["retries"] == 1
    steps = _rows(tmp_path / row["trajectory"], "steps.jsonl")
    assert steps[0]["action"] is None and "ParseError" in steps[0]["error"]
    assert steps[0]["response"] == "I think I will tap"
    assert run.summary["false_complete_rate"] == 1.0


def test_a_task_that_cannot_start_is_a_task_error(tmp_path: Path) -> None:
    doc = json.loads((ROOT / "tasks/notes/count_pinned_notes.json").read_text())
    doc["id"] = "broken"
    doc["config"].append({"type": "launch", "parameters": {"app": "clock", "route": "/nowhere"}})
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc))
    run = evaluate(agent="oracle", tasks=[str(path), "clock.CountAlarms"], out=str(tmp_path / "out"), report=False)
    broken = next(r for r in run.rows if r["task_id"].endswith("broken"))
    assert broken["error_kind"] == "task_error" and "/nowhere" in broken["error"] and broken["steps"] == 0
    assert run.summary["errors_by_kind"] == {"task_error": 1} and run.summary["success_rate"]["mean"] == 1.0


def test_resume_runs_only_the_missing_episodes(tmp_path: Path) -> None:
    log = tmp_path / "resets.log"
    options = dict(agent="tests.eval_agents:Counting", agent_options={"log": str(log)}, sample_n=2,
                   out=str(tmp_path / "run"), report=False, trajectories=False, **L1_CLOCK)
    first = evaluate(**options)
    results = tmp_path / "run" / "results.jsonl"
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:5]) + "\n" + lines[5][:20])  # killed mid-write
    log.unlink()
    with pytest.raises(ConfigError, match="already holds results"):
        evaluate(**options)
    with pytest.raises(ConfigError, match="sample_n"):
        evaluate(**{**options, "sample_n": 3, "resume": True})
    resumed = evaluate(**{**options, "resume": True, "workers": 2})
    assert len(log.read_text().splitlines()) == len(lines) - 5
    assert _without_time(resumed.rows) == _without_time(first.rows)
    assert _without_time(_rows(tmp_path / "run")) == _without_time(first.rows)


def test_rerun_failed_reruns_only_errored_episodes(tmp_path: Path) -> None:
    flag = tmp_path / "fixed"
    options = dict(agent="tests.eval_agents:Failing", agent_options={"kind": "model", "flag": str(flag)},
                   tasks=["clock.CountAlarms", "clock.AlarmTime"], out=str(tmp_path / "run"), report=False)
    first = evaluate(**options)
    assert first.summary["errors"] == 2
    flag.write_text("the endpoint is back")
    again = evaluate(**{**options, "rerun_failed": True})
    assert again.summary["errors"] == 0 and all(r["end"] == "complete" for r in again.rows)
    assert _rows(tmp_path / "run", "errors.jsonl") == []
    with pytest.raises(ConfigError, match="nothing to resume"):
        evaluate(**{**options, "out": str(tmp_path / "empty"), "resume": True})


@pytest.mark.parametrize("options, message", [
    ({"agent": "nope"}, "unknown agent"), ({"agent": "tests.eval_agents:Missing"}, "no callable"),
    ({"agent": "tests.eval_agents:NoAct"}, "no act"), ({"agent": "no_such_module:X"}, "cannot import"),
    ({"agent": "random", "agent_options": {"temperature": 1}}, "cannot be built with the options"),
])
def test_bad_agents_are_named(tmp_path: Path, options: dict, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        evaluate(tasks=["clock.CountAlarms"], out=str(tmp_path), report=False, **options)
    assert not (tmp_path / "results.jsonl").exists()


@pytest.mark.parametrize("options, message", [
    ({"sample_n": 0}, "sample_n"), ({"split": "dev"}, "split"), ({"world_seeds": []}, "world_seeds"),
    ({"world_seeds": [1], "world": "canonical"}, "canonical"), ({"time_limit_s": float("nan")}, "time_limit_s"),
    ({"resume": True, "rerun_failed": True}, "choose one"), ({"tasks": ["clock.Nope"]}, "clock.Nope"),
    ({"agent": "human", "workers": 2}, "one episode at a time"), ({"trajectory_scale": 0}, "trajectory_scale"),
])
def test_bad_options_are_named(tmp_path: Path, options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        evaluate(**{"tasks": ["clock.CountAlarms"], "out": str(tmp_path), "report": False, **options})


def test_world_seeds_and_repeats_make_the_plan(tmp_path: Path) -> None:
    run = evaluate(agent="oracle", tasks=["clock.CountAlarms"], world_seeds=[1_000_000, 1_000_001], repeat_n=2,
                   out=str(tmp_path), report=False, trajectories=False)
    assert [r["episode_id"] for r in run.rows] == [
        "clock.CountAlarms/s0-w1000000-r0", "clock.CountAlarms/s0-w1000000-r1",
        "clock.CountAlarms/s0-w1000001-r0", "clock.CountAlarms/s0-w1000001-r1"]
    assert [r["world_seed"] for r in run.rows] == [1_000_000, 1_000_000, 1_000_001, 1_000_001]
    assert all(r["success"] for r in run.rows) and run.summary["pass_at_k"] == {"1": 1.0, "2": 1.0}


def test_summary_statistics() -> None:
    assert pass_at_k(5, 2, 1) == pytest.approx(0.4) and pass_at_k(5, 2, 2) == pytest.approx(0.7)
    assert pass_at_k(3, 0, 2) == 0.0 and pass_at_k(3, 3, 1) == 1.0
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 0) == (0.0, 0.0)
    base = {"progress": 0.5, "false_complete": False, "overdue": False, "side_effects": [], "loop": False,
            "steps": 4, "tokens": {"prompt": 1, "completion": 1}, "suite": "s", "difficulty": "L1",
            "objective": "query", "app": "a", "seed": 0, "world_seed": 1}
    rows = [{**base, "task_id": "t", "repeat": r, "success": r == 0, "error_kind": None} for r in range(2)]
    rows.append({**base, "task_id": "u", "repeat": 0, "success": False, "error_kind": "model_error"})
    summary = summarize(rows)
    assert summary["success_rate"]["mean"] == 0.5 and summary["scored"] == 2 and summary["errors"] == 1
    assert summary["pass_at_k"] == {"1": 0.5, "2": 1.0} and summary["tokens"] == {"prompt": 3, "completion": 3}


def test_the_human_agent_reads_commands(tmp_path: Path) -> None:
    typed = io.StringIO("help\ntap 9999\nfly away\nopen Clock\ndone 9\n")
    shown = io.StringIO()
    agent = HumanAgent(stdin=typed, stdout=shown)
    import gymnasium as gym

    env = gym.make("MobileGym-v0", task="clock.CountAlarms", eval_mode="text", disable_env_checker=True)
    obs, info = env.reset(seed=0)
    agent.reset(obs["instruction"], {**info, "screen_size": (1080, 2400)})
    assert agent.act(obs, info) == {"type": "open_app", "app": "Clock"}
    assert agent.act(obs, info) == {"type": "complete", "text": "9"}
    text = shown.getvalue()
    assert "How many" in text and "commands:" in text and "no node 9999" in text and "unknown command 'fly'" in text
    assert agent.parse("tap 3 4") == {"type": "tap", "x": 3, "y": 4}
    assert agent.parse("swipe up")["y"] > agent.parse("swipe up")["y2"]
    with pytest.raises(Exception, match="end of input"):
        agent.act(obs, info)


def test_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    command = [sys.executable, "-m", "mobilegym", "eval", "--suite", "clock", "--filter", "difficulty=L1",
               "--agent", "oracle", "--no-report", "--no-trajectories", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "success" in done.stdout and "100.0%" in done.stdout and "results in" in done.stdout
    assert done.stderr.startswith("eval: 1/") and "\r" not in done.stderr  # plain progress lines off a terminal
    again = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    assert again.returncode == 2 and "already holds results" in again.stderr and "Traceback" not in again.stderr
    bad = subprocess.run([*command[:4], "--world-seeds", "9-3"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "world seeds" in bad.stderr
    failing = subprocess.run([*command[:4], "--task", "clock.CountAlarms", "--agent", "tests.eval_agents:Failing",
                              "--agent-arg", "kind=model", "--no-report", "--out", str(tmp_path / "failing")],
                             capture_output=True, text=True, cwd=ROOT)
    assert failing.returncode == 1 and "1 episode(s) errored (model_error 1)" in failing.stdout
    assert "no scored episodes" in failing.stdout and "no scored episodes: all 1 errored" in failing.stderr
    unbuilt = subprocess.run([*command[:4], "--task", "clock.CountAlarms", "--agent", "openai",
                              "--out", str(tmp_path / "openai")], capture_output=True, text=True, cwd=ROOT)
    assert unbuilt.returncode == 2 and "base_url" in unbuilt.stderr and "--agent-arg" in unbuilt.stderr


def test_the_progress_bar_shows_the_live_success_rate() -> None:
    from mobilegym.eval.harness.progress import Progress

    stream = io.StringIO()
    progress = Progress(total=4, done=1, mode="on", stream=stream)
    progress.update({"error_kind": None, "success": True})
    progress.update({"error_kind": None, "success": False})
    progress.update({"error_kind": "model_error", "success": False})
    progress.close()
    shown = stream.getvalue()
    assert "4/4" in shown and "success 50.0% of 2" in shown
    plain = io.StringIO()
    lines = Progress(total=20, done=0, mode="auto", stream=plain)  # not a terminal: a line per tenth
    for i in range(20):
        lines.update({"error_kind": "model_error" if i == 0 else None, "success": i % 2 == 0})
    lines.close()
    shown = plain.getvalue().splitlines()
    assert len(shown) == 10 and shown[0] == "eval: 2/20 episodes (10%), success 0.0% of 1 scored, 1 errored"
    assert shown[-1] == "eval: 20/20 episodes (100%), success 47.4% of 19 scored, 1 errored"
    quiet = io.StringIO()
    silent = Progress(total=2, done=0, mode="off", stream=quiet)
    silent.update({"error_kind": None, "success": True})
    silent.close()
    assert quiet.getvalue() == "" and silent.successes == 1
