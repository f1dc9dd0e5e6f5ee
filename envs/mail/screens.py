"""Mail screens: a folder or label's threads (with multi-select and the navigation drawer), a thread, compose
(new, reply, reply all, forward, drafts) and search."""
from __future__ import annotations

import re
from typing import Any, Callable

from mobilegym.calendar_words import MONTH_ABBRS as MONTHS
from mobilegym.envs.contacts.screens import avatar
from mobilegym.envs.layout import MARGIN
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx
from mobilegym.sim.clock import from_ms

from .app import APP
from .model import (FOLDERS, folder_threads, find_thread, parse_recipients, recipients_text, reply_recipients,
                    thread_labels)

FOLDER_NAMES = {"inbox": "Inbox", "starred": "Starred", "sent": "Sent", "drafts": "Drafts", "all": "All mail",
                "trash": "Trash"}
FOLDER_GLYPHS = {"inbox": "📥", "starred": "★", "sent": "➤", "drafts": "✎", "all": "✉", "trash": "🗑"}
SUGGESTION_LIMIT = 6


# --- formatting -------------------------------------------------------------------------------------------------

def folder_name(ctx: Ctx, folder: str) -> str:
    """The display name of a system folder, or the custom label itself."""
    return ctx.t(FOLDER_NAMES[folder]) if folder in FOLDER_NAMES else folder


def time_label(ctx: Ctx, ms: int) -> str:
    """"08:31" today, "Mar 9" this year, else "3/9/25" ("3月9日", "2025/3/9")."""
    moment, today = from_ms(ms), ctx.now.date()
    if moment.date() == today:
        return moment.strftime("%H:%M")
    if moment.year == today.year:
        return ctx.t("{months} {day}", months=MONTHS[moment.month - 1], day=moment.day, month=moment.month)
    return ctx.t("{month}/{day}/{value:02d}", month=moment.month, day=moment.day, value=moment.year % 100, year=moment.year)


def full_time(ctx: Ctx, ms: int) -> str:
    """"Mar 9, 14:30" / "3月9日 14:30" (with the year when it is not this year's)."""
    moment = from_ms(ms)
    year = "" if moment.year == ctx.now.year else ctx.t(", {year}", year=moment.year)
    hhmm = moment.strftime("%H:%M")
    return ctx.t("{months} {day}{year}, {hhmm}", months=MONTHS[moment.month - 1], day=moment.day, year=year, hhmm=hhmm, month=moment.month)


def size_text(size_kb: int) -> str:
    return f"{size_kb} KB" if size_kb < 1024 else f"{size_kb / 1024:.1f} MB"


def _me(ctx: Ctx) -> str:
    return ctx.state["account"]["email"].casefold()


def _name(ctx: Ctx, person: dict[str, str]) -> str:
    return ctx.t("me") if person["email"].casefold() == _me(ctx) else person["name"]


def senders_text(ctx: Ctx, thread: dict[str, Any]) -> str:
    """"Alice Chen", "Alice Chen, me 3", or "To: Bob Li" for a thread only the owner wrote in."""
    names: list[str] = []
    for message in thread["messages"]:
        name = _name(ctx, message["from"])
        if name not in names:
            names.append(name)
    if names == [ctx.t("me")]:
        to = thread["messages"][-1]["to"]
        names = [ctx.t("To: ") + (to[0]["name"] if to else "")]
    count = len(thread["messages"])
    return ", ".join(names) + (f" {count}" if count > 1 else "")


def snippet(thread: dict[str, Any]) -> str:
    return " ".join(thread["messages"][-1]["body"].split())


# --- the thread list -------------------------------------------------------------------------------------------

def open_thread(ctx: Ctx, thread: dict[str, Any]) -> None:
    """Show a thread; opening it marks it read."""
    thread["unread"] = False
    ctx.navigate("/thread", id=thread["id"])


def _toggle(ctx: Ctx, thread_id: str) -> None:
    selection = list(ctx.local.get("selected") or [])
    ctx.local["selected"] = [t for t in selection if t != thread_id] if thread_id in selection else [*selection, thread_id]


def _thread_row(ctx: Ctx, thread: dict[str, Any], selection: list[str]) -> ui.View:
    """A thread: sender(s), time, subject, snippet and a star; a tap opens it, a long press selects it (while some
    are selected, a tap toggles the selection)."""
    unread = thread["unread"]
    chosen = thread["id"] in selection
    sender = senders_text(ctx, thread)
    lead = (ui.Text("✓", size=22, bold=True, color="on_primary", bg="primary", radius=22, align="center", width=44,
                    height=44, rid="selected_check") if chosen else avatar(sender, 44))
    star = ui.IconButton("★" if thread["starred"] else "☆",
                         ctx.t("Starred") if thread["starred"] else ctx.t("Not starred"),
                         lambda: thread.__setitem__("starred", not thread["starred"]), rid="star_toggle",
                         color="#B06000" if thread["starred"] else "muted", width=40, height=40)
    clip = ui.Text("📎", size=13, color="muted", rid="has_attachment") \
        if any(m["attachments"] for m in thread["messages"]) else None
    return ui.Row([
        lead,
        ui.Column([
            ui.Row([ui.Text(sender, size=15, bold=unread, flex=1, rid="thread_sender"),
                    ui.Text(time_label(ctx, thread["messages"][-1]["time_ms"]), size=12, bold=unread,
                            color="on_surface" if unread else "muted", rid="thread_time")], gap=8),
            ui.Text(thread["subject"] or ctx.t("(no subject)"), size=14, bold=unread, rid="thread_subject"),
            ui.Row([ui.Text(snippet(thread), size=13, color="muted", flex=1, rid="thread_snippet"), clip], gap=4),
        ], gap=2, flex=1),
        star,
    ], pad=10, gap=10, rid="thread_item", desc=thread["subject"], selected=chosen,
        bg="divider" if chosen else None,
        on_click=(lambda: _toggle(ctx, thread["id"])) if selection else (lambda: open_thread(ctx, thread)),
        on_long_click=lambda: _toggle(ctx, thread["id"]))


def _selection_bar(ctx: Ctx, chosen: list[dict[str, Any]], in_trash: bool) -> ui.View:
    """The top bar while threads are selected: close, "N selected", archive, delete (or restore and delete
    forever in the Trash)."""
    def clear() -> None:
        ctx.local["selected"] = []

    def archive() -> None:
        for thread in chosen:
            thread["inbox"] = False
        clear()
        ctx.toast(ctx.t("Archived"))

    def trash() -> None:
        for thread in chosen:
            thread["trashed"] = True
        clear()
        ctx.toast(ctx.t("Moved to Trash"))

    def restore() -> None:
        for thread in chosen:
            thread["trashed"] = False
        clear()
        ctx.toast(ctx.t("Moved to Inbox"))

    if in_trash:
        actions = [ui.IconButton("↶", ctx.t("Move to Inbox"), restore, rid="restore_selected"),
                   ui.IconButton("🗑", ctx.t("Delete forever"),
                                 lambda: ctx.local.__setitem__("confirm", "forever"), rid="delete_selected")]
    else:
        actions = [ui.IconButton("📥", ctx.t("Archive"), archive, rid="archive_selected"),
                   ui.IconButton("🗑", ctx.t("Delete"), trash, rid="delete_selected")]
    return ui.Row([
        ui.IconButton("✕", ctx.t("Close"), clear, rid="close_selection"),
        ui.Text(ctx.t("{n_chosen} selected", n_chosen=len(chosen)), size=20, bold=True, rid="toolbar_title",
                flex=1),
        *actions,
    ], gap=4, height=56, bg="surface", pad=4)


def _delete_forever_dialog(ctx: Ctx, doomed: list[dict[str, Any]], title: str) -> ui.Dialog:
    """Confirm removing threads for good (emptying the Trash, or deleting selected threads from it)."""
    def close() -> None:
        ctx.local["confirm"] = None

    def delete() -> None:
        for thread in doomed:
            ctx.state["threads"].remove(thread)
        ctx.local.update(confirm=None, selected=[])
        ctx.toast(ctx.t("Deleted forever"))

    return ui.Dialog(title, [ui.Text(ctx.t("They can't be recovered."), color="muted", max_lines=2)],
                     [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                      ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)],
                     on_dismiss=close)


def _drawer(ctx: Ctx, current: str) -> ui.Drawer:
    """The navigation drawer: the system folders with unread counts, then the custom labels."""
    def pick(folder: str) -> Callable[[], None]:
        return lambda: ctx.local.update(folder=folder, drawer=False, selected=[])

    def row(folder: str, glyph: str) -> ui.View:
        count = sum(t["unread"] for t in folder_threads(ctx.state, folder)) if folder != "drafts" \
            else len(ctx.state["drafts"])
        return ui.Row([ui.Icon(glyph, size=20, color="primary" if folder == current else "muted"),
                       ui.Text(folder_name(ctx, folder), size=15, bold=folder == current, flex=1),
                       ui.Text(str(count) if count else "", size=13, color="muted", rid="drawer_count")],
                      gap=16, pad=8, height=44, rid="drawer_item", desc=folder_name(ctx, folder),
                      selected=folder == current, bg="divider" if folder == current else None, radius=22,
                      on_click=pick(folder))

    rows: list[ui.View | None] = [row(f, FOLDER_GLYPHS[f]) for f in FOLDERS]
    rows.append(ui.Text(ctx.t("Labels"), size=13, bold=True, color="muted", height=28, rid="labels_header"))
    rows += [row(label, "🏷") for label in ctx.state["labels"]]
    return ui.Drawer(ctx.state["account"]["email"], rows, on_dismiss=lambda: ctx.local.__setitem__("drawer", False))


def _draft_row(ctx: Ctx, draft: dict[str, Any]) -> ui.View:
    subject = draft["subject"] or ctx.t("(no subject)")
    return ui.ListItem(ctx.t("Draft") + (f" · {draft['to']}" if draft["to"] else ""),
                       subtitle=f"{subject} — {' '.join(draft['body'].split())}",
                       trailing=time_label(ctx, draft["time_ms"]), title_rid="draft_to", rid="draft_item", desc=subject,
                       on_click=lambda: ctx.navigate("/compose", draft=draft["id"]))


@APP.screen("/")
def threads(ctx: Ctx) -> ui.Scaffold:
    folder = ctx.local.get("folder", "inbox")
    if folder not in FOLDERS and folder not in ctx.state["labels"]:
        folder = "inbox"
    shown = folder_threads(ctx.state, folder)
    selection = [i for i in ctx.local.get("selected") or [] if any(t["id"] == i for t in shown)]
    rows: list[ui.View | None] = []
    dialog = _drawer(ctx, folder) if ctx.local.get("drawer") else None
    if folder == "trash" and shown:
        rows.append(ui.Row([ui.Text(ctx.t("Mail in Trash stays until you empty it."),
                                    size=13, color="muted", max_lines=2, flex=1),
                            ui.Button(ctx.t("Empty Trash now"),
                                      lambda: ctx.local.__setitem__("confirm", "empty"), style="text",
                                      rid="empty_trash")], pad=12, gap=8))
        if ctx.local.get("confirm") == "empty":
            dialog = _delete_forever_dialog(ctx, shown, ctx.t("Empty Trash ({n_shown})?", n_shown=len(shown)))
    if folder == "drafts":
        rows += [_draft_row(ctx, d) for d in sorted(ctx.state["drafts"], key=lambda d: -d["time_ms"])]
    else:
        rows += [_thread_row(ctx, t, selection) for t in shown]
    if not rows:
        rows.append(ui.Text(ctx.t("Nothing in {folder_name}", folder_name=folder_name(ctx, folder)),
                            color="muted", align="center", height=120, rid="empty"))
    body = ui.ScrollList(rows, rid="thread_list")
    if selection:
        chosen = [t for t in shown if t["id"] in selection]
        if ctx.local.get("confirm") == "forever":
            dialog = _delete_forever_dialog(ctx, chosen, ctx.t("Delete {n_chosen} forever?", n_chosen=len(chosen)))
        return ui.Scaffold(body, top=_selection_bar(ctx, chosen, folder == "trash"), dialog=dialog,
                           on_back=lambda: ctx.local.__setitem__("selected", []))
    top = ui.Row([
        ui.IconButton("☰", ctx.t("Open navigation drawer"),
                      lambda: ctx.local.__setitem__("drawer", True), rid="open_drawer"),
        ui.Text(folder_name(ctx, folder), size=20, bold=True, rid="toolbar_title", flex=1),
        ui.IconButton("⚲", ctx.t("Search in mail"), lambda: ctx.navigate("/search"), rid="search"),
    ], gap=4, height=56, bg="surface", pad=4)
    return ui.Scaffold(body, top=top, dialog=dialog,
                       fab=ui.Fab("✎", ctx.t("Compose"), lambda: ctx.navigate("/compose"), rid="compose"))


# --- one thread ---------------------------------------------------------------------------------------------------

def _attachment_row(ctx: Ctx, item: dict[str, Any], rid: str = "attachment",
                    on_remove: Callable[[], None] | None = None) -> ui.View:
    meta = f"{item['format']} · {size_text(item['size_kb'])}"
    remove = ui.IconButton("✕", ctx.t("Remove {name}", name=item['name']), on_remove,
                           rid="remove_attachment") if on_remove is not None else None
    return ui.Row([ui.Icon("📎", size=20, color="muted"),
                   ui.Column([ui.Text(item["name"], size=14, rid="attachment_name"),
                              ui.Text(meta, size=12, color="muted", rid="attachment_meta")], gap=2, flex=1), remove],
                  gap=10, pad=8, bg="divider", radius=8, rid=rid, desc=f"{item['name']}, {meta}")


def _message_card(ctx: Ctx, message: dict[str, Any]) -> ui.View:
    to = [_name(ctx, p) for p in message["to"]]
    cc = [_name(ctx, p) for p in message["cc"]]
    to_line = ctx.t("to ") + ", ".join(to) + (ctx.t("; cc ") + ", ".join(cc) if cc else "")
    sender = message["from"]
    rows: list[ui.View | None] = [
        ui.Row([avatar(sender["name"], 40),
                ui.Column([ui.Text(_name(ctx, sender), size=15, bold=True, rid="message_sender"),
                           ui.Text(sender["email"], size=12, color="muted", rid="message_email"),
                           ui.Text(to_line, size=12, color="muted", max_lines=2, rid="message_to")], gap=1, flex=1),
                ui.Text(full_time(ctx, message["time_ms"]), size=12, color="muted", rid="message_time")], gap=10),
        ui.Text(message["body"], size=15, max_lines=None, rid="message_body") if message["body"] else None,
    ]
    if message.get("quoted"):
        rows.append(ui.Text(ctx.t("---------- Forwarded message ----------") + "\n"
                            + message["quoted"], size=13, color="muted", max_lines=None, rid="quoted_text"))
    rows += [_attachment_row(ctx, a) for a in message["attachments"]]
    return ui.Column(rows, gap=10, pad=12, bg="surface", radius=12, rid="message")


def _label_dialog(ctx: Ctx, thread: dict[str, Any]) -> ui.Dialog:
    """Check boxes for the custom labels; OK applies the choice."""
    picked: list[str] = ctx.local.get("label_pick", thread["labels"])

    def flip(label: str) -> Callable[[bool], None]:
        return lambda on: ctx.local.__setitem__("label_pick", [x for x in ctx.state["labels"]
                                                               if (x == label and on) or (x != label and x in picked)])

    def apply() -> None:
        kept = [x for x in thread["labels"] if x not in ctx.state["labels"]]  # labels since removed stay
        thread["labels"] = kept + [x for x in ctx.state["labels"] if x in picked]
        ctx.local["labels_open"] = False
        ctx.local.pop("label_pick", None)
        ctx.toast(ctx.t("Labels updated"))

    def close() -> None:
        ctx.local["labels_open"] = False
        ctx.local.pop("label_pick", None)

    rows = [ui.Checkbox("label_option", label in picked, flip(label), label) for label in ctx.state["labels"]]
    return ui.Dialog(ctx.t("Label as"), rows,
                     [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                      ui.Button(ctx.t("OK"), apply, style="text", rid=ui.POSITIVE)], on_dismiss=close)


@APP.screen("/thread")
def thread_screen(ctx: Ctx) -> ui.Scaffold:
    thread = find_thread(ctx.state, ctx.params.get("id"))
    if thread is None:
        gone = ui.Text(ctx.t("This conversation was deleted."), color="muted", align="center",
                       height=120, rid="missing")
        return ui.Scaffold(ui.ScrollList([gone], rid="message_list"), top=ui.TopBar("", on_back=ctx.back))

    def leave(message: str, change: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            change()
            ctx.toast(ctx.t(message))
            ctx.back()
        return run

    def mark_unread() -> None:
        thread["unread"] = True
        ctx.back()

    if thread["trashed"]:
        actions = [ui.IconButton("↶", ctx.t("Move to Inbox"),
                                 leave("Moved to Inbox", lambda: thread.update(trashed=False, inbox=True)),
                                 rid="restore"),
                   ui.IconButton("🗑", ctx.t("Delete forever"),
                                 lambda: ctx.local.__setitem__("confirm", True), rid="delete_forever")]
    else:
        archive = (ui.IconButton("📥", ctx.t("Archive"),
                                 leave("Archived", lambda: thread.__setitem__("inbox", False)), rid="archive")
                   if thread["inbox"] else
                   ui.IconButton("📥", ctx.t("Move to Inbox"),
                                 leave("Moved to Inbox", lambda: thread.__setitem__("inbox", True)),
                                 rid="move_to_inbox"))
        actions = [archive,
                   ui.IconButton("🗑", ctx.t("Delete"),
                                 leave("Moved to Trash", lambda: thread.__setitem__("trashed", True)),
                                 rid="delete"),
                   ui.IconButton("✉", ctx.t("Mark as unread"), mark_unread, rid="mark_unread"),
                   ui.IconButton("🏷", ctx.t("Label"), lambda: ctx.local.__setitem__("labels_open", True),
                                 rid="label_thread")]
    chips = [ui.Text(name, size=12, bg="divider", radius=6, rid="label_chip", width=None, height=22)
             for name in thread_labels(thread, ctx.t("Inbox"), ctx.t("Trash"))]
    star = ui.IconButton("★" if thread["starred"] else "☆",
                         ctx.t("Starred") if thread["starred"] else ctx.t("Not starred"),
                         lambda: thread.__setitem__("starred", not thread["starred"]), rid="star_thread",
                         color="#B06000" if thread["starred"] else "muted")
    rows: list[ui.View | None] = [
        ui.Row([ui.Text(thread["subject"] or ctx.t("(no subject)"), size=20, max_lines=3, flex=1,
                        rid="thread_title"), star], gap=8),
        ui.Row(chips, gap=6) if chips else None,
        *(_message_card(ctx, m) for m in thread["messages"]),
    ]
    dialog = None
    if ctx.local.get("labels_open"):
        dialog = _label_dialog(ctx, thread)
    elif ctx.local.get("confirm"):
        def forever() -> None:
            ctx.state["threads"].remove(thread)
            ctx.toast(ctx.t("Deleted forever"))
            ctx.back()

        dialog = ui.Dialog(ctx.t("Delete forever?"),
                           [ui.Text(ctx.t("This conversation can't be recovered."), color="muted",
                                    max_lines=2)],
                           [ui.Button(ctx.t("Cancel"), lambda: ctx.local.__setitem__("confirm", False),
                                      style="text", rid=ui.NEGATIVE),
                            ui.Button(ctx.t("Delete"), forever, style="text", rid=ui.POSITIVE)],
                           on_dismiss=lambda: ctx.local.__setitem__("confirm", False))
    tid = thread["id"]
    bottom = ui.Row([
        ui.Button(ctx.t("Reply"), lambda: ctx.navigate("/compose", mode="reply", thread=tid), style="outlined",
                  rid="reply", flex=1),
        ui.Button(ctx.t("Reply all"), lambda: ctx.navigate("/compose", mode="reply_all", thread=tid),
                  style="outlined", rid="reply_all", flex=1),
        ui.Button(ctx.t("Forward"), lambda: ctx.navigate("/compose", mode="forward", thread=tid),
                  style="outlined", rid="forward", flex=1),
    ], gap=8, pad=8, bg="surface")
    return ui.Scaffold(ui.ScrollList(rows, rid="message_list", pad=12, gap=10),
                       top=ui.TopBar("", on_back=ctx.back, actions=actions), bottom=bottom, dialog=dialog)


# --- compose ---------------------------------------------------------------------------------------------------------

def _prefill(ctx: Ctx) -> dict[str, Any]:
    """What the form starts with: a draft's fields, a reply's recipients and "Re:", a forward's "Fwd:" and
    attachments, or nothing."""
    params, state = ctx.params, ctx.state
    draft = next((d for d in state["drafts"] if d["id"] == params.get("draft")), None)
    if draft is not None:
        return {"to": draft["to"], "cc": draft["cc"], "subject": draft["subject"], "body": draft["body"],
                "attachments": draft["attachments"], "quoted": "", "thread": draft["thread_id"]}
    thread = find_thread(state, params.get("thread"))
    mode = params.get("mode", "new")
    if thread is None or mode == "new":
        return {"to": params.get("to", ""), "cc": "", "subject": "", "body": "", "attachments": [], "quoted": "",
                "thread": None}
    subject = thread["subject"]
    if mode == "forward":
        last = thread["messages"][-1]
        head = f"{last['from']['name']} <{last['from']['email']}>"
        return {"to": "", "cc": "", "subject": subject if subject.startswith("Fwd:") else f"Fwd: {subject}",
                "body": "", "attachments": [dict(a) for m in thread["messages"] for a in m["attachments"]],
                "quoted": f"{head}\n{last['body']}", "thread": thread["id"]}
    to, cc = reply_recipients(thread, state["account"]["email"], everyone=mode == "reply_all")
    return {"to": recipients_text(to), "cc": recipients_text(cc),
            "subject": subject if subject.startswith("Re:") else f"Re: {subject}", "body": "", "attachments": [],
            "quoted": "", "thread": thread["id"]}


def _contacts(ctx: Ctx) -> list[dict[str, Any]]:
    """Contacts with an e-mail address (read from the Contacts app, when installed)."""
    return [c for c in ctx.phone.doc["apps"].get("contacts", {}).get("contacts", []) if c["email"]]


def _suggestions(ctx: Ctx, key: str, text: str, rid: str) -> list[ui.View | None]:
    """Contacts matching the address being typed last in a recipient field; a tap completes it."""
    head, _, partial = text.rpartition(",")
    wanted = partial.strip().casefold()
    if not wanted or re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", wanted):
        return []
    hits = [c for c in sorted(_contacts(ctx), key=lambda c: c["name"].casefold())
            if wanted in c["name"].casefold() or wanted in c["email"].casefold()]

    def pick(email: str) -> Callable[[], None]:
        return lambda: ctx.local.__setitem__(key, (head.strip() + ", " if head.strip() else "") + email + ", ")

    return [ui.ListItem(c["name"], subtitle=c["email"], leading=avatar(c["name"], 36), title_rid="suggestion_name",
                        rid=rid, desc=f"{c['name']} <{c['email']}>", on_click=pick(c["email"]))
            for c in hits[:SUGGESTION_LIMIT]]


@APP.screen("/compose")
def compose(ctx: Ctx) -> ui.Scaffold:
    start = _prefill(ctx)
    local = ctx.local
    for key in ("to", "cc", "subject", "body"):
        local.setdefault(key, start[key])
    local.setdefault("attachments", start["attachments"])
    draft_id = ctx.params.get("draft")
    mode = ctx.params.get("mode", "new")
    contacts = _contacts(ctx)

    def written() -> bool:
        return bool(local["body"].strip()) or any(local[k] != start[k] for k in ("to", "cc", "subject"))

    def drop_draft() -> None:
        ctx.state["drafts"][:] = [d for d in ctx.state["drafts"] if d["id"] != draft_id]

    def save_and_leave() -> None:
        if written() or draft_id:
            fields = {"to": local["to"], "cc": local["cc"], "subject": local["subject"], "body": local["body"],
                      "time_ms": ctx.os["time_ms"], "thread_id": start["thread"], "attachments": local["attachments"]}
            draft = next((d for d in ctx.state["drafts"] if d["id"] == draft_id), None)
            if draft is None:
                ctx.state["drafts"].append({"id": ctx.new_id("draft"), **fields})
            else:
                draft.update(fields)
            ctx.toast(ctx.t("Draft saved"))
        ctx.back()

    def send() -> None:
        to, bad_to = parse_recipients(local["to"], contacts)
        cc, bad_cc = parse_recipients(local["cc"], contacts)
        bad = bad_to + bad_cc
        if bad:
            ctx.toast(ctx.t("Invalid address: {bad}", bad=bad[0]))
            return
        if not to:
            ctx.toast(ctx.t("Add at least one recipient"))
            return
        message = {"id": ctx.new_id("msg"), "from": dict(ctx.state["account"]), "to": to, "cc": cc,
                   "body": local["body"].strip(), "time_ms": ctx.os["time_ms"], "attachments": local["attachments"]}
        if start["quoted"]:
            message["quoted"] = start["quoted"]
        thread = find_thread(ctx.state, start["thread"])
        if thread is not None and not thread["trashed"]:
            thread["messages"].append(message)
            thread["unread"] = False
        else:
            ctx.state["threads"].append({"id": ctx.new_id("thread"), "kind": "sent", "subject": local["subject"].strip(),
                                         "labels": [], "inbox": False, "trashed": False, "unread": False,
                                         "starred": False, "messages": [message], "facts": {}})
        drop_draft()
        ctx.toast(ctx.t("Sent"))
        ctx.back()

    def discard() -> None:
        drop_draft()
        local["confirm_discard"] = False
        ctx.toast(ctx.t("Draft discarded"))
        ctx.back()

    def row(label: str, field: ui.View) -> ui.View:
        return ui.Row([ui.Spacer(width=MARGIN - 12), ui.Text(label, size=15, color="muted", width=56), field], gap=4)

    rows: list[ui.View | None] = [
        row(ctx.t("To"), ctx.field("to_input", "to", hint=ctx.t("Name or email"), flex=1)),
        *_suggestions(ctx, "to", local["to"], "contact_suggestion"),
        row(ctx.t("Cc"), ctx.field("cc_input", "cc", flex=1)),
        *_suggestions(ctx, "cc", local["cc"], "cc_suggestion"),
        ctx.field("subject_input", "subject", hint=ctx.t("Subject")),
        ctx.field("body_input", "body", hint=ctx.t("Compose email"), lines=6),
    ]
    if start["quoted"]:
        rows.append(ui.Text(ctx.t("---------- Forwarded message ----------") + "\n"
                            + start["quoted"], size=13, color="muted", max_lines=6, rid="quoted_text"))
    for i, item in enumerate(local["attachments"]):
        rows.append(_attachment_row(ctx, item, "forward_attachment",
                                    lambda i=i: local.__setitem__("attachments",
                                                                  [a for j, a in enumerate(local["attachments"])
                                                                   if j != i])))
    dialog = None
    if local.get("confirm_discard"):
        dialog = ui.Dialog(ctx.t("Discard this draft?"), [],
                           [ui.Button(ctx.t("Cancel"), lambda: local.__setitem__("confirm_discard", False),
                                      style="text", rid=ui.NEGATIVE),
                            ui.Button(ctx.t("Discard"), discard, style="text", rid=ui.POSITIVE)],
                           on_dismiss=lambda: local.__setitem__("confirm_discard", False))
    title = {"reply": "Reply", "reply_all": "Reply all", "forward": "Forward"}
    top = ui.TopBar(ctx.t(title.get(mode, "Compose")), on_back=save_and_leave, actions=[
        ui.IconButton("🗑", ctx.t("Discard"), lambda: local.__setitem__("confirm_discard", True), rid="discard"),
        ui.IconButton("➤", ctx.t("Send"), send, rid="send", color="primary"),
    ])
    return ui.Scaffold(ui.ScrollList(rows, rid="compose_form", pad=12, gap=8), top=top, dialog=dialog,
                       on_back=save_and_leave)  # Back keeps what was written as a draft, as ← does


# --- search ---------------------------------------------------------------------------------------------------------

@APP.screen("/search", focus="search_input")
def search(ctx: Ctx) -> ui.Scaffold:
    query = ctx.local.get("query", "").strip().casefold()
    shown = []
    if query:
        shown = [t for t in folder_threads(ctx.state, "all")
                 if any(query in text.casefold() for m in t["messages"]
                        for text in (m["from"]["name"], m["from"]["email"], m["body"], t["subject"],
                                     *(a["name"] for a in m["attachments"])))]
    selection = [i for i in ctx.local.get("selected") or [] if any(t["id"] == i for t in shown)]
    rows: list[ui.View | None] = [_thread_row(ctx, t, selection) for t in shown]
    if query and not rows:
        rows.append(ui.Text(ctx.t("No results for “{strip}”", strip=ctx.local['query'].strip()),
                            color="muted", align="center", max_lines=2, height=96, rid="no_results"))
    field = ctx.field("search_input", "query", hint=ctx.t("Search in mail"), ime_action="search", flex=1)
    body = ui.ScrollList(rows, rid="search_results")
    if selection:
        top = _selection_bar(ctx, [t for t in shown if t["id"] in selection], False)
        return ui.Scaffold(body, top=top, on_back=lambda: ctx.local.__setitem__("selected", []))
    top = ui.Row([ui.IconButton("←", ctx.t("Navigate up"), ctx.back, rid="navigate_up"), field],
                 gap=4, height=56, bg="surface", pad=4)
    return ui.Scaffold(body, top=top)
