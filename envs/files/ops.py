"""What the Files app does to its state: look-ups, names, sizes and dates as shown, and the file operations
(new folder, rename, move, copy, trash, restore, delete forever). Each operation returns an error message
(an English template and its fields, which the screen translates) when it cannot be done, and then changes nothing."""
from __future__ import annotations

import datetime as dt
import posixpath
from typing import Any, Callable

Error = tuple[str, dict[str, str]] | None  # (English template, fields), or None when the operation was done

KINDS = {"image": ("jpg", "jpeg", "png", "heic", "gif", "webp"), "video": ("mp4", "mov", "mkv"),
         "audio": ("mp3", "m4a", "wav", "ogg", "flac"),
         "document": ("pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "txt", "epub", "csv"),
         "archive": ("zip", "rar", "7z"), "app": ("apk",)}
KIND_NAMES = {"image": "Image", "video": "Video", "audio": "Audio", "document": "Document", "archive": "Archive",
              "app": "App package", "other": "File"}
SORTS = ("name", "date", "size")
BAD_NAME_CHARS = '/\\:*?"<>|'


# --- look-ups -------------------------------------------------------------------------------------

def live_files(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Files not in the Trash."""
    return [f for f in state["files"] if not f["trashed"]]


def trashed_files(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Files in the Trash, most recently deleted first."""
    return sorted((f for f in state["files"] if f["trashed"]), key=lambda f: (f["trashed_at"] or "", f["id"]),
                  reverse=True)


def file_by_id(state: dict[str, Any], file_id: str) -> dict[str, Any] | None:
    return next((f for f in state["files"] if f["id"] == file_id), None)


def folder_paths(state: dict[str, Any]) -> list[str]:
    return [d["path"] for d in state["folders"]]


def subfolders(state: dict[str, Any], path: str) -> list[str]:
    """Paths of the folders directly inside ``path`` ("" is the storage's root), by name."""
    return sorted((p for p in folder_paths(state) if posixpath.dirname(p) == path), key=lambda p: leaf(p).casefold())


def files_in(state: dict[str, Any], path: str) -> list[dict[str, Any]]:
    return [f for f in live_files(state) if f["folder"] == path]


def items_in(state: dict[str, Any], path: str) -> int:
    """How many folders and files ``path`` holds directly."""
    return len(subfolders(state, path)) + len(files_in(state, path))


def leaf(path: str) -> str:
    return path.rsplit("/", 1)[-1]


_KIND_OF_EXTENSION = {ext: k for k, exts in reversed(KINDS.items()) for ext in exts}  # the first kind listing it wins


def kind(name: str) -> str:
    """image, video, audio, document, archive, app or other, from the extension."""
    ext = name.rsplit(".", 1)[-1].casefold() if "." in name else ""
    return _KIND_OF_EXTENSION.get(ext, "other")


def sort_files(files: list[dict[str, Any]], order: str) -> list[dict[str, Any]]:
    """By name (A-Z), date (newest first) or size (largest first); ties by name."""
    by_name = sorted(files, key=lambda f: (f["name"].casefold(), f["id"]))
    if order == "date":
        return sorted(by_name, key=lambda f: f["modified"], reverse=True)
    if order == "size":
        return sorted(by_name, key=lambda f: f["size"], reverse=True)
    return by_name


# --- shown values ---------------------------------------------------------------------------------

def size_text(size: int, byte_unit: str = "B") -> str:
    """Sizes as Android shows them (powers of 1000): 812 B, 245 kB, 2.4 MB, 1.27 GB (``byte_unit`` names bytes in
    the phone's language)."""
    if size < 1000:
        return f"{size} {byte_unit}"
    if size < 1000 ** 2:
        return f"{round(size / 1000)} kB"
    if size < 1000 ** 3:
        return f"{size / 1000 ** 2:.1f} MB"
    return f"{size / 1000 ** 3:.2f} GB"


def parse_stamp(stamp: str) -> dt.datetime:
    return dt.datetime(int(stamp[:4]), int(stamp[5:7]), int(stamp[8:10]), int(stamp[11:13]), int(stamp[14:16]))


def now_stamp(now: dt.datetime) -> str:
    return f"{now.year:04d}-{now.month:02d}-{now.day:02d} {now.hour:02d}:{now.minute:02d}"


def date_text(t: Callable[..., str], stamp: str, today: dt.date) -> str:
    """Relative to the phone's date: "Today, 14:15", "Yesterday", "Mar 12", "Mar 12, 2025" (``t`` is the
    screen's ``ctx.t``)."""
    when = parse_stamp(stamp)
    day = when.date()
    if day == today:
        return t("Today, {time}", time=f"{when:%H:%M}")
    if day == today - dt.timedelta(days=1):
        return t("Yesterday")
    if day.year == today.year:
        return t("{month_abbr} {day}", month_abbr=f"{when:%b}", month=day.month, day=day.day)
    return t("{month_abbr} {day}, {year}", month_abbr=f"{when:%b}", month=day.month, day=day.day, year=day.year)


def full_date_text(t: Callable[..., str], stamp: str) -> str:
    """"March 12, 2026, 14:15" / "2026年3月12日 14:15" (``t`` is the screen's ``ctx.t``)."""
    when = parse_stamp(stamp)
    return t("{month_name} {day}, {year}, {time}", month_name=f"{when:%B}", month=when.month, day=when.day,
             year=when.year, time=f"{when:%H:%M}")


# --- operations -----------------------------------------------------------------------------------

def _taken(state: dict[str, Any], folder: str, name: str, but: str | None = None) -> bool:
    """Whether ``folder`` already holds a file or folder called ``name`` (case-insensitive, as on Android)."""
    wanted = name.casefold()
    return (any(f["name"].casefold() == wanted and f["id"] != but for f in files_in(state, folder))
            or any(leaf(p).casefold() == wanted for p in subfolders(state, folder)))


def check_name(name: str) -> Error:
    if not name.strip():
        return "Enter a name", {}
    if any(ch in BAD_NAME_CHARS for ch in name) or name.strip() in (".", ".."):
        return "A name can't contain / \\ : * ? \" < > |", {}
    return None


def create_folder(state: dict[str, Any], parent: str, name: str, new_id: Callable[[], str]) -> Error:
    name = name.strip()
    error = check_name(name)
    if error is None and _taken(state, parent, name):
        error = "“{name}” already exists here", {"name": name}
    if error is None:
        state["folders"].append({"id": new_id(), "path": f"{parent}/{name}" if parent else name, "name": name})
    return error


def rename(state: dict[str, Any], file_id: str, name: str) -> Error:
    target = file_by_id(state, file_id)
    name = name.strip()
    error = check_name(name)
    if error is None and target is not None and _taken(state, target["folder"], name, but=file_id):
        error = "“{name}” already exists in this folder", {"name": name}
    if error is None and target is not None:
        target["name"] = name
    return error


def move(state: dict[str, Any], file_ids: list[str], dest: str) -> Error:
    targets = [f for f in (file_by_id(state, i) for i in file_ids) if f is not None and not f["trashed"]]
    if dest not in folder_paths(state) and dest != "":
        return "That folder no longer exists", {}
    if all(f["folder"] == dest for f in targets):
        return "Already in this folder", {}
    names = [f["name"].casefold() for f in targets if f["folder"] != dest]
    clash = next((f for f in targets if f["folder"] != dest and _taken(state, dest, f["name"])), None)
    if clash is not None or len(set(names)) != len(names):
        name = clash["name"] if clash else ""
        return "“{name}” already exists there", {"name": name}
    for f in targets:
        f["folder"] = dest
    return None


def _free_name(state: dict[str, Any], folder: str, name: str) -> str:
    """``name``, or "stem (1).ext", "stem (2).ext"... the first one ``folder`` does not hold."""
    if not _taken(state, folder, name):
        return name
    stem, dot, ext = name.rpartition(".")
    if not dot:
        stem, ext = name, ""
    n = 1
    while _taken(state, folder, f"{stem} ({n}){dot}{ext}"):
        n += 1
    return f"{stem} ({n}){dot}{ext}"


def copy(state: dict[str, Any], file_ids: list[str], dest: str, new_id: Callable[[], str], stamp: str) -> Error:
    if dest not in folder_paths(state) and dest != "":
        return "That folder no longer exists", {}
    for f in [f for f in (file_by_id(state, i) for i in file_ids) if f is not None and not f["trashed"]]:
        state["files"].append({**f, "id": new_id(), "name": _free_name(state, dest, f["name"]), "folder": dest,
                               "modified": stamp})
    return None


def trash(state: dict[str, Any], file_ids: list[str], stamp: str) -> None:
    for f in state["files"]:
        if f["id"] in file_ids:
            f.update(trashed=True, trashed_at=stamp)


def restore(state: dict[str, Any], file_id: str) -> None:
    """Back to its folder (as "name (1).ext" when a file of that name is there now)."""
    target = file_by_id(state, file_id)
    if target is not None and target["trashed"]:
        target.update(name=_free_name(state, target["folder"], target["name"]), trashed=False, trashed_at=None)


def delete_forever(state: dict[str, Any], file_ids: list[str]) -> None:
    state["files"][:] = [f for f in state["files"] if f["id"] not in file_ids or not f["trashed"]]
