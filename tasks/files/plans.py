"""Scripted plans for the Files suite: one oracle per task and realistic mistakes."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.calendar_words import MONTH_ABBRS as MONTHS
from mobilegym.oracle import Driver, alternative, negative, plan

from ..contacts.ui import compose
from ..mail.ui import bodies, open_subject


# --- helpers ----------------------------------------------------------------------------------------

def open_home(d: Driver) -> None:
    d.open_home("Files")


def open_folder(d: Driver, path: str) -> None:
    """Browse from Internal storage down to ``path``."""
    open_home(d)
    d.tap(rid="storage_entry")
    for part in [p for p in path.split("/") if p]:
        d.tap(rid="folder_item", desc=part)




def rows(d: Driver, rid: str = "file_item") -> list[str]:
    """The descs of every row with ``rid`` down the list (scrolling it, then back to the top)."""
    return d.collect(rid, whole=True)


def row_of(name: str) -> dict[str, str]:
    """Criteria of a file's row (its desc starts with the exact name)."""
    return {"rid": "file_item", "contains": f"{name} · "}


def file_menu(d: Driver, name: str, action: str) -> None:
    d.tap(rid="file_menu", desc=d.t(f"More options for {name}", f"“{name}”的更多选项"))
    d.tap(rid=action)


def search_file(d: Driver, name: str) -> None:
    open_home(d)
    d.tap(rid="search")
    d.type(name, rid="search_input")


def pick_destination(d: Driver, path: str) -> None:
    """In the destination picker: browse from Internal storage to ``path`` and confirm."""
    for part in [p for p in path.split("/") if p]:
        d.tap(rid="dest_folder", desc=part)
    d.tap(rid="confirm_pick")


def select(d: Driver, names: list[str]) -> None:
    """Select files of the open list: a long press on the first, taps on the others."""
    d.long_press(**row_of(names[0]))
    for name in names[1:]:
        d.tap(**row_of(name))


def size_mb(text: str) -> float:
    """"86.1 MB" / "245 kB" / "1.27 GB" in MB."""
    number, unit = text.split(" ")
    return round(float(number) * {"B": 1e-6, "字节": 1e-6, "kB": 1e-3, "MB": 1, "GB": 1000}[unit], 1)


def row_date(label: str, today: dt.date) -> dt.date:
    """The date of a row's date label ("Today, 14:15", "Yesterday", "Mar 12", "Mar 12, 2025", 今天, 3月12日...)."""
    if label.startswith(("Today", "今天")):
        return today
    if label.startswith(("Yesterday", "昨天")):
        return today - dt.timedelta(days=1)
    zh = re.fullmatch(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})日", label)
    if zh:
        return dt.date(int(zh.group(1) or today.year), int(zh.group(2)), int(zh.group(3)))
    en = re.fullmatch(r"(\w{3}) (\d{1,2})(?:, (\d{4}))?", label)
    return dt.date(int(en.group(3) or today.year), MONTHS.index(en.group(1)) + 1, int(en.group(2)))


def name_of(desc: str) -> str:
    return desc.split(" · ")[0]


# --- queries ----------------------------------------------------------------------------------------

def _photos_by_day(d: Driver) -> dict[str, int]:
    """Camera photos per day (YYYYMMDD), read from their IMG_<date>_<time>.jpg names."""
    open_folder(d, "DCIM/Camera")
    days: dict[str, int] = {}
    for name in map(name_of, rows(d)):
        if name.startswith("IMG_"):
            days[name[4:12]] = days.get(name[4:12], 0) + 1
    return days


@plan("files.CountPhotosOnDate")
def count_photos(d: Driver) -> None:
    d.submit_answer([_photos_by_day(d).get(d.params["day"]["iso"].replace("-", ""), 0)])
    d.complete()


@negative("files.CountPhotosOnDate", "counts every photo in the folder")
def count_photos_all(d: Driver) -> None:
    days = _photos_by_day(d)
    right = days.get(d.params["day"]["iso"].replace("-", ""), 0)
    total = sum(days.values())
    d.submit_answer([total if total != right else right + 1])
    d.complete()


def _sizes_by_size(d: Driver) -> list[float]:
    """The sizes of the downloads in MB, largest first (read off the list; sorting it would do too)."""
    open_folder(d, "Download")
    return sorted((size_mb(desc.split(" · ")[1]) for desc in rows(d)), reverse=True)


@plan("files.LargestDownloadSize")
def largest_download(d: Driver) -> None:
    d.submit_answer([_sizes_by_size(d)[0]])
    d.complete()


@negative("files.LargestDownloadSize", "reads the second largest")
def largest_download_second(d: Driver) -> None:
    d.submit_answer([_sizes_by_size(d)[1]])
    d.complete()


def _folder_of(d: Driver, name: str) -> str:
    search_file(d, name)
    hit = d.find(rid="file_item", contains=f"{name} · ")
    return hit.desc.split(" · ")[1]


@plan("files.FindFileFolder")
def find_folder(d: Driver) -> None:
    d.submit_answer([_folder_of(d, d.params["file"]["name"])])
    d.complete()


@negative("files.FindFileFolder", "names the parent folder")
def find_folder_parent(d: Driver) -> None:
    folder = d.params["file"]["folder"]
    _folder_of(d, d.params["file"]["name"])
    parent = folder.rsplit("/", 1)[0] if "/" in folder else "Download" if folder != "Download" else "Documents"
    d.submit_answer([parent])
    d.complete()


# --- single-file operations ---------------------------------------------------------------------------

def _rename(d: Driver, name: str, folder: str, new: str) -> None:
    open_folder(d, folder)
    file_menu(d, name, "menu_rename")
    d.type(new, rid="rename_input")
    d.tap(rid="button1")
    d.complete()


@plan("files.RenameFile")
def rename_file(d: Driver) -> None:
    f = d.params["file"]
    _rename(d, f["name"], f["folder"], f["new_name"])


@negative("files.RenameFile", "drops the extension")
def rename_file_no_ext(d: Driver) -> None:
    f = d.params["file"]
    _rename(d, f["name"], f["folder"], f["new_name"].rsplit(".", 1)[0])


@negative("files.RenameFile", "renames the file listed next to it")
def rename_other(d: Driver) -> None:
    f = d.params["file"]
    open_folder(d, f["folder"])
    other = next(name_of(desc) for desc in rows(d) if name_of(desc) != f["name"])
    file_menu(d, other, "menu_rename")
    d.type(f["new_name"], rid="rename_input")
    d.tap(rid="button1")
    d.complete()


def _move(d: Driver, name: str, folder: str, dest: str, action: str = "menu_move") -> None:
    open_folder(d, folder)
    file_menu(d, name, action)
    pick_destination(d, dest)


@plan("files.MoveFile")
def move_file(d: Driver) -> None:
    f = d.params["file"]
    _move(d, f["name"], f["folder"], f["dest"])
    d.complete()


@negative("files.MoveFile", "copies instead of moving")
def move_file_copies(d: Driver) -> None:
    f = d.params["file"]
    _move(d, f["name"], f["folder"], f["dest"], "menu_copy")
    d.complete()


@plan("files.RestoreFromTrash")
def restore_file(d: Driver) -> None:
    _restore_from_trash(d, d.params["file"]["name"])


@negative("files.RestoreFromTrash", "deletes it forever instead")
def restore_deletes(d: Driver) -> None:
    open_home(d)
    d.tap(rid="trash_entry")
    d.tap(rid="trash_item", desc=d.params["file"]["name"])
    d.tap(rid="button3")
    d.tap(rid="button1")
    d.complete()


@negative("files.RestoreFromTrash", "restores another file")
def restore_other(d: Driver) -> None:
    open_home(d)
    d.tap(rid="trash_entry")
    other = next(n for n in rows(d, "trash_item") if n != d.params["file"]["name"])
    d.tap(rid="trash_item", desc=other)
    d.tap(rid="button1")
    d.complete()


@plan("files.EmptyTrash")
def empty_trash(d: Driver) -> None:
    open_home(d)
    d.tap(rid="trash_entry")
    d.tap(rid="empty_trash")
    d.tap(rid="button1")
    d.complete()


@negative("files.EmptyTrash", "cancels the confirmation")
def empty_trash_cancel(d: Driver) -> None:
    open_home(d)
    d.tap(rid="trash_entry")
    d.tap(rid="empty_trash")
    d.tap(rid="button2")
    d.complete()


@negative("files.EmptyTrash", "also deletes a download")
def empty_trash_and_more(d: Driver) -> None:
    open_folder(d, "Download")
    file_menu(d, name_of(d.find(rid="file_item").desc), "menu_delete")
    d.tap(rid="button1")
    open_home(d)
    d.tap(rid="trash_entry")
    d.tap(rid="empty_trash")
    d.tap(rid="button1")
    d.complete()


# --- many files -------------------------------------------------------------------------------------

def _invoices(d: Driver) -> list[str]:
    prefix = d.t("Invoice_", "发票_")
    return [n for n in map(name_of, rows(d)) if n.startswith(prefix) and n.lower().endswith(".pdf")]


def _file_invoices(d: Driver, pick) -> None:
    folder = d.params["folder"]
    open_folder(d, "Documents")
    d.tap(rid="new_folder")
    d.type(folder, rid="folder_name_input")
    d.tap(rid="button1")
    open_folder(d, "Download")
    chosen = pick(_invoices(d), [name_of(r) for r in rows(d)])
    if chosen:
        select(d, chosen)
        d.tap(rid="move_selected")
        pick_destination(d, f"Documents/{folder}")
    d.complete()


@plan("files.MoveInvoicesToNewFolder")
def move_invoices(d: Driver) -> None:
    _file_invoices(d, lambda invoices, names: invoices)


@negative("files.MoveInvoicesToNewFolder", "leaves one invoice behind")
def move_invoices_one_short(d: Driver) -> None:
    _file_invoices(d, lambda invoices, names: invoices[:-1])


@negative("files.MoveInvoicesToNewFolder", "moves the invoice template too")
def move_invoices_and_more(d: Driver) -> None:
    _file_invoices(d, lambda invoices, names: invoices + [next(n for n in names if n not in invoices)])


def _delete(d: Driver, names: list[str], forever: bool = False) -> None:
    """Select the files of the open folder and move them to the Trash (``forever``: then delete each of them
    for good from the Trash)."""
    select(d, names)
    d.tap(rid="delete_selected")
    d.tap(rid="button1")
    if forever:
        _delete_forever_from_trash(d, names)
    d.complete()


def _delete_forever_from_trash(d: Driver, names: list[str]) -> None:
    """In the Trash, delete each of ``names`` for good (its menu's Delete forever, then the confirmation)."""
    open_home(d)
    d.tap(rid="trash_entry")
    for name in names:
        d.tap(rid="trash_item", desc=name)
        d.tap(rid="button3")
        d.tap(rid="button1")


def _copies(d: Driver) -> list[str]:
    stem, _, ext = d.params["file"]["name"].rpartition(".")
    return [n for n in map(name_of, rows(d)) if re.fullmatch(re.escape(stem) + r" \(\d+\)\." + re.escape(ext), n)]


@plan("files.DeleteDuplicateCopies")
def delete_copies(d: Driver) -> None:
    open_folder(d, "Download")
    _delete(d, _copies(d))


@alternative("files.DeleteDuplicateCopies", "deleted for good")
def delete_copies_forever(d: Driver) -> None:
    open_folder(d, "Download")
    _delete(d, _copies(d), forever=True)


@negative("files.DeleteDuplicateCopies", "deletes the original with the copies")
def delete_copies_and_original(d: Driver) -> None:
    open_folder(d, "Download")
    _delete(d, [*_copies(d), d.params["file"]["name"]])


@negative("files.DeleteDuplicateCopies", "deletes the original, keeps a copy")
def delete_original_keep_copy(d: Driver) -> None:
    open_folder(d, "Download")
    copies = _copies(d)
    _delete(d, [*copies[1:], d.params["file"]["name"]])


def _old_downloads(d: Driver, days: int) -> list[str]:
    today = dt.date.fromisoformat(d.params["age"]["today"])
    cutoff = today - dt.timedelta(days=days)
    return [name_of(desc) for desc in rows(d) if row_date(desc.split(" · ")[2], today) < cutoff]


@plan("files.DeleteOldDownloads")
def delete_old_downloads(d: Driver) -> None:
    open_folder(d, "Download")
    _delete(d, _old_downloads(d, d.params["age"]["days"]))


@alternative("files.DeleteOldDownloads", "deleted for good")
def delete_old_downloads_forever(d: Driver) -> None:
    open_folder(d, "Download")
    _delete(d, _old_downloads(d, d.params["age"]["days"]), forever=True)


@negative("files.DeleteOldDownloads", "counts from a week later (deletes newer files too)")
def delete_old_downloads_too_many(d: Driver) -> None:
    open_folder(d, "Download")
    names = [name_of(r) for r in rows(d)]
    old = _old_downloads(d, d.params["age"]["days"])
    _delete(d, old + [next(n for n in names if n not in old)])


@negative("files.DeleteOldDownloads", "misses the oldest file")
def delete_old_downloads_one_short(d: Driver) -> None:
    open_folder(d, "Download")
    old = _old_downloads(d, d.params["age"]["days"])
    if len(old) == 1:
        d.complete()
        return
    _delete(d, old[1:])


# --- sharing and copying ------------------------------------------------------------------------------

def _share(d: Driver, name: str, person: str) -> None:
    search_file(d, name)
    file_menu(d, name, "menu_share")
    d.tap(rid="share_messages")
    d.type(person, rid="recipient_input")
    d.tap(rid="contact_suggestion", contains=person)
    d.tap(rid="send")
    d.complete()


@plan("files.ShareFileToContact")
def share_file(d: Driver) -> None:
    _share(d, d.params["file"]["name"], d.params["person"])


@negative("files.ShareFileToContact", "shares a different file")
def share_other_file(d: Driver) -> None:
    open_folder(d, "Download")
    other = next(name_of(n.desc) for n in d.nodes() if n.short_id == "file_item" and name_of(n.desc) != d.params["file"]["name"])
    _share(d, other, d.params["person"])


@negative("files.ShareFileToContact", "texts the file's name instead of sharing the file")
def share_file_by_name(d: Driver) -> None:
    compose(d, d.params["person"], d.params["file"]["name"])
    d.complete()


def _copy_and_count(d: Driver, adjust: int) -> None:
    f = d.params["file"]
    _move(d, f["name"], f["folder"], f["dest"], "menu_copy")
    open_folder(d, f["dest"])
    d.submit_answer([len(rows(d)) + adjust])
    d.complete()


@plan("files.CopyAndCount")
def copy_and_count(d: Driver) -> None:
    _copy_and_count(d, 0)


@negative("files.CopyAndCount", "counts before the copy")
def copy_and_count_stale(d: Driver) -> None:
    _copy_and_count(d, -1)


@negative("files.CopyAndCount", "moves instead of copying")
def copy_and_count_moves(d: Driver) -> None:
    f = d.params["file"]
    _move(d, f["name"], f["folder"], f["dest"])
    open_folder(d, f["dest"])
    d.submit_answer([len(rows(d))])
    d.complete()


# --- JSON tasks ---------------------------------------------------------------------------------------

def _restore_from_trash(d: Driver, name: str) -> None:
    open_home(d)
    d.tap(rid="trash_entry")
    d.tap(rid="trash_item", desc=name)
    d.tap(rid="button1")
    d.complete()


@plan("files.restore_boarding_pass")
def restore_boarding_pass(d: Driver) -> None:
    _restore_from_trash(d, d.t("Boarding pass Denver.pdf", "登机牌_成都.pdf"))


@negative("files.restore_boarding_pass", "restores another file from the Trash")
def restore_boarding_pass_wrong(d: Driver) -> None:
    open_home(d)
    d.tap(rid="trash_entry")
    wanted = d.t("Boarding pass Denver.pdf", "登机牌_成都.pdf")
    _restore_from_trash(d, next(n for n in rows(d, "trash_item") if n != wanted))


def _trash_rows(d: Driver) -> list[str]:
    open_home(d)
    d.tap(rid="trash_entry")
    return rows(d, "trash_item")


@plan("files.trash_count")
def trash_count(d: Driver) -> None:
    d.submit_answer([len(_trash_rows(d))])
    d.complete()


@negative("files.trash_count", "counts one too many")
def trash_count_wrong(d: Driver) -> None:
    d.submit_answer([len(_trash_rows(d)) + 1])
    d.complete()


@plan("files.zip_download_folder")
def zip_download_folder(d: Driver) -> None:
    open_folder(d, "Download")
    d.abort("Files can't compress a folder into a zip file")


@negative("files.zip_download_folder", "claims the folder was zipped")
def zip_download_claims(d: Driver) -> None:
    open_folder(d, "Download")
    d.complete()


# --- SendRequestedFile ------------------------------------------------------------------------------------------

def _requested_file(d: Driver) -> str:
    """The full name of the file the contact's mail asks for (the mail gives it without its extension)."""
    open_subject(d, d.t("Quick request", "帮个忙"))
    text = next(b for b in bodies(d) if '"' in b or "“" in b)
    stem = text.split("“", 1)[1].split("”", 1)[0] if "“" in text else text.split('"')[1]
    search_file(d, stem)
    return next(name_of(n.desc) for n in d.nodes() if n.short_id == "file_item" and name_of(n.desc).startswith(stem + "."))


@plan("files.SendRequestedFile")
def send_requested_file(d: Driver) -> None:
    _share(d, _requested_file(d), d.params["person"])


@negative("files.SendRequestedFile", "shares another file")
def send_requested_other(d: Driver) -> None:
    wanted = _requested_file(d)
    open_folder(d, "Download")
    _share(d, next(name_of(n.desc) for n in d.nodes() if n.short_id == "file_item" and name_of(n.desc) != wanted),
           d.params["person"])


@negative("files.SendRequestedFile", "texts the file's name instead of sharing the file")
def send_requested_name(d: Driver) -> None:
    name = _requested_file(d)
    compose(d, d.params["person"], name)
    d.complete()


@negative("files.SendRequestedFile", "reads the mail and replies by mail instead")
def send_requested_by_mail(d: Driver) -> None:
    name = _requested_file(d)
    open_subject(d, d.t("Quick request", "帮个忙"))
    d.tap(rid="reply")
    d.type(d.t(f"Here you go: {name}", f"给你：{name}"), rid="body_input")
    d.tap(rid="send")
    d.complete()
