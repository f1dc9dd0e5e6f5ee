"""Code blocks of the project's Markdown marked to run as tests, and running one as a user would paste it."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Mapping

ROOT = Path(__file__).resolve().parents[1]


def marked(text: str, mark: str) -> list[str]:
    """The ```python blocks that follow ``mark`` in ``text``."""
    return re.findall(re.escape(mark) + r"\n```python\n(.*?)```", text, re.S)


def run_snippet(snippet: str, folder: Path, shrink: Mapping[str, str] = {}) -> None:
    """Run ``snippet`` as a script in ``folder`` (each ``shrink`` key replaced first: training sizes made CI-small);
    it must exit 0."""
    for old, new in shrink.items():
        snippet = snippet.replace(old, new)
    script = folder / "snippet.py"
    script.write_text(snippet, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(script)], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
