"""Files screens: Browse (categories, Trash, storage), a folder with its path bar, a category, search, file
details, the destination picker of Move and Copy, and the Trash; the file menu, rename, new folder, sort,
share and delete dialogs."""
from __future__ import annotations

from typing import Any, Callable

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.envs.l10n import counted
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from .app import APP
from . import ops

ROOT_NAME = "Internal storage"
CATEGORIES = [("downloads", "Downloads", "↓"), ("images", "Images", "▣"), ("videos", "Videos", "▶"),
              ("audio", "Audio", "♫"), ("documents", "Documents", "▤")]
CATEGORY_KINDS = {"images": "image", "videos": "video", "audio": "audio", "documents": "document"}
KIND_GLYPHS = {"image": "▣", "video": "▶", "audio": "♫", "document": "▤", "archive": "▦", "app": "◨", "other": "▢"}
SORT_LABELS = {"name": "Name (A to Z)", "date": "Date modified (newest first)", "size": "Size (largest first)"}


# --- helpers ----------------------------------------------------------------------------------------

def _error(ctx: Ctx, error: ops.Error) -> bool:
    """Toast the error (True) or do nothing (False)."""
    if error is not None:
        text, fields = error
        ctx.toast(ctx.t(text, **fields))
        return True
    return False


def folder_name(ctx: Ctx, path: str) -> str:
    return ops.leaf(path) if path else ctx.t(ROOT_NAME)


def location_text(ctx: Ctx, path: str) -> str:
    """"Internal storage › DCIM › Camera"."""
    return " › ".join([ctx.t(ROOT_NAME), *path.split("/")]) if path else ctx.t(ROOT_NAME)


def _size(ctx: Ctx, size: int) -> str:
    return ops.size_text(size, ctx.t("B"))


def _items_text(ctx: Ctx, count: int) -> str:
    return ctx.tn("{count} item", "{count} items", count)


def _files_text(ctx: Ctx, files: list[dict[str, Any]]) -> str:
    count = len(files)
    return ctx.tn("{count} file", "{count} files", count) + f" · {_size(ctx, sum(f['size'] for f in files))}"


def _type_text(ctx: Ctx, name: str) -> str:
    """"Document (PDF)"; a Chinese phone names the kind only ("文档")."""
    kind = ctx.t(ops.KIND_NAMES[ops.kind(name)])
    return ctx.t("{kind} ({extension})", kind=kind, extension=name.rsplit('.', 1)[-1].upper()) if "." in name else kind


def _file_icon(name: str, size: float = 40) -> ui.View:
    return ui.Icon(KIND_GLYPHS[ops.kind(name)], size=size, badge="primary", shape="square")


def _close_dialogs(ctx: Ctx) -> None:
    ctx.local.update(menu=None, rename=None, trash=None, share=None)


def _selection(ctx: Ctx, shown: list[dict[str, Any]]) -> list[str]:
    """The selected files still shown on this screen."""
    ids = {f["id"] for f in shown}
    return [i for i in ctx.local.get("selected") or [] if i in ids]


def _toggle_selected(ctx: Ctx, file_id: str) -> None:
    chosen = list(ctx.local.get("selected") or [])
    ctx.local["selected"] = [i for i in chosen if i != file_id] if file_id in chosen else [*chosen, file_id]


def _pick(ctx: Ctx, mode: str, file_ids: list[str]) -> None:
    """Open the destination picker of Move or Copy."""
    ctx.local.update(selected=[], menu=None)
    ctx.navigate("/pick", mode=mode, ids=",".join(file_ids))


def file_row(ctx: Ctx, f: dict[str, Any], selection: list[str], *, show_folder: bool = False) -> ui.View:
    """A file of a list: a tap opens its details (toggles it while files are selected), a long press selects
    it, ⋮ opens its menu."""
    when = ops.date_text(ctx.t, f["modified"], ctx.now.date())
    subtitle = f"{_size(ctx, f['size'])} · {when}"
    if show_folder:
        subtitle = f"{folder_name(ctx, f['folder'])} · {subtitle}"
    chosen = f["id"] in selection
    lead = (ui.Text("✓", size=22, bold=True, color="on_primary", bg="primary", radius=8, align="center", width=40,
                    height=40, rid="selected_check") if chosen else _file_icon(f["name"]))
    menu = None if selection else ui.IconButton(
        "⋮", ctx.t("More options for {name}", name=f['name']),
        lambda: ctx.local.update(menu=f["id"]), rid="file_menu")
    return ui.ListItem(f["name"], subtitle=subtitle, leading=lead, trailing=menu, title_rid="file_name", rid="file_item",
                       desc=f"{f['name']} · {subtitle}", selected=chosen, bg="divider" if chosen else None,
                       on_click=(lambda: _toggle_selected(ctx, f["id"])) if selection else
                       (lambda: ctx.navigate("/file", id=f["id"])),
                       on_long_click=lambda: _toggle_selected(ctx, f["id"]))


def _selection_bar(ctx: Ctx, chosen: list[str]) -> ui.View:
    """The top bar while files are selected: close, "N selected", move, copy, delete."""
    return ui.Row([
        ui.IconButton("✕", ctx.t("Close"), lambda: ctx.local.__setitem__("selected", []), rid="close_selection"),
        ui.Text(ctx.t("{n_chosen} selected", n_chosen=len(chosen)), size=20, bold=True, rid="toolbar_title",
                flex=1),
        ui.IconButton("⇥", ctx.t("Move to"), lambda: _pick(ctx, "move", chosen), rid="move_selected"),
        ui.IconButton("⧉", ctx.t("Copy to"), lambda: _pick(ctx, "copy", chosen), rid="copy_selected"),
        ui.IconButton("🗑", ctx.t("Delete"), lambda: ctx.local.__setitem__("trash", list(chosen)),
                      rid="delete_selected"),
    ], gap=0, height=56, bg="surface", pad=4)


# --- dialogs ----------------------------------------------------------------------------------------

def _menu_dialog(ctx: Ctx, f: dict[str, Any]) -> ui.Dialog:
    def then(action: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            ctx.local["menu"] = None
            action()
        return run

    rows: list[ui.View | None] = [
        ui.ListItem(ctx.t("File info"), leading=ui.Icon("ⓘ", size=20), rid="menu_info",
                    on_click=then(lambda: ctx.navigate("/file", id=f["id"]))),
        ui.ListItem(ctx.t("Rename"), leading=ui.Icon("✎", size=20), rid="menu_rename",
                    on_click=then(lambda: ctx.local.update(rename=f["id"], new_name=f["name"]))),
        ui.ListItem(ctx.t("Move to"), leading=ui.Icon("⇥", size=20), rid="menu_move",
                    on_click=then(lambda: _pick(ctx, "move", [f["id"]]))),
        ui.ListItem(ctx.t("Copy to"), leading=ui.Icon("⧉", size=20), rid="menu_copy",
                    on_click=then(lambda: _pick(ctx, "copy", [f["id"]]))),
        ui.ListItem(ctx.t("Share"), leading=ui.Icon("⇪", size=20), rid="menu_share",
                    on_click=then(lambda: ctx.local.__setitem__("share", f["id"]))),
        ui.ListItem(ctx.t("Move to Trash"), leading=ui.Icon("🗑", size=20), rid="menu_delete",
                    on_click=then(lambda: ctx.local.__setitem__("trash", [f["id"]]))),
    ]
    return ui.Dialog(f["name"], rows, [ui.Button(ctx.t("Cancel"), lambda: _close_dialogs(ctx), style="text",
                                                 rid=ui.NEGATIVE)], on_dismiss=lambda: _close_dialogs(ctx))


def _rename_dialog(ctx: Ctx, f: dict[str, Any]) -> ui.Dialog:
    def save() -> None:
        if not _error(ctx, ops.rename(ctx.state, f["id"], ctx.local.get("new_name", ""))):
            ctx.local["rename"] = None
            ctx.toast(ctx.t("Renamed"))

    return ui.Dialog(ctx.t("Rename"), [ctx.field("rename_input", "new_name", f["name"],
                                                          hint=ctx.t("File name"))],
                     [ui.Button(ctx.t("Cancel"), lambda: _close_dialogs(ctx), style="text", rid=ui.NEGATIVE),
                      ui.Button(ctx.t("Rename"), save, style="text", rid=ui.POSITIVE)],
                     on_dismiss=lambda: _close_dialogs(ctx))


def _trash_dialog(ctx: Ctx, file_ids: list[str], after: Callable[[], None] | None = None) -> ui.Dialog:
    count = len(file_ids)

    def delete() -> None:
        ops.trash(ctx.state, file_ids, ops.now_stamp(ctx.now))
        ctx.local.update(trash=None, selected=[])
        ctx.toast(ctx.t("Moved to Trash") if count == 1 else ctx.t("{count} files moved to Trash", count=count))
        if after is not None:
            after()

    title = (ctx.t("Move 1 file to Trash?") if count == 1 else
             ctx.t("Move {counted} to Trash?", counted=counted(count, 'file'), count=count))
    return ui.Dialog(title, [ui.Text(ctx.t("Files in Trash are deleted forever after 30 days."), color="muted", max_lines=3)],
                     [ui.Button(ctx.t("Cancel"), lambda: _close_dialogs(ctx), style="text", rid=ui.NEGATIVE),
                      ui.Button(ctx.t("Move to Trash"), delete, style="text", rid=ui.POSITIVE)],
                     on_dismiss=lambda: _close_dialogs(ctx))


def _share_dialog(ctx: Ctx, f: dict[str, Any]) -> ui.Dialog:
    def to_messages() -> None:
        _close_dialogs(ctx)
        ctx.open_app("messages", "/compose", attach=[f["name"]])

    rows: list[ui.View | None] = [
        ui.ListItem(ctx.t("Messages"), leading=ui.Icon("✉", size=20), rid="share_messages", on_click=to_messages),
        ui.ListItem(ctx.t("Nearby Share"), leading=ui.Icon("⇄", size=20), rid="share_nearby",
                    on_click=lambda: (_close_dialogs(ctx), ctx.toast(ctx.t("No devices nearby")))),
    ]
    return ui.Dialog(ctx.t("Share “{name}”", name=f['name']), rows,
                     [ui.Button(ctx.t("Cancel"), lambda: _close_dialogs(ctx), style="text", rid=ui.NEGATIVE)],
                     on_dismiss=lambda: _close_dialogs(ctx))


def _new_folder_dialog(ctx: Ctx, parent: str) -> ui.Dialog:
    def close() -> None:
        ctx.local["new_folder"] = False

    def create() -> None:
        name = ctx.local.get("folder_name", "").strip()
        if not _error(ctx, ops.create_folder(ctx.state, parent, name, lambda: ctx.new_id("dir"))):
            ctx.local.update(new_folder=False, folder_name="")
            ctx.toast(ctx.t("Folder “{name}” created", name=name))

    return ui.Dialog(ctx.t("New folder"), [ctx.field("folder_name_input", "folder_name",
                                                                  hint=ctx.t("Folder name"))],
                     [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                      ui.Button(ctx.t("Create"), create, style="text", rid=ui.POSITIVE)],
                     on_dismiss=close)


def _sort_dialog(ctx: Ctx) -> ui.Dialog:
    def close() -> None:
        ctx.local["sorting"] = False

    def choose(order: str) -> Callable[[], None]:
        def run() -> None:
            ctx.state["sort"] = order
            close()
        return run

    rows: list[ui.View | None] = [ui.Radio(f"sort_{order}", ctx.state["sort"] == order, choose(order),
                                           ctx.t(SORT_LABELS[order])) for order in ops.SORTS]
    return ui.Dialog(ctx.t("Sort by"), rows,
                     [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE)], on_dismiss=close)


def _file_dialog(ctx: Ctx) -> ui.Dialog | None:
    """The dialog a file list has open: menu, rename, share or move to Trash."""
    local = ctx.local
    for key, build in (("menu", _menu_dialog), ("rename", _rename_dialog), ("share", _share_dialog)):
        f = ops.file_by_id(ctx.state, local.get(key) or "")
        if f is not None and not f["trashed"]:
            return build(ctx, f)
    if local.get("trash"):
        return _trash_dialog(ctx, local["trash"])
    return None


def _file_list(ctx: Ctx, title_bar: ui.View, rows: list[ui.View | None], selection: list[str], *, rid: str,
               fab: ui.Fab | None = None, dialog: ui.Dialog | None = None) -> ui.Scaffold:
    top = _selection_bar(ctx, selection) if selection else title_bar
    return ui.Scaffold(ui.ScrollList(rows, rid=rid), top=top, fab=None if selection else fab,
                       dialog=dialog or _file_dialog(ctx))


def _sort_action(ctx: Ctx) -> ui.View:
    return ui.IconButton("⇅", ctx.t("Sort"), lambda: ctx.local.__setitem__("sorting", True), rid="sort")


def _header(text: str) -> ui.View:
    """A section header of Browse (its list pads 8 dp)."""
    return inset(ui.Text(text, size=14, bold=True, color="primary", height=36, rid="section_title"), MARGIN - 8)


def _empty(ctx: Ctx, text: str) -> ui.View:
    return ui.Text(ctx.t(text), color="muted", align="center", height=120, rid="empty")


# --- screens ----------------------------------------------------------------------------------------

@APP.screen("/")
def browse(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    live = ops.live_files(s)
    rows: list[ui.View | None] = [_header(ctx.t("Categories"))]
    for key, label, glyph in CATEGORIES:
        members = category_files(s, key)
        rows.append(ui.ListItem(ctx.t(label), subtitle=_files_text(ctx, members),
                                leading=ui.Icon(glyph, size=40, badge="primary", shape="square"),
                                rid=f"category_{key}", desc=ctx.t(label),
                                on_click=lambda k=key: ctx.navigate("/category", kind=k)))
    trashed = ops.trashed_files(s)
    rows += [_header(ctx.t("Collections")),
             ui.ListItem(ctx.t("Trash"), subtitle=_files_text(ctx, trashed),
                         leading=ui.Icon("🗑", size=40, badge="primary", shape="square"), rid="trash_entry",
                         on_click=lambda: ctx.navigate("/trash")),
             _header(ctx.t("Storage devices")),
             ui.ListItem(ctx.t(ROOT_NAME),
                         subtitle=ctx.t("{used_gb} GB used of {total_gb} GB", used_gb=s['storage']['used_gb'], total_gb=s['storage']['total_gb']),
                         leading=ui.Icon("▥", size=40, badge="primary", shape="square"), rid="storage_entry",
                         on_click=lambda: ctx.navigate("/folder", dir="")),
             inset(ui.Text(ctx.t("{counted} on this phone", counted=counted(len(live), 'file'), n_live=len(live)), size=13,
                           color="muted", height=32, rid="file_total"), MARGIN - 8)]
    top = ui.TopBar(ctx.t("Files"), actions=[
        ui.IconButton("⚲", ctx.t("Search files"), lambda: ctx.navigate("/search"), rid="search")])
    return ui.Scaffold(ui.ScrollList(rows, rid="browse_list", pad=8), top=top)


def category_files(state: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The files of a category: Downloads (the Download folder) or every file of a kind."""
    if key == "downloads":
        return ops.files_in(state, "Download")
    return [f for f in ops.live_files(state) if ops.kind(f["name"]) == CATEGORY_KINDS[key]]


@APP.screen("/category")
def category(ctx: Ctx) -> ui.Scaffold:
    key = ctx.params.get("kind", "")
    if key not in dict((k, 1) for k, *_ in CATEGORIES):
        return ui.Scaffold(ui.ScrollList([_empty(ctx, "No such category")], rid="file_list"),
                           top=ui.TopBar(ctx.t("Files"), on_back=ctx.back))
    label = next(name for k, name, _ in CATEGORIES if k == key)
    members = ops.sort_files(category_files(ctx.state, key), ctx.state["sort"])
    selection = _selection(ctx, members)
    rows: list[ui.View | None] = [inset(ui.Text(_files_text(ctx, members), size=13, color="muted", height=32,
                                                rid="category_summary"), MARGIN)]
    rows += [file_row(ctx, f, selection, show_folder=key != "downloads") for f in members]
    if not members:
        rows.append(_empty(ctx, "No files here"))
    top = ui.TopBar(ctx.t(label), on_back=ctx.back, actions=[_sort_action(ctx)])
    return _file_list(ctx, top, rows, selection, rid="file_list",
                      dialog=_sort_dialog(ctx) if ctx.local.get("sorting") else None)


def _path_bar(ctx: Ctx, path: str, on_pick: Callable[[str], None], rid: str) -> ui.View:
    """The path bar: one tappable segment per folder from the storage's root (the last one is here)."""
    parts = path.split("/") if path else []
    prefixes = [""] + ["/".join(parts[:i + 1]) for i in range(len(parts))]
    segments: list[ui.View | None] = []
    for i, prefix in enumerate(prefixes):
        last = i == len(prefixes) - 1
        if i:
            segments.append(ui.Text("›", size=14, color="muted"))
        segments.append(ui.Text(folder_name(ctx, prefix), size=14, bold=last, color="primary" if last else "muted",
                                rid=rid, desc=location_text(ctx, prefix), flex=1 if last else 0,
                                on_click=None if last else (lambda p=prefix: on_pick(p))))
    return ui.Row([ui.Spacer(width=MARGIN - 6), *segments, ui.Spacer(width=MARGIN - 6)], gap=6, height=40, bg="surface")


@APP.screen("/folder")
def folder(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    path = ctx.params.get("dir", "")
    if path and path not in ops.folder_paths(s):
        return ui.Scaffold(ui.ScrollList([_empty(ctx, "This folder no longer exists")], rid="file_list"),
                           top=ui.TopBar(ctx.t(ROOT_NAME), on_back=ctx.back))
    files = ops.sort_files(ops.files_in(s, path), s["sort"])
    selection = _selection(ctx, files)
    rows: list[ui.View | None] = [_path_bar(ctx, path, lambda p: ctx.replace("/folder", dir=p), "path_segment")]
    for sub in ops.subfolders(s, path):
        count = ops.items_in(s, sub)
        rows.append(ui.ListItem(ops.leaf(sub), subtitle=_items_text(ctx, count),
                                leading=ui.Icon("🗀", size=40, badge="primary", shape="square"), title_rid="folder_name",
                                rid="folder_item", desc=ops.leaf(sub),
                                on_click=None if selection else (lambda p=sub: ctx.navigate("/folder", dir=p))))
    rows += [file_row(ctx, f, selection) for f in files]
    if len(rows) == 1:
        rows.append(_empty(ctx, "This folder is empty"))
    rows.append(ui.Spacer(88))
    dialog = (_sort_dialog(ctx) if ctx.local.get("sorting") else
              _new_folder_dialog(ctx, path) if ctx.local.get("new_folder") else None)
    top = ui.TopBar(folder_name(ctx, path), on_back=ctx.back, actions=[_sort_action(ctx)])
    fab = ui.Fab("+", ctx.t("New folder"), lambda: ctx.local.__setitem__("new_folder", True),
                 rid="new_folder")
    return _file_list(ctx, top, rows, selection, rid="file_list", fab=fab, dialog=dialog)


@APP.screen("/search", focus="search_input")
def search(ctx: Ctx) -> ui.Scaffold:
    query = ctx.local.get("query", "").strip().casefold()
    hits = ops.sort_files([f for f in ops.live_files(ctx.state) if query in f["name"].casefold()], "name") if query else []
    selection = _selection(ctx, hits)
    rows: list[ui.View | None] = [ui.Row([ctx.field("search_input", "query", hint=ctx.t("Search files"),
                                                    flex=1, ime_action="search")], pad=8)]
    if query:
        rows.append(inset(ui.Text(ctx.tn("{count} result", "{count} results", len(hits)),
                                  size=13, color="muted", height=32, rid="result_count"), MARGIN))
        rows += [file_row(ctx, f, selection, show_folder=True) for f in hits]
    top = ui.TopBar(ctx.t("Search"), on_back=ctx.back)
    return _file_list(ctx, top, rows, selection, rid="search_results")


@APP.screen("/file")
def details(ctx: Ctx) -> ui.Scaffold:
    f = ops.file_by_id(ctx.state, ctx.params.get("id", ""))
    if f is None or f["trashed"]:
        return ui.Scaffold(ui.ScrollList([_empty(ctx, "This file is no longer here")], rid="file_details"),
                           top=ui.TopBar(ctx.t("File info"), on_back=ctx.back))
    def field(label: str, value: str, rid: str) -> ui.View:
        return ui.Column([ui.Text(ctx.t(label), size=13, color="muted"),
                          ui.Text(value, size=16, max_lines=3, rid=rid)], gap=2, pad=4)

    body: list[ui.View | None] = [
        ui.Row([_file_icon(f["name"], 56), ui.Text(f["name"], size=18, bold=True, max_lines=3, rid="file_title", flex=1)],
               gap=12, pad=4),
        field("Type", _type_text(ctx, f["name"]), "file_type"),
        field("Size", f"{_size(ctx, f['size'])} ({f['size']:,} " + ctx.t("bytes)"), "file_size"),
        field("Modified", ops.full_date_text(ctx.t, f["modified"]), "file_modified"),
        field("Location", location_text(ctx, f["folder"]), "file_location"),
        ui.Spacer(8),
        ui.Row([ui.Button(ctx.t("Rename"), lambda: ctx.local.update(rename=f["id"], new_name=f["name"]),
                          style="outlined", rid="rename_file", flex=1),
                ui.Button(ctx.t("Move"), lambda: _pick(ctx, "move", [f["id"]]), style="outlined", rid="move_file",
                          flex=1),
                ui.Button(ctx.t("Copy"), lambda: _pick(ctx, "copy", [f["id"]]), style="outlined", rid="copy_file",
                          flex=1)], gap=8),
    ]
    dialog = None
    if ctx.local.get("trash"):
        dialog = _trash_dialog(ctx, [f["id"]], after=ctx.back)
    top = ui.TopBar(ctx.t("File info"), on_back=ctx.back, actions=[
        ui.IconButton("⇪", ctx.t("Share"), lambda: ctx.local.__setitem__("share", f["id"]), rid="share_file"),
        ui.IconButton("🗑", ctx.t("Move to Trash"), lambda: ctx.local.__setitem__("trash", [f["id"]]),
                      rid="delete_file")])
    return ui.Scaffold(ui.ScrollList(body, rid="file_details", pad=16, gap=12), top=top,
                       dialog=dialog or _file_dialog(ctx))


@APP.screen("/pick")
def pick(ctx: Ctx) -> ui.Scaffold:
    """Where Move and Copy put the files: browse to a folder, then Move here / Copy here."""
    s = ctx.state
    mode = "copy" if ctx.params.get("mode") == "copy" else "move"
    ids = [i for i in ctx.params.get("ids", "").split(",") if i]
    at = ctx.local.get("at", "")
    if at and at not in ops.folder_paths(s):
        at = ""

    def confirm() -> None:
        if mode == "move":
            error = ops.move(s, ids, at)
        else:
            error = ops.copy(s, ids, at, lambda: ctx.new_id("file"), ops.now_stamp(ctx.now))
        if _error(ctx, error):
            return
        count = len(ids)
        name = folder_name(ctx, at)
        ctx.toast(ctx.tn("Moved {count} item to {name}", "Moved {count} items to {name}", count, name=name) if mode == "move"
                  else ctx.tn("Copied {count} item to {name}", "Copied {count} items to {name}", count, name=name))
        ctx.back()

    rows: list[ui.View | None] = [_path_bar(ctx, at, lambda p: ctx.local.__setitem__("at", p), "dest_segment")]
    for sub in ops.subfolders(s, at):
        rows.append(ui.ListItem(ops.leaf(sub), leading=ui.Icon("🗀", size=40, badge="primary", shape="square"),
                                title_rid="dest_name", rid="dest_folder", desc=ops.leaf(sub),
                                on_click=lambda p=sub: ctx.local.__setitem__("at", p)))
    if len(rows) == 1:
        rows.append(_empty(ctx, "No folders here"))
    verb = ctx.t("Move here") if mode == "move" else ctx.t("Copy here")
    bottom = ui.Row([ui.Spacer(flex=1), ui.Button(ctx.t("Cancel"), ctx.back, style="text", rid="cancel_pick"),
                     ui.Button(verb, confirm, rid="confirm_pick")], gap=8, pad=8, bg="surface")
    count = len(ids)
    title = (ctx.t("Move {counted} to", counted=counted(count, 'item'), count=count) if mode == "move" else
             ctx.t("Copy {counted} to", counted=counted(count, 'item'), count=count))
    top = ui.TopBar(title, on_back=ctx.back, actions=[
        ui.IconButton("+", ctx.t("New folder"), lambda: ctx.local.__setitem__("new_folder", True),
                      rid="new_folder")])
    return ui.Scaffold(ui.ScrollList(rows, rid="dest_list"), top=top, bottom=bottom,
                       dialog=_new_folder_dialog(ctx, at) if ctx.local.get("new_folder") else None)


@APP.screen("/trash")
def trash_bin(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    items = ops.trashed_files(s)
    rows: list[ui.View | None] = [inset(ui.Text(ctx.t("Files in Trash are deleted forever after 30 days."), size=13, color="muted",
                                                max_lines=2, rid="trash_note"), MARGIN - 8, MARGIN - 8)]
    for f in items:
        deleted = ops.date_text(ctx.t, f["trashed_at"], ctx.now.date()) if f["trashed_at"] else ""
        subtitle = f"{_size(ctx, f['size'])} · " + ctx.t("Deleted {deleted}", deleted=deleted)
        rows.append(ui.ListItem(f["name"], subtitle=subtitle, leading=_file_icon(f["name"]), title_rid="trash_name",
                                rid="trash_item", desc=f["name"],
                                on_click=lambda i=f["id"]: ctx.local.__setitem__("picked", i)))
    if not items:
        rows.append(_empty(ctx, "Trash is empty"))
    dialog = None
    picked = ops.file_by_id(s, ctx.local.get("picked") or "")
    if ctx.local.get("empty_all"):
        def empty() -> None:
            ops.delete_forever(s, [f["id"] for f in items])
            ctx.local["empty_all"] = False
            ctx.toast(ctx.t("Trash emptied"))

        close = lambda: ctx.local.__setitem__("empty_all", False)  # noqa: E731
        dialog = ui.Dialog(ctx.t("Delete {counted} forever?", counted=counted(len(items), 'file'), n_items=len(items)),
                           [ui.Text(ctx.t("You can't undo this."), color="muted")],
                           [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                            ui.Button(ctx.t("Delete"), empty, style="text", rid=ui.POSITIVE)],
                           on_dismiss=close)
    elif picked is not None and picked["trashed"]:
        close = lambda: ctx.local.update(picked=None, forever=False)  # noqa: E731

        def restore() -> None:
            ops.restore(s, picked["id"])
            close()
            ctx.toast(ctx.t("Restored to {folder_name}", folder_name=folder_name(ctx, picked['folder'])))

        def forever() -> None:
            ops.delete_forever(s, [picked["id"]])
            close()
            ctx.toast(ctx.t("Deleted forever"))

        if ctx.local.get("forever"):
            dialog = ui.Dialog(ctx.t("Delete “{name}” forever?", name=picked['name']),
                               [ui.Text(ctx.t("You can't undo this."), color="muted")],
                               [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                                ui.Button(ctx.t("Delete"), forever, style="text", rid=ui.POSITIVE)],
                               on_dismiss=close)
        else:
            dialog = ui.Dialog(picked["name"],
                               [ui.Text(location_text(ctx, picked["folder"]), color="muted", max_lines=2,
                                        rid="trash_origin")],
                               [ui.Button(ctx.t("Delete"), lambda: ctx.local.__setitem__("forever", True),
                                          style="text", rid=ui.NEUTRAL),
                                ui.Button(ctx.t("Restore"), restore, style="text", rid=ui.POSITIVE)],
                               on_dismiss=close)
    actions = [ui.Button(ctx.t("Empty"), lambda: ctx.local.__setitem__("empty_all", True), style="text",
                         rid="empty_trash")] if items else []
    return ui.Scaffold(ui.ScrollList(rows, rid="trash_list", pad=8), top=ui.TopBar(ctx.t("Trash"),
                                                                                  on_back=ctx.back, actions=actions),
                       dialog=dialog)
