"""Preparers of the Files app for JSON tasks (setup action ``prepare``)."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from .app import APP
from .ops import now_stamp
from .world import CAMERA, make_file


@APP.preparer("file")
def file(prep: Prep, name: str | dict[str, str], id: str, folder: str = "Download", min_kb: int = 50,
         max_kb: int = 5000, min_days: int = 1, max_days: int = 30, trashed: bool = False) -> dict[str, Any]:
    """A file called ``name`` (one per language: {"en": ..., "zh": ...}) in ``folder`` with id ``id``, a seeded size
    in [min_kb, max_kb] kB and a seeded modified time ``min_days`` to ``max_days`` days ago; ``trashed`` puts it in
    the Trash. A file of that name already in the folder is taken over (it gets the id and the rest)."""
    name = in_language(name, prep.language, "file name")
    state = prep.state("files")
    if folder and folder not in [d["path"] for d in state["folders"]]:
        raise ValueError(f"files: no folder {folder!r} to put {name!r} in")
    when = prep.now - dt.timedelta(minutes=prep.rng.randint(min_days * 1440, max_days * 1440))
    record = make_file(id, name, folder, prep.rng.randint(min_kb, max_kb) * 1000 + prep.rng.randint(0, 999),
                       now_stamp(when))
    if trashed:
        record.update(trashed=True, trashed_at=now_stamp(prep.now - dt.timedelta(hours=prep.rng.randint(1, 48))))
    kept = [f for f in state["files"] if not (f["folder"] == folder and f["name"].casefold() == name.casefold())]
    return {"apps": {"files": {"files": [*kept, record]}}}


@APP.preparer("trash")
def trash(prep: Prep) -> dict[str, Any]:
    """A Trash holding a count spread over the worlds (one to twelve files): extra ones deleted forever, missing
    ones moved there from the folders (camera shots aside). The canonical phone keeps its Trash."""
    if prep.spread is None:
        return {}
    files = [dict(f) for f in prep.state("files")["files"]]
    want = prep.spread.count(1)
    inside = [f for f in files if f["trashed"]]
    if len(inside) > want:
        gone = {f["id"] for f in prep.rng.sample(inside, len(inside) - want)}
        files = [f for f in files if f["id"] not in gone]
    loose = [f for f in files if not f["trashed"] and f["folder"] != CAMERA]
    for record in prep.rng.sample(loose, min(len(loose), max(0, want - len(inside)))):
        modified = dt.datetime.strptime(record["modified"], "%Y-%m-%d %H:%M")
        hours = max(1, int((prep.now - modified).total_seconds() // 3600))
        record.update(trashed=True, trashed_at=now_stamp(prep.now - dt.timedelta(hours=prep.rng.randint(0, hours - 1))))
    if sum(f["trashed"] for f in files) != want:
        raise ValueError(f"files: only {len(loose)} files can go to the Trash, {want} asked")
    return {"apps": {"files": {"files": files}}}
