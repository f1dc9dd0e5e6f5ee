"""A synthetic `mobilegym eval` results folder for tests of the report and plots.

Six episodes over two suites and two difficulties: two successes, two failures, one episode
errored by the agent (in results.jsonl and errors.jsonl, with a partial trajectory) and one by its
task (only in errors.jsonl, no trajectory). Screenshots are small real PNGs. Untrusted text
(:data:`HOSTILE`) sits in an instruction, a model response, a thought, an error and a check.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

HOSTILE = '<script>alert(1)</script></script><img src=x onerror="alert(2)">&amp;'
SCREEN = (90, 200)  # a tiny phone screen, width x height
SUCCESS_TEXT = "50.0% (95% CI 15.0–85.0%)"


def _rate(mean: float | None, lo: float | None = None, hi: float | None = None) -> dict[str, Any]:
    return {"mean": mean, "ci95": None if lo is None else [lo, hi]}


def _group(episodes: int, errors: int, rate: dict[str, Any], progress: float) -> dict[str, Any]:
    return {"episodes": episodes, "scored": episodes - errors, "errors": errors,
            "errors_by_kind": {"model_error": 1, "task_error": 1} if errors else {}, "success_rate": rate,
            "progress": progress, "false_complete_rate": 0.25, "overdue_rate": 0.0, "side_effect_rate": 0.25,
            "loop_rate": 0.0, "avg_steps": 2.5, "pass_at_k": {"1": rate["mean"]},
            "tokens": {"prompt": 4000, "completion": 300}}


SUMMARY = {
    **_group(6, 2, _rate(0.5, 0.15, 0.85), 0.625),
    "pass_at_k": {"1": 0.5, "2": 0.75, "10": 0.9},
    "tokens": {"prompt": 12345, "completion": 678},
    "by": {
        "suite": {"clock": _group(3, 0, _rate(2 / 3, 0.208, 0.939), 0.75),
                  "contacts": _group(3, 2, _rate(0.0, 0.0, 0.793), 0.5)},
        "difficulty": {"L1": _group(2, 0, _rate(0.5, 0.095, 0.905), 0.75),
                       "L2": _group(4, 2, _rate(0.5, 0.095, 0.905), 0.5)},
        "objective": {"query": _group(2, 0, _rate(0.5, 0.095, 0.905), 0.75),
                      "operation": _group(4, 2, _rate(0.5, 0.095, 0.905), 0.5)},
        "app": {"clock": _group(3, 0, _rate(2 / 3, 0.208, 0.939), 0.75),
                "contacts": _group(3, 2, _rate(None), 0.5)},
    },
}

META = {
    "config": {"out": "runs/qwen", "split": "test", "agent": "openai", "seed": 0, "sample_n": 2, "repeat_n": 1,
               "agent_options": {"model": "qwen2.5-vl-7b", "base_url": "http://localhost:8000/v1"},
               "eval_mode": "grounded", "screen_size": [1080, 2400]},
    "agent": {"spec": "openai", "name": "openai", "version": "1", "prompt_version": "qwen25vl-2",
              "options": {"model": "qwen2.5-vl-7b", "base_url": "http://localhost:8000/v1"}},
    "mobilegym_version": "0.1.0",
    "git": {"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": True},
    "python": "3.11.7",
    "created_by": "mobilegym eval",
    "created_at": "2026-01-02T03:04:05Z",
}


def _row(task_id: str, seed: int, difficulty: str, objective: str, *, success: bool, steps: int, end: str,
         instruction: str, checks: list[dict[str, Any]], trajectory: bool = True, **extra: Any) -> dict[str, Any]:
    suite = task_id.split(".")[0]
    episode = f"s{seed}-w{seed}-r0"
    passed = sum(c["passed"] for c in checks)
    return {
        "episode_id": f"{task_id}/{episode}", "task_id": task_id, "suite": suite, "app": suite,
        "difficulty": difficulty, "objective": objective, "seed": seed, "world_seed": seed, "repeat": 0,
        "params": {}, "instruction": instruction, "steps": steps, "score": 1.0 if success else 0.0,
        "success": success, "progress": passed / len(checks) if checks else 0.0, "clean": True,
        "side_effects": [], "error_kind": None, "error": None, "end": end, "false_complete": False,
        "overdue": False, "loop": False, "tokens": {"prompt": 1000 * steps, "completion": 50 * steps},
        "model_calls": steps, "retries": 0, "wall_time_s": 1.5 * steps, "checks": checks,
        "trajectory": f"trajectories/{task_id}/{episode}" if trajectory else None, **extra,
    }


def _check(field: str, expected: Any, actual: Any) -> dict[str, Any]:
    return {"field": field, "expected": expected, "actual": actual, "passed": expected == actual}


def _step(i: int, action: dict[str, Any] | None, *, thought: str = "", response: str = "",
          error: str | None = None) -> dict[str, Any]:
    return {"step": i, "action": action, "thought": thought, "prompt": [{"role": "user", "content": "…"}],
            "response": response, "usage": {"prompt": 1000, "completion": 50}, "error": error, "reward": 0.0,
            "app": "clock", "route": "alarms", "screenshot": f"{i:03d}.png", "annotated": f"{i:03d}.annotated.png",
            "tree": f"{i:03d}.xml"}


FIRST_STEPS = [
    _step(0, {"type": "open_app", "app": "Clock"}, thought="Open the clock app.", response=HOSTILE),
    _step(1, {"type": "tap", "x": 45, "y": 120}, thought=f"Thinking about {HOSTILE}",
          response='{"type": "tap", "x": 45, "y": 120}'),
]

ROWS = [
    _row("clock.CountAlarms", 0, "L1", "query", success=True, steps=2, end="complete",
         instruction="How many alarms are set?",
         checks=[_check("answer", "3", "3"), _check("alarms.unchanged", True, True), _check("note", HOSTILE, HOSTILE)]),
    _row("clock.CountAlarms", 1, "L1", "query", success=False, steps=3, end="complete",
         instruction="How many alarms are set?", checks=[_check("answer", "2", "5")], false_complete=True),
    _row("clock.SetAlarm", 0, "L2", "operation", success=True, steps=2, end="complete",
         instruction="Set an alarm for 7:30.", checks=[_check("alarms[0].time", "07:30", "07:30")]),
    _row("contacts.AddContact", 0, "L2", "operation", success=False, steps=2, end="step_budget",
         instruction=f"Add a contact named {HOSTILE}", checks=[_check("contacts[-1].name", HOSTILE, "")],
         clean=False, side_effects=["contacts[3]"], overdue=True),
    _row("contacts.DeleteContact", 0, "L2", "operation", success=False, steps=1, end="error",
         instruction="Delete the contact Ann.", checks=[], error_kind="model_error",
         error=f"the model server answered 500: {HOSTILE}"),
]
ERROR_ROWS = [
    {**ROWS[4], "traceback": "Traceback (most recent call last):\n  ...\nModelError: the model server answered 500"},
    {**_row("contacts.EditContact", 0, "L2", "operation", success=False, steps=0, end="error",
            instruction="Rename Bob to Rob.", checks=[], trajectory=False, error_kind="task_error",
            error="KeyError: 'contacts'"),
     "traceback": "Traceback (most recent call last):\n  ...\nKeyError: 'contacts'"},
]


def _png(path: Path, colour: tuple[int, int, int], mark: tuple[int, int] | None = None) -> None:
    image = Image.new("RGB", SCREEN, colour)
    if mark is not None:
        x, y = mark
        ImageDraw.Draw(image).ellipse((x - 8, y - 8, x + 8, y + 8), outline=(255, 0, 0), width=3)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


def _trajectory(root: Path, row: dict[str, Any], steps: list[dict[str, Any]]) -> None:
    folder = root / row["trajectory"]
    for i, step in enumerate(steps):
        colour = (40 * i % 256, 120, 200)
        _png(folder / step["screenshot"], colour)
        _png(folder / step["annotated"], colour, mark=(45, 100))
        (folder / step["tree"]).write_text("<hierarchy/>", encoding="utf-8")
    if row["end"] != "error":
        _png(folder / "final.png", (250, 250, 250))
    (folder / "steps.jsonl").write_text("".join(json.dumps(s) + "\n" for s in steps), encoding="utf-8")
    judge = {"task_id": row["task_id"], "success": row["success"], "score": row["score"],
             "progress": row["progress"], "clean": row["clean"], "checks": row["checks"],
             "side_effects": [{"path": e, "kind": "deleted", "before": "Ann", "after": None, "harmful": True}
                              for e in row["side_effects"]], "warnings": [], "error": None, "eval_path": "text"}
    (folder / "episode.json").write_text(json.dumps({**row, "judge": judge}), encoding="utf-8")


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def build_results(root: Path) -> Path:
    """Write the synthetic results folder at ``root`` (created) and return it.

    results.jsonl lists the episodes out of order, as parallel workers finish them.
    """
    root.mkdir(parents=True, exist_ok=True)
    (root / "meta.json").write_text(json.dumps(META, indent=2), encoding="utf-8")
    (root / "summary.json").write_text(json.dumps(SUMMARY, indent=2), encoding="utf-8")
    _jsonl(root / "results.jsonl", [ROWS[i] for i in (3, 0, 4, 2, 1)])
    _jsonl(root / "errors.jsonl", ERROR_ROWS)
    _trajectory(root, ROWS[0], FIRST_STEPS)
    _trajectory(root, ROWS[1], [_step(i, {"type": "swipe", "x": 45, "y": 150, "x2": 45, "y2": 50,
                                          "duration_ms": 300}) for i in range(3)])
    _trajectory(root, ROWS[2], [_step(i, {"type": "key", "key": "back"}) for i in range(2)])
    _trajectory(root, ROWS[3], [_step(0, {"type": "type", "text": HOSTILE}), _step(1, {"type": "complete"})])
    _trajectory(root, ROWS[4], [_step(0, None, error=f"the model server answered 500: {HOSTILE}")])
    return root
