"""Accessor for the Files app's state: folders (paths under the shared storage) and files (name, folder,
size in bytes, modified "YYYY-MM-DD HH:MM", trashed), with the samplers and preconditions of its tasks."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any, Mapping

from mobilegym.envs.files import ops
from mobilegym.judge import BaseApp, sim_datetime
from mobilegym.judge.result import check

from ..calendar.app import day_label

FILES_RENAME_CHANGES = ["files.files[id={file.id}].name"]
FILES_MOVE_CHANGES = ["files.files[id={file.id}].folder"]
FILES_RESTORE_CHANGES = ["files.files[id={file.id}]"]
FILES_COPY_CHANGES = ["files.files[+]"]  # the one copy the task makes
FILES_TRASH_CHANGES = ["files.files[*].trashed", "files.files[*].trashed_at"]  # to the Trash; the check says which
# check_gone's two end states: to the Trash, or deleted for good (also from the Trash); the checks say which files
FILES_GONE_CHANGES = [*FILES_TRASH_CHANGES, "files.files[-*]"]
GONE_END_STATES = ("in Trash", "deleted for good")
FILES_EMPTY_TRASH_CHANGES = ["files.files[-*trashed=true]"]
FILES_NEW_FOLDER_MOVE_CHANGES = ["files.folders[+]", "files.files[*].folder"]  # the check says which files
INVOICE_PREFIX = {"en": "Invoice_", "zh": "发票_"}
RENAME_TAGS = {"en": ("signed", "final", "scanned", "archived", "checked"), "zh": ("已签", "终版", "扫描件", "已归档", "已核对")}
NEW_FOLDERS = {"en": ("Invoices", "Bills", "Invoices 2026", "Paid bills"), "zh": ("报销发票", "账单", "已付账单", "发票归档")}
OLD_DAYS = (7, 14, 21, 30, 45, 60)
MIN_COPIES = 2  # DeleteDuplicateCopies: numbered copies of the download, at least (prepare_state_with_duplicates)


def language(os_state: Mapping[str, Any]) -> str:
    return os_state.get("language", "en")


def stem_ext(name: str) -> tuple[str, str]:
    stem, dot, ext = name.rpartition(".")
    return (stem, dot + ext) if dot else (name, "")


class Files(BaseApp):
    """Folders and files of the shared storage."""

    def files(self) -> list[dict[str, Any]]:
        return self.require(".files")

    def live(self) -> list[dict[str, Any]]:
        """Files not in the Trash."""
        return [f for f in self.files() if not f["trashed"]]

    def by_id(self, file_id: str) -> dict[str, Any] | None:
        return next((f for f in self.files() if f["id"] == file_id), None)

    def folder_paths(self) -> list[str]:
        return [d["path"] for d in self.require(".folders")]

    def in_folder(self, path: str) -> list[dict[str, Any]]:
        return [f for f in self.live() if f["folder"] == path]

    def photos_on(self, day: str) -> list[dict[str, Any]]:
        """Camera photos (IMG_*.jpg in DCIM/Camera) taken on ``day`` (YYYY-MM-DD)."""
        return [f for f in self.in_folder("DCIM/Camera")
                if f["name"].startswith("IMG_") and ops.kind(f["name"]) == "image" and f["modified"][:10] == day]

    def invoices_in_download(self, lang: str) -> list[dict[str, Any]]:
        return [f for f in self.in_folder("Download")
                if f["name"].startswith(INVOICE_PREFIX[lang]) and f["name"].casefold().endswith(".pdf")]

    def older_than(self, folder: str, days: int, now: dt.datetime) -> list[dict[str, Any]]:
        cutoff = now - dt.timedelta(days=days)
        return [f for f in self.in_folder(folder) if ops.parse_stamp(f["modified"]) < cutoff]

    # --- checks -------------------------------------------------------------------------------

    def check_in_trash_or_deleted(self, field: str, ids: list[str]) -> dict[str, Any]:
        """Every file of ``ids`` is in the Trash or deleted for good."""
        left = sorted(f["name"] for f in self.live() if f["id"] in ids)
        return check(field, "in Trash or deleted", left or "in Trash or deleted", not left)

    def check_others_unchanged(self, but: list[str]) -> dict[str, Any]:
        """Every file there was at the start, but ``but``, is still there exactly as it was."""
        now = {f["id"]: f for f in self.files()}
        changed = sorted(f["name"] for f in self.initial(".files") if f["id"] not in but and now.get(f["id"]) != f)
        return check("other files untouched", [], changed, not changed)

    def check_file(self, file_id: str, name: str, folder: str) -> list[dict[str, Any]]:
        """The file (by id) is out of the Trash, called ``name``, in ``folder``."""
        f = self.by_id(file_id)
        where = "deleted for good" if f is None else "in Trash" if f["trashed"] else f"{f['folder']}/{f['name']}"
        return [check("file", f"{folder}/{name}", where, f is not None and not f["trashed"] and f["folder"] == folder
                      and f["name"] == name)]

    def check_folder(self, path: str) -> dict[str, Any]:
        ok = path in self.folder_paths()
        return check(f"folder {path}", "exists", "exists" if ok else "missing", ok)

    # --- samplers -----------------------------------------------------------------------------

    @staticmethod
    def _unique_names(state: dict[str, Any]) -> list[dict[str, Any]]:
        """Live files whose name no other file (live or trashed) has."""
        counts: dict[str, int] = {}
        for f in state["files"]:
            counts[f["name"].casefold()] = counts.get(f["name"].casefold(), 0) + 1
        return [f for f in ops.live_files(state) if counts[f["name"].casefold()] == 1]

    @staticmethod
    def sample_photo_day(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A day on which camera photos were taken (two or more when there is such a day): {"iso", "label"}."""
        days: dict[str, int] = {}
        for f in Files(state).in_folder("DCIM/Camera"):
            if f["name"].startswith("IMG_"):
                days[f["modified"][:10]] = days.get(f["modified"][:10], 0) + 1
        if not days:
            raise ValueError("files: no camera photos")
        several = sorted(d for d, n in days.items() if n >= 2)
        iso = rng.choice(several or sorted(days))
        return {"iso": iso, "label": day_label(iso, language(os_state))}

    @staticmethod
    def sample_located_file(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A file with a name found once on the phone, in a folder drawn first (so answers vary by folder)."""
        files = [f for f in Files._unique_names(state) if f["folder"]]
        folders = sorted({f["folder"] for f in files})
        folder = rng.choice(folders)
        f = rng.choice([f for f in files if f["folder"] == folder])
        return {"id": f["id"], "name": f["name"], "folder": f["folder"]}

    @staticmethod
    def sample_rename(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A document or download with a unique name, and a new name that keeps its extension."""
        files = [f for f in Files._unique_names(state) if f["folder"] in ("Download", "Documents")]
        f = rng.choice(files)
        stem, ext = stem_ext(f["name"])
        tag = rng.choice(RENAME_TAGS[language(os_state)])
        new = f"{stem} - {tag}{ext}" if language(os_state) == "en" else f"{tag}_{f['name']}"
        return {"id": f["id"], "name": f["name"], "folder": f["folder"], "new_name": new}

    @staticmethod
    def sample_move(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A download or document with a unique name, and a folder of the owner's (or Documents) to move it to,
        named by a leaf no other folder has."""
        files = [f for f in Files._unique_names(state) if f["folder"] in ("Download", "Documents")]
        f = rng.choice(files)
        paths = [d["path"] for d in state["folders"]]
        leaves = [ops.leaf(p) for p in paths]
        targets = sorted(p for p in paths if p != f["folder"] and leaves.count(ops.leaf(p)) == 1
                         and p not in ("DCIM", "DCIM/Camera", "Alarms", "Ringtones", "Pictures/Screenshots", "Music",
                                       "Movies")
                         and not any(g["name"].casefold() == f["name"].casefold() for g in ops.files_in(state, p)))
        dest = rng.choice(targets)
        return {"id": f["id"], "name": f["name"], "folder": f["folder"], "dest": dest, "dest_name": ops.leaf(dest)}

    @staticmethod
    def sample_trashed(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A file in the Trash whose name no live file in its folder has."""
        names = {(f["folder"], f["name"].casefold()) for f in ops.live_files(state)}
        trashed = [f for f in ops.trashed_files(state) if (f["folder"], f["name"].casefold()) not in names]
        counts = [f["name"] for f in ops.trashed_files(state)]
        trashed = [f for f in trashed if counts.count(f["name"]) == 1]
        if not trashed:
            raise ValueError("files: nothing in the Trash to restore")
        f = rng.choice(sorted(trashed, key=lambda f: f["id"]))
        return {"id": f["id"], "name": f["name"], "folder": f["folder"]}

    @staticmethod
    def sample_new_folder(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A folder name Documents does not hold yet."""
        taken = {ops.leaf(p).casefold() for p in ops.subfolders(state, "Documents")}
        names = [n for n in NEW_FOLDERS[language(os_state)] if n.casefold() not in taken]
        return rng.choice(names)

    @staticmethod
    def sample_duplicated(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
        """A download saved MIN_COPIES times more: the original and the ids of its numbered copies."""
        found = [(f, c) for f, c in duplicated_downloads(state) if len(c) >= MIN_COPIES]
        if not found:
            raise ValueError("files: no download has copies")
        original, copies = found[rng.randrange(len(found))]
        return {"id": original["id"], "name": original["name"], "copies": [c["id"] for c in copies]}

    @staticmethod
    def sample_age(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, Any]:
        """A number of days that splits Download into older and newer files with no file dated within a day of
        the cut-off (so "older than N days" has one reading): {"days", "today"} (today's date, for plans)."""
        now = sim_datetime(os_state)
        ages = [(now - ops.parse_stamp(f["modified"])).total_seconds() / 86400 for f in ops.files_in(state, "Download")]
        fits = [n for n in OLD_DAYS
                if any(a > n + 1 for a in ages) and any(a < n - 1 for a in ages) and not any(n - 1 <= a <= n + 1 for a in ages)]
        if not fits:
            raise ValueError("files: no age splits Download cleanly")
        return {"days": rng.choice(fits), "today": now.date().isoformat()}

    @staticmethod
    def sample_copy(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A download with a unique name and a folder of the owner's (or Documents) that does not hold it."""
        return Files.sample_move(rng, state)

    # --- preconditions ------------------------------------------------------------------------

    @staticmethod
    def prepare_state_with_duplicates(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
        """A patch saving a download PDF (one without copies) twice more ("name (1).pdf", "name (2).pdf"), unless
        one already has MIN_COPIES copies (None)."""
        found = duplicated_downloads(state)
        if any(len(c) >= MIN_COPIES for _, c in found):
            return None
        taken = {g["id"] for f, c in found for g in (f, *c)}
        pdfs = [f for f in Files._unique_names(state) if f["folder"] == "Download" and f["name"].endswith(".pdf")
                and f["id"] not in taken]
        original = rng.choice(pdfs)
        stem, ext = stem_ext(original["name"])
        copies = [{**original, "id": f"file_copy_{n}", "name": f"{stem} ({n}){ext}"} for n in (1, 2)]
        return {"apps": {"files": {"files": [*state["files"], *copies]}}}

    @staticmethod
    def prepare_state_with_trashed(state: dict[str, Any], rng: random.Random, now: dt.datetime) -> dict[str, Any] | None:
        """A patch putting a second document in the Trash when fewer than two files are there (None otherwise)."""
        if len(ops.trashed_files(state)) >= 2:
            return None
        f = rng.choice([f for f in Files._unique_names(state) if f["folder"] in ("Documents", "Download")])
        return {"apps": {"files": {f"files[id={f['id']}]": {"trashed": True, "trashed_at": ops.now_stamp(
            now - dt.timedelta(hours=rng.randint(2, 90)))}}}}


def duplicated_downloads(state: dict[str, Any]) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """(original, its copies) for each live download PDF with live copies "stem (n).ext" of the same size."""
    files = ops.files_in(state, "Download")
    out = []
    for f in files:
        stem, ext = stem_ext(f["name"])
        copies = [g for g in files if g is not f and g["size"] == f["size"] and g["name"].startswith(f"{stem} (")
                  and g["name"].endswith(f"){ext}") and g["name"][len(stem) + 2:-len(ext) - 1].isdigit()]
        if copies and ext == ".pdf":
            out.append((f, copies))
    return out
