"""Run a benchmark worker against another revision of MobileGym, in the same run as today's checkout."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def baseline_site(revision: str) -> Iterator[Path]:
    """A folder to put on PYTHONPATH that imports ``revision``'s mobilegym (its envs/ and tasks/ mapped in),
    checked out into a temporary git worktree that is removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="mobilegym-baseline-") as scratch:
        tree = Path(scratch) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(tree), revision],
                       check=True, capture_output=True)
        try:
            site = Path(scratch) / "site"
            shutil.copytree(tree / "mobilegym", site / "mobilegym")
            for folder in ("envs", "tasks"):
                (site / "mobilegym" / folder).symlink_to(tree / folder, target_is_directory=True)
            yield site
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)


def run_worker(script: str, site: Path | None, *args: str) -> dict[str, Any]:
    """Run ``script --worker ARGS`` in a fresh process (importing the baseline's mobilegym when ``site`` is
    given) and return the JSON it prints last."""
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = str(site) + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, script, "--worker", *args], env=env, check=True, capture_output=True,
                         text=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout.strip().splitlines()[-1])
