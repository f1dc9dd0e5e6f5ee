"""mobilegym eval on a Ray cluster: a local head started with `ray start`, episodes as actors there."""
from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from mobilegym.eval.harness import evaluate

pytestmark = pytest.mark.slow
EPISODES = {"suites": ["clock"], "filters": {"difficulty": ["L1"]}, "agent": "oracle", "report": False}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory):
    """A local head; the head and this process agree on no token authentication (Ray's default for `ray start`
    varies across versions, and a test cluster on localhost needs none)."""
    ray = shutil.which("ray")
    assert ray is not None, "the `ray` command is missing: scripts/setup.sh installs ray[default]"
    temp = tmp_path_factory.mktemp("ray")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("RAY_AUTH_MODE", "disabled")
        started = subprocess.run([ray, "start", "--head", f"--port={_free_port()}", "--num-cpus=2",
                                  "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp}"],
                                 capture_output=True, text=True, timeout=180)
        assert started.returncode == 0, started.stderr
        address = re.search(r"ray start --address='([^']+)'", started.stdout + started.stderr)
        assert address is not None, started.stdout
        yield address.group(1)
        subprocess.run([ray, "stop", "--force"], capture_output=True, timeout=120)


def _rows(folder: Path) -> list[dict]:
    rows = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    return [{k: v for k, v in r.items() if k != "wall_time_s"} for r in rows]


def test_a_run_on_ray_streams_the_same_rows_and_trajectories_back(ray_cluster: str, tmp_path: Path) -> None:
    local = evaluate(out=str(tmp_path / "local"), **EPISODES)
    remote = evaluate(out=str(tmp_path / "ray"), backend="ray", ray_address=ray_cluster, workers=2, concurrency=2,
                      **EPISODES)
    assert all(r["success"] for r in local.rows) and len(local.rows) == 6
    assert _rows(remote.root) == _rows(local.root) and remote.summary == local.summary
    meta = json.loads((remote.root / "meta.json").read_text())
    assert meta["config"]["backend"] == "ray" and meta["config"]["ray_address"] == ray_cluster
    for row in remote.rows:
        here, there = local.root / row["trajectory"], remote.root / row["trajectory"]
        names = sorted(p.name for p in here.iterdir())
        assert names == sorted(p.name for p in there.iterdir()) and "episode.json" in names
        assert (here / "000.png").read_bytes() == (there / "000.png").read_bytes()
