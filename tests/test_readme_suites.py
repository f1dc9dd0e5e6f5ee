"""The apps guide (docs/apps.md) gives each suite's task counts as the registry has them, and the README's suite table
is what `mobilegym list --summary` prints."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from mobilegym.judge import PyTaskRef, default_registry

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
APPS_GUIDE = (ROOT / "docs" / "apps.md").read_text(encoding="utf-8")
PARAGRAPH = re.compile(r"^Task suite `(\w+)`: (\d+) Python tasks(.*?)(?=\n\n|\n\|)", re.S | re.M)


def _counts() -> tuple[Counter[str], Counter[str]]:
    python, json = Counter(), Counter()
    for ref in default_registry().refs.values():
        (python if isinstance(ref, PyTaskRef) else json)[ref.id.split(".")[0]] += 1
    return python, json


def test_every_app_suite_paragraph_counts_its_python_and_json_tasks() -> None:
    python, json = _counts()
    stated = {m.group(1): (int(m.group(2)), m.group(3)) for m in PARAGRAPH.finditer(APPS_GUIDE)}
    assert len(stated) >= 17, sorted(stated)
    wrong = {}
    for suite, (count, rest) in stated.items():
        json_count = re.search(r"(\d+)\s+JSON\s+tasks?", rest)
        said = (count, int(json_count.group(1)) if json_count else 0)
        if said != (python[suite], json[suite]):
            wrong[suite] = {"docs/apps.md": said, "registry": (python[suite], json[suite])}
    assert not wrong, wrong


def test_the_suite_table_is_what_list_summary_prints() -> None:
    from mobilegym.cli import suite_summary

    refs = sorted(default_registry().refs.values(), key=lambda r: r.id)
    assert suite_summary([r.metadata for r in refs]) in README
