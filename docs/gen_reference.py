"""Writes the docs' app reference and task catalogue from the registries, so they cannot drift from the code.

``python docs/gen_reference.py [OUT]`` writes ``OUT`` (default ``docs/reference``): ``apps/<id>.md`` per app
(its state on the canonical phone, its screens, the resource-ids and a screenshot of every screen that opens
without parameters) and ``tasks/<suite>.md`` per suite (every task's instruction on world 0, templates,
parameters, difficulty, apps and the judge's checks). ``mkdocs build`` runs it first (``docs/hooks.py``).
"""
from __future__ import annotations

import inspect
import json
import re
import sys
from pathlib import Path
from typing import Any, Iterable

import gymnasium as gym
from PIL import Image

import mobilegym  # noqa: F401  (registers MobileGym-v0)
from mobilegym.judge import default_registry
from mobilegym.sim.phone import Phone, ScreenError

ROOT = Path(__file__).resolve().parent
SCREENSHOT_WIDTH = 270  # px: a quarter of the phone's 1080
_RID = re.compile(r'resource-id="([^"]+)"')


def _cell(value: Any) -> str:
    """A value fit for one table cell."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def _shape(value: Any) -> str:
    """A few words on a state value: its type, and the keys of the items of a list of objects."""
    if isinstance(value, list):
        items = [v for v in value if isinstance(v, dict)]
        keys = sorted({k for item in items for k in item})
        return f"list of {len(value)}" + (f" objects: {', '.join(f'`{k}`' for k in keys)}" if keys else "")
    if isinstance(value, dict):
        return f"object: {', '.join(f'`{k}`' for k in sorted(value))}"
    return f"{type(value).__name__}: `{_cell(json.dumps(value, ensure_ascii=False))[:60]}`"


def _resource_ids(xml: str, package: str) -> list[str]:
    """The app's own resource-ids on a screen (the system bars' left out), in order of first appearance."""
    ids = [rid for rid in _RID.findall(xml) if rid and not rid.startswith("com.android.systemui")]
    return list(dict.fromkeys(rid.split(":id/", 1)[-1] if rid.startswith(package) else rid for rid in ids))


def app_page(phone: Phone, app_id: str, images: Path) -> str:
    """The reference page of one app."""
    app = phone.apps[app_id]
    state = phone.get_state()["apps"].get(app_id, {})
    lines = [f"# {app.label} (`{app_id}`)", "", f"Package `{app.package}`, home screen `{app.home}`"
             + (f", Chinese label {app.label_zh}" if app.label_zh else "") + ".", ""]
    if app.view_state:
        lines += ["View state (changes that are no side effect): " + ", ".join(f"`{p}`" for p in app.view_state), ""]
    lines += ["## State", "", f"`apps.{app_id}` on the canonical phone:", "", "| key | value |", "|---|---|"]
    lines += [f"| `{key}` | {_shape(value)} |" for key, value in sorted(state.items())] or ["| (none) | |"]
    lines += ["", "## Screens", ""]
    for route, fn in sorted(app.screens.items()):
        doc = (inspect.getdoc(fn) or "").split("\n\n")[0].replace("\n", " ")
        lines += [f"### `{route}`", ""] + ([doc, ""] if doc else [])
        try:
            phone.launch(app_id, route)
        except (ScreenError, KeyError, ValueError, TypeError):
            lines += ["Opens with parameters (reached from another screen).", ""]
            continue
        name = f"{app_id}{route.replace('/', '_')}.png"
        shot = Image.fromarray(phone.screenshot())
        shot.resize((SCREENSHOT_WIDTH, round(shot.height * SCREENSHOT_WIDTH / shot.width))).save(images / name)
        ids = _resource_ids(phone.a11y_xml(), app.package)
        lines += [f"![{app.label} {route}](img/{name})", "", "Resource-ids: "
                  + (", ".join(f"`{rid}`" for rid in ids) if ids else "(none)"), ""]
    phone.reset_state()
    return "\n".join(lines)


def _templates(ref: Any) -> list[str]:
    """A Python task's instruction templates (English and Chinese); JSON tasks have one instruction."""
    templates = getattr(getattr(ref, "cls", None), "templates", None)
    if isinstance(templates, dict):
        templates = [t for language in sorted(templates) for t in templates[language]]
    return [t for t in templates or () if isinstance(t, str)]


def task_entry(env: gym.Env, ref: Any) -> list[str]:
    """One task of the catalogue: its world-0 instruction and the checks the judge makes."""
    meta = ref.metadata
    obs, _ = env.reset(seed=0, options={"task": meta["id"]})
    judge = env.step({"type": "complete"})[4]["judge"]
    checks = list(dict.fromkeys(c.get("field") for c in judge.get("checks", []) if c.get("field")))
    tags = [meta["difficulty"], meta["objective"], meta["kind"]] + (["infeasible"] if meta.get("infeasible") else []) \
        + (["high-risk"] if meta.get("high_risk") else [])
    lines = [f"### `{meta['id']}`", "", f"*{' · '.join(tags)} · apps: {', '.join(meta.get('related_apps') or [meta['app']])}"
             f" · step budget {meta['max_steps']}*", "", f"> {_cell(obs['instruction'])}", ""]
    templates = _templates(ref)
    if templates:
        lines += ["Templates: " + "; ".join(f"`{_cell(t)}`" for t in templates), ""]
    if meta.get("parameters"):
        lines += ["Parameters: " + ", ".join(f"`{p}`" for p in meta["parameters"]), ""]
    if checks:
        lines += ["Checks: " + ", ".join(f"`{_cell(c)}`" for c in checks), ""]
    return lines


def suite_page(env: gym.Env, suite: str, refs: Iterable[Any]) -> str:
    refs = sorted(refs, key=lambda r: r.metadata["id"])
    lines = [f"# Tasks: `{suite}`", "", f"{len(refs)} tasks. Each instruction is the one world 0 draws; the checks are "
             "the judge's, named as in `info[\"judge\"][\"checks\"]`.", ""]
    for ref in refs:
        lines += task_entry(env, ref)
    return "\n".join(lines)


def write(out: Path) -> dict[str, dict[str, str]]:
    """Write every page under ``out``; returns {"Apps": {title: path}, "Tasks": {...}}, paths relative to ``out``."""
    images = out / "apps" / "img"
    images.mkdir(parents=True, exist_ok=True)
    (out / "tasks").mkdir(parents=True, exist_ok=True)
    pages: dict[str, dict[str, str]] = {"Apps": {}, "Tasks": {}}
    phone = Phone(world="canonical")
    for app_id in sorted(phone.apps):
        (out / "apps" / f"{app_id}.md").write_text(app_page(phone, app_id, images), encoding="utf-8")
        pages["Apps"][phone.apps[app_id].label] = f"apps/{app_id}.md"
    registry = default_registry()
    env = gym.make("MobileGym-v0", task=sorted(registry.refs), obs_parts=("instruction",))
    by_suite: dict[str, list[Any]] = {}
    for ref in registry.refs.values():
        by_suite.setdefault(ref.metadata["suite"], []).append(ref)
    for suite, refs in sorted(by_suite.items()):
        (out / "tasks" / f"{suite}.md").write_text(suite_page(env, suite, refs), encoding="utf-8")
        pages["Tasks"][suite] = f"tasks/{suite}.md"
    env.close()
    index = ["# Reference", "", "Generated from the registries by `docs/gen_reference.py`.", "", "## Apps", ""]
    index += [f"- [{phone.apps[a].label}](apps/{a}.md)" for a in sorted(phone.apps)]
    index += ["", "## Tasks", ""] + [f"- [`{s}`](tasks/{s}.md): {len(r)} tasks" for s, r in sorted(by_suite.items())]
    (out / "index.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    return pages


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "reference"
    print(f"{sum(map(len, write(target).values()))} pages in {target}")
