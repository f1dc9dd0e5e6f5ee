"""The Notes of a generated world: notes (codes, a grocery list, other lists and texts naming the cast) and a
to-do list with due dates around the phone's date, drawn from pools in the phone's language.

Invariants the screens and tasks rely on: unique note titles and to-do texts, "YYYY-MM-DD HH:MM" timestamps
before the phone's time (updated >= created), ISO due dates or None, ids "note_<n>" / "todo_<n>" below 100.
Every world has the codes note (Wi-Fi passwords, garage door code: "label: value" lines), the grocery list,
two or more open to-dos, some to-dos due this week (Monday to Sunday) and five or more that are not.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.sim.worldgen import World, load_pool
from mobilegym.sim.worldgen.draws import choice, fill_digits, randint, randrange, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__


def pools(language: str) -> dict[str, Any]:
    return load_pool(PACKAGE, "pools", language)


def _stamp(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


def _times(rng: random.Random, now: dt.datetime, max_days: int) -> tuple[str, str]:
    """(created, updated) some minutes to ``max_days`` days before ``now``."""
    created = now - dt.timedelta(minutes=randint(rng, 30, max_days * 24 * 60))
    span = int((now - created).total_seconds() // 60)
    updated = created + dt.timedelta(minutes=randint(rng, 0, span - 5)) if rng.random() < 0.6 else created
    return _stamp(created), _stamp(updated)


def _codes(rng: random.Random, spec: dict[str, Any]) -> str:
    words = spec["words"]
    home = [f"{spec['home_ssid']}: {choice(rng, spec['ssids'])}",
            f"{spec['home_password']}: {choice(rng, words)}-{choice(rng, words)}-{randint(rng, 10, 99)}"]
    guest = [f"{spec['guest_ssid']}: {choice(rng, spec['guest_ssids'])}",
             f"{spec['guest_password']}: {choice(rng, words)}{randint(rng, 1000, 9999)}"]
    garage = [f"{spec['garage']}: {randint(rng, 1000, 9999)}"]
    extras = [f"{label}: {randint(rng, 1000, 9999) if rng.random() < 0.6 else fill_digits(rng, '#-#-#-#')}"
              for label in sample(rng, spec["extras"], randint(rng, 0, 2))]
    rest = [guest, garage, *([e] for e in extras)]
    rng.shuffle(rest)
    return "\n".join(line for block in [home, *rest] for line in block)


def _fill(text: str, rng: random.Random, world: World, pool: dict[str, Any], project: str) -> str:
    people = [p.name for p in world.contacts() if not p.relation] or [world.owner.name]
    picked = sample(rng, people, min(3, len(people)))
    joined = "、".join(picked) if world.language == "zh" else ", ".join(picked)
    date = world.today + dt.timedelta(days=randint(rng, 10, 60))
    date_text = f"{date.month}月{date.day}日" if world.language == "zh" else f"{date:%B} {date.day}"
    km = randint(rng, 20, 90) * 1000 + choice(rng, [0, 300, 500, 800])
    return (text.replace("{people}", joined).replace("{person2}", picked[-1]).replace("{person}", picked[0])
            .replace("{project}", project).replace("{date}", date_text).replace("{km2}", f"{km + 10000:,}")
            .replace("{km}", f"{km:,}"))


def _notes(world: World, rng: random.Random, pool: dict[str, Any]) -> list[dict[str, Any]]:
    now = world.now
    notes: list[dict[str, Any]] = []
    grocery = pool["grocery"]
    notes.append({"title": pool["codes"]["title"], "body": _codes(rng, pool["codes"])})
    notes.append({"title": grocery["title"], "body": "\n".join(sample(rng, grocery["items"], randint(rng, 3, 8)))})
    for spec in sample(rng, pool["lists"], randint(rng, 1, 4)):
        notes.append({"title": spec["title"], "body": "\n".join(sample(rng, spec["items"], randint(rng, 3, 6)))})
    project = choice(rng, pool["projects"])
    for spec in sample(rng, pool["texts"], randint(rng, 2, 8)):
        title = _fill(spec["title"], rng, world, pool, project)
        if any(n["title"] == title for n in notes):
            continue
        notes.append({"title": title, "body": _fill("\n".join(spec["body"]), rng, world, pool, project)})
    rng.shuffle(notes)
    pinned = set(sample(rng, range(len(notes)), choice(rng, [0, 1, 1, 2, 2, 3, 4])))
    out = []
    for i, note in enumerate(notes, 1):
        created, updated = _times(rng, now, 120)
        out.append({"id": f"note_{i}", "title": note["title"], "body": note["body"], "pinned": i - 1 in pinned,
                    "created": created, "updated": updated})
    return out


def _todos(world: World, rng: random.Random, pool: dict[str, Any]) -> list[dict[str, Any]]:
    today = world.today
    monday = today - dt.timedelta(days=today.weekday())
    texts = sample(rng, pool["todos"], randint(rng, 8, 15))
    callers = [p.name for p in world.contacts() if p.relation or rng.random() < 0.3]
    if callers and rng.random() < 0.6:
        texts.insert(randrange(rng, len(texts) + 1), pool["call_todo"].replace("{person}", choice(rng, callers)))
    in_week = randint(rng, 2, min(5, len(texts) - 5))
    todos = []
    for i, text in enumerate(texts):
        if i < in_week:
            due: dt.date | None = monday + dt.timedelta(days=randrange(rng, 7))
        elif rng.random() < 0.3:
            due = None
        else:
            offset = choice(rng, [randint(rng, -21, -1), randint(rng, 1, 35), randint(rng, 1, 35)])
            due = today + dt.timedelta(days=offset)
            if monday <= due <= monday + dt.timedelta(days=6):
                due += dt.timedelta(days=7 * (1 if offset > 0 else -1))
        overdue = due is not None and due < today
        done = rng.random() < (0.6 if overdue else 0.25)
        todos.append({"text": text, "done": done, "due": due.isoformat() if due else None})
    rng.shuffle(todos)
    open_ids = [i for i, t in enumerate(todos) if not t["done"]]
    for i in [i for i, t in enumerate(todos) if t["done"]][:max(0, 2 - len(open_ids))]:
        todos[i]["done"] = False
    return [{"id": f"todo_{i}", **t} for i, t in enumerate(todos, 1)]


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("notes")
    pool = read_pool(PACKAGE, "pools", world.language)
    return {"notes": _notes(world, rng, pool), "todos": _todos(world, rng, pool)}
