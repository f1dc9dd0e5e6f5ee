"""Music screens: library tabs, album, artist, search, now playing, playlists, Liked Songs."""
from __future__ import annotations

import random
from typing import Any, Callable

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx
from mobilegym.sim.records import record

from .app import APP
from . import playback as pb

TABS = ["Songs", "Albums", "Artists", "Playlists"]
REPEAT_LABELS = {"off": "Repeat off", "all": "Repeat all", "one": "Repeat one"}


# --- lookups and formatting -----------------------------------------------------------------------

def song(state: dict[str, Any], song_id: str) -> dict[str, Any]:
    return record(state["songs"], song_id, "song")


def album(state: dict[str, Any], album_id: str) -> dict[str, Any]:
    return record(state["albums"], album_id, "album")


def artist(state: dict[str, Any], artist_id: str) -> dict[str, Any]:
    return record(state["artists"], artist_id, "artist")


def playlist(state: dict[str, Any], playlist_id: str) -> dict[str, Any]:
    return record(state["playlists"], playlist_id, "playlist")


def durations(state: dict[str, Any]) -> dict[str, int]:
    """Song id -> length in seconds."""
    return {s["id"]: s["duration_s"] for s in state["songs"]}


def clock_text(seconds: int) -> str:
    """3:07, or 1:02:15 past an hour."""
    hours, rest = divmod(int(seconds), 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def total_text(ctx: Ctx, seconds: int) -> str:
    """"24 min 20 s", or "1 h 5 min" past an hour."""
    hours, rest = divmod(int(seconds), 3600)
    if hours:
        return ctx.t("{hours} h {value} min", hours=hours, value=rest // 60)
    return ctx.t("{value} min {value_2} s", value=rest // 60, value_2=rest % 60)


def _count(ctx: Ctx, n: int) -> str:
    return ctx.tn("{count} song", "{count} songs", n)


def _songs_meta(ctx: Ctx, state: dict[str, Any], song_ids: list[str]) -> str:
    total = sum(song(state, s)["duration_s"] for s in song_ids)
    return f"{_count(ctx, len(song_ids))} · {total_text(ctx, total)}"


# --- player helpers -------------------------------------------------------------------------------

def _now(ctx: Ctx) -> int:
    return ctx.os["time_ms"]


def _play(ctx: Ctx, song_ids: list[str], start: int, context: dict[str, Any]) -> Callable[[], None]:
    return lambda: pb.play_queue(ctx.state["player"], song_ids, start, context, _now(ctx))


def _toggle_like(ctx: Ctx, song_id: str) -> None:
    liked = ctx.state["liked"]
    title = song(ctx.state, song_id)["title"]
    if song_id in liked:
        liked.remove(song_id)
        ctx.toast(ctx.t("Removed “{title}” from Liked Songs", title=title))
    else:
        liked.insert(0, song_id)
        ctx.toast(ctx.t("Added “{title}” to Liked Songs", title=title))


def _add_to_playlist(ctx: Ctx, song_id: str, playlist_id: str) -> None:
    target = playlist(ctx.state, playlist_id)
    if song_id in target["song_ids"]:
        ctx.toast(ctx.t("Already in {name}", name=target['name']))
    else:
        target["song_ids"].append(song_id)
        ctx.toast(ctx.t("Added to {name}", name=target['name']))


def _mini_player(ctx: Ctx) -> ui.View | None:
    player = ctx.state["player"]
    if not player["order"]:
        return None
    index, _, playing = pb.playback(player, durations(ctx.state), _now(ctx))
    current = song(ctx.state, player["order"][index])
    return ui.Row([
        ui.Icon("♫", size=40, badge="primary", shape="square"),
        ui.Column([ui.Text(current["title"], size=15, bold=True, rid="mini_title"),
                   ui.Text(artist(ctx.state, current["artist_id"])["name"], size=12, color="muted", rid="mini_artist")],
                  gap=2, flex=1),
        ui.IconButton("‖" if playing else "▶", ctx.t("Pause") if playing else ctx.t("Play"),
                      lambda: pb.toggle_play(ctx.state["player"], durations(ctx.state), _now(ctx)), rid="mini_play_pause"),
    ], pad=8, gap=12, bg="surface", rid="mini_player", desc=ctx.t("Now playing"),
        on_click=lambda: ctx.navigate("/player"))


# --- song rows and the song menu ------------------------------------------------------------------

def _song_row(ctx: Ctx, item: dict[str, Any], on_play: Callable[[], None], *, show_artist: bool = True,
              leading: ui.View | None = None, extra: ui.View | None = None) -> ui.View:
    length = clock_text(item["duration_s"])
    by = artist(ctx.state, item["artist_id"])["name"]
    subtitle = f"{by} · {length}" if show_artist else length
    liked = item["id"] in ctx.state["liked"]
    desc = f"{item['title']} · {by} · {length}" + (ctx.t(" · liked") if liked else "")
    if extra is None and liked:
        extra = ui.Icon("♥", size=16, color="primary", desc=ctx.t("Liked"), rid="liked_mark")
    tail = ui.Row([extra, ui.IconButton("⋮", ctx.t("More options for {title}", title=item['title']),
                                        lambda: ctx.local.update(menu=item["id"], menu_pick=False), rid="song_menu")],
                  gap=0)
    return ui.ListItem(item["title"], subtitle=subtitle, leading=leading, trailing=tail, title_rid="song_title",
                       rid="song_item", on_click=on_play, desc=desc)


def _song_menu(ctx: Ctx, playlist_id: str | None = None) -> ui.Dialog | None:
    """The options dialog of the song in ``ctx.local["menu"]`` (a playlist picker after "Add to playlist")."""
    song_id = ctx.local.get("menu")
    if not song_id:
        return None
    s = ctx.state
    item = song(s, song_id)

    def close() -> None:
        ctx.local.update(menu=None, menu_pick=False)

    def then_close(action: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            close()
            action()
        return run

    cancel = ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE)
    if ctx.local.get("menu_pick"):
        options: list[ui.View | None] = [
            ui.ListItem(p["name"], subtitle=_count(ctx, len(p["song_ids"])), rid="playlist_option", desc=p["name"],
                        title_rid="playlist_option_name",
                        on_click=then_close(lambda p=p: _add_to_playlist(ctx, song_id, p["id"])))
            for p in s["playlists"]]
        options.insert(0, ui.ListItem(ctx.t("New playlist"), leading=ui.Icon("+", size=24),
                                      rid="new_playlist_option",
                                      on_click=then_close(lambda: ctx.navigate("/playlist/edit", song=song_id))))
        body: list[ui.View | None] = [ui.ScrollList(options, rid="playlist_options", height=min(300, 68 * len(options)))]
        return ui.Dialog(ctx.t("Add to playlist"), body, [cancel], on_dismiss=close)
    liked = song_id in s["liked"]
    rows: list[ui.View | None] = [
        ui.ListItem(ctx.t("Play"), leading=ui.Icon("▶", size=20), rid="menu_play",
                    on_click=then_close(_play(ctx, [song_id], 0, {"type": "song", "id": song_id}))),
        ui.ListItem(ctx.t("Remove from Liked Songs") if liked else ctx.t("Like"),
                    leading=ui.Icon("♥" if liked else "♡", size=20), rid="menu_like",
                    on_click=then_close(lambda: _toggle_like(ctx, song_id))),
        ui.ListItem(ctx.t("Add to playlist"), leading=ui.Icon("+", size=20), rid="menu_add_to_playlist",
                    on_click=lambda: ctx.local.__setitem__("menu_pick", True)),
    ]
    if playlist_id is not None:
        def remove() -> None:
            playlist(s, playlist_id)["song_ids"].remove(song_id)
            ctx.toast(ctx.t("Removed from playlist"))

        rows.append(ui.ListItem(ctx.t("Remove from this playlist"), leading=ui.Icon("✕", size=20),
                                rid="menu_remove_from_playlist", on_click=then_close(remove)))
    rows += [
        ui.ListItem(ctx.t("Go to album"), leading=ui.Icon("◉", size=20), rid="menu_album",
                    on_click=then_close(lambda: ctx.navigate("/album", id=item["album_id"]))),
        ui.ListItem(ctx.t("Go to artist"), leading=ui.Icon("☆", size=20), rid="menu_artist",
                    on_click=then_close(lambda: ctx.navigate("/artist", id=item["artist_id"]))),
    ]
    return ui.Dialog(item["title"], rows, [cancel], on_dismiss=close)


def _page(ctx: Ctx, title: str, rows: list[ui.View | None], *, actions: list[ui.View] = (), dialog: ui.Dialog | None = None,
          rid: str = "song_list") -> ui.Scaffold:
    return ui.Scaffold(ui.ScrollList(rows, rid=rid, pad=8), top=ui.TopBar(title, on_back=ctx.back, actions=list(actions)),
                       bottom=_mini_player(ctx), dialog=dialog)


# kind of library entry -> (leading glyph, its badge's shape, the title's rid)
_ENTRIES = {"album": ("◉", "square", "album_title"), "artist": ("☆", "circle", "artist_name"),
            "playlist": ("≡", "square", "playlist_title")}


def _entry_row(title: str, subtitle: str, kind: str, on_click: Callable[[], None]) -> ui.View:
    """An album, artist or playlist row: the row carries its name and details as its description (a clickable
    row's text in the tree, as song rows do), the title view its name."""
    glyph, shape, title_rid = _ENTRIES[kind]
    return ui.ListItem(title, subtitle=subtitle, leading=ui.Icon(glyph, size=40, badge="primary", shape=shape),
                       rid=f"{kind}_item", title_rid=title_rid, desc=f"{title} · {subtitle}", on_click=on_click)


def _section(title: str, rid: str) -> ui.View:
    """A section header of a list padded 8 dp: its text at the 16 dp margin."""
    return inset(ui.Text(title, size=13, bold=True, color="primary", height=32, rid=rid), MARGIN - 8)


def _header(title: str, title_rid: str, lines: list[ui.View | None], glyph: str = "♫") -> ui.View:
    return ui.Row([ui.Icon(glyph, size=88, badge="primary", shape="square"),
                   ui.Column([ui.Text(title, size=22, bold=True, max_lines=2, rid=title_rid), *lines], gap=4, flex=1)],
                  gap=16, pad=8)


def _gone(ctx: Ctx, title: str) -> ui.Scaffold:
    """The page of an album, artist or playlist that no longer exists."""
    return _page(ctx, title, [ui.Text(ctx.t("This is no longer in your library"),
                                      color="muted", align="center", height=120, rid="empty")])


# --- library --------------------------------------------------------------------------------------

def songs_tab(songs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The library's Songs tab, top to bottom: every song by title."""
    return sorted(songs, key=lambda x: x["title"].casefold())


@APP.screen("/")
def library(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    tab = ctx.local.get("tab", 0)
    rows: list[ui.View | None] | ui.Rows = []
    if tab == 0:
        ordered = songs_tab(s["songs"])
        ids = [x["id"] for x in ordered]
        rows = ui.Rows(range(len(ordered)), lambda i: _song_row(
            ctx, ordered[i], _play(ctx, ids, i, {"type": "library", "id": "songs"})))
    elif tab == 1:
        rows = ui.Rows(sorted(s["albums"], key=lambda a: a["title"].casefold()), lambda a: _entry_row(
            a["title"], f"{artist(s, a['artist_id'])['name']} · {a['year']}", "album",
            lambda: ctx.navigate("/album", id=a["id"])))
    elif tab == 2:
        counts = {a["id"]: sum(x["artist_id"] == a["id"] for x in s["songs"]) for a in s["artists"]}
        rows = ui.Rows(sorted(s["artists"], key=lambda a: a["name"].casefold()), lambda a: _entry_row(
            a["name"], f"{a['genre']} · {_count(ctx, counts[a['id']])}", "artist",
            lambda: ctx.navigate("/artist", id=a["id"])))
    else:
        rows = [ui.ListItem(ctx.t("Liked Songs"), subtitle=_count(ctx, len(s["liked"])),
                            leading=ui.Icon("♥", size=40, badge="primary", shape="square"), rid="liked_songs_entry",
                            on_click=lambda: ctx.navigate("/liked"))]
        rows += [_entry_row(p["name"], _count(ctx, len(p["song_ids"])), "playlist",
                            lambda p=p: ctx.navigate("/playlist", id=p["id"]))
                 for p in s["playlists"]]
    top = ui.Column([
        ui.TopBar(ctx.t("Music"), actions=[
            ui.IconButton("⚲", ctx.t("Search"), lambda: ctx.navigate("/search"), rid="search")]),
        ui.Tabs([ctx.t(label) for label in TABS], tab, lambda i: ctx.local.update(tab=i, scroll={}), rid_prefix="tab"),
    ])
    fab = (ui.Fab("+", ctx.t("New playlist"), lambda: ctx.navigate("/playlist/edit"), rid="new_playlist")
           if tab == 3 else None)
    return ui.Scaffold(ui.ScrollList(rows, rid="library_list", pad=8), top=top, bottom=_mini_player(ctx), fab=fab,
                       dialog=_song_menu(ctx))


@APP.screen("/album")
def album_detail(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    if not any(x["id"] == ctx.params["id"] for x in s["albums"]):
        return _gone(ctx, ctx.t("Album"))
    a = album(s, ctx.params["id"])
    tracks = sorted((x for x in s["songs"] if x["album_id"] == a["id"]), key=lambda x: x["track"])
    ids = [x["id"] for x in tracks]
    context = {"type": "album", "id": a["id"]}
    owner = artist(s, a["artist_id"])
    rows: list[ui.View | None] = [
        _header(a["title"], "album_title", [
            ui.Text(owner["name"], size=15, color="primary", rid="album_artist",
                    on_click=lambda: ctx.navigate("/artist", id=owner["id"])),
            ui.Text(f"{a['genre']} · {a['year']}", size=13, color="muted", rid="album_year"),
            ui.Text(_songs_meta(ctx, s, ids), size=13, color="muted", rid="album_meta")], glyph="◉"),
        ui.Row([ui.Button(ctx.t("Play"), _play(ctx, ids, 0, context), rid="play_album"),
                ui.Button(ctx.t("Shuffle"), lambda: _shuffle_play(ctx, ids, context), style="outlined",
                          rid="shuffle_album")], gap=8, pad=8),
        *[_song_row(ctx, x, _play(ctx, ids, i, context), show_artist=False,
                    leading=ui.Text(str(x["track"]), size=14, color="muted", width=20, rid="track_number"))
          for i, x in enumerate(tracks)],
    ]
    return _page(ctx, ctx.t("Album"), rows, dialog=_song_menu(ctx))


def _shuffle_play(ctx: Ctx, ids: list[str], context: dict[str, Any]) -> None:
    player = ctx.state["player"]
    player["shuffle"] = True
    start = random.Random(_now(ctx)).randrange(len(ids))
    pb.play_queue(player, ids, start, context, _now(ctx))


@APP.screen("/artist")
def artist_detail(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    if not any(x["id"] == ctx.params["id"] for x in s["artists"]):
        return _gone(ctx, ctx.t("Artist"))
    a = artist(s, ctx.params["id"])
    albums = sorted((x for x in s["albums"] if x["artist_id"] == a["id"]), key=lambda x: -x["year"])
    order = {x["id"]: i for i, x in enumerate(albums)}
    tracks = sorted((x for x in s["songs"] if x["artist_id"] == a["id"]), key=lambda x: (order[x["album_id"]], x["track"]))
    ids = [x["id"] for x in tracks]
    context = {"type": "artist", "id": a["id"]}
    rows: list[ui.View | None] = [
        _header(a["name"], "artist_name", [
            ui.Text(a["genre"], size=14, color="muted", rid="artist_genre"),
            ui.Text(ctx.t("{monthly_listeners:,} monthly listeners", monthly_listeners=a['monthly_listeners']),
                    size=13, color="muted", rid="artist_listeners")], glyph="☆"),
        ui.Button(ctx.t("Play"), _play(ctx, ids, 0, context), rid="play_artist"),
        _section(ctx.t("Songs"), "songs_header"),
        *[_song_row(ctx, x, _play(ctx, ids, i, context), show_artist=False) for i, x in enumerate(tracks)],
        _section(ctx.t("Albums"), "albums_header"),
        *[_entry_row(x["title"], str(x["year"]), "album", lambda x=x: ctx.navigate("/album", id=x["id"]))
          for x in albums],
    ]
    return _page(ctx, ctx.t("Artist"), rows, dialog=_song_menu(ctx))


def matches(text: str, query: str) -> bool:
    """Case-insensitive substring search."""
    return query.strip().casefold() in text.casefold()


@APP.screen("/search", focus="search_input")
def search(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    query = ctx.local.get("query", "")
    rows: list[ui.View | None] = []
    if query.strip():
        names = {a["id"]: a["name"] for a in s["artists"]}
        found = sorted((x for x in s["songs"] if matches(x["title"], query) or matches(names[x["artist_id"]], query)),
                       key=lambda x: x["title"].casefold())
        albums = [a for a in s["albums"] if matches(a["title"], query) or matches(names[a["artist_id"]], query)]
        artists = [a for a in s["artists"] if matches(a["name"], query)]
        ids = [x["id"] for x in found]
        if found:
            rows.append(_section(ctx.t("Songs"), "section_songs"))
            rows += [_song_row(ctx, x, _play(ctx, ids, i, {"type": "search", "id": query.strip()}))
                     for i, x in enumerate(found)]
        if albums:
            rows.append(_section(ctx.t("Albums"), "section_albums"))
            rows += [_entry_row(a["title"], f"{names[a['artist_id']]} · {a['year']}", "album",
                                lambda a=a: ctx.navigate("/album", id=a["id"])) for a in albums]
        if artists:
            rows.append(_section(ctx.t("Artists"), "section_artists"))
            rows += [_entry_row(a["name"], a["genre"], "artist", lambda a=a: ctx.navigate("/artist", id=a["id"]))
                     for a in artists]
        if not rows:
            rows.append(ui.Text(ctx.t("No results for “{strip}”", strip=query.strip()),
                                color="muted", align="center", height=80, max_lines=2, rid="no_results"))
    else:
        rows.append(ui.Text(ctx.t("Search songs, albums and artists"), color="muted",
                            align="center", height=80, rid="search_hint"))
    body = ui.Column([ui.Column([ctx.field("search_input", "query", hint=ctx.t("What do you want to hear?"), ime_action="search")],
                                pad=8),
                      ui.ScrollList(rows, rid="search_results", pad=8)])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Search"), on_back=ctx.back), bottom=_mini_player(ctx),
                       dialog=_song_menu(ctx))


# --- now playing ----------------------------------------------------------------------------------

@APP.screen("/player")
def now_playing(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    player = s["player"]
    lengths = durations(s)
    now = _now(ctx)
    top = ui.TopBar(ctx.t("Now playing"), on_back=ctx.back)
    if not player["order"]:
        return ui.Scaffold(ui.ScrollList([ui.Text(ctx.t("Nothing is playing"), color="muted",
                                                  align="center", height=120, rid="empty")], rid="player"), top=top)
    index, position, playing = pb.playback(player, lengths, now)
    current = song(s, player["order"][index])
    length = current["duration_s"]
    liked = current["id"] in s["liked"]

    def act(fn: Callable[..., None], *args: Any) -> Callable[[], None]:
        return lambda: fn(s["player"], lengths, now, *args)

    shuffle_on, repeat = player["shuffle"], player["repeat"]
    up_next = [song(s, x) for x in player["order"][index + 1:index + 4]]
    rows: list[ui.View | None] = [
        ui.Image(current["title"], glyph="♫", height=220, radius=16),
        ui.Row([ui.Column([ui.Text(current["title"], size=22, bold=True, rid="player_title"),
                           ui.Text(artist(s, current["artist_id"])["name"], size=15, color="muted", rid="player_artist"),
                           ui.Text(album(s, current["album_id"])["title"], size=13, color="muted", rid="player_album")],
                          gap=2, flex=1),
                ui.IconButton("♥" if liked else "♡",
                              ctx.t("Remove from Liked Songs", context="now_playing") if liked else ctx.t("Like"),
                              lambda: _toggle_like(ctx, current["id"]), rid="like", selected=liked,
                              color="primary" if liked else None)]),
        ui.Slider("progress_slider", position // 1000, 0, length,
                  lambda v: pb.seek(s["player"], lengths, now, int(v) * 1000)),
        ui.Row([ui.Text(clock_text(position // 1000), size=12, color="muted", rid="elapsed_time"), ui.Spacer(flex=1),
                ui.Text(clock_text(length), size=12, color="muted", rid="total_time")]),
        ui.Row([
            ui.Spacer(flex=1),
            ui.IconButton("⇄", ctx.t("Shuffle on") if shuffle_on else ctx.t("Shuffle off"),
                          act(pb.set_shuffle, not shuffle_on), rid="shuffle", selected=shuffle_on,
                          color="primary" if shuffle_on else "muted"),
            ui.IconButton("⇤", ctx.t("Previous"), act(pb.skip, -1), rid="previous"),
            ui.IconButton("‖" if playing else "▶", ctx.t("Pause") if playing else ctx.t("Play"),
                          act(pb.toggle_play), rid="play_pause", size=36, width=64, height=64),
            ui.IconButton("⇥", ctx.t("Next"), act(pb.skip, 1), rid="next"),
            ui.IconButton("⟳" if repeat != "one" else "⟳¹", ctx.t(REPEAT_LABELS[repeat]), act(pb.cycle_repeat),
                          rid="repeat", selected=repeat != "off", color="muted" if repeat == "off" else "primary"),
            ui.Spacer(flex=1),
        ], gap=4),
        ui.Row([ui.Spacer(flex=1),
                ui.Button(ctx.t("Add to playlist"), lambda: ctx.local.update(menu=current["id"], menu_pick=True),
                          style="outlined", rid="add_to_playlist"),
                ui.Spacer(flex=1)]),
        ui.Text(ctx.t("Up next"), size=13, bold=True, color="primary", height=32, rid="up_next_header")
        if up_next else None,
        *[ui.ListItem(x["title"], subtitle=artist(s, x["artist_id"])["name"], rid="up_next_item") for x in up_next],
    ]
    return ui.Scaffold(ui.ScrollList(rows, rid="player", pad=16, gap=8), top=top, dialog=_song_menu(ctx))


# --- playlists ------------------------------------------------------------------------------------

@APP.screen("/playlist")
def playlist_detail(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    if not any(x["id"] == ctx.params["id"] for x in s["playlists"]):
        return _gone(ctx, ctx.t("Playlist"))
    p = playlist(s, ctx.params["id"])
    ids = list(p["song_ids"])
    context = {"type": "playlist", "id": p["id"]}

    def delete() -> None:
        s["playlists"] = [x for x in s["playlists"] if x["id"] != p["id"]]
        ctx.toast(ctx.t("Deleted {name}", name=p['name']))
        ctx.back()

    rows: list[ui.View | None] = [
        _header(p["name"], "playlist_name", [
            ui.Text(p["description"], size=13, color="muted", max_lines=2, rid="playlist_description")
            if p["description"] else None,
            ui.Text(_songs_meta(ctx, s, ids), size=13, color="muted", rid="playlist_meta")], glyph="≡"),
        ui.Row([ui.Button(ctx.t("Play"), _play(ctx, ids, 0, context), rid="play_playlist", enabled=bool(ids)),
                ui.Button(ctx.t("Add songs"), lambda: ctx.navigate("/playlist/add", id=p["id"]),
                          style="outlined", rid="add_songs")], gap=8, pad=8),
        *[_song_row(ctx, song(s, x), _play(ctx, ids, i, context)) for i, x in enumerate(ids)],
    ]
    if not ids:
        rows.append(ui.Text(ctx.t("This playlist is empty. Add some songs!"),
                            color="muted", align="center", height=80, rid="empty"))
    dialog = _song_menu(ctx, p["id"])
    if ctx.local.get("confirm_delete"):
        dialog = ui.Dialog(
            ctx.t("Delete “{name}”?", name=p['name']),
            ctx.t("This can't be undone."),
            [ui.Button(ctx.t("Cancel"), lambda: ctx.local.__setitem__("confirm_delete", False), style="text",
                       rid=ui.NEGATIVE),
             ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)],
            on_dismiss=lambda: ctx.local.__setitem__("confirm_delete", False))
    actions = [ui.IconButton("✎", ctx.t("Edit playlist"), lambda: ctx.navigate("/playlist/edit", id=p["id"]),
                             rid="edit_playlist"),
               ui.IconButton("🗑", ctx.t("Delete playlist"), lambda: ctx.local.__setitem__("confirm_delete", True),
                             rid="delete_playlist")]
    return _page(ctx, ctx.t("Playlist"), rows, actions=actions, dialog=dialog)


@APP.screen("/playlist/edit")
def edit_playlist(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    existing = playlist(s, ctx.params["id"]) if ctx.params.get("id") else None
    first = song(s, ctx.params["song"])["id"] if ctx.params.get("song") and existing is None else None
    local = ctx.local
    if "name" not in local:
        local.update(name=existing["name"] if existing else "", description=existing["description"] if existing else "")

    def save() -> None:
        name = local["name"].strip()
        if not name:
            ctx.toast(ctx.t("Give your playlist a name"))
            return
        if any(p["name"].casefold() == name.casefold() and p is not existing for p in s["playlists"]):
            ctx.toast(ctx.t("You already have a playlist called {name}", name=name))
            return
        if existing is not None:
            existing.update(name=name, description=local["description"].strip())
            ctx.back()
            return
        new_id = ctx.new_id("pl")
        s["playlists"].append({"id": new_id, "name": name, "description": local["description"].strip(),
                               "song_ids": [first] if first else [], "created": ctx.now.date().isoformat()})
        ctx.replace("/playlist", id=new_id)

    body: list[ui.View | None] = [
        ui.Text(ctx.t("Name"), size=13, color="primary", height=28),
        ctx.field("playlist_name_input", "name", hint=ctx.t("My playlist"), on_submit=save),
        ui.Text(ctx.t("Description (optional)"), size=13, color="primary", height=28),
        ctx.field("playlist_desc_input", "description", hint=ctx.t("Add a description"), lines=2),
        ui.Spacer(8),
        ui.Row([ui.Spacer(flex=1), ui.Button(ctx.t("Cancel"), ctx.back, style="text", rid="cancel"),
                ui.Button(ctx.t("Save") if existing else ctx.t("Create"), save, rid="save_playlist")], gap=8),
    ]
    title = ctx.t("Edit playlist") if existing else ctx.t("New playlist")
    return ui.Scaffold(ui.ScrollList(body, rid="playlist_form", pad=16, gap=4), top=ui.TopBar(title, on_back=ctx.back))


@APP.screen("/playlist/add")
def add_songs(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    p = playlist(s, ctx.params["id"])
    query = ctx.local.get("query", "")
    names = {a["id"]: a["name"] for a in s["artists"]}
    candidates = sorted((x for x in s["songs"] if matches(x["title"], query) or matches(names[x["artist_id"]], query)),
                        key=lambda x: x["title"].casefold())

    def toggle(song_id: str) -> None:
        if song_id in p["song_ids"]:
            p["song_ids"].remove(song_id)
        else:
            p["song_ids"].append(song_id)

    rows: list[ui.View | None] = [
        ui.ListItem(x["title"], subtitle=f"{names[x['artist_id']]} · {clock_text(x['duration_s'])}", rid="add_song_item",
                    title_rid="song_title", on_click=lambda x=x: toggle(x["id"]),
                    trailing=ui.Checkbox("song_checkbox", x["id"] in p["song_ids"], lambda _v, x=x: toggle(x["id"]),
                                         desc=x["title"]))
        for x in candidates]
    if not rows:
        rows.append(ui.Text(ctx.t("No matching songs"), color="muted", align="center", height=80,
                            rid="no_results"))
    body = ui.Column([ui.Column([ctx.field("filter_input", "query", hint=ctx.t("Search songs"))], pad=8),
                      ui.ScrollList(rows, rid="song_picker", pad=8)])
    top = ui.TopBar(ctx.t("Add to {name}", name=p['name']), on_back=ctx.back,
                    actions=[ui.Button(ctx.t("Done"), ctx.back, style="text", rid="done")])
    return ui.Scaffold(body, top=top)


@APP.screen("/liked")
def liked_songs(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    ids = list(s["liked"])
    context = {"type": "liked", "id": "liked"}
    rows: list[ui.View | None] = [
        _header(ctx.t("Liked Songs"), "liked_title",
                [ui.Text(_songs_meta(ctx, s, ids), size=13, color="muted", rid="liked_meta")], glyph="♥"),
        ui.Button(ctx.t("Play"), _play(ctx, ids, 0, context), rid="play_liked", enabled=bool(ids)),
        *[_song_row(ctx, song(s, x), _play(ctx, ids, i, context),
                    extra=ui.IconButton("♥", ctx.t("Remove {title} from Liked Songs", title=song(s, x)['title']),
                                        lambda x=x: _toggle_like(ctx, x), rid="unlike_song", color="primary"))
          for i, x in enumerate(ids)],
    ]
    if not ids:
        rows.append(ui.Text(ctx.t("Songs you like will appear here"), color="muted",
                            align="center", height=80, rid="empty"))
    return _page(ctx, ctx.t("Liked Songs"), rows, dialog=_song_menu(ctx))
