"""Suite manifests in ``tasks/splits/``: every task id by suite, a train/test split, infeasible tasks.

Each file maps suite -> sorted task ids (Python and JSON tasks alike):

- ``all.json``: every registered task (like OSWorld's test_all.json);
- ``train.json`` / ``test.json``: a task is in test when the SHA-256 of its id falls in the
  first :data:`TEST_FRACTION` of the hash range, so a task never changes split when others
  are added or removed;
- ``infeasible.json``: the tasks whose correct outcome is an abort;
- ``high_risk.json``: the tasks flagged ``high_risk`` (payments, deletions, messages to others), which
  always run under the strict side-effect policy;
- ``robustness.json``: held-out task x variation episodes (see :mod:`mobilegym.variation`). A full
  combination of variation values is held out when the SHA-256 of its text (``axis=value;...``)
  falls in the first :data:`TEST_FRACTION` of the hash range; every task is listed with the
  :data:`ROBUSTNESS_PER_TASK` held-out combinations its id ranks first. Its format::

      {"axes": {axis: [values]}, "held_out": ["language=en;theme=dark;...", ...],
       "episodes": {suite: [{"task": id, "variation": {axis: value}}, ...]}}

  Train with ``variation=`` and skip held-out combinations (:func:`held_out_variation`); evaluate
  each episode with the reset option ``{"task": id, "variation": variation}``.

Regenerate after adding, renaming or removing tasks, and check in CI::

    python -m mobilegym.judge.splits            # rewrite tasks/splits/*.json
    python -m mobilegym.judge.splits --check    # exit 1 if they are out of date
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from importlib import resources
from collections.abc import Callable
from typing import Any
from pathlib import Path

from mobilegym.variation import AXES
from mobilegym.judge.errors import TaskError
from mobilegym.judge.registry import BUILT_IN_SUITES, Registry, default_registry

SPLITS_DIR = Path(str(resources.files(BUILT_IN_SUITES))) / "splits"  # a data folder of the suites' package
TEST_FRACTION = 0.3
MANIFESTS = ("all", "train", "test", "infeasible", "high_risk")
ROBUSTNESS = "robustness"
ROBUSTNESS_PER_TASK = 2

Manifest = dict[str, list[str]]


def in_test_split(task_id: str) -> bool:
    """Whether a task id belongs to the test split (stable: depends on the id alone)."""
    digest = int.from_bytes(hashlib.sha256(task_id.encode("utf-8")).digest()[:8], "big")
    return digest / 2**64 < TEST_FRACTION


def build_manifests(registry: Registry | None = None) -> dict[str, Manifest]:
    """The manifests for a registry (the default one: built-in suites and entry points).

    A registry with load errors is refused: its manifests would silently miss tasks.
    """
    registry = registry or default_registry()
    if registry.errors:
        raise TaskError("cannot build manifests while tasks fail to load: "
                        + "; ".join(f"{src}: {err}" for src, err in registry.errors.items()))
    index = {suite: sorted(ids) for suite, ids in sorted(registry.suites.items())}

    def pick(keep: Callable[[str], bool]) -> Manifest:
        return {suite: [i for i in ids if keep(i)] for suite, ids in index.items()}

    return {
        "all": index,
        "train": pick(lambda i: not in_test_split(i)),
        "test": pick(in_test_split),
        "infeasible": pick(lambda i: bool(registry.refs[i].metadata.get("infeasible"))),
        "high_risk": pick(lambda i: bool(registry.refs[i].metadata.get("high_risk"))),
    }


def _combination_text(values: dict[str, str]) -> str:
    return ";".join(f"{axis}={values[axis]}" for axis in AXES)


def held_out_variation(values: dict[str, str]) -> bool:
    """Whether a full combination of variation values (one per axis) is held out for the robustness split."""
    missing = [axis for axis in AXES if axis not in values]
    if missing:
        raise ValueError(f"a variation combination needs every axis; missing {', '.join(missing)}")
    digest = hashlib.sha256(_combination_text(values).encode("utf-8")).digest()[:8]
    return int.from_bytes(digest, "big") / 2**64 < TEST_FRACTION


def _combinations() -> list[dict[str, str]]:
    out: list[dict[str, str]] = [{}]
    for axis, values in AXES.items():
        out = [{**combo, axis: value} for combo in out for value in values]
    return out


def build_robustness(registry: Registry | None = None) -> dict[str, Any]:
    """The robustness manifest: every task with its ROBUSTNESS_PER_TASK held-out combinations."""
    held_out = [combo for combo in _combinations() if held_out_variation(combo)]

    def rank(task_id: str, combo: dict[str, str]) -> bytes:
        return hashlib.sha256(f"{task_id}|{_combination_text(combo)}".encode("utf-8")).digest()

    episodes = {suite: [{"task": task_id, "variation": combo} for task_id in ids
                        for combo in sorted(held_out, key=lambda c: rank(task_id, c))[:ROBUSTNESS_PER_TASK]]
                for suite, ids in build_manifests(registry)["all"].items()}
    return {"axes": {axis: list(values) for axis, values in AXES.items()},
            "held_out": [_combination_text(combo) for combo in held_out], "episodes": episodes}


def robustness_episodes(folder: Path = SPLITS_DIR) -> list[tuple[str, dict[str, str]]]:
    """(task id, variation) of every episode in the robustness manifest."""
    manifest = json.loads((folder / f"{ROBUSTNESS}.json").read_text(encoding="utf-8"))
    return [(item["task"], item["variation"]) for items in manifest["episodes"].values() for item in items]


def _text(manifest: Any) -> str:
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


def _all_manifests(registry: Registry | None) -> dict[str, Any]:
    registry = registry or default_registry()
    return {**build_manifests(registry), ROBUSTNESS: build_robustness(registry)}


def write_manifests(folder: Path = SPLITS_DIR, registry: Registry | None = None) -> list[Path]:
    """Write ``<name>.json`` for every manifest into ``folder``; returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, manifest in _all_manifests(registry).items():
        path = folder / f"{name}.json"
        path.write_text(_text(manifest), encoding="utf-8")
        paths.append(path)
    return paths


def stale_manifests(folder: Path = SPLITS_DIR, registry: Registry | None = None) -> list[str]:
    """Names of the manifests in ``folder`` that are missing or differ from the registry."""
    return [name for name, manifest in _all_manifests(registry).items()
            if not (folder / f"{name}.json").is_file()
            or (folder / f"{name}.json").read_text(encoding="utf-8") != _text(manifest)]


def split_ids(name: str, folder: Path = SPLITS_DIR) -> list[str]:
    """Every task id listed in manifest ``name`` (one of :data:`MANIFESTS`)."""
    if name not in MANIFESTS:
        raise ValueError(f"unknown split {name!r}; one of {', '.join(MANIFESTS)}")
    manifest = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    return [task_id for ids in manifest.values() for task_id in ids]


def main(argv: list[str] | None = None) -> int:
    """Command line: regenerate the manifests, or --check that they are current."""
    parser = argparse.ArgumentParser(prog="python -m mobilegym.judge.splits", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only report out-of-date manifests (exit 1 if any)")
    parser.add_argument("--folder", type=Path, default=SPLITS_DIR, help="where the manifests live")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_manifests(args.folder)
        for name in stale:
            print(f"{args.folder / (name + '.json')} is out of date; run python -m mobilegym.judge.splits")
        return 1 if stale else 0
    for path in write_manifests(args.folder):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
