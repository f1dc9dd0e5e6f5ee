"""The example scripts run as documented."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_evaluate_script_scores_the_oracle_and_logs_every_episode(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "evaluate.py"), "--split", "infeasible",
                             "--agent", "oracle", "--seeds", "2", "--out", str(out)],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    from mobilegym.judge.splits import split_ids

    assert len(rows) == 2 * len(split_ids("infeasible")) > 0
    assert all(r["score"] == 1.0 and r["error"] is None for r in rows)
    assert "mean score" in result.stdout


def test_evaluate_script_random_agent_fails_infeasible_tasks(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "evaluate.py"), "--split", "infeasible",
                             "--agent", "random", "--seeds", "1", "--out", str(out)],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(r["error"] is None for r in rows)
    assert sum(r["score"] for r in rows) < len(rows)
