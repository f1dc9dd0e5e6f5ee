"""Suite manifests in ``tasks/splits/``: every task id by suite, a train/test split, infeasible tasks.

Each file maps suite -> sorted task ids (Python and JSON tasks alike):

- ``all.json``: every registered task (like OSWorld's test_all.json);
- ``train.json`` / ``test.json``: a task is in test when the SHA-256 of its id falls in the
  first :data:`TEST_FRACTION` of the hash range, so a task never changes split when others
  are added or removed;
- ``infeasible.json``: the tasks whose correct outcome is an abort.

Regenerate after adding, renaming or removing tasks, and check in CI::

    python -m mobilegym.judge.splits            # rewrite tasks/splits/*.json
    python -m mobilegym.judge.splits --check    # exit 1 if they are out of date
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

import mobilegym.tasks
from mobilegym.judge.errors import TaskError
from mobilegym.judge.registry import Registry, default_registry

SPLITS_DIR = Path(mobilegym.tasks.__path__[0]) / "splits"
TEST_FRACTION = 0.3
MANIFESTS = ("all", "train", "test", "infeasible")

Manifest = dict[str, list[str]]


def in_test_split(task_id: str) -> bool:
    """Whether a task id belongs to the test split (stable: depends on the id alone)."""
    digest = int.from_bytes(hashlib.sha256(task_id.encode("utf-8")).digest()[:8], "big")
    return digest / 2**64 < TEST_FRACTION


def build_manifests(registry: Registry | None = None) -> dict[str, Manifest]:
    """The four manifests for a registry (the default one: built-in suites and entry points).

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
    }


def _text(manifest: Manifest) -> str:
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


def write_manifests(folder: Path = SPLITS_DIR, registry: Registry | None = None) -> list[Path]:
    """Write ``<name>.json`` for every manifest into ``folder``; returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, manifest in build_manifests(registry).items():
        path = folder / f"{name}.json"
        path.write_text(_text(manifest), encoding="utf-8")
        paths.append(path)
    return paths


def stale_manifests(folder: Path = SPLITS_DIR, registry: Registry | None = None) -> list[str]:
    """Names of the manifests in ``folder`` that are missing or differ from the registry."""
    return [name for name, manifest in build_manifests(registry).items()
            if not (folder / f"{name}.json").is_file()
            or (folder / f"{name}.json").read_text(encoding="utf-8") != _text(manifest)]


def split_ids(name: str, folder: Path = SPLITS_DIR) -> list[str]:
    """Every task id listed in manifest ``name`` ("all", "train", "test", "infeasible")."""
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
