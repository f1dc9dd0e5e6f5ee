"""MkDocs hooks: the home page is the README (its links made relative to docs/), and the app reference and task
catalogue are generated from the registries (docs/gen_reference.py) and added to the navigation."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SECTION = "Reference"  # the nav section the generated pages join


def _home_page() -> str:
    """README.md with its links into docs/ made relative to docs/ (the picture included)."""
    text = (HERE.parent / "README.md").read_text(encoding="utf-8")
    return re.sub(r"\]\(docs/", "](", text)


def on_config(config: Any) -> Any:
    (HERE / "index.md").write_text(_home_page(), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("gen_reference", HERE / "gen_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pages = module.write(HERE / "reference")
    section = next(entry[SECTION] for entry in config.nav if isinstance(entry, dict) and SECTION in entry)
    section += [{group: [{title: f"reference/{path}"} for title, path in titles.items()]}
                for group, titles in pages.items()]
    return config
