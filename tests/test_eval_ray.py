"""mobilegym eval on a Ray cluster: a local head started with `ray start`, episodes as actors there."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from mobilegym.eval.harness import evaluate

from .ray_support import RayHead

pytestmark = pytest.mark.slow
EPISODES = {"suites": ["clock"], "filters": {"difficulty": ["L1"]}, "agent": "oracle", "report": False}


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory):
    """A local 2-CPU head (``ray start --head``), stopped by its own process group (see tests/ray_support.py)."""
    head = RayHead(tmp_path_factory.mktemp("ray"), num_cpus=2)
    try:
        yield head.address
    finally:
        head.stop()


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
