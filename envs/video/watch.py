"""The video page: the player (play/pause, a progress bar that follows the simulated clock, seeking), like and
dislike, saving to Watch later / Favourites, sharing to Messages, the channel with its subscribe button, and
comments (posting one). Playing a video records it at the top of the watch history."""
from __future__ import annotations

import random
from typing import Any

from mobilegym.envs.l10n import counted
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx
from mobilegym.sim.clock import from_ms

from . import library as lib
from .app import APP
from .parts import language, subscribe_button, subscribe_dialog
from .world import pools

MAX_COMMENT = 500
SHOWN_COMMENTS = 3  # other people's top comments on the page
LINK = "https://video.example.com/watch?v="


def _minute(ms: int) -> str:
    return from_ms(ms).isoformat(timespec="minutes")


def play(state: dict[str, Any], video_id: str, now_ms: int, entry_id: str) -> None:
    """Start (or resume) a video, recording it at the top of the history as ``entry_id`` (once: an earlier entry
    of the video goes)."""
    at, _ = lib.position(state, video_id, now_ms)
    if at >= lib.video(state, video_id)["duration_s"]:
        at = 0
    state["player"].update(video_id=video_id, playing=True, position_s=at, started_at_ms=now_ms)
    state["history"][:] = [{"id": entry_id, "video_id": video_id, "watched_at": _minute(now_ms)},
                           *(h for h in state["history"] if h["video_id"] != video_id)]


def pause(state: dict[str, Any], video_id: str, now_ms: int) -> None:
    at, _ = lib.position(state, video_id, now_ms)
    state["player"].update(playing=False, position_s=at, started_at_ms=None)


def seek(state: dict[str, Any], video_id: str, now_ms: int, seconds: int) -> None:
    """Move the loaded video to ``seconds`` (loading it paused when another one was in the player)."""
    if state["player"]["video_id"] != video_id:
        state["player"].update(video_id=video_id, playing=False, position_s=0, started_at_ms=None)
    playing = lib.position(state, video_id, now_ms)[1]
    at = max(0, min(int(seconds), lib.video(state, video_id)["duration_s"]))
    state["player"].update(position_s=at, started_at_ms=now_ms if playing else None)


def others_comments(language_: str, item: dict[str, Any]) -> list[tuple[str, str, int]]:
    """Other people's top comments of a video as (author, text, likes): drawn from the pool, seeded by the video."""
    pool = pools(language_)
    rng = random.Random(f"video-comments|{item['id']}|{item['title']}")
    shown = min(SHOWN_COMMENTS, item["comment_count"])
    authors = rng.sample(pool["commenters"], shown)
    texts = rng.sample(pool["comments"], shown)
    return [(a, t, rng.randrange(0, 2000)) for a, t in zip(authors, texts)]


def _save_dialog(ctx: Ctx, item: dict[str, Any]) -> ui.Dialog | None:
    if not ctx.local.get("save"):
        return None
    s = ctx.state

    def toggle(name: str, on: bool) -> None:
        if on and item["id"] not in s[name]:
            s[name].insert(0, item["id"])
        elif not on and item["id"] in s[name]:
            s[name].remove(item["id"])

    close = lambda: ctx.local.__setitem__("save", False)  # noqa: E731
    boxes = [ui.Checkbox(f"save_{name}", item["id"] in s[name], lambda on, name=name: toggle(name, on),
                         label=ctx.t(lib.LISTS[name])) for name in lib.LISTS]
    return ui.Dialog(ctx.t("Save video to..."), boxes,
                     [ui.Button(ctx.t("Done"), close, style="text", rid=ui.POSITIVE)], on_dismiss=close)


def _player(ctx: Ctx, item: dict[str, Any]) -> list[ui.View | None]:
    s, lang, now = ctx.state, language(ctx), ctx.os["time_ms"]
    if item["live_at"]:
        when = lib.time_text(lang, item["live_at"])
        return [ui.Image(ctx.t("Live stream, starts {when}", when=when), glyph="◉", height=190, radius=0),
                ui.Text(ctx.t("Live stream · starts {when}", when=when), size=15, bold=True,
                        color="primary", rid="live_time")]
    at, playing = lib.position(s, item["id"], now)
    length = item["duration_s"]
    toggle = (lambda: pause(s, item["id"], now)) if playing else (lambda: play(s, item["id"], now, ctx.new_id("watch")))
    return [
        ui.Image(ctx.t("Video player"), glyph="‖" if playing else "▶", height=190, radius=0, rid="player",
                 on_click=toggle),
        ui.Slider("progress_slider", at, 0, length, lambda v: seek(s, item["id"], now, int(v))),
        ui.Row([ui.IconButton("‖" if playing else "▶", ctx.t("Pause") if playing else ctx.t("Play"),
                              toggle, rid="play_pause"),
                ui.Text(f"{lib.duration_text(at)} / {lib.duration_text(length)}", size=13, color="muted",
                        rid="elapsed_time", flex=1)], gap=4),
    ]


def _actions(ctx: Ctx, item: dict[str, Any]) -> ui.View:
    s, lang = ctx.state, language(ctx)
    reaction = item["reaction"]

    def react(kind: str) -> None:
        item["reaction"] = "" if item["reaction"] == kind else kind

    def share() -> None:
        ctx.open_app("messages", "/compose", body=f"{item['title']} {LINK}{item['id']}")

    share_chip = ui.Chip(ctx.t("↗ Share"), False, lambda _on: share(), rid="share_button", flex=1)
    if item["live_at"]:  # nothing to rate or save before a stream starts
        return ui.Row([share_chip, ui.Spacer(flex=1)], gap=8)
    saved = any(item["id"] in s[name] for name in lib.LISTS)
    return ui.Column([
        ui.Row([ui.Chip(f"▲ {lib.count_text(lang, lib.likes_shown(item))}", reaction == "like", lambda _on: react("like"),
                        rid="like_button", flex=1),
                ui.Chip(ctx.t("▼ Dislike"), reaction == "dislike", lambda _on: react("dislike"),
                        rid="dislike_button", flex=1)], gap=8),
        ui.Row([ui.Chip(ctx.t("★ Saved") if saved else ctx.t("☆ Save"), saved,
                        lambda _on: ctx.local.__setitem__("save", True), rid="save_button", flex=1),
                share_chip], gap=8),
    ], gap=8)


def _comments(ctx: Ctx, item: dict[str, Any]) -> list[ui.View | None]:
    s, lang = ctx.state, language(ctx)
    total = item["comment_count"] + len(item["comments"])

    def post() -> None:
        text = " ".join(ctx.local.get("comment", "").split())
        if not text:
            ctx.toast(ctx.t("Write a comment first"))
            return
        if len(text) > MAX_COMMENT:
            ctx.toast(ctx.t("Comments are limited to {max_comment} characters", max_comment=MAX_COMMENT))
            return
        item["comments"].insert(0, {"id": ctx.new_id("cm"), "text": text, "at": _minute(ctx.os["time_ms"])})
        ctx.local["comment"] = ""
        ctx.toast(ctx.t("Comment posted"))

    rows: list[ui.View | None] = [
        ui.Text(ctx.t("Comments {total:,}", total=total), size=13, bold=True, color="primary", height=32,
                rid="comments_header"),
        ui.Row([ctx.field("comment_input", "comment", hint=ctx.t("Add a comment..."), flex=1),
                ui.IconButton("➤", ctx.t("Post comment"), post, rid="post_comment")], gap=4),
    ]
    mine = [(s["owner"], c["text"], lib.ago_text(lang, c["at"], ctx.now)) for c in item["comments"]]
    others = [(a, t, ctx.tn("{count} like", "{count} likes", likes)) for a, t, likes in others_comments(lang, item)]
    for author, text, note in mine + others:
        rows.append(ui.Column([ui.Text(f"{author} · {note}", size=12, color="muted", rid="comment_author"),
                               ui.Text(text, size=14, max_lines=4, rid="comment_text")], gap=2,
                              rid="comment_item", desc=f"{author}: {text}"))
    return rows


@APP.screen("/video")
def video_page(ctx: Ctx) -> ui.Scaffold:
    s, lang = ctx.state, language(ctx)
    item = lib.video(s, ctx.params["id"])
    ch = lib.channel_or_none(s, item["channel_id"])
    if item["live_at"]:
        info = ctx.t("Upcoming live stream")
    else:
        info = ctx.t("{counted} · {ago_text} · {date_text}", counted=counted(item['views'], 'view', grouped=True), ago_text=lib.ago_text(lang, item['uploaded'], ctx.now), date_text=lib.date_text(lang, item['uploaded']), views=item['views'])
    if ch is None:  # the channel is gone: its name as rows print it, nothing to open or subscribe to
        channel_row: ui.View = ui.Row([ui.Text(lib.channel_name(s, item["channel_id"], lang), size=15, bold=True,
                                               rid="channel_link", flex=1)], gap=10, pad=4)
    else:
        subs = ctx.t("{count_text} subscribers", count_text=lib.count_text(lang, ch['subscribers']))
        channel_row = ui.Row([ui.Icon(ch["name"][:1], size=40, badge="#C62828", color="#FFFFFF"),
                              ui.Column([ui.Text(ch["name"], size=15, bold=True, rid="channel_link"),
                                         ui.Text(subs, size=12, color="muted", rid="channel_subscribers")], gap=2,
                                        flex=1, on_click=lambda: ctx.navigate("/channel", id=ch["id"]), desc=ch["name"]),
                              subscribe_button(ctx, ch)], gap=10, pad=4)
    rows: list[ui.View | None] = [
        *_player(ctx, item),
        ui.Text(item["title"], size=18, bold=True, max_lines=3, rid="video_page_title"),
        ui.Text(info, size=13, color="muted", max_lines=2, rid="video_info"),
        _actions(ctx, item),
        channel_row,
        ui.Divider(),
        *_comments(ctx, item),
    ]
    dialog = _save_dialog(ctx, item) or (subscribe_dialog(ctx, ch) if ch is not None else None)
    return ui.Scaffold(ui.ScrollList(rows, rid="video_detail", pad=16, gap=8),
                       top=ui.TopBar(ctx.t("Video"), on_back=ctx.back), dialog=dialog)
