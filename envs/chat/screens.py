"""Chat screens: the chats list, a chat (bubbles, compose, transfers), chat info (members, rename, delete), new
group, friends and a friend's profile, moments (like, comment, post) and Me (the chat wallet)."""
from __future__ import annotations

from typing import Any, Callable

from mobilegym.envs.contacts.screens import avatar
from mobilegym.envs.layout import MARGIN, inset
from mobilegym.envs.messages.screens import day_label, time_label
from mobilegym.envs.wallet import payflow
from mobilegym.envs.wallet.money import amount_text
from mobilegym.envs.wallet.screens import parse_amount
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx
from mobilegym.sim.clock import from_ms

from .app import APP
from .world import ME

TABS = [("/", "Chats"), ("/contacts", "Contacts"), ("/moments", "Moments"), ("/me", "Me")]
MIN_GROUP = 2  # friends a new group needs besides the owner


def _tabs(ctx: Ctx, current: str) -> ui.View:
    index = [path for path, _ in TABS].index(current)
    return ui.Tabs([ctx.t(label) for _, label in TABS], index, lambda i: ctx.replace(TABS[i][0]), rid_prefix="tab")


def friends_by_id(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["id"]: f for f in state["friends"]}


def person_name(ctx: Ctx, person_id: str) -> str:
    """A friend's name, or "Me" / "我" for the owner."""
    if person_id == ME:
        return ctx.t("Me")
    friend = friends_by_id(ctx.state).get(person_id)
    return friend["name"] if friend else ctx.t("Unknown")


def chat_title(ctx: Ctx, chat: dict[str, Any]) -> str:
    """A group's name (its members' names while it has none) or the friend's name."""
    if chat["kind"] == "direct":
        return person_name(ctx, chat["members"][0])
    return chat["name"] or ctx.t(", ", context="chat_title").join(person_name(ctx, m) for m in chat["members"])


def last_time(chat: dict[str, Any]) -> int:
    return chat["messages"][-1]["time_ms"] if chat["messages"] else 0


def find_chat(ctx: Ctx, chat_id: str | None) -> dict[str, Any] | None:
    return next((c for c in ctx.state["chats"] if c["id"] == chat_id), None)


def open_chat(ctx: Ctx, chat: dict[str, Any]) -> None:
    """Show a chat; opening it marks it read."""
    chat["unread"] = 0
    ctx.navigate("/chat", id=chat["id"])


def direct_chat(ctx: Ctx, friend_id: str) -> dict[str, Any]:
    """The one-to-one chat with a friend (a new, empty one when there is none yet)."""
    chat = next((c for c in ctx.state["chats"] if c["kind"] == "direct" and c["members"] == [friend_id]), None)
    if chat is None:
        chat = {"id": ctx.new_id("chat"), "kind": "direct", "name": "", "members": [friend_id], "unread": 0,
                "messages": []}
        ctx.state["chats"].append(chat)
    return chat


def preview(ctx: Ctx, chat: dict[str, Any]) -> str:
    if not chat["messages"]:
        return ""
    last = chat["messages"][-1]
    body = (ctx.t("[Transfer] ") + amount_text(ctx.state, last["amount"])) if last["type"] == "transfer" \
        else last["text"]
    if chat["kind"] == "group" and last["sender"] != ME:
        return f"{person_name(ctx, last['sender'])}: {body}"
    return body


def _delete_dialog(ctx: Ctx, chat: dict[str, Any], on_done: Callable[[], None]) -> ui.Dialog:
    def close() -> None:
        ctx.local["deleting"] = None

    def delete() -> None:
        ctx.state["chats"].remove(chat)
        close()
        on_done()
        ctx.toast(ctx.t("Chat deleted"))

    return ui.Dialog(ctx.t("Delete the chat with {chat_title}?", chat_title=chat_title(ctx, chat)),
                     ctx.t("Its messages will be deleted from this phone."),
                     [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                      ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)],
                     on_dismiss=close)


def _chat_row(ctx: Ctx, chat: dict[str, Any]) -> ui.View:
    title, unread = chat_title(ctx, chat), chat["unread"]
    badge = ui.Text(str(unread), size=12, bold=True, color="on_primary", bg="primary", radius=10, align="center",
                    width=max(22, 8 + 8 * len(str(unread))), height=20, rid="unread_badge") if unread else None
    return ui.Row([
        avatar(title, 44),
        ui.Column([
            ui.Row([ui.Text(title, size=16, bold=unread > 0, flex=1, rid="chat_name"),
                    ui.Text(time_label(ctx, last_time(chat)) if chat["messages"] else "", size=12, color="muted",
                            rid="chat_time")], gap=8),
            ui.Row([ui.Text(preview(ctx, chat), size=14, color="muted", flex=1, rid="chat_snippet"), badge], gap=8),
        ], gap=2, flex=1),
    ], pad=12, gap=12, rid="chat_item", desc=title, on_click=lambda: open_chat(ctx, chat),
        on_long_click=lambda: ctx.local.__setitem__("deleting", chat["id"]))


@APP.screen("/")
def chats(ctx: Ctx) -> ui.Scaffold:
    ordered = sorted(ctx.state["chats"], key=last_time, reverse=True)
    rows: list[ui.View | None] | ui.Rows = ui.Rows(ordered, lambda c: _chat_row(ctx, c))
    if not ordered:
        rows = [ui.Text(ctx.t("No chats yet"), color="muted", align="center", height=120, rid="empty")]
    deleting = find_chat(ctx, ctx.local.get("deleting"))
    top = ui.TopBar(ctx.t("Chats"), actions=[
        ui.IconButton("+", ctx.t("New group chat"), lambda: ctx.navigate("/group/new"), rid="new_group")])
    return ui.Scaffold(ui.ScrollList(rows, rid="chat_list"), top=top, bottom=_tabs(ctx, "/"),
                       dialog=_delete_dialog(ctx, deleting, lambda: None) if deleting else None)


# --- a chat ------------------------------------------------------------------------------------------------------

def _accept_dialog(ctx: Ctx, chat: dict[str, Any]) -> ui.Dialog | None:
    message = next((m for m in chat["messages"] if m["id"] == ctx.local.get("accepting")), None)
    if message is None:
        return None

    def close() -> None:
        ctx.local["accepting"] = None

    def accept() -> None:
        message["status"] = "accepted"
        ctx.state["balance"] = round(ctx.state["balance"] + message["amount"], 2)
        close()
        ctx.toast(ctx.t("Transfer accepted"))

    sender = person_name(ctx, message["sender"])
    return ui.Dialog(ctx.t("Accept transfer"),
                     [ui.Text(amount_text(ctx.state, message["amount"]), size=28, bold=True, align="center",
                              rid="accept_amount"),
                      ui.Text(ctx.t("From {sender}", sender=sender), size=14, color="muted", align="center")],
                     [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                      ui.Button(ctx.t("Accept"), accept, rid=ui.POSITIVE)],
                     on_dismiss=close)


def _status_text(ctx: Ctx, message: dict[str, Any]) -> str:
    return {"pending": ctx.t("Tap to accept"), "accepted": ctx.t("Accepted"),
            "sent": ctx.t("Sent")}[message["status"]]


def _bubble(ctx: Ctx, chat: dict[str, Any], message: dict[str, Any]) -> ui.View:
    mine = message["sender"] == ME
    ink = "on_primary" if mine else None
    sender = person_name(ctx, message["sender"])
    head = ui.Text(sender, size=12, color="muted", rid="message_sender") if chat["kind"] == "group" and not mine else None
    time = ui.Text(from_ms(message["time_ms"]).strftime("%H:%M"), size=11, color=ink if mine else "muted",
                   align="right", rid="message_time")
    if message["type"] == "transfer":
        amount = amount_text(ctx.state, message["amount"])
        status = _status_text(ctx, message)
        pending = message["status"] == "pending"
        bubble = ui.Column([
            head,
            ui.Text(ctx.t("Transfer"), size=12, color=ink if mine else "muted"),
            ui.Text(amount, size=20, bold=True, color=ink, rid="transfer_amount"),
            ui.Text(message["note"], size=13, color=ink, rid="transfer_note") if message["note"] else None,
            ui.Text(status, size=12, bold=pending, color=ink if mine else ("primary" if pending else "muted"),
                    rid="transfer_status"),
            time,
        ], gap=2, pad=10, bg="primary" if mine else "surface", radius=14, flex=3, rid="transfer_bubble",
            desc=f"{sender} {amount} {status} {from_ms(message['time_ms']).strftime('%Y-%m-%d %H:%M')}",
            on_click=(lambda: ctx.local.__setitem__("accepting", message["id"])) if pending else None)
    else:
        bubble = ui.Column([head, ui.Text(message["text"], size=15, max_lines=None, color=ink, rid="message_text"), time],
                           gap=4, pad=10, bg="primary" if mine else "surface", radius=14, flex=3,
                           rid="message_out" if mine else "message_in")
    return ui.Row([ui.Spacer(flex=1), bubble] if mine else [bubble, ui.Spacer(flex=1)], gap=0)


def _messages(ctx: Ctx, chat: dict[str, Any]) -> list[ui.View | None]:
    rows: list[ui.View | None] = []
    day = None
    for message in chat["messages"]:
        moment = from_ms(message["time_ms"])
        if moment.date() != day:
            day = moment.date()
            rows.append(ui.Text(day_label(ctx, day), size=12, color="muted", align="center", height=28, rid="day_header"))
        rows.append(_bubble(ctx, chat, message))
    return rows


def _missing(ctx: Ctx, what: str) -> ui.Scaffold:
    gone = ui.Text(what, color="muted", align="center", height=120, rid="missing")
    return ui.Scaffold(ui.ScrollList([gone], rid="missing_list"), top=ui.TopBar("", on_back=ctx.back))


@APP.screen("/chat")
def chat_screen(ctx: Ctx) -> ui.Scaffold:
    chat = find_chat(ctx, ctx.params.get("id"))
    if chat is None:
        return _missing(ctx, ctx.t("This chat was deleted."))

    def send() -> None:
        text = ctx.local.get("draft", "").strip()
        if not text:
            ctx.toast(ctx.t("Type a message first"))
            return
        chat["messages"].append({"id": ctx.new_id("msg"), "sender": ME, "type": "text", "text": text,
                                 "time_ms": ctx.os["time_ms"], "amount": 0.0, "note": "", "status": ""})
        ctx.local["draft"] = ""
        ctx.scroll_home("message_list")  # what was sent shows, as in every messenger

    composer = ui.Row([
        ui.IconButton("¥" if ctx.state["currency"] == "CNY" else "$", ctx.t("Transfer"),
                      lambda: ctx.navigate("/transfer", chat=chat["id"]), rid="transfer_button")
        if chat["kind"] == "direct" else None,
        ctx.field("message_input", "draft", hint=ctx.t("Message"), flex=1, on_submit=send, ime_action="send"),
        ui.IconButton("➤", ctx.t("Send"), send, rid="send", color="primary"),
    ], gap=4, pad=8, bg="surface")
    title = chat_title(ctx, chat)
    if chat["kind"] == "group":
        title = f"{title} ({len(chat['members']) + 1})"
    top = ui.TopBar(title, on_back=ctx.back, actions=[
        ui.IconButton("⋯", ctx.t("Chat info"), lambda: ctx.navigate("/chat/info", id=chat["id"]),
                      rid="chat_info")])
    return ui.Scaffold(ui.ScrollList(_messages(ctx, chat), rid="message_list", pad=12, gap=8, from_end=True), top=top,
                       bottom=composer, dialog=_accept_dialog(ctx, chat))


@APP.screen("/chat/info")
def chat_info(ctx: Ctx) -> ui.Scaffold:
    chat = find_chat(ctx, ctx.params.get("id"))
    if chat is None:
        return _missing(ctx, ctx.t("This chat was deleted."))
    group = chat["kind"] == "group"
    rows: list[ui.View | None] = [
        inset(ui.Text(ctx.t("Members ({value})", value=len(chat['members']) + 1) if group
                      else ctx.t("Friend"), size=13, bold=True, color="primary", height=32), MARGIN)]
    rows += [ui.ListItem(person_name(ctx, m), leading=avatar(person_name(ctx, m), 36), title_rid="member_name",
                         rid="member_item", desc=person_name(ctx, m),
                         on_click=lambda m=m: ctx.navigate("/friend", id=m)) for m in chat["members"]]
    if group:
        rows.append(ui.ListItem(ctx.t("Me"), leading=avatar(ctx.state["me"]["name"], 36), title_rid="member_name",
                                rid="member_item", desc=ctx.t("Me")))
        rows.append(ui.Divider())
        rows.append(ui.ListItem(ctx.t("Group name"), subtitle=chat["name"] or ctx.t("Not set"),
                                rid="group_name_row", on_click=lambda: ctx.navigate("/chat/rename", id=chat["id"])))
    rows.append(ui.Divider())
    rows.append(ui.Row([ui.Button(ctx.t("Delete chat"), lambda: ctx.local.__setitem__("deleting", chat["id"]),
                                  style="outlined", rid="delete_chat", flex=1)], pad=16))

    def done() -> None:
        ctx.back()
        ctx.back()

    dialog = _delete_dialog(ctx, chat, done) if ctx.local.get("deleting") == chat["id"] else None
    return ui.Scaffold(ui.ScrollList(rows, rid="chat_info_list"),
                       top=ui.TopBar(ctx.t("Chat info"), on_back=ctx.back), dialog=dialog)


@APP.screen("/chat/rename")
def rename_group(ctx: Ctx) -> ui.Scaffold:
    chat = find_chat(ctx, ctx.params.get("id"))
    if chat is None or chat["kind"] != "group":
        return _missing(ctx, ctx.t("This group was deleted."))

    def save() -> None:
        name = ctx.local.get("name", chat["name"]).strip()
        if not name:
            ctx.toast(ctx.t("Enter a group name"))
            return
        chat["name"] = name
        ctx.back()

    field = ctx.field("group_name_input", "name", chat["name"], hint=ctx.t("Group name"), on_submit=save)
    top = ui.TopBar(ctx.t("Group name"), on_back=ctx.back,
                    actions=[ui.Button(ctx.t("Save"), save, style="text", rid="save_name")])
    return ui.Scaffold(ui.ScrollList([field], rid="rename_form", pad=16), top=top)


# --- transfer ----------------------------------------------------------------------------------------------------

@APP.screen("/transfer")
def transfer(ctx: Ctx) -> ui.Scaffold:
    chat = find_chat(ctx, ctx.params.get("chat"))
    if chat is None or chat["kind"] != "direct":
        return _missing(ctx, ctx.t("This chat was deleted."))
    friend = friends_by_id(ctx.state)[chat["members"][0]]
    local = ctx.local
    amount = parse_amount(local.get("amount", "").strip())

    def go_on() -> None:
        local["error"] = amount is None
        if amount is not None:
            payflow.start(ctx, amount)

    def pay() -> None:
        chat["messages"].append({"id": ctx.new_id("msg"), "sender": ME, "type": "transfer", "text": "",
                                 "time_ms": ctx.os["time_ms"], "amount": amount, "note": local.get("note", "").strip(),
                                 "status": "sent"})
        ctx.state["balance"] = round(ctx.state["balance"] - amount, 2)
        ctx.back()
        ctx.toast(ctx.t("Transfer sent"))

    rows: list[ui.View | None] = [
        ui.ListItem(friend["name"], subtitle=ctx.t("Transfer to friend"), leading=avatar(friend["name"], 40),
                    title_rid="recipient_name", rid="recipient"),
        ui.Text(ctx.t("Amount"), size=13, color="primary", height=28),
        ctx.field("amount_input", "amount", hint="0.00", input_type="number"),
        ui.Text(ctx.t("Enter an amount, e.g. 25.50"), size=13, rid="amount_error")
        if local.get("error") else None,
        ui.Text(ctx.t("Balance: {amount_text}", amount_text=amount_text(ctx.state, ctx.state['balance'])), size=13, color="muted", rid="balance_hint"),
        ui.Text(ctx.t("Note (optional)"), size=13, color="primary", height=28),
        ctx.field("note_input", "note", hint=ctx.t("Add a note")),
        ui.Spacer(8),
        ui.Button(ctx.t("Transfer"), go_on, rid="continue_button"),
    ]
    sheet = [(ctx.t("To"), friend["name"]), (ctx.t("From"), ctx.t("Chat balance"))]
    if local.get("note", "").strip():
        sheet.append((ctx.t("Note"), local["note"].strip()))
    dialog = payflow.dialog(ctx, ctx.t("Confirm transfer"), sheet, amount or 0.0, pay)
    return ui.Scaffold(ui.ScrollList(rows, rid="transfer_form", pad=16, gap=6),
                       top=ui.TopBar(ctx.t("Transfer"), on_back=ctx.back), dialog=dialog)


# --- groups and friends --------------------------------------------------------------------------------------------

def sorted_friends(state: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(state["friends"], key=lambda f: f["name"].casefold())


@APP.screen("/group/new")
def new_group(ctx: Ctx) -> ui.Scaffold:
    picked: list[str] = ctx.local.get("picked") or []

    def toggle(friend_id: str, on: bool) -> None:
        ctx.local["picked"] = [p for p in picked if p != friend_id] + ([friend_id] if on else [])

    def create() -> None:
        if len(picked) < MIN_GROUP:
            ctx.toast(ctx.t("Choose at least {min_group} friends", min_group=MIN_GROUP))
            return
        order = [f["id"] for f in ctx.state["friends"]]
        chat = {"id": ctx.new_id("chat"), "kind": "group", "name": ctx.local.get("name", "").strip(),
                "members": sorted(picked, key=order.index), "unread": 0, "messages": []}
        ctx.state["chats"].append(chat)
        ctx.replace("/chat", id=chat["id"])

    rows: list[ui.View | None] = [
        ui.Row([ctx.field("group_name_input", "name", hint=ctx.t("Group name (optional)"), flex=1)],
               pad=12)]
    rows += [ui.Checkbox("friend_check", f["id"] in picked, lambda on, i=f["id"]: toggle(i, on), label=f["name"],
                         desc=f["name"]) for f in sorted_friends(ctx.state)]
    top = ui.TopBar(ctx.t("New group"), on_back=ctx.back, actions=[
        ui.Button(ctx.t("Create ({n_picked})", n_picked=len(picked)), create, style="text", rid="create_group")])
    return ui.Scaffold(ui.ScrollList(rows, rid="friend_picker"), top=top)


@APP.screen("/contacts")
def contacts(ctx: Ctx) -> ui.Scaffold:
    friends = sorted_friends(ctx.state)
    rows: list[ui.View | None] = [
        ui.ListItem(ctx.t("Group chats"), leading=ui.Icon("☰"), rid="group_chats",
                    on_click=lambda: ctx.navigate("/groups"))]
    rows += [ui.ListItem(f["name"], leading=avatar(f["name"], 40), title_rid="friend_name", rid="friend_item",
                         desc=f["name"], on_click=lambda f=f: ctx.navigate("/friend", id=f["id"])) for f in friends]
    return ui.Scaffold(ui.ScrollList(rows, rid="friend_list"), top=ui.TopBar(ctx.t("Contacts")),
                       bottom=_tabs(ctx, "/contacts"))


@APP.screen("/groups")
def groups(ctx: Ctx) -> ui.Scaffold:
    rows: list[ui.View | None] = [
        ui.ListItem(chat_title(ctx, c), subtitle=ctx.tn("{count} member", "{count} members", len(c['members']) + 1),
                    leading=avatar(chat_title(ctx, c), 40), title_rid="group_title", rid="group_item",
                    desc=chat_title(ctx, c), on_click=lambda c=c: open_chat(ctx, c))
        for c in sorted((c for c in ctx.state["chats"] if c["kind"] == "group"), key=lambda c: chat_title(ctx, c))]
    if not rows:
        rows.append(ui.Text(ctx.t("No group chats"), color="muted", align="center", height=120, rid="empty"))
    return ui.Scaffold(ui.ScrollList(rows, rid="group_list"), top=ui.TopBar(ctx.t("Group chats"), on_back=ctx.back))


@APP.screen("/friend")
def friend_profile(ctx: Ctx) -> ui.Scaffold:
    friend = friends_by_id(ctx.state).get(ctx.params.get("id"))
    if friend is None:
        return _missing(ctx, ctx.t("Not a friend."))
    rows: list[ui.View | None] = [
        ui.Row([avatar(friend["name"], 64), ui.Text(friend["name"], size=22, bold=True, flex=1, rid="profile_name")],
               gap=16, pad=16),
        ui.ListItem(friend["phone"], subtitle=ctx.t("Mobile"), title_rid="profile_phone", rid="phone_row"),
        ui.Row([ui.Button(ctx.t("Send message"), lambda: open_chat(ctx, direct_chat(ctx, friend["id"])),
                          rid="send_message", flex=1)], pad=16),
        ui.Row([ui.Button(ctx.t("Save to phone contacts"),
                          lambda: ctx.open_app("contacts", "/edit", phone=friend["phone"], name=friend["name"]),
                          style="outlined", rid="save_contact", flex=1)], pad=16),
    ]
    return ui.Scaffold(ui.ScrollList(rows, rid="profile"), top=ui.TopBar(ctx.t("Profile"), on_back=ctx.back))


# --- moments -----------------------------------------------------------------------------------------------------

def newest_moments(state: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(state["moments"], key=lambda m: (m["time_ms"], m["id"]), reverse=True)


def _moment_card(ctx: Ctx, moment: dict[str, Any]) -> ui.View:
    author = person_name(ctx, moment["author"])
    liked = ME in moment["likes"]

    def like() -> None:
        if liked:
            moment["likes"].remove(ME)
        else:
            moment["likes"].append(ME)

    likes = ctx.t(", ").join(person_name(ctx, p) for p in moment["likes"])
    return ui.Column([
        ui.Row([avatar(author, 40), ui.Column([
            ui.Text(author, size=15, bold=True, color="primary", rid="moment_author"),
            ui.Text(moment["text"], size=15, max_lines=None, rid="moment_text"),
            ui.Text(time_label(ctx, moment["time_ms"]), size=12, color="muted", rid="moment_time"),
        ], gap=4, flex=1)], gap=12),
        ui.Row([ui.Spacer(flex=1),
                ui.Button(ctx.t("Liked") if liked else ctx.t("Like"), like, style="text", rid="like_button",
                          desc=ctx.t("Like {author}'s moment", author=author), selected=liked),
                ui.Button(ctx.t("Comment"), lambda: ctx.local.__setitem__("commenting", moment["id"]),
                          style="text", rid="comment_button", desc=ctx.t("Comment on {author}'s moment", context="moment_card", author=author))], gap=4),
        ui.Text("♥ " + likes, size=13, max_lines=None, rid="moment_likes") if moment["likes"] else None,
        *[ui.Text(f"{person_name(ctx, c['author'])}: {c['text']}", size=13, max_lines=None, rid="moment_comment")
          for c in moment["comments"]],
    ], gap=4, pad=MARGIN, rid="moment_item", desc=f"{author}: {moment['text']}")


@APP.screen("/moments")
def moments(ctx: Ctx) -> ui.Scaffold:
    feed = newest_moments(ctx.state)
    target = next((m for m in feed if m["id"] == ctx.local.get("commenting")), None)
    rows: list[ui.View | None] | ui.Rows = ui.Rows(feed, lambda m: _moment_card(ctx, m))
    if not feed:
        rows = [ui.Text(ctx.t("No moments yet"), color="muted", align="center", height=120, rid="empty")]
    top = ui.TopBar(ctx.t("Moments"), actions=[
        ui.IconButton("✎", ctx.t("Post a moment"), lambda: ctx.navigate("/moments/new"), rid="post_moment")])
    bottom = _tabs(ctx, "/moments")
    if target is not None:
        def send() -> None:
            text = ctx.local.get("comment", "").strip()
            if not text:
                ctx.toast(ctx.t("Type a comment first"))
                return
            target["comments"].append({"id": ctx.new_id("comment"), "author": ME, "text": text})
            ctx.local.update(comment="", commenting=None)

        author = person_name(ctx, target["author"])
        bottom = ui.Row([ctx.field("comment_input", "comment", hint=ctx.t("Comment on {author}'s moment", author=author), flex=1, on_submit=send),
                         ui.IconButton("➤", ctx.t("Send"), send, rid="send_comment", color="primary")],
                        gap=4, pad=8, bg="surface")
    return ui.Scaffold(ui.ScrollList(rows, rid="moment_list", gap=4), top=top, bottom=bottom,
                       on_back=(lambda: ctx.local.__setitem__("commenting", None)) if target is not None else None)


@APP.screen("/moments/new")
def new_moment(ctx: Ctx) -> ui.Scaffold:
    def post() -> None:
        text = ctx.local.get("text", "").strip()
        if not text:
            ctx.toast(ctx.t("Write something first"))
            return
        ctx.state["moments"].append({"id": ctx.new_id("moment"), "author": ME, "text": text,
                                     "time_ms": ctx.os["time_ms"], "likes": [], "comments": []})
        ctx.back()

    field = ctx.field("moment_input", "text", hint=ctx.t("What's on your mind?"), lines=4)
    top = ui.TopBar(ctx.t("New moment"), on_back=ctx.back,
                    actions=[ui.Button(ctx.t("Post"), post, style="text", rid="publish_moment")])
    return ui.Scaffold(ui.ScrollList([field], rid="moment_form", pad=16), top=top)


# --- me ------------------------------------------------------------------------------------------------------------

@APP.screen("/me")
def me(ctx: Ctx) -> ui.Scaffold:
    rows: list[ui.View | None] = [
        ui.Row([avatar(ctx.state["me"]["name"], 64),
                ui.Text(ctx.state["me"]["name"], size=22, bold=True, flex=1, rid="my_name")], gap=16, pad=16),
        ui.Divider(),
        ui.ListItem(ctx.t("Balance"), trailing=ui.Text(amount_text(ctx.state, ctx.state["balance"]), size=16,
                                                              bold=True, rid="balance_amount"), rid="balance_row"),
        ui.ListItem(ctx.t("Transactions"), rid="transactions", on_click=lambda: ctx.navigate("/transactions")),
        ui.ListItem(ctx.t("My moments"), rid="my_moments", on_click=lambda: ctx.replace("/moments")),
    ]
    return ui.Scaffold(ui.ScrollList(rows, rid="me_list"), top=ui.TopBar(ctx.t("Me")), bottom=_tabs(ctx, "/me"))


@APP.screen("/transactions")
def transactions(ctx: Ctx) -> ui.Scaffold:
    """Every transfer of the one-to-one chats, newest first: money sent is negative, money received positive."""
    found = sorted(((m, c) for c in ctx.state["chats"] if c["kind"] == "direct" for m in c["messages"]
                    if m["type"] == "transfer"), key=lambda mc: (mc[0]["time_ms"], mc[0]["id"]), reverse=True)

    def row(item: tuple[dict[str, Any], dict[str, Any]]) -> ui.View:
        message, chat = item
        name = person_name(ctx, chat["members"][0])
        value = -message["amount"] if message["sender"] == ME else message["amount"]
        amount = amount_text(ctx.state, value, signed=True)
        when = from_ms(message["time_ms"])
        kind = ctx.t("Transfer to {name}", name=name) if message["sender"] == ME else \
            ctx.t("Transfer from {name}", name=name)
        return ui.ListItem(kind, subtitle=f"{time_label(ctx, message['time_ms'])} {when.strftime('%H:%M')} · "
                                          f"{_status_text(ctx, message)}",
                           trailing=ui.Text(amount, size=15, bold=value > 0, rid="txn_amount"), title_rid="txn_title",
                           rid="txn_item", desc=f"{name} {amount} {when.strftime('%Y-%m-%d %H:%M')}",
                           on_click=lambda: open_chat(ctx, chat))

    rows: list[ui.View | None] | ui.Rows = ui.Rows(found, row)
    if not found:
        rows = [ui.Text(ctx.t("No transactions yet"), color="muted", align="center", height=120, rid="empty")]
    return ui.Scaffold(ui.ScrollList(rows, rid="transaction_list"), top=ui.TopBar(ctx.t("Transactions"),
                                                                                  on_back=ctx.back))
