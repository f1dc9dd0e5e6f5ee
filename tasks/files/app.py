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
from ..spread import fit_count
from ..contacts.app import NEW_PEOPLE, NEW_PEOPLE_ZH, Contacts, chinese_world

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
MIN_INVOICES = 2  # MoveInvoicesToNewFolder: invoice PDFs in Download, at least (prepare_state_with_decoy_invoices)
MIN_DECOY_INVOICES = 1  # ... and of each kind of decoy: an invoice PDF outside Download, an invoice-named non-PDF in it
MIN_SUBFOLDERS = 1  # MoveInvoicesToNewFolder (in Documents), CopyAndCount (in the destination) (prepare_state_with_subfolder)
MIN_FOLDER_FILES = 2  # CopyAndCount: files the destination holds before the copy, at least (sample_copy)
MIN_NAMESAKES = 1  # ShareFileToContact, SendRequestedFile: contacts named like the recipient (prepare_state_with_namesake)
MIN_NEAR_NAMES = 1  # SendRequestedFile: files named like the asked one, a word longer (prepare_state_with_near_name)
SCAN_NAME = {"en": "Scan", "zh": "扫描件"}  # files any folder may hold (DeleteOldDownloads' traps, CopyAndCount's count)
INVOICE_WORD = {"en": "invoice", "zh": "发票"}  # how an invoice-like name starts (case aside)
SUBFOLDER_NAMES = {"en": ("Archive", "Old", "Misc"), "zh": ("归档", "旧文件", "杂项")}
NEAR_NAME_TAGS = {"en": {"image": "_edited", "video": "_edited", "audio": " (live)", "": " (old)"},
                  "zh": {"image": "_编辑", "video": "_编辑", "audio": "（现场版）", "": "（旧）"}}  # by kind
NAMESAKE_TAG = {"en": " (work)", "zh": "（单位）"}  # a relative's second entry ("Dad (work)")


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

    def invoice_decoys(self, lang: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Files named like invoices that are no invoice PDF of Download: (those outside Download, those in it)."""
        asked = {f["id"] for f in self.invoices_in_download(lang)}
        named = [f for f in self.live() if f["name"].casefold().startswith(INVOICE_WORD[lang]) and f["id"] not in asked]
        return [f for f in named if f["folder"] != "Download"], [f for f in named if f["folder"] == "Download"]

    def near_names(self, name: str) -> list[dict[str, Any]]:
        """Other files whose name without its extension starts with ``name``'s (case aside)."""
        stem = stem_ext(name)[0].casefold()
        return [f for f in self.live() if f["name"] != name and stem_ext(f["name"])[0].casefold().startswith(stem)]

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
        return Files._draw_move(rng, state, 0)

    @staticmethod
    def _draw_move(rng: random.Random, state: dict[str, Any], min_files: int) -> dict[str, str]:
        """sample_move's draw, to a folder holding ``min_files`` files or more."""
        files = [f for f in Files._unique_names(state) if f["folder"] in ("Download", "Documents")]
        f = rng.choice(files)
        paths = [d["path"] for d in state["folders"]]
        leaves = [ops.leaf(p) for p in paths]
        targets = sorted(p for p in paths if p != f["folder"] and leaves.count(ops.leaf(p)) == 1
                         and p not in ("DCIM", "DCIM/Camera", "Alarms", "Ringtones", "Pictures/Screenshots", "Music",
                                       "Movies")
                         and not any(g["name"].casefold() == f["name"].casefold() for g in ops.files_in(state, p))
                         and len(ops.files_in(state, p)) >= min_files)
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
        """sample_move's file and folder, the folder holding MIN_FOLDER_FILES files or more (several to count)."""
        return Files._draw_move(rng, state, MIN_FOLDER_FILES)

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

    @staticmethod
    def prepare_state_with_decoy_invoices(state: dict[str, Any], rng: random.Random, lang: str,
                                          now: dt.datetime) -> dict[str, Any] | None:
        """A patch topping Download up to MIN_INVOICES invoice PDFs and planting MIN_DECOY_INVOICES decoys of each
        kind where missing: an older invoice PDF filed in Documents, the invoice template (a .docx) in Download;
        None when every one is there."""
        from mobilegym.envs.files.world import make_file, pools

        files, pool = Files(state), pools(lang)
        elsewhere, other_kind = files.invoice_decoys(lang)
        vendors = [v for v in pool["vendors"] if not any(v in f["name"] for f in state["files"])]
        number = next_file_number(state)
        added = []

        def add(name: str, folder: str, days: int, kb: tuple[int, int]) -> None:
            when = now - dt.timedelta(days=days, minutes=rng.randint(0, 600))
            added.append(make_file(f"file_{number + len(added)}", name, folder, rng.randint(*kb) * 1000, ops.now_stamp(when)))

        def invoice(folder: str, days: int) -> None:
            when = now - dt.timedelta(days=days)
            month = f"{when:%Y-%m}" if lang == "en" else f"{when.year}年{when.month}月"
            add(f"{INVOICE_PREFIX[lang]}{vendors.pop(rng.randrange(len(vendors)))}_{month}.pdf", folder, days, (60, 480))

        for _ in range(MIN_INVOICES - len(files.invoices_in_download(lang))):
            invoice("Download", rng.randint(1, 60))
        for _ in range(MIN_DECOY_INVOICES - len(elsewhere)):
            invoice("Documents", rng.randint(90, 300))
        kept = state["files"]
        if len(other_kind) < MIN_DECOY_INVOICES:
            template = next(e for e in pool["downloads"] if e["name"].casefold().startswith(INVOICE_WORD[lang]))
            kept = [f for f in kept if not (f["folder"] == "Download" and f["name"] == template["name"])]  # a binned one
            add(template["name"], "Download", rng.randint(3, 80), template["kb"])
        return {"apps": {"files": {"files": [*kept, *added]}}} if added else None

    @staticmethod
    def prepare_state_with_file_count(state: dict[str, Any], folder: str, target: int, rng: random.Random, lang: str,
                                      now: dt.datetime) -> dict[str, Any]:
        """A patch making ``folder`` hold ``target`` live files: extra ones deleted, missing ones added as scans
        ("Scan_20260301_0912.pdf") saved in the last two months."""
        from mobilegym.envs.files.world import make_file

        number = next_file_number(state)

        def add(k: int, files: list[dict[str, Any]]) -> dict[str, Any]:
            taken = {f["name"] for f in files if f["folder"] == folder}
            while True:
                when = now - dt.timedelta(minutes=rng.randint(60, 60 * 1440))
                name = f"{SCAN_NAME[lang]}_{when:%Y%m%d_%H%M}.pdf"
                if name not in taken:
                    return make_file(f"file_{number + k}", name, folder, rng.randint(80, 900) * 1000, ops.now_stamp(when))

        files = fit_count(state["files"], lambda f: f["folder"] == folder and not f["trashed"], target, rng,
                          drop=lambda f: None, add=add)
        return {"apps": {"files": {"files": files}}}

    @staticmethod
    def prepare_state_with_subfolder(state: dict[str, Any], parent: str, rng: random.Random,
                                     lang: str) -> dict[str, Any] | None:
        """A patch adding an empty folder to ``parent`` (named by a leaf no folder has) when it holds fewer than
        MIN_SUBFOLDERS folders; None otherwise."""
        if len(ops.subfolders(state, parent)) >= MIN_SUBFOLDERS:
            return None
        leaves = {ops.leaf(p).casefold() for p in ops.folder_paths(state)}
        name = rng.choice([n for n in SUBFOLDER_NAMES[lang] if n.casefold() not in leaves])
        number = 1 + max(int(d["id"].rsplit("_", 1)[1]) for d in state["folders"])
        folder = {"id": f"dir_{number}", "path": f"{parent}/{name}", "name": name}
        return {"apps": {"files": {"folders": [*state["folders"], folder]}}}

    @staticmethod
    def prepare_state_with_near_name(state: dict[str, Any], file: Mapping[str, str], rng: random.Random, lang: str,
                                     now: dt.datetime) -> dict[str, Any] | None:
        """A patch adding, beside the file, an older one named like it a word longer ("Lease agreement (old).pdf",
        "IMG_..._edited.jpg")
        when fewer than MIN_NEAR_NAMES files are named so; None otherwise."""
        from mobilegym.envs.files.world import make_file

        files = Files(state)
        if len(files.near_names(file["name"])) >= MIN_NEAR_NAMES:
            return None
        original = files.by_id(file["id"])
        stem, ext = stem_ext(original["name"])
        tags = NEAR_NAME_TAGS[lang]
        saved = ops.parse_stamp(original["modified"])
        edited = ops.kind(ext) in ("image", "video", "audio")  # an edit (or live take) after it, an old version before
        when = min(now, saved + dt.timedelta(minutes=rng.randint(5, 600))) if edited else saved - dt.timedelta(
            days=rng.randint(5, 60), minutes=rng.randint(0, 600))
        near = make_file(f"file_{next_file_number(state)}", f"{stem}{tags.get(ops.kind(ext), tags[''])}{ext}",
                         original["folder"], original["size"] * rng.randint(80, 120) // 100, ops.now_stamp(when))
        return {"apps": {"files": {"files": [*state["files"], near]}}}


def namesakes(contacts: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """Other contacts whose name shares a word with ``name`` (in Chinese: its first character, the surname)."""
    zh = any("\u4e00" <= ch <= "\u9fff" for ch in name)
    words = (lambda n: {n[:1]}) if zh else (lambda n: set(n.casefold().split()))  # noqa: E731
    return [c for c in contacts if c["name"] != name and words(c["name"]) & words(name)]


def prepare_state_with_namesake(state: dict[str, Any], name: str, rng: random.Random) -> dict[str, Any] | None:
    """A Contacts patch adding a contact named like ``name`` (the same surname and another given name; a
    relative's work entry such as "Dad (work)") with a fresh mobile number, when fewer than MIN_NAMESAKES
    contacts are named so; None otherwise."""
    from mobilegym.sim.worldgen.pools import read_pool

    if len(namesakes(state["contacts"], name)) >= MIN_NAMESAKES:
        return None
    lang = "zh" if chinese_world(state) else "en"
    taken = {c["name"] for c in state["contacts"]}
    if name in {r[0] for r in read_pool("mobilegym.sim.worldgen", "people", lang)["relations"]} or (
            lang == "en" and " " not in name):
        names = [f"{name}{NAMESAKE_TAG[lang]}"]
    elif lang == "zh":
        names = [name[0] + other[1:] for other in NEW_PEOPLE_ZH]
    else:
        names = [f"{other.split()[0]} {name.split()[-1]}" for other in NEW_PEOPLE]
    number = 1 + max((int(c["id"].rsplit("_", 1)[1]) for c in state["contacts"] if c["id"].rsplit("_", 1)[-1].isdigit()),
                     default=0)
    contact = {"id": f"contact_{number:02d}", "name": rng.choice([n for n in names if n not in taken]),
               "phones": [{"type": "mobile", "number": Contacts.fresh_number(rng, state)}], "email": "", "company": "",
               "birthday": "", "notes": "", "favorite": False}
    return {"apps": {"contacts": {"contacts": [*state["contacts"], contact]}}}


def next_file_number(state: dict[str, Any]) -> int:
    """The number of the next file id ("file_<n>")."""
    return 1 + max(int(f["id"].rsplit("_", 1)[1]) for f in state["files"])


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
