"""Video screens for browsing: the home feed, subscriptions, the library (history, lists, settings entries),
search, channel pages, history, Watch later / Favourites and settings."""
from __future__ import annotations

from typing import Any

from mobilegym.envs.layout import confirm
from mobilegym.envs.l10n import counted
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import library as lib
from .app import APP
from .parts import (channel_row, empty, language, search_button, section, subscribe_button, subscribe_dialog,
                    tabs, video_row)


# --- home -------------------------------------------------------------------------------------------

@APP.screen("/")
def home(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    lives = lib.live_streams(s)
    makers: list[Any] = []
    if lives:
        makers.append(lambda: section(ctx.t("Upcoming live"), "live_header"))
        makers += [lambda v=v: video_row(ctx, v) for v in lives]
        makers.append(lambda: section(ctx.t("Latest videos"), "latest_header"))
    makers += [lambda v=v: video_row(ctx, v) for v in lib.uploads(s)]
    return ui.Scaffold(ui.ScrollList(ui.Rows(makers, lambda make: make()), rid="home_feed", pad=8),
                       top=ui.TopBar(ctx.t("Video"), actions=[search_button(ctx)]), bottom=tabs(ctx, "/"))


# --- subscriptions ------------------------------------------------------------------------------------

@APP.screen("/subscriptions")
def subscriptions(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    subscribed = sorted((c for c in s["channels"] if c["subscribed"]), key=lambda c: c["name"].casefold())
    ids = {c["id"] for c in subscribed}
    latest = [v for v in lib.uploads(s) if v["channel_id"] in ids]
    makers: list[Any] = [lambda: section(ctx.t("Channels ({n_subscribed})", n_subscribed=len(subscribed)),
                                         "channels_header")]
    makers += [lambda c=c: channel_row(ctx, c) for c in subscribed]
    if not subscribed:
        makers.append(lambda: empty(ctx.t("Subscribe to a channel to see it here")))
    else:
        makers.append(lambda: section(ctx.t("Latest from your channels"), "latest_header"))
        makers += [lambda v=v: video_row(ctx, v) for v in latest]
    return ui.Scaffold(ui.ScrollList(ui.Rows(makers, lambda make: make()), rid="subscriptions_list", pad=8),
                       top=ui.TopBar(ctx.t("Subscriptions"), actions=[search_button(ctx)]),
                       bottom=tabs(ctx, "/subscriptions"))


# --- library ------------------------------------------------------------------------------------------

@APP.screen("/library")
def library_screen(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    rows: list[ui.View | None] = [
        ui.ListItem(ctx.t("History"), subtitle=ctx.tn("{count} video", "{count} videos", len(s['history'])),
                    leading=ui.Icon("↻", size=24), trailing="›", rid="history_entry", on_click=lambda: ctx.navigate("/history")),
        *[ui.ListItem(ctx.t(lib.LISTS[name]), subtitle=ctx.tn("{count} video", "{count} videos", len(s[name])),
                      leading=ui.Icon(glyph, size=24), trailing="›", rid=f"{name}_entry",
                      on_click=lambda name=name: ctx.navigate("/list", name=name))
          for name, glyph in (("watch_later", "◷"), ("favorites", "★"))],
        ui.ListItem(ctx.t("Settings"), leading=ui.Icon("⚙", size=24), trailing="›", rid="settings_entry",
                    on_click=lambda: ctx.navigate("/settings")),
    ]
    return ui.Scaffold(ui.ScrollList(rows, rid="library_list", pad=8),
                       top=ui.TopBar(ctx.t("Library"), actions=[search_button(ctx)]), bottom=tabs(ctx, "/library"))


# --- search -------------------------------------------------------------------------------------------

def results(state: dict[str, Any], query: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(channels, videos) a search shows: the query in a channel's name, or in a video's title or channel name
    (case-insensitive); videos newest first, upcoming live streams first."""
    q = query.strip().casefold()
    if not q:
        return [], []
    channels = [c for c in state["channels"] if q in c["name"].casefold()]
    names = {c["id"]: c["name"].casefold() for c in state["channels"]}
    hit = [v for v in state["videos"] if q in v["title"].casefold() or q in names[v["channel_id"]]]
    lives = sorted((v for v in hit if v["live_at"]), key=lambda v: v["live_at"])
    return channels, lives + sorted((v for v in hit if not v["live_at"]), key=lambda v: v["uploaded"], reverse=True)


@APP.screen("/search", focus="search_input")
def search(ctx: Ctx) -> ui.Scaffold:
    query = ctx.local.get("query", "")
    channels, videos = results(ctx.state, query)
    makers: list[Any] = [lambda c=c: channel_row(ctx, c) for c in channels]
    makers += [lambda v=v: video_row(ctx, v) for v in videos]
    if query.strip() and not makers:
        makers.append(lambda: empty(ctx.t("No results. Try other words.")))
    body = ui.Column([
        ui.Column([ctx.field("search_input", "query", hint=ctx.t("Search videos and channels"),
                             ime_action="search")], pad=8),
        ui.ScrollList(ui.Rows(makers, lambda make: make()), rid="search_results", pad=8)])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Search"), on_back=ctx.back))


# --- channel ------------------------------------------------------------------------------------------

SORTS = (("latest", "Latest"), ("popular", "Popular"))


@APP.screen("/channel")
def channel_page(ctx: Ctx) -> ui.Scaffold:
    s, lang = ctx.state, language(ctx)
    item = lib.channel_or_none(s, ctx.params.get("id"))
    if item is None:
        gone = ui.Text(ctx.t("This channel no longer exists."), color="muted", align="center",
                       height=120, rid="missing")
        return ui.Scaffold(ui.ScrollList([gone], rid="channel_videos"), top=ui.TopBar("", on_back=ctx.back))
    sort = ctx.local.get("sort", "latest")
    videos = lib.uploads(s, item["id"])
    if sort == "popular":
        videos.sort(key=lambda v: -v["views"])
    header: list[Any] = [
        lambda: ui.Row([ui.Icon(item["name"][:1], size=56, badge="#C62828", color="#FFFFFF"),
                        ui.Column([ui.Text(item["name"], size=20, bold=True, rid="channel_title"),
                                   ui.Text(ctx.t("{count_text} subscribers · {counted}", count_text=lib.count_text(lang, item['subscribers']), counted=counted(len(videos), 'video'), n_videos=len(videos)),
                                           size=13, color="muted", rid="channel_stats")], gap=2, flex=1)], gap=12, pad=8),
        lambda: ui.Row([subscribe_button(ctx, item)], pad=8),
        lambda: ui.Row([ui.Chip(ctx.t(label), sort == key, lambda _on, key=key: ctx.local.__setitem__("sort", key),
                                rid=f"sort_{key}") for key, label in SORTS], gap=8, pad=8),
    ]
    lives = lib.live_streams(s, item["id"])
    makers = header + [lambda v=v: video_row(ctx, v) for v in lives + videos]
    return ui.Scaffold(ui.ScrollList(ui.Rows(makers, lambda make: make()), rid="channel_videos", pad=8),
                       top=ui.TopBar(item["name"], on_back=ctx.back, actions=[search_button(ctx)]),
                       dialog=subscribe_dialog(ctx, item))


# --- history ------------------------------------------------------------------------------------------

@APP.screen("/history")
def history(ctx: Ctx) -> ui.Scaffold:
    s, lang = ctx.state, language(ctx)

    def remove(entry: dict[str, Any]) -> None:
        s["history"].remove(entry)
        ctx.toast(ctx.t("Removed from watch history"))

    def clear() -> None:
        s["history"].clear()
        ctx.toast(ctx.t("Watch history cleared"))

    def row(entry: dict[str, Any]) -> ui.View:
        item = lib.video(s, entry["video_id"])
        when = ctx.t("Watched {ago_text}", ago_text=lib.ago_text(lang, entry['watched_at'], ctx.now))
        name = lib.channel_name(s, item["channel_id"], lang)
        return video_row(ctx, item, subtitle=f"{name} · {when}", trailing=ui.IconButton(
            "✕", ctx.t("Remove {title} from history", title=item['title']),
            lambda: remove(entry), rid="history_remove"))

    rows = ui.Rows(s["history"], row) if s["history"] else [
        empty(ctx.t("Videos you watch will show up here"))]
    actions = [ui.IconButton("🗑", ctx.t("Clear all watch history"),
                             lambda: ctx.local.__setitem__("clear", True), rid="clear_history")] if s["history"] else []
    dialog = confirm(ctx, "clear", ctx.t("Clear watch history?"),
                     ctx.t("All videos will be removed from your watch history. This can't be undone."), ctx.t("Clear"), clear)
    return ui.Scaffold(ui.ScrollList(rows, rid="history_list", pad=8),
                       top=ui.TopBar(ctx.t("History"), on_back=ctx.back, actions=actions), dialog=dialog)


# --- Watch later / Favourites -------------------------------------------------------------------------

@APP.screen("/list")
def saved_list(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    name = ctx.params["name"]
    if name not in lib.LISTS:
        raise KeyError(f"video: no list {name!r}; known: {', '.join(lib.LISTS)}")
    title = ctx.t(lib.LISTS[name])

    def remove(video_id: str) -> None:
        s[name].remove(video_id)
        ctx.toast(ctx.t("Removed from {title}", title=title))

    count = ctx.tn("{count} video", "{count} videos", len(s[name]), context="list_count")
    makers: list[Any] = [lambda: section(count, "list_count")]
    makers += [lambda v=v: video_row(ctx, v, trailing=ui.IconButton(
        "✕", ctx.t("Remove {title} from {title_2}", title=v['title'], title_2=title),
        lambda: remove(v["id"]), rid="list_remove")) for v in (lib.video(s, i) for i in s[name])]
    if not s[name]:
        makers.append(lambda: empty(ctx.t("No videos yet")))
    return ui.Scaffold(ui.ScrollList(ui.Rows(makers, lambda make: make()), rid="saved_list", pad=8),
                       top=ui.TopBar(title, on_back=ctx.back))


# --- settings -----------------------------------------------------------------------------------------

@APP.screen("/settings")
def settings(ctx: Ctx) -> ui.Scaffold:
    s, local = ctx.state["settings"], ctx.local

    def toggle_autoplay(on: bool | None = None) -> None:
        s["autoplay"] = not s["autoplay"] if on is None else bool(on)

    def pick(quality: str) -> None:
        s["quality"] = quality
        local["quality_dialog"] = False

    rows: list[ui.View | None] = [
        ui.ListItem(ctx.t("Autoplay next video"),
                    subtitle=ctx.t("Play a related video when one ends"),
                    trailing=ui.Switch("autoplay_switch", s["autoplay"], toggle_autoplay), rid="autoplay_row",
                    on_click=toggle_autoplay),
        ui.ListItem(ctx.t("Playback quality"), subtitle=ctx.t(lib.QUALITY_LABELS[s["quality"]]),
                    trailing="›", rid="quality_row", on_click=lambda: local.__setitem__("quality_dialog", True)),
    ]
    dialog = None
    if local.get("quality_dialog"):
        close = lambda: local.__setitem__("quality_dialog", False)  # noqa: E731
        dialog = ui.Dialog(ctx.t("Playback quality"),
                           [ui.Radio("quality_option", s["quality"] == q, lambda q=q: pick(q), label=ctx.t(label))
                            for q, label in lib.QUALITY_LABELS.items()],
                           [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE)], on_dismiss=close)
    return ui.Scaffold(ui.ScrollList(rows, rid="settings_list", pad=8),
                       top=ui.TopBar(ctx.t("Settings"), on_back=ctx.back), dialog=dialog)
