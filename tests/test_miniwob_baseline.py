"""benchmarks/miniwob_baseline.py: MiniWoB++ really runs headless, MobileGym is measured with the
tree, and the comparison reports ratios against issue 17's targets (no wall-clock thresholds)."""
from __future__ import annotations

import importlib
import os
import re
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def baseline() -> ModuleType:
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCHMARKS))
        return importlib.import_module("miniwob_baseline")


def test_miniwob_click_test_2_runs_headless_under_random_actions(baseline: ModuleType) -> None:
    miniwob = pytest.importorskip("miniwob")
    if not all(os.access(p, os.X_OK) for p in (baseline.CHROMIUM, baseline.CHROMEDRIVER)):
        pytest.skip("Debian chromium and chromium-driver are not installed")
    before = {k: os.environ.get(k) for k in ("MINIWOB_CHROME_BINARY", "MINIWOB_CHROMEDRIVER")}
    result = baseline.miniwob_steps_per_second(steps=20, resets=2)
    assert re.fullmatch(r"Click button (ONE|TWO)\.", result["utterance"])  # the click-test-2 page ran
    assert result["steps"] == 20 and result["version"] == miniwob.__version__
    assert re.match(r"\d+\.", result["browser"])
    assert result["steps_per_s"] >= result["steps_per_s_incl_resets"] > 0 and result["reset_ms"] > 0
    assert {k: os.environ.get(k) for k in before} == before  # the browser paths were set only while running


def test_mobilegym_is_measured_with_the_tree_at_the_given_resolution(baseline: ModuleType) -> None:
    result = baseline.mobilegym_steps_per_second(steps=20, screen_size=(720, 1600), render_scale=0.1, resets=2)
    assert result["frame"] == "72x160" and "a11y" in result["obs_parts"] and result["steps"] == 20
    assert result["steps_per_s"] >= result["steps_per_s_incl_resets"] > 0 and result["reset_ms"] > 0


def test_bad_counts_and_settings_are_refused(baseline: ModuleType) -> None:
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="steps must be a positive integer"):
            baseline.miniwob_steps_per_second(steps=bad)
        with pytest.raises(ValueError, match="steps must be a positive integer"):
            baseline.mobilegym_steps_per_second(steps=bad)
    with pytest.raises(ValueError, match="resets must be a positive integer"):
        baseline.mobilegym_steps_per_second(steps=1, resets=0)
    with pytest.raises(ValueError, match="render_scale"):
        baseline.mobilegym_steps_per_second(steps=1, render_scale=0)


def test_a_missing_browser_is_named_and_the_environment_left_alone(baseline: ModuleType, tmp_path: Path) -> None:
    pytest.importorskip("miniwob")
    before = {k: os.environ.get(k) for k in ("MINIWOB_CHROME_BINARY", "MINIWOB_CHROMEDRIVER")}
    with pytest.raises(FileNotFoundError, match="chromium-driver"):
        baseline.miniwob_steps_per_second(steps=1, chromedriver=str(tmp_path / "chromedriver"))
    assert {k: os.environ.get(k) for k in before} == before


def test_compare_divides_each_resolution_by_miniwob_and_checks_both_ratios(
        baseline: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    mini = {"steps_per_s": 10.0, "steps_per_s_incl_resets": 8.0, "reset_ms": 90.0, "steps": 5, "version": "1.1.0",
            "browser": "156.0", "utterance": "Click button ONE.", "cpus": 2}
    rates = {0.1: (1500.0, 700.0), 1.0: (300.0, 240.0)}  # RL: 150x but 87.5x counting resets; full: 30x, 30x
    monkeypatch.setattr(baseline, "miniwob_steps_per_second", lambda steps, seed: mini)
    monkeypatch.setattr(baseline, "mobilegym_steps_per_second", lambda steps, size, scale, seed: {
        "steps_per_s": rates[scale][0], "steps_per_s_incl_resets": rates[scale][1], "reset_ms": 1.0,
        "frame": f"{round(size[0] * scale)}x{round(size[1] * scale)}"})
    result = baseline.compare(steps=5, mobilegym_steps=5)
    rl, full = result["rows"]
    assert (rl["label"], rl["target"], rl["ratio"], rl["ratio_incl_resets"], rl["met"]) == (
        "RL 0.1", 100, 150, 87.5, False)
    assert (full["label"], full["target"], full["ratio"], full["ratio_incl_resets"], full["met"]) == (
        "1080x2400", 25, 30, 30, True)
    baseline.print_table(result)
    out = capsys.readouterr().out
    assert "RL 0.1 (108x240)" in out and "1080x2400 (1080x2400)" in out
    assert re.search(r"150\.0x\s+87\.5x\s+100x\s+NO", out) and re.search(r"30\.0x\s+30\.0x\s+25x\s+yes", out)
