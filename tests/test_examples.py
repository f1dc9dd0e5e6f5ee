"""The example scripts run as documented."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_evaluate_script_runs_its_ten_line_agent_through_the_harness(tmp_path: Path) -> None:
    out = tmp_path / "results"
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "evaluate.py"), "--split", "infeasible",
                             "--sample-n", "2", "--out", str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    from mobilegym.judge.splits import split_ids

    assert len(rows) == 2 * len(split_ids("infeasible")) > 0
    assert all(r["error_kind"] is None and r["end"] in ("abort", "step_budget", "loop") for r in rows)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["config"]["agent"] == "__main__:FirstButtonAgent" and meta["agent"]["name"] == "first-button"
    assert "success" in result.stdout and (out / "report.html").exists()
