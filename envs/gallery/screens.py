"""Gallery screens: Photos (the grid by day), Search, Library (albums, Trash), an album, the photo picker of an
album, the viewer (details, favourite, share, delete), the editor (rotate, crop, filter) and the camera; the
selection bar and the share, add-to-album, album and Trash dialogs."""
from __future__ import annotations

from typing import Any, Callable

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from .app import APP
from . import model
from .world import COLORS

COLUMNS = 3
TILE = 116
KIND_GLYPH = {"video": "▶"}
NAV = (("photos", "/", "Photos", "✿"), ("search", "/search", "Search", "⚲"), ("library", "/library", "Library", "▤"))


# --- helpers ----------------------------------------------------------------------------------------------------

def _error(ctx: Ctx, error: model.Error) -> bool:
    """Toast the error (True) or do nothing (False)."""
    if error is not None:
        text, fields = error
        ctx.toast(ctx.t(text, **fields))
        return True
    return False


def _count_text(ctx: Ctx, count: int) -> str:
    return ctx.tn("{count} item", "{count} items", count)


def describe(ctx: Ctx, p: model.Photo) -> str:
    """What TalkBack reads for a photo: kind, subject, place and when ("Photo · Sunset · Ocean Beach, San
    Francisco · Thu, Mar 12 · 14:15")."""
    kind = (ctx.t("Video") if p["kind"] == "video" else
            ctx.t("Screenshot") if p["source"] == "screenshots" else
            ctx.t("Downloaded image") if p["source"] == "downloads" else ctx.t("Photo"))
    when = model.parse_stamp(p["taken"])
    parts = [kind, p["subject"], ", ".join(x for x in (p["place"], p["city"]) if x),
             f"{model.day_header(ctx.t, when.date(), ctx.now.date())} · {when:%H:%M}"]
    return " · ".join(x for x in parts if x)


def _toggle(ctx: Ctx, photo_id: str) -> None:
    chosen = list(ctx.local.get("selected") or [])
    ctx.local["selected"] = [i for i in chosen if i != photo_id] if photo_id in chosen else [*chosen, photo_id]


def _selection(ctx: Ctx, shown: list[model.Photo]) -> list[str]:
    """The selected photos still shown on this screen, in the order they were picked."""
    ids = {p["id"] for p in shown}
    return [i for i in ctx.local.get("selected") or [] if i in ids]


def tile(ctx: Ctx, p: model.Photo, selection: list[str], on_open: Callable[[], None]) -> ui.View:
    """A thumbnail: a tap opens the photo (toggles it while photos are selected), a long press selects it."""
    chosen = p["id"] in selection
    glyph = "✓" if chosen else "★" if p["favorite"] else KIND_GLYPH.get(p["kind"], "")
    return ui.Image(describe(ctx, p), color=p["color"], glyph=glyph, height=TILE, flex=1, radius=2, rid="photo_item",
                    selected=chosen, on_click=(lambda: _toggle(ctx, p["id"])) if selection else on_open,
                    on_long_click=lambda: _toggle(ctx, p["id"]))


def grid(ctx: Ctx, photos: list[model.Photo], selection: list[str], album: str = "", *, by_day: bool = True,
         pick: bool = False) -> ui.Rows:
    """The grid of ``photos`` (newest first) as lazily built rows: a header per day, three tiles a row. A tap opens
    the viewer on that photo in ``album`` (``pick``: a tap selects, as in the picker)."""
    items: list[tuple[str, Any]] = []
    groups = model.by_day(photos) if by_day else [(None, photos)]
    for day, members in groups:
        if day is not None:
            items.append(("day", day))
        items += [("row", members[i:i + COLUMNS]) for i in range(0, len(members), COLUMNS)]

    def opener(p: model.Photo) -> Callable[[], None]:
        if pick:
            return lambda: _toggle(ctx, p["id"])
        return lambda: ctx.navigate("/photo", id=p["id"], album=album)

    def build(item: tuple[str, Any]) -> ui.View:
        kind, value = item
        if kind == "day":
            return inset(ui.Text(model.day_header(ctx.t, value, ctx.now.date()), size=14, bold=True, height=40,
                                 rid="day_header"), MARGIN)
        tiles: list[ui.View | None] = [tile(ctx, p, selection, opener(p)) for p in value]
        tiles += [ui.Spacer(height=TILE, flex=1) for _ in range(COLUMNS - len(value))]
        return ui.Row(tiles, gap=2, height=TILE + 2)

    return ui.Rows(items, build)


def nav_bar(ctx: Ctx, here: str) -> ui.View:
    """The bottom navigation: Photos, Search, Library."""
    items = []
    for key, path, label, glyph in NAV:
        on = key == here
        items.append(ui.Column([ui.Icon(glyph, size=22, color="primary" if on else "muted"),
                                ui.Text(ctx.t(label), size=12, bold=on, align="center",
                                        color="primary" if on else "muted")],
                               gap=2, flex=1, rid=f"nav_{key}", desc=ctx.t(label), selected=on,
                               on_click=None if on else (lambda p=path: ctx.replace(p))))
    return ui.Row(items, gap=0, height=64, bg="surface")


def _empty(ctx: Ctx, text: str) -> ui.View:
    return ui.Text(ctx.t(text), color="muted", align="center", height=120, rid="empty")


# --- dialogs ----------------------------------------------------------------------------------------------------

def _close(ctx: Ctx) -> None:
    ctx.local.update(dialog=None, album_title="")


def _share_dialog(ctx: Ctx, ids: list[str]) -> ui.Dialog:
    photos = [p for p in (model.photo_by_id(ctx.state, i) for i in ids) if p is not None]

    def to_messages() -> None:
        _close(ctx)
        ctx.local["selected"] = []
        ctx.open_app("messages", "/compose", attach=[p["name"] for p in photos])

    count = len(photos)
    rows: list[ui.View | None] = [
        ui.ListItem(ctx.t("Messages"), leading=ui.Icon("✉", size=20), rid="share_messages", on_click=to_messages),
        ui.ListItem(ctx.t("Nearby Share"), leading=ui.Icon("⇄", size=20), rid="share_nearby",
                    on_click=lambda: (_close(ctx), ctx.toast(ctx.t("No devices nearby")))),
    ]
    return ui.Dialog(ctx.tn("Share {count} item", "Share {count} items", count), rows,
                     [ui.Button(ctx.t("Cancel"), lambda: _close(ctx), style="text", rid=ui.NEGATIVE)],
                     on_dismiss=lambda: _close(ctx))


def _trash_dialog(ctx: Ctx, ids: list[str], after: Callable[[], None] | None = None) -> ui.Dialog:
    count = len(ids)

    def delete() -> None:
        model.trash(ctx.state, ids, ctx.now)
        ctx.local.update(dialog=None, selected=[])
        ctx.toast(ctx.t("Moved to trash") if count == 1 else ctx.t("{count} items moved to trash", count=count))
        if after is not None:
            after()

    title = ctx.t("Move to trash?") if count == 1 else ctx.t("Move {count} items to trash?", count=count)
    return ui.Dialog(title, ctx.t("Items in trash are deleted forever after 60 days."),
                     [ui.Button(ctx.t("Cancel"), lambda: _close(ctx), style="text", rid=ui.NEGATIVE),
                      ui.Button(ctx.t("Move to trash"), delete, style="text", rid=ui.POSITIVE)],
                     on_dismiss=lambda: _close(ctx))


def _new_album_dialog(ctx: Ctx, ids: list[str]) -> ui.Dialog:
    """Name a new album; it starts with ``ids`` (from the selection), or opens its picker when empty."""
    def create() -> None:
        album_id = ctx.new_id("album")
        if _error(ctx, model.create_album(ctx.state, ctx.local.get("album_title", ""), album_id, ctx.now)):
            return
        _close(ctx)
        if ids:
            model.add_to_album(ctx.state, album_id, ids)
            ctx.local["selected"] = []
            ctx.toast(ctx.t("Added {n_ids} to album", n_ids=len(ids)))
        else:
            ctx.navigate("/pick", album=album_id)

    return ui.Dialog(ctx.t("New album"),
                     [ctx.field("album_title_input", "album_title", hint=ctx.t("Add a title"))],
                     [ui.Button(ctx.t("Cancel"), lambda: _close(ctx), style="text", rid=ui.NEGATIVE),
                      ui.Button(ctx.t("Create"), create, style="text", rid=ui.POSITIVE)],
                     on_dismiss=lambda: _close(ctx))


def _add_dialog(ctx: Ctx, ids: list[str]) -> ui.Dialog:
    """Add to album: the user's albums, or a new one."""
    def add(album_id: str) -> Callable[[], None]:
        def run() -> None:
            added = model.add_to_album(ctx.state, album_id, ids)
            _close(ctx)
            ctx.local["selected"] = []
            name = model.album_name(ctx.t, ctx.state, album_id)
            ctx.toast(ctx.t("Added {added} to {name}", added=added, name=name) if added else
                      ctx.t("Already in {name}", name=name))
        return run

    rows: list[ui.View | None] = [ui.ListItem(ctx.t("New album"), leading=ui.Icon("+", size=20),
                                              rid="menu_new_album",
                                              on_click=lambda: ctx.local.update(dialog=("new_album", ids)))]
    rows += [ui.ListItem(a["name"], leading=ui.Icon("▤", size=20), rid="album_choice", desc=a["name"],
                         on_click=add(a["id"])) for a in ctx.state["albums"]]
    return ui.Dialog(ctx.t("Add to album"), rows,
                     [ui.Button(ctx.t("Cancel"), lambda: _close(ctx), style="text", rid=ui.NEGATIVE)],
                     on_dismiss=lambda: _close(ctx))


def _dialog(ctx: Ctx, after_trash: Callable[[], None] | None = None) -> ui.Dialog | None:
    """The dialog a screen has open (``local["dialog"]`` = (kind, photo ids))."""
    opened = ctx.local.get("dialog")
    if not opened:
        return None
    kind, ids = opened
    build = {"share": _share_dialog, "add": _add_dialog, "new_album": _new_album_dialog}.get(kind)
    if kind == "trash":
        return _trash_dialog(ctx, ids, after_trash)
    return build(ctx, ids) if build is not None else None


def _selection_bar(ctx: Ctx, chosen: list[str], album: str = "") -> ui.View:
    """The top bar while photos are selected: close, "N selected", favourite, add to album, share, delete (and
    remove, in a user album)."""
    def open_dialog(kind: str) -> Callable[[], None]:
        return lambda: ctx.local.__setitem__("dialog", (kind, list(chosen)))

    def favorite() -> None:
        photos = [model.photo_by_id(ctx.state, i) for i in chosen]
        model.set_favorite(ctx.state, chosen, not all(p and p["favorite"] for p in photos))
        ctx.local["selected"] = []

    def remove() -> None:
        model.remove_from_album(ctx.state, album, chosen)
        ctx.local["selected"] = []
        ctx.toast(ctx.t("Removed from album"))

    user_album = model.album_by_id(ctx.state, album) is not None
    return ui.Row([
        ui.IconButton("✕", ctx.t("Clear selection"), lambda: ctx.local.__setitem__("selected", []),
                      rid="close_selection"),
        ui.Text(ctx.t("{n_chosen} selected", n_chosen=len(chosen)), size=18, bold=True, rid="toolbar_title",
                flex=1),
        ui.IconButton("☆", ctx.t("Favourite"), favorite, rid="favorite_selected"),
        ui.IconButton("+", ctx.t("Add to album"), open_dialog("add"), rid="add_selected"),
        ui.IconButton("⇪", ctx.t("Share"), open_dialog("share"), rid="share_selected"),
        ui.IconButton("⊖", ctx.t("Remove from album"), remove, rid="remove_selected") if user_album else None,
        ui.IconButton("🗑", ctx.t("Move to trash"), open_dialog("trash"), rid="delete_selected"),
    ], gap=0, height=56, bg="surface", pad=4)


def _grid_screen(ctx: Ctx, title_bar: ui.View, lead: list[ui.View | None], photos: list[model.Photo], *, rid: str,
                 album: str = "", nav: str | None = None, empty: str | None = None,
                 dialog: ui.Dialog | None = None, by_day: bool = True) -> ui.Scaffold:
    """A screen of photos: its bar (the selection bar while photos are selected), rows above the grid, the grid,
    the bottom navigation on a main tab."""
    selection = _selection(ctx, photos)
    rows = grid(ctx, photos, selection, album, by_day=by_day)
    head = [v for v in lead if v is not None]
    if not photos and empty is not None:
        head.append(_empty(ctx, empty))
    body = ui.ScrollList(ui.Rows([*head, *rows.items], lambda item: item if isinstance(item, ui.View) else rows.build(item)),
                         rid=rid)
    return ui.Scaffold(body, top=_selection_bar(ctx, selection, album) if selection else title_bar,
                       bottom=nav_bar(ctx, nav) if nav and not selection else None,
                       dialog=dialog or _dialog(ctx),
                       on_back=(lambda: ctx.local.__setitem__("selected", [])) if selection else None)


# --- main tabs --------------------------------------------------------------------------------------------------

@APP.screen("/")
def photos(ctx: Ctx) -> ui.Scaffold:
    top = ui.TopBar(ctx.t("Photos"), actions=[
        ui.IconButton("◉", ctx.t("Camera"), lambda: ctx.navigate("/camera"), rid="open_camera")])
    return _grid_screen(ctx, top, [], model.live(ctx.state), rid="photo_grid", nav="photos",
                        empty="No photos yet")


@APP.screen("/search")
def search(ctx: Ctx) -> ui.Scaffold:
    query = ctx.local.get("query", "")
    hits = model.search(ctx.t, ctx.state, query)
    lead: list[ui.View | None] = [ui.Row([ctx.field("search_input", "query", hint=ctx.t("Search your photos"),
                                                    flex=1, ime_action="search")], pad=8)]
    if query.strip():
        lead.append(inset(ui.Text(ctx.tn("{count} result", "{count} results", len(hits)),
                                  size=13, color="muted", height=32, rid="result_count"), MARGIN))
    else:
        cities = sorted({p["city"] for p in model.live(ctx.state) if p["city"]})
        lead.append(inset(ui.Text(ctx.t("Places"), size=14, bold=True, color="primary", height=36,
                                  rid="section_title"), MARGIN))
        lead += [ui.ListItem(city, leading=ui.Icon("◎", size=36, badge="primary"), rid="place_item", desc=city,
                             subtitle=_count_text(ctx, sum(1 for p in model.live(ctx.state) if p["city"] == city)),
                             on_click=lambda c=city: ctx.local.__setitem__("query", c)) for city in cities]
    return _grid_screen(ctx, ui.TopBar(ctx.t("Search")), lead, hits, rid="search_results", nav="search",
                        album="search:" + query.strip())


@APP.screen("/library")
def library(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state

    def entry(album_id: str, glyph: str) -> ui.View:
        name = model.album_name(ctx.t, s, album_id)
        members = model.album_photos(s, album_id) or []
        return ui.ListItem(name, subtitle=_count_text(ctx, len(members)),
                           leading=ui.Icon(glyph, size=40, badge="primary", shape="square"), title_rid="album_name",
                           rid="album_item", desc=name, on_click=lambda: ctx.navigate("/album", id=album_id))

    def header(text: str) -> ui.View:
        return inset(ui.Text(ctx.t(text), size=14, bold=True, color="primary", height=36, rid="section_title"),
                     MARGIN - 8)

    rows: list[ui.View | None] = [
        header("Collections"), entry(model.FAVORITES, "★"),
        ui.ListItem(ctx.t("Trash"), subtitle=_count_text(ctx, len(model.trashed(s))),
                    leading=ui.Icon("🗑", size=40, badge="primary", shape="square"), rid="trash_entry",
                    on_click=lambda: ctx.navigate("/trash")),
        header("Photos on device"), *(entry(source, "▣") for source in model.SOURCES),
        header("Albums"), *(entry(a["id"], "▤") for a in s["albums"])]
    new = ui.IconButton("+", ctx.t("New album"), lambda: ctx.local.__setitem__("dialog", ("new_album", [])),
                        rid="new_album")
    return ui.Scaffold(ui.ScrollList(rows, rid="library_list", pad=8), top=ui.TopBar(ctx.t("Library"), actions=[new]),
                       bottom=nav_bar(ctx, "library"), dialog=_dialog(ctx))


# --- albums -----------------------------------------------------------------------------------------------------

def _album_dialog(ctx: Ctx, album: dict[str, Any]) -> ui.Dialog | None:
    """The album's menu, rename and delete dialogs."""
    opened = ctx.local.get("album_dialog")
    close = lambda: ctx.local.__setitem__("album_dialog", None)  # noqa: E731
    if opened == "menu":
        rows: list[ui.View | None] = [
            ui.ListItem(ctx.t("Rename album"), leading=ui.Icon("✎", size=20), rid="rename_album",
                        on_click=lambda: ctx.local.update(album_dialog="rename", album_rename=album["name"])),
            ui.ListItem(ctx.t("Delete album"), leading=ui.Icon("🗑", size=20), rid="delete_album",
                        on_click=lambda: ctx.local.__setitem__("album_dialog", "delete"))]
        return ui.Dialog(album["name"], rows,
                         [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE)], on_dismiss=close)
    if opened == "rename":
        def save() -> None:
            if not _error(ctx, model.rename_album(ctx.state, album["id"], ctx.local.get("album_rename", ""))):
                close()
        return ui.Dialog(ctx.t("Rename album"),
                         [ctx.field("album_rename_input", "album_rename", album["name"], hint=ctx.t("Title"))],
                         [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                          ui.Button(ctx.t("Save"), save, style="text", rid=ui.POSITIVE)], on_dismiss=close)
    if opened == "delete":
        def delete() -> None:
            model.delete_album(ctx.state, album["id"])
            close()
            ctx.toast(ctx.t("Album deleted"))
            ctx.back()
        return ui.Dialog(ctx.t("Delete album?"),
                         ctx.t("“{name}” will be deleted. Photos in it stay in your library.", name=album['name']),
                         [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                          ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)], on_dismiss=close)
    return None


@APP.screen("/album")
def album(ctx: Ctx) -> ui.Scaffold:
    album_id = ctx.params.get("id", "")
    members = model.album_photos(ctx.state, album_id)
    if members is None:
        return ui.Scaffold(ui.ScrollList([_empty(ctx, "This album no longer exists")], rid="album_grid"),
                           top=ui.TopBar(ctx.t("Album"), on_back=ctx.back))
    user = model.album_by_id(ctx.state, album_id)
    actions = [ui.IconButton("+", ctx.t("Add photos"), lambda: ctx.navigate("/pick", album=album_id),
                             rid="add_photos"),
               ui.IconButton("⋮", ctx.t("More options"), lambda: ctx.local.__setitem__("album_dialog", "menu"),
                             rid="album_menu")] if user else []
    top = ui.TopBar(model.album_name(ctx.t, ctx.state, album_id), on_back=ctx.back, actions=actions)
    lead = [inset(ui.Text(_count_text(ctx, len(members)), size=13, color="muted", height=32, rid="album_count"), MARGIN)]
    return _grid_screen(ctx, top, lead, members, rid="album_grid", album=album_id,
                        empty="No photos in this album",
                        dialog=_album_dialog(ctx, user) if user else None)


@APP.screen("/pick")
def pick(ctx: Ctx) -> ui.Scaffold:
    """Add photos to an album: tap photos to select them, then Add."""
    album_id = ctx.params.get("album", "")
    target = model.album_by_id(ctx.state, album_id)
    if target is None:
        return ui.Scaffold(ui.ScrollList([_empty(ctx, "This album no longer exists")], rid="pick_grid"),
                           top=ui.TopBar(ctx.t("Add photos"), on_back=ctx.back))
    shown = [p for p in model.live(ctx.state) if p["id"] not in target["photo_ids"]]
    chosen = _selection(ctx, shown)

    def done() -> None:
        added = model.add_to_album(ctx.state, album_id, chosen)
        ctx.toast(ctx.t("Added {added} to {name}", added=added, name=target['name']))
        ctx.replace("/album", id=album_id)

    title = ctx.t("{n_chosen} selected", n_chosen=len(chosen)) if chosen else ctx.t("Select photos")
    top = ui.Row([ui.IconButton("✕", ctx.t("Close"), ctx.back, rid="close_pick"),
                  ui.Text(title, size=18, bold=True, rid="toolbar_title", flex=1),
                  ui.Button(ctx.t("Add"), done, style="text", rid="done_pick", enabled=bool(chosen))],
                 gap=4, height=56, bg="surface", pad=4)
    rows = grid(ctx, shown, chosen, pick=True)
    return ui.Scaffold(ui.ScrollList(rows, rid="pick_grid"), top=top)


# --- the viewer -------------------------------------------------------------------------------------------------

def _context(ctx: Ctx, album_id: str) -> list[model.Photo]:
    """The photos the viewer steps through: the album (or search) it was opened from, else the whole library."""
    if album_id.startswith("search:"):
        return model.search(ctx.t, ctx.state, album_id[len("search:"):])
    return model.album_photos(ctx.state, album_id) if album_id else model.live(ctx.state)


def _details(ctx: Ctx, p: model.Photo) -> ui.View:
    def field(label: str, value: str, rid: str, glyph: str) -> ui.View:
        return ui.Row([ui.Icon(glyph, size=20, color="muted"),
                       ui.Column([ui.Text(value, size=15, max_lines=2, rid=rid),
                                  ui.Text(ctx.t(label), size=12, color="muted")], gap=2, flex=1)], gap=16, pad=6)

    width, height = model.edited_size(p)
    where = ", ".join(x for x in (p["place"], p["city"]) if x) or ctx.t("No location")
    rows: list[ui.View | None] = [
        ui.Text(ctx.t("Details"), size=16, bold=True, rid="details_title"),
        field("Date taken", model.taken_text(ctx.t, p["taken"]), "detail_date", "◷"),
        field("Location", where, "detail_place", "◎"),
        field("File", f"{p['name']} · {model.size_text(p['size'])}", "detail_file", "▣"),
        field("Resolution", f"{width} × {height}", "detail_resolution", "▦"),
    ]
    if p["kind"] == "video":
        rows.append(field("Length", model.duration_text(p["duration_s"]), "detail_length", "▶"))
    if p["device"]:
        lens = {"back": ctx.t("back camera"), "front": ctx.t("front camera")}.get(p["lens"], "")
        rows.append(field("Device", f"{p['device']} · {lens}" if lens else p["device"], "detail_device", "◨"))
    if p["edit"]:
        e = p["edit"]
        text = ", ".join(x for x in (ctx.t("rotated {rotation}°", rotation=e['rotation']) if e["rotation"] else "",
                                     ctx.t(model.CROP_NAMES[e["crop"]], context="crop") if e["crop"] != "original" else "",
                                     ctx.t(model.FILTER_NAMES[e["filter"]], context="filter") if e["filter"] != "none" else "") if x)
        rows.append(field("Edits", text, "detail_edit", "✎"))
    return inset(ui.Card(rows, rid="details_sheet"), MARGIN - 12, MARGIN - 12)


@APP.screen("/photo")
def viewer(ctx: Ctx) -> ui.Scaffold:
    p = model.photo_by_id(ctx.state, ctx.params.get("id", ""))
    album_id = ctx.params.get("album", "")
    if p is None or p["trashed"]:
        return ui.Scaffold(ui.ScrollList([_empty(ctx, "This photo is no longer here")], rid="viewer"),
                           top=ui.TopBar(ctx.t("Photo"), on_back=ctx.back))
    shown = _context(ctx, album_id) or [p]
    at = next((i for i, q in enumerate(shown) if q["id"] == p["id"]), None)

    def step(delta: int) -> Callable[[], None] | None:
        if at is None or not 0 <= at + delta < len(shown):
            return None
        return lambda: ctx.replace("/photo", id=shown[at + delta]["id"], album=album_id)

    edit = p["edit"] or model.NO_EDIT
    title = p["subject"] or (ctx.t("Video") if p["kind"] == "video" else ctx.t("Photo"))
    when = model.parse_stamp(p["taken"])
    body: list[ui.View | None] = [
        ui.Image(describe(ctx, p), color=p["color"], glyph=KIND_GLYPH.get(p["kind"], ""), height=300, radius=0,
                 rid="photo_view"),
        ui.Row([ui.IconButton("◀", ctx.t("Previous"), step(-1), rid="previous_photo", enabled=step(-1) is not None),
                ui.Column([ui.Text(title, size=18, bold=True, align="center", rid="photo_title"),
                           ui.Text(f"{model.day_header(ctx.t, when.date(), ctx.now.date())} · {when:%H:%M}", size=13,
                                   color="muted", align="center", rid="photo_when")], gap=2, flex=1),
                ui.IconButton("▶", ctx.t("Next"), step(1), rid="next_photo", enabled=step(1) is not None)],
               gap=4),
        ui.Text(ctx.t("Edited: {filter_name}", filter_name=ctx.t(model.FILTER_NAMES[edit['filter']], context="filter")),
                size=13, color="muted", align="center", rid="edited_badge") if p["edit"] else None,
        _details(ctx, p) if ctx.local.get("info") else None,
    ]
    fav = p["favorite"]

    def toggle_favorite() -> None:
        model.set_favorite(ctx.state, [p["id"]], not fav)
        ctx.toast(ctx.t("Added to Favourites") if not fav else ctx.t("Removed from Favourites"))

    top = ui.TopBar("", on_back=ctx.back, actions=[
        ui.IconButton("★" if fav else "☆", ctx.t("Remove from Favourites") if fav else ctx.t("Favourite"),
                      toggle_favorite, rid="favorite_photo", selected=fav),
        ui.IconButton("ⓘ", ctx.t("Info"), lambda: ctx.local.__setitem__("info", not ctx.local.get("info")),
                      rid="photo_info", selected=bool(ctx.local.get("info"))),
        ui.IconButton("+", ctx.t("Add to album"), lambda: ctx.local.__setitem__("dialog", ("add", [p["id"]])),
                      rid="add_to_album")])

    def action(glyph: str, label: str, rid: str, run: Callable[[], None]) -> ui.View:
        return ui.Column([ui.Icon(glyph, size=22), ui.Text(ctx.t(label), size=12, align="center")], gap=2, flex=1,
                         rid=rid, desc=ctx.t(label), on_click=run)

    bottom = ui.Row([
        action("⇪", "Share", "share_photo", lambda: ctx.local.__setitem__("dialog", ("share", [p["id"]]))),
        action("✎", "Edit", "edit_photo", lambda: ctx.navigate("/edit", id=p["id"])),
        action("🗑", "Delete", "delete_photo", lambda: ctx.local.__setitem__("dialog", ("trash", [p["id"]]))),
    ], gap=0, height=64, bg="surface")
    return ui.Scaffold(ui.ScrollList(body, rid="viewer", gap=8), top=top, bottom=bottom,
                       dialog=_dialog(ctx, after_trash=ctx.back))


# --- the editor -------------------------------------------------------------------------------------------------

@APP.screen("/edit")
def editor(ctx: Ctx) -> ui.Scaffold:
    p = model.photo_by_id(ctx.state, ctx.params.get("id", ""))
    if p is None or p["trashed"] or p["kind"] != "photo":
        message = ("Videos can't be edited here" if p is not None and p["kind"] == "video" else
                   "This photo is no longer here")
        return ui.Scaffold(ui.ScrollList([_empty(ctx, message)], rid="editor"),
                           top=ui.TopBar(ctx.t("Edit"), on_back=ctx.back))
    draft = dict(ctx.local.get("edit") or p["edit"] or model.NO_EDIT)

    def change(**fields: Any) -> None:
        ctx.local["edit"] = {**draft, **fields}

    def save() -> None:
        model.save_edit(ctx.state, p["id"], draft)
        ctx.toast(ctx.t("Saved"))
        ctx.back()

    def chips(options: tuple[str, ...], names: dict[str, str], key: str) -> ui.View:
        return ui.Row([ui.Chip(ctx.t(names[o], context=key), draft[key] == o, lambda _on, o=o: change(**{key: o}),
                               rid=f"{key}_{o.replace(':', '_')}") for o in options], gap=6)

    def section(text: str) -> ui.View:
        return ui.Text(ctx.t(text), size=14, bold=True, color="primary", height=32, rid="section_title")

    body: list[ui.View | None] = [
        ui.Image(describe(ctx, p), color=p["color"], height=240, radius=0, rid="edit_preview"),
        ui.Text(ctx.t("Rotation {rotation}° · {filter_name}", rotation=draft['rotation'],
                      filter_name=ctx.t(model.FILTER_NAMES[draft['filter']], context="filter")), size=13, color="muted",
                align="center", rid="edit_summary"),
        section("Crop"),
        ui.Row([ui.Button(ctx.t("Rotate"), lambda: change(rotation=(draft["rotation"] + 270) % 360),
                          style="outlined", rid="rotate", desc=ctx.t("Rotate 90° counterclockwise"))]),
        chips(model.CROPS, model.CROP_NAMES, "crop"),
        section("Filters"),
        chips(model.FILTERS[:4], model.FILTER_NAMES, "filter"),
        chips(model.FILTERS[4:], model.FILTER_NAMES, "filter"),
    ]
    top = ui.Row([ui.IconButton("✕", ctx.t("Cancel"), ctx.back, rid="cancel_edit"),
                  ui.Text(ctx.t("Edit"), size=20, bold=True, rid="toolbar_title", flex=1),
                  ui.Button(ctx.t("Save"), save, rid="save_edit")], gap=4, height=56, bg="surface", pad=4)
    return ui.Scaffold(ui.ScrollList(body, rid="editor", pad=16, gap=8), top=top)


# --- the Trash --------------------------------------------------------------------------------------------------

@APP.screen("/trash")
def trash_bin(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    items = model.trashed(s)
    picked = model.photo_by_id(s, ctx.local.get("picked") or "")
    close = lambda: ctx.local.update(picked=None, forever=False, empty_all=False)  # noqa: E731
    dialog = None
    if ctx.local.get("empty_all") and items:
        def empty() -> None:
            model.delete_forever(s, [p["id"] for p in items])
            close()
            ctx.toast(ctx.t("Trash emptied"))

        what = "1 item" if len(items) == 1 else f"{len(items)} items"
        dialog = ui.Dialog(ctx.t("Permanently delete {what}?", what=what, n_items=len(items)),
                           ctx.t("You can't undo this."),
                           [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                            ui.Button(ctx.t("Delete"), empty, style="text", rid=ui.POSITIVE)], on_dismiss=close)
    elif picked is not None and picked["trashed"]:
        def restore() -> None:
            model.restore(s, [picked["id"]])
            close()
            ctx.toast(ctx.t("Restored"))

        def forever() -> None:
            model.delete_forever(s, [picked["id"]])
            close()
            ctx.toast(ctx.t("Deleted forever"))

        if ctx.local.get("forever"):
            dialog = ui.Dialog(ctx.t("Permanently delete?"), ctx.t("You can't undo this."),
                               [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                                ui.Button(ctx.t("Delete"), forever, style="text", rid=ui.POSITIVE)],
                               on_dismiss=close)
        else:
            dialog = ui.Dialog(describe(ctx, picked),
                               [ui.Text(ctx.t("Deleted {taken_text}", taken_text=model.taken_text(ctx.t, picked['trashed_at'])),
                                        color="muted", max_lines=2, rid="trash_when")],
                               [ui.Button(ctx.t("Delete"), lambda: ctx.local.__setitem__("forever", True),
                                          style="text", rid=ui.NEUTRAL),
                                ui.Button(ctx.t("Restore"), restore, style="text", rid=ui.POSITIVE)],
                               on_dismiss=close)
    lead = [inset(ui.Text(ctx.t("Items in trash are deleted forever after 60 days."),
                          size=13, color="muted", max_lines=2, height=44, rid="trash_note"), MARGIN, MARGIN)]
    tiles = [("row", items[i:i + COLUMNS]) for i in range(0, len(items), COLUMNS)]

    def build(item: Any) -> ui.View:
        if isinstance(item, ui.View):
            return item
        cells: list[ui.View | None] = [
            ui.Image(describe(ctx, p), color=p["color"], glyph=KIND_GLYPH.get(p["kind"], ""), height=TILE, flex=1,
                     radius=2, rid="trash_item", on_click=lambda i=p["id"]: ctx.local.__setitem__("picked", i))
            for p in item[1]]
        cells += [ui.Spacer(height=TILE, flex=1) for _ in range(COLUMNS - len(item[1]))]
        return ui.Row(cells, gap=2, height=TILE + 2)

    if not items:
        lead.append(_empty(ctx, "Trash is empty"))
    actions = [ui.Button(ctx.t("Empty trash"), lambda: ctx.local.__setitem__("empty_all", True), style="text",
                         rid="empty_trash")] if items else []
    return ui.Scaffold(ui.ScrollList(ui.Rows([*lead, *tiles], build), rid="trash_grid"),
                       top=ui.TopBar(ctx.t("Trash"), on_back=ctx.back, actions=actions), dialog=dialog)


# --- the camera -------------------------------------------------------------------------------------------------

@APP.screen("/camera")
def camera(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    mode, lens = s["camera"]["mode"], s["camera"]["lens"]
    since = ctx.local.get("recording_since")
    last = next((p for p in model.live(s) if p["source"] == "camera"), None)
    device = last["device"] if last else "Pixel 8"

    def shoot() -> None:
        color = COLORS[ctx.os["time_ms"] // 1000 % len(COLORS)]
        if mode == "photo":
            model.capture(s, ctx.new_id("photo"), ctx.now, kind="photo", lens=lens, device=device, color=color)
        elif since is None:
            ctx.local["recording_since"] = ctx.os["time_ms"]
        else:
            seconds = max(1, (ctx.os["time_ms"] - since) // 1000)
            start = ctx.now.replace(microsecond=0)
            model.capture(s, ctx.new_id("photo"), start, kind="video", lens=lens, device=device, color=color,
                          duration_s=seconds)
            ctx.local["recording_since"] = None

    def set_mode(new: str) -> None:
        if since is None:
            s["camera"]["mode"] = new

    def flip() -> None:
        if since is None:
            s["camera"]["lens"] = "front" if lens == "back" else "back"

    recording = since is not None
    shutter_desc = (ctx.t("Take photo") if mode == "photo" else
                    ctx.t("Stop recording") if recording else ctx.t("Start recording"))
    status = (ctx.t("Recording") if recording else
              ctx.t("Front camera") if lens == "front" else ctx.t("Back camera"))
    body = ui.Column([
        ui.Image(ctx.t("Viewfinder, {status}", status=status), color="#37474F", height=380, radius=0,
                 glyph="●" if recording else "", rid="viewfinder"),
        ui.Text(status, size=13, color="muted", align="center", rid="camera_status"),
        ui.Row([ui.Spacer(flex=1),
                ui.Chip(ctx.t("Photo", context="camera"), mode == "photo", lambda _on: set_mode("photo"), rid="mode_photo"),
                ui.Chip(ctx.t("Video", context="camera"), mode == "video", lambda _on: set_mode("video"), rid="mode_video"),
                ui.Spacer(flex=1)], gap=8),
        ui.Row([ui.Spacer(width=16),
                ui.Image(ctx.t("Latest photo"), color=last["color"] if last else "#708090", width=48, height=48,
                         radius=24, rid="last_capture",
                         on_click=(lambda: ctx.navigate("/photo", id=last["id"], album="camera")) if last else None),
                ui.Spacer(flex=1),
                ui.IconButton("◉", shutter_desc, shoot, rid="shutter", width=72, height=72, size=56,
                              color="primary"),
                ui.Spacer(flex=1),
                ui.IconButton("⇆", ctx.t("Switch camera"), flip, rid="switch_camera"),
                ui.Spacer(width=16)], gap=0, height=88),
    ], gap=8)
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Camera"), on_back=ctx.back))
