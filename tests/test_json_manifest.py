"""Suite manifests (tasks/splits/): content, stability, and that the checked-in files are current."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from mobilegym.judge.errors import TaskError
from mobilegym.judge.splits import (SPLITS_DIR, TEST_FRACTION, build_manifests, in_test_split, main,
                                           robustness_episodes, split_ids, stale_manifests, write_manifests)
from mobilegym.judge.registry import Registry


def json_task(folder: Path, task_id: str, infeasible: bool = False, high_risk: bool = False) -> None:
    evaluator = {"func": "infeasible"} if infeasible else {
        "func": "exact_match", "result": {"type": "app_state", "path": ".wifi"}, "expected": {"type": "rule", "value": False}}
    doc = {"id": task_id, "instruction": "x", "related_apps": ["settings"], "evaluator": evaluator,
           "metadata": {"difficulty": "L1", "objective": "operate", **({"high_risk": True} if high_risk else {})}}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{task_id}.json").write_text(json.dumps(doc))


@pytest.fixture()
def registry(tmp_path: Path) -> Registry:
    for i in range(12):
        json_task(tmp_path / "suites" / "alpha", f"task_{i}", high_risk=i == 3)
    json_task(tmp_path / "suites" / "beta", "impossible", infeasible=True)
    reg = Registry()
    reg.add_folder(tmp_path / "suites")
    assert not reg.errors
    return reg


def test_the_split_depends_on_the_id_alone():
    ids = [f"suite.task_{i}" for i in range(2000)]
    first = [in_test_split(i) for i in ids]
    assert first == [in_test_split(i) for i in ids]
    assert abs(sum(first) / len(ids) - TEST_FRACTION) < 0.04


def test_manifests_partition_every_suite(registry):
    manifests = build_manifests(registry)
    assert set(manifests) == {"all", "train", "test", "infeasible", "high_risk"}
    assert manifests["all"]["alpha"] == sorted(f"alpha.task_{i}" for i in range(12))
    for suite, ids in manifests["all"].items():
        train, test = manifests["train"][suite], manifests["test"][suite]
        assert sorted(train + test) == ids and not set(train) & set(test)
    assert manifests["infeasible"] == {"alpha": [], "beta": ["beta.impossible"]}
    assert manifests["high_risk"] == {"alpha": ["alpha.task_3"], "beta": []}


def test_write_check_and_read(registry, tmp_path):
    folder = tmp_path / "splits"
    assert stale_manifests(folder, registry) == ["all", "train", "test", "infeasible", "high_risk", "robustness"]
    write_manifests(folder, registry)
    assert stale_manifests(folder, registry) == []
    assert split_ids("infeasible", folder) == ["beta.impossible"]
    assert sorted(split_ids("train", folder) + split_ids("test", folder)) == sorted(split_ids("all", folder))
    json_task(tmp_path / "suites" / "alpha", "task_new")
    grown = Registry()
    grown.add_folder(tmp_path / "suites")
    assert stale_manifests(folder, grown) == ["all"] + (["test"] if in_test_split("alpha.task_new") else ["train"]) + [
        "robustness"]
    assert {t for t, _ in robustness_episodes(folder)} == set(split_ids("all", folder))
    with pytest.raises(ValueError, match="unknown split 'dev'"):
        split_ids("dev", folder)


def test_a_registry_with_load_errors_is_refused(registry):
    registry.errors["alpha/broken.json"] = "TaskFileError: ..."
    with pytest.raises(TaskError, match="cannot build manifests while tasks fail to load"):
        build_manifests(registry)


def test_the_checked_in_manifests_are_current():
    stale = stale_manifests()
    assert stale == [], f"tasks/splits/{stale} out of date: run `python -m mobilegym.judge.splits`"
    assert "settings.enable_nfc" in split_ids("infeasible")


def test_command_line(tmp_path, capsys):
    folder = tmp_path / "splits"
    assert main(["--check", "--folder", str(folder)]) == 1
    assert "out of date" in capsys.readouterr().out
    assert main(["--folder", str(folder)]) == 0
    assert main(["--check", "--folder", str(folder)]) == 0
    assert (folder / "all.json").read_text() == (SPLITS_DIR / "all.json").read_text()
