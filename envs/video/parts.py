"""Pieces the Video app's screens share: the bottom tabs, video and channel rows, section headers, dialogs."""
from __future__ import annotations

from typing import Any

from mobilegym.envs.layout import MARGIN, confirm, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import library as lib

TABS = [("/", "Home"), ("/subscriptions", "Subscriptions"), ("/library", "Library")]


def language(ctx: Ctx) -> str:
    return ctx.t("en")


def tabs(ctx: Ctx, current: str) -> ui.View:
    index = [path for path, _ in TABS].index(current)
    return ui.Tabs([ctx.t(label) for _, label in TABS], index, lambda i: ctx.replace(TABS[i][0]), rid_prefix="tab")


def search_button(ctx: Ctx) -> ui.View:
    return ui.IconButton("⚲", ctx.t("Search"), lambda: ctx.navigate("/search"), rid="search")


def section(title: str, rid: str) -> ui.View:
    """A section header of a list padded 8 dp: its text at the 16 dp margin."""
    return inset(ui.Text(title, size=13, bold=True, color="primary", height=32, rid=rid), MARGIN - 8)


def meta(ctx: Ctx, item: dict[str, Any]) -> str:
    """A video's second line: channel · views · when (a live stream: channel · its start)."""
    lang = language(ctx)
    name = lib.channel_name(ctx.state, item["channel_id"], lang)
    if item["live_at"]:
        return f"{name} · " + ctx.t("Live ") + lib.time_text(lang, item["live_at"])
    return f"{name} · {lib.views_text(lang, item['views'])} · {lib.ago_text(lang, item['uploaded'], ctx.now)}"


def video_row(ctx: Ctx, item: dict[str, Any], *, trailing: ui.View | None = None, subtitle: str | None = None) -> ui.View:
    """A video in a list: title, channel, views, age and duration; a tap opens its page."""
    length = ctx.t("Upcoming") if item["live_at"] else lib.duration_text(item["duration_s"])
    sub = subtitle if subtitle is not None else meta(ctx, item)
    return ui.ListItem(item["title"], subtitle=f"{length} · {sub}",
                       leading=ui.Icon("▶", size=40, badge="primary", shape="square"), trailing=trailing,
                       rid="video_item", title_rid="video_title", desc=f"{item['title']} · {length} · {sub}",
                       on_click=lambda: ctx.navigate("/video", id=item["id"]))


def channel_row(ctx: Ctx, item: dict[str, Any]) -> ui.View:
    lang = language(ctx)
    subs = ctx.t("{count_text} subscribers", count_text=lib.count_text(lang, item['subscribers']))
    return ui.ListItem(item["name"], subtitle=f"{item['topic']} · {subs}",
                       leading=ui.Icon(item["name"][:1], size=40, badge="#C62828", color="#FFFFFF"), trailing="›",
                       rid="channel_item", title_rid="channel_name", desc=f"{item['name']} · {subs}",
                       on_click=lambda: ctx.navigate("/channel", id=item["id"]))



def subscribe_dialog(ctx: Ctx, item: dict[str, Any]) -> ui.Dialog | None:
    """The confirmation an unsubscribe asks (shown while ``ctx.local["unsubscribe"]`` is set)."""
    def unsubscribe() -> None:
        item["subscribed"] = False
        ctx.toast(ctx.t("Subscription removed"))

    return confirm(ctx, "unsubscribe", ctx.t("Unsubscribe from {name}?", name=item['name']),
                   ctx.t("Its videos will no longer appear in Subscriptions."),
                   ctx.t("Unsubscribe"), unsubscribe)


def subscribe_button(ctx: Ctx, item: dict[str, Any]) -> ui.View:
    """Subscribe (one tap), or Subscribed (a tap asks to unsubscribe)."""
    def subscribe() -> None:
        item["subscribed"] = True
        ctx.toast(ctx.t("Subscription added"))

    if item["subscribed"]:
        return ui.Button(ctx.t("Subscribed"), lambda: ctx.local.__setitem__("unsubscribe", True),
                         style="outlined", rid="subscribe_button", selected=True)
    return ui.Button(ctx.t("Subscribe"), subscribe, rid="subscribe_button")


def empty(text: str) -> ui.View:
    return ui.Text(text, color="muted", align="center", height=100, max_lines=2, rid="empty")
