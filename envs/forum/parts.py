"""Pieces the Forum's screens share: the bottom tabs, sort chips and post rows."""
from __future__ import annotations

from typing import Any, Callable

from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import feed

TABS = (("/", "Home"), ("/communities", "Communities"), ("/me", "Profile"))


def language(ctx: Ctx) -> str:
    return ctx.t("en")


def tabs(ctx: Ctx, current: str) -> ui.View:
    index = [path for path, _ in TABS].index(current)
    return ui.Tabs([ctx.t(label) for _, label in TABS], index, lambda i: ctx.replace(TABS[i][0]), rid_prefix="tab")


def sort_chips(ctx: Ctx) -> ui.View:
    """Hot / New / Top chips; the choice lives in ``ctx.local["sort"]``."""
    current = ctx.local.get("sort", "hot")

    def pick(key: str) -> None:
        ctx.local.update(sort=key, scroll={})

    return ui.Row([ui.Chip(ctx.t(label), key == current, lambda _v, key=key: pick(key), rid=f"sort_{key}", flex=1)
                   for key, label in feed.SORTS], gap=8, pad=8)


def post_desc(ctx: Ctx, post: dict[str, Any]) -> str:
    """A post row's description: title, community, author, score, comments, age."""
    s = ctx.state
    count = len(post["comments"])
    return " · ".join([post["title"], feed.community_name(s, post["community_id"], language(ctx)),
                       ctx.t("by {handle}", handle=feed.handle(s, post['author_id'])),
                       ctx.tn("{count} point", "{count} points", feed.score(post)),
                       ctx.tn("{count} comment", "{count} comments", count), feed.age(language(ctx), post, ctx.now)])


def post_row(ctx: Ctx, post: dict[str, Any], *, show_community: bool = True) -> ui.View:
    """A post in a feed (its title on up to two lines, its author always shown); a tap opens its page."""
    s = ctx.state
    where = [feed.community_name(s, post["community_id"], language(ctx))] if show_community else []
    vote = {1: "▲", -1: "▼"}.get(post["vote"], "△")
    subtitle = " · ".join([*where, feed.handle(s, post["author_id"]), feed.age(language(ctx), post, ctx.now),
                           f"{vote} {feed.score(post)}",
                           ctx.tn("{count} comment", "{count} comments", len(post['comments']))])
    return ui.ListItem(post["title"], subtitle=subtitle, rid="post_item", title_rid="post_title", title_lines=2,
                       desc=post_desc(ctx, post), on_click=lambda: ctx.navigate("/post", id=post["id"]))


def post_list(ctx: Ctx, posts: list[dict[str, Any]], rid: str, empty_text: str | None,
              head: list[Callable[[], ui.View]] | None = None, show_community: bool = True) -> ui.View:
    makers: list[Callable[[], ui.View]] = list(head or [])
    makers += [lambda p=p: post_row(ctx, p, show_community=show_community) for p in posts]
    if not posts and empty_text:
        makers.append(lambda: empty(ctx.t(empty_text)))
    return ui.ScrollList(ui.Rows(makers, lambda make: make()), rid=rid, pad=8)



def empty(text: str) -> ui.View:
    return ui.Text(text, color="muted", align="center", height=100, max_lines=2, rid="empty")
