"""Forum screens: the home feed, communities (list, a community's page, join/leave), a post's page (votes, save,
the comment thread, replies, deleting the owner's post or comment), user profiles (follow), the owner's profile
and creating a post."""
from __future__ import annotations

from typing import Any

from mobilegym.envs.layout import MARGIN, confirm, inset
from mobilegym.envs.l10n import counted
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import feed
from .app import APP
from .parts import empty, language, post_list, sort_chips, tabs
from .world import ME, stamp

MAX_TITLE = 120


def _fab(ctx: Ctx, community_id: str = "") -> ui.Fab:
    return ui.Fab("+", ctx.t("Create post"), lambda: ctx.navigate("/compose", community=community_id),
                  rid="create_post")


# --- home and communities -------------------------------------------------------------------------

@APP.screen("/")
def home(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    posts = feed.sorted_posts(feed.home_posts(s), ctx.local.get("sort", "hot"), ctx.now)
    body = ui.Column([sort_chips(ctx), post_list(ctx, posts, "feed", "Join communities to fill your feed")])
    search = ui.IconButton("⚲", ctx.t("Search"), lambda: ctx.navigate("/search"), rid="search_button")
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Forum"), actions=[search]), bottom=tabs(ctx, "/"),
                       fab=_fab(ctx))


def search_results(state: dict[str, Any], query: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Communities and posts (newest first) whose name or title holds the query, case aside; none for a blank one."""
    q = query.strip().casefold()
    if not q:
        return [], []
    return ([c for c in state["communities"] if q in c["name"].casefold()],
            [p for p in state["posts"] if q in p["title"].casefold()])


@APP.screen("/search", focus="search_input")
def search(ctx: Ctx) -> ui.Scaffold:
    query = ctx.local.get("query", "")
    found_communities, found_posts = search_results(ctx.state, query)
    head = [lambda c=c: _community_row(ctx, c) for c in found_communities]
    hint = "Search posts and communities" if not query.strip() else "No results"
    body = ui.Column([
        ui.Column([ctx.field("search_input", "query", hint=ctx.t("Search Forum"), ime_action="search")],
                  pad=8),
        post_list(ctx, found_posts, "search_results", None if found_communities else hint, head=head)])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Search"), on_back=ctx.back))


def _community_row(ctx: Ctx, c: dict[str, Any]) -> ui.View:
    count = feed.members(c)
    status = ctx.t(" · Joined") if c["joined"] else ""
    subtitle = ctx.tn("{count:,} member", "{count:,} members", count) + status
    return ui.ListItem(c["name"], subtitle=subtitle, leading=ui.Icon("☰", size=32, badge="primary"), trailing="›",
                       rid="community_item", title_rid="community_name", desc=f"{c['name']} · {subtitle}",
                       on_click=lambda: ctx.navigate("/community", id=c["id"]))


def _section(title: str, rid: str) -> ui.View:
    """A section header of a list padded 8 dp: its text at the 16 dp margin."""
    return inset(ui.Text(title, size=13, bold=True, color="primary", height=32, rid=rid), MARGIN - 8)


@APP.screen("/communities")
def communities(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    joined = [c for c in s["communities"] if c["joined"]]
    others = [c for c in s["communities"] if not c["joined"]]
    rows: list[ui.View | None] = [_section(ctx.t("Your communities"), "joined_header")]
    rows += [_community_row(ctx, c) for c in joined] or [empty(ctx.t("You haven't joined any"))]
    rows.append(_section(ctx.t("Discover"), "discover_header"))
    rows += [_community_row(ctx, c) for c in others]
    return ui.Scaffold(ui.ScrollList(rows, rid="community_list", pad=8),
                       top=ui.TopBar(ctx.t("Communities")), bottom=tabs(ctx, "/communities"))


@APP.screen("/community")
def community_page(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    c = feed.community_or_none(s, ctx.params.get("id"))
    if c is None:
        gone = ui.Text(ctx.t("This community no longer exists."), color="muted", align="center",
                       height=120, rid="missing")
        return ui.Scaffold(ui.ScrollList([gone], rid="community_feed"), top=ui.TopBar("", on_back=ctx.back))

    def toggle() -> None:
        c["joined"] = not c["joined"]
        ctx.toast(ctx.t("Joined {name}", name=c['name']) if c["joined"]
                  else ctx.t("Left {name}", name=c['name']))

    count = feed.members(c)
    header = ui.Column([
        ui.Row([ui.Column([ui.Text(c["name"], size=20, bold=True, rid="community_title"),
                           ui.Text(ctx.tn("{count:,} member", "{count:,} members", count), size=13, color="muted",
                                   rid="community_members")], gap=2, flex=1),
                ui.Button(ctx.t("Joined") if c["joined"] else ctx.t("Join"), toggle,
                          style="outlined" if c["joined"] else "filled", rid="join_button", selected=c["joined"])]),
        ui.Text(c["about"], size=14, max_lines=3, rid="community_about"),
    ], gap=6, pad=12)
    posts = feed.sorted_posts(feed.community_posts(s, c["id"]), ctx.local.get("sort", "hot"), ctx.now)
    body = ui.Column([header, sort_chips(ctx),
                      post_list(ctx, posts, "community_feed", "No posts yet", show_community=False)])
    return ui.Scaffold(body, top=ui.TopBar(c["name"], on_back=ctx.back), fab=_fab(ctx, c["id"]))


# --- a post -------------------------------------------------------------------------------------------

def _vote(item: dict[str, Any], value: int) -> None:
    """Up (1) or down (-1): a second tap on the same arrow takes the vote back."""
    item["vote"] = 0 if item["vote"] == value else value


def _vote_row(ctx: Ctx, item: dict[str, Any], prefix: str, extra: list[ui.View | None]) -> ui.View:
    up, down = item["vote"] == 1, item["vote"] == -1
    return ui.Row([
        ui.IconButton("▲" if up else "△", ctx.t("Upvote"), lambda: _vote(item, 1), rid=f"{prefix}upvote",
                      selected=up, color="primary" if up else None, width=40, height=40),
        ui.Text(str(feed.score(item)), size=14, bold=True, rid=f"{prefix}score", align="center", width=44),
        ui.IconButton("▼" if down else "▽", ctx.t("Downvote"), lambda: _vote(item, -1), rid=f"{prefix}downvote",
                      selected=down, color="primary" if down else None, width=40, height=40),
        *extra], gap=2)


def _comment_view(ctx: Ctx, post: dict[str, Any], comment: dict[str, Any], depth: int) -> ui.View:
    s = ctx.state
    who = feed.handle(s, comment["author_id"])
    extra: list[ui.View | None] = []
    if depth == 0:
        extra.append(ui.Button(ctx.t("Reply"), lambda: ctx.local.update(reply_to=comment["id"]), style="text",
                               rid="reply_button", desc=ctx.t("Reply to {who}", who=who)))
    if comment["author_id"] == ME:
        extra.append(ui.IconButton("🗑", ctx.t("Delete comment"),
                                   lambda: ctx.local.update(deleting_comment=comment["id"]), rid="delete_comment",
                                   width=40, height=40))
    desc = ctx.t("{who}: {v_text} · {counted}", who=who, v_text=comment['text'], counted=counted(feed.score(comment), 'point'), score=feed.score(comment))
    return ui.Column([
        ui.Text(f"{who} · {feed.age(language(ctx), comment, ctx.now)}", size=12, color="muted", bold=True,
                rid="comment_author", on_click=None if comment["author_id"] == ME
                else (lambda: ctx.navigate("/user", id=comment["author_id"]))),
        ui.Text(comment["text"], size=14, max_lines=None, rid="comment_text"),
        _vote_row(ctx, comment, "comment_", extra),
    ], gap=2, pad=8 if depth == 0 else 0, rid="comment_item", desc=desc) if depth == 0 else ui.Row(
        [ui.Spacer(width=24), ui.Column([
            ui.Text(f"{who} · {feed.age(language(ctx), comment, ctx.now)}", size=12, color="muted", bold=True,
                    rid="comment_author"),
            ui.Text(comment["text"], size=14, max_lines=None, rid="comment_text"),
            _vote_row(ctx, comment, "comment_", extra)], gap=2, flex=1)],
        gap=0, rid="comment_item", desc=desc)


@APP.screen("/post")
def post_page(ctx: Ctx) -> ui.Scaffold:
    s, local = ctx.state, ctx.local
    post = next((p for p in s["posts"] if p["id"] == ctx.params.get("id")), None)
    if post is None:
        gone = ui.Text(ctx.t("This post was deleted."), color="muted", align="center", height=120,
                       rid="missing")
        return ui.Scaffold(ui.ScrollList([gone], rid="post_detail"), top=ui.TopBar("", on_back=ctx.back))
    community = feed.community_or_none(s, post["community_id"])
    where = feed.community_name(s, post["community_id"], language(ctx))
    mine = post["author_id"] == ME
    author = feed.handle(s, post["author_id"])
    replying = next((c for c in post["comments"] if c["id"] == local.get("reply_to")), None)

    def toggle_save() -> None:
        post["saved"] = not post["saved"]
        ctx.toast(ctx.t("Post saved") if post["saved"] else ctx.t("Post unsaved"))

    def send() -> None:
        text = local.get("draft", "").strip()
        if not text:
            ctx.toast(ctx.t("Write a comment first"))
            return
        post["comments"].append({"id": ctx.new_id("cm"), "parent": replying["id"] if replying else "",
                                 "author_id": ME, "text": text, "score": 1, "vote": 0, "created": stamp(ctx.now)})
        local.update(draft="", reply_to=None)
        ctx.toast(ctx.t("Comment posted"))

    def delete_post() -> None:
        s["posts"].remove(post)
        ctx.toast(ctx.t("Post deleted"))
        ctx.back()

    def delete_comment() -> None:
        cid = local.get("pending_comment")
        post["comments"][:] = [c for c in post["comments"] if c["id"] != cid and c["parent"] != cid]
        ctx.toast(ctx.t("Comment deleted"))

    count = len(post["comments"])
    rows: list[ui.View | None] = [
        ui.Text(f"{where} · {feed.age(language(ctx), post, ctx.now)}", size=13, color="muted",
                rid="post_community", on_click=None if community is None
                else (lambda: ctx.navigate("/community", id=community["id"]))),
        ui.Text(author, size=13, bold=True, color="primary", rid="post_author",
                desc=ctx.t("Author {author}", author=author),
                on_click=None if mine else (lambda: ctx.navigate("/user", id=post["author_id"]))),
        ui.Text(post["title"], size=20, bold=True, max_lines=4, rid="post_title"),
        ui.Text(post["body"], size=15, max_lines=None, rid="post_body"),
        _vote_row(ctx, post, "post_", [ui.Spacer(flex=1),
                                      ui.Text(ctx.tn("{count} comment", "{count} comments", count), size=13, color="muted",
                                              rid="comment_count")]),
        ui.Divider(),
        *[_comment_view(ctx, post, c, depth) for c, depth in feed.thread(post)],
    ]
    if not post["comments"]:
        rows.append(empty(ctx.t("No comments yet. Be the first.")))
    actions: list[ui.View] = [ui.IconButton("★" if post["saved"] else "☆",
                                            ctx.t("Unsave") if post["saved"] else ctx.t("Save"),
                                            toggle_save, rid="save_toggle", selected=post["saved"],
                                            color="primary" if post["saved"] else None)]
    if mine:
        actions.append(ui.IconButton("🗑", ctx.t("Delete post"), lambda: local.update(deleting_post=True),
                                     rid="delete_post"))
    composer: list[ui.View | None] = []
    if replying:
        who = feed.handle(s, replying["author_id"])
        composer.append(ui.Row([ui.Text(ctx.t("Replying to {who}", who=who), size=13, color="muted", flex=1,
                                        rid="replying_to"),
                                ui.IconButton("✕", ctx.t("Cancel reply"),
                                              lambda: local.update(reply_to=None), rid="cancel_reply")], gap=4))
    composer.append(ui.Row([ctx.field("comment_input", "draft", hint=ctx.t("Add a comment"), flex=1,
                                      on_submit=send, ime_action="send"),
                            ui.IconButton("➤", ctx.t("Post comment"), send, rid="send_comment",
                                          color="primary")], gap=4))
    dialog = confirm(ctx, "deleting_post", ctx.t("Delete post?"),
                     ctx.t("You can't undo this. Its comments will be deleted too."),
                     ctx.t("Delete"), delete_post)
    if dialog is None and local.get("deleting_comment"):
        local["pending_comment"] = local["deleting_comment"]
        dialog = confirm(ctx, "deleting_comment", ctx.t("Delete comment?"),
                         ctx.t("You can't undo this."), ctx.t("Delete"), delete_comment)
    on_back = (lambda: local.update(reply_to=None)) if replying else None
    return ui.Scaffold(ui.ScrollList(rows, rid="post_detail", pad=12, gap=6),
                       top=ui.TopBar(where, on_back=ctx.back, actions=actions),
                       bottom=ui.Column(composer, gap=2, pad=8, bg="surface"), dialog=dialog, on_back=on_back)


# --- people -------------------------------------------------------------------------------------------

@APP.screen("/user")
def user_page(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    u = feed.user(s, ctx.params["id"])

    def toggle() -> None:
        u["following"] = not u["following"]
        ctx.toast(ctx.t("Following {handle}", handle=u['handle']) if u["following"]
                  else ctx.t("Unfollowed {handle}", handle=u['handle']))

    followers = u["followers"] + (1 if u["following"] else 0)
    header = ui.Column([
        ui.Row([ui.Column([ui.Text(u["handle"], size=20, bold=True, rid="user_handle"),
                           ui.Text(ctx.tn("{count:,} follower", "{count:,} followers", followers), size=13, color="muted",
                                   rid="user_followers")], gap=2, flex=1),
                ui.Button(ctx.t("Following") if u["following"] else ctx.t("Follow"), toggle,
                          style="outlined" if u["following"] else "filled", rid="follow_button",
                          selected=u["following"])]),
        ui.Text(u["bio"], size=14, max_lines=2, rid="user_bio"),
    ], gap=6, pad=12)
    posts = [p for p in s["posts"] if p["author_id"] == u["id"]]
    body = ui.Column([header, post_list(ctx, posts, "user_posts", "No posts yet")])
    return ui.Scaffold(body, top=ui.TopBar(u["handle"], on_back=ctx.back))


PROFILE_TABS = ("Posts", "Saved", "Following")


@APP.screen("/me")
def me(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    tab = ctx.local.get("tab", 0)
    header = ui.Column([ui.Text(s["me"]["handle"], size=20, bold=True, rid="my_handle"),
                        ui.Text(ctx.t("{karma:,} karma", karma=s['me']['karma']), size=13,
                                color="muted", rid="my_karma")], gap=2, pad=12)
    top = ui.Column([ui.TopBar(ctx.t("Profile")), header,
                     ui.Tabs([ctx.t(label, context="profile_tabs") for label in PROFILE_TABS], tab,
                             lambda i: ctx.local.update(tab=i, scroll={}), rid_prefix="profile_tab")])
    if tab == 2:
        followed = [u for u in s["users"] if u["following"]]
        rows: list[ui.View | None] = [
            ui.ListItem(u["handle"], subtitle=u["bio"], trailing="›", rid="following_item", title_rid="following_name",
                        on_click=lambda u=u: ctx.navigate("/user", id=u["id"])) for u in followed]
        body: ui.View = ui.ScrollList(rows or [empty(ctx.t("You don't follow anyone yet"))],
                                      rid="following_list", pad=8)
    elif tab == 1:
        body = post_list(ctx, [p for p in s["posts"] if p["saved"]], "saved_list",
                         "Saved posts show up here")
    else:
        body = post_list(ctx, [p for p in s["posts"] if p["author_id"] == ME], "my_posts",
                         "You haven't posted yet")
    return ui.Scaffold(body, top=top, bottom=tabs(ctx, "/me"))


# --- create a post ------------------------------------------------------------------------------------

@APP.screen("/compose")
def compose(ctx: Ctx) -> ui.Scaffold:
    s, local = ctx.state, ctx.local
    chosen = local.get("community", ctx.params.get("community", ""))
    community = next((c for c in s["communities"] if c["id"] == chosen), None)

    def ask() -> None:
        if community is None:
            ctx.toast(ctx.t("Choose a community", context="ask"))
        elif not local.get("title", "").strip():
            ctx.toast(ctx.t("Add a title"))
        elif len(local["title"].strip()) > MAX_TITLE:
            ctx.toast(ctx.t("Titles are at most {max_title} characters", max_title=MAX_TITLE))
        else:
            local["confirming"] = True

    def publish() -> None:
        post_id = ctx.new_id("p")
        s["posts"].insert(0, {"id": post_id, "community_id": community["id"], "author_id": ME,
                              "title": local["title"].strip(), "body": local.get("body", "").strip(), "score": 1,
                              "vote": 0, "saved": False, "created": stamp(ctx.now), "comments": []})
        ctx.toast(ctx.t("Posted"))
        ctx.replace("/post", id=post_id)

    def close() -> None:
        local["picking"] = False

    dialog = None
    if local.get("picking"):
        radios = [ui.Radio("community_option", c["id"] == chosen,
                           lambda c=c: local.update(community=c["id"], picking=False), label=c["name"])
                  for c in s["communities"]]
        dialog = ui.Dialog(ctx.t("Choose a community"),
                           [ui.ScrollList(radios, rid="community_options", height=min(320, 40 * len(radios)))],
                           [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE)], on_dismiss=close)
    else:
        where = community["name"] if community else ""
        dialog = confirm(ctx, "confirming", ctx.t("Post to {where}?", where=where),
                         ctx.t("Everyone in the community will see it."),
                         ctx.t("Post"), publish)
    body = ui.Column([
        ui.Chip(community["name"] if community else ctx.t("Choose a community"), community is not None,
                lambda _v: local.update(picking=True), rid="community_picker"),
        ctx.field("title_input", "title", hint=ctx.t("Title")),
        ctx.field("body_input", "body", hint=ctx.t("Body text (optional)"), lines=6),
    ], gap=12, pad=16)
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Create post"), on_back=ctx.back,
                                           actions=[ui.Button(ctx.t("Post"), ask, rid="post_button")]),
                       dialog=dialog)
