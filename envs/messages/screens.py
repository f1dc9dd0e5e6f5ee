"""Messages screens: conversation list (with multi-select), thread, compose, search."""
from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from mobilegym.calendar_words import WEEKDAY_PAIRS as WEEKDAYS, MONTH_ABBRS as MONTHS
from mobilegym.envs.contacts.numbers import digits, is_dialable, number_key, same_number
from mobilegym.envs.contacts.screens import avatar
from mobilegym.envs.layout import MARGIN, inset
from mobilegym.envs.l10n import counted
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx
from mobilegym.sim.clock import from_ms

from .app import APP

SEARCH_LIMIT = 30
SUGGESTION_LIMIT = 8


def _contacts(ctx: Ctx) -> list[dict[str, Any]]:
    """The phone's contacts (read from the Contacts app, when installed)."""
    return (ctx.state_of("contacts") or {}).get("contacts", [])


def contact_names(ctx: Ctx) -> dict[str, str]:
    """Number key -> contact name, for showing names instead of numbers."""
    return names_by_number(_contacts(ctx))


def names_by_number(contacts: list[dict[str, Any]]) -> dict[str, str]:
    """Number key -> contact name, for the Contacts app's ``contacts``."""
    return {number_key(p["number"]): c["name"] for c in contacts for p in c["phones"] if number_key(p["number"])}


def display_name(names: dict[str, str], address: str) -> str:
    return names.get(number_key(address), address)


def last_time(conv: dict[str, Any]) -> int:
    return conv["messages"][-1]["time_ms"] if conv["messages"] else 0


def time_label(ctx: Ctx, ms: int) -> str:
    """"08:31" today, "Yesterday", a weekday within the week, else "Mar 9"."""
    moment, today = from_ms(ms), ctx.now.date()
    age = (today - moment.date()).days
    if age == 0:
        return moment.strftime("%H:%M")
    if age == 1:
        return ctx.t("Yesterday")
    if 1 < age < 7:
        en, zh = WEEKDAYS[moment.weekday()]
        return ctx.t("{weekday}", weekday=en, weekday_zh=zh)
    return ctx.t("{months} {day}", months=MONTHS[moment.month - 1], day=moment.day, month=moment.month)


def day_label(ctx: Ctx, day: dt.date) -> str:
    age = (ctx.now.date() - day).days
    if age == 0:
        return ctx.t("Today")
    if age == 1:
        return ctx.t("Yesterday")
    en, zh = WEEKDAYS[day.weekday()]
    return ctx.t("{en}, {months} {day}", en=en, months=MONTHS[day.month - 1], day=day.day, month=day.month, zh=zh)


def find_conversation(ctx: Ctx, conv_id: str | None) -> dict[str, Any] | None:
    return next((c for c in ctx.state["conversations"] if c["id"] == conv_id), None)


def open_thread(ctx: Ctx, conv: dict[str, Any]) -> None:
    """Show a conversation; opening it marks it read."""
    conv["unread"] = 0
    ctx.navigate("/thread", id=conv["id"])


def _delete_dialog(ctx: Ctx, conv: dict[str, Any], name: str, on_done: Callable[[], None],
                   on_cancel: Callable[[], None]) -> ui.Dialog:
    def delete() -> None:
        ctx.state["conversations"].remove(conv)
        on_done()
        ctx.toast(ctx.t("Conversation deleted"))

    return ui.Dialog(
        ctx.t("Delete conversation with {name}?", name=name),
        ctx.t("All messages in it will be deleted."),
        [ui.Button(ctx.t("Cancel"), on_cancel, style="text", rid=ui.NEGATIVE),
         ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)],
        on_dismiss=on_cancel,
    )


def _conversation_row(ctx: Ctx, conv: dict[str, Any], name: str, selection: list[str]) -> ui.View:
    """A conversation of the list: a tap opens it, a long press selects it; while some are selected, a tap
    toggles its selection (as Google Messages' multi-select does)."""
    last = conv["messages"][-1]
    unread = conv["unread"]
    said = last["text"] or "📎 " + ", ".join(last.get("attachments", ()))
    preview = said if last["incoming"] else ctx.t("You: ") + said
    badge = ui.Text(str(unread), size=12, bold=True, color="on_primary", bg="primary", radius=10, align="center",
                    width=max(22, 8 + 8 * len(str(unread))), height=20, rid="unread_badge") if unread else None
    chosen = conv["id"] in selection
    lead = (ui.Text("✓", size=22, bold=True, color="on_primary", bg="primary", radius=22, align="center", width=44,
                    height=44, rid="selected_check") if chosen else avatar(name, 44))
    return ui.Row([
        lead,
        ui.Column([
            ui.Row([ui.Text(name, size=16, bold=unread > 0, flex=1, rid="conversation_name"),
                    ui.Text(time_label(ctx, last["time_ms"]), size=12, color="primary" if unread else "muted",
                            rid="conversation_time")], gap=8),
            ui.Row([ui.Text(preview, size=14, color=None if unread else "muted", flex=1, rid="conversation_snippet"),
                    badge], gap=8),
        ], gap=2, flex=1),
    ], pad=12, gap=12, rid="conversation_item", desc=name, selected=chosen, bg="divider" if chosen else None,
        on_click=(lambda: _toggle(ctx, conv["id"])) if selection else (lambda: open_thread(ctx, conv)),
        on_long_click=lambda: _toggle(ctx, conv["id"]))


def _toggle(ctx: Ctx, conv_id: str) -> None:
    """Add a conversation to the selection, or take it out (the last one out ends the selection)."""
    selection = list(ctx.local.get("selected") or [])
    ctx.local["selected"] = [c for c in selection if c != conv_id] if conv_id in selection else [*selection, conv_id]


def _selection_bar(ctx: Ctx, count: int) -> ui.View:
    """The top bar while conversations are selected: close, "N selected", delete."""
    return ui.Row([
        ui.IconButton("✕", ctx.t("Close"), lambda: ctx.local.__setitem__("selected", []),
                      rid="close_selection"),
        ui.Text(ctx.t("{count} selected", count=count), size=20, bold=True, rid="toolbar_title", flex=1),
        ui.IconButton("🗑", ctx.t("Delete"), lambda: ctx.local.__setitem__("confirm_delete", True),
                      rid="delete_selected"),
    ], gap=4, height=56, bg="surface", pad=4)


def _delete_selected_dialog(ctx: Ctx, chosen: list[dict[str, Any]]) -> ui.Dialog:
    count = len(chosen)

    def close() -> None:
        ctx.local["confirm_delete"] = False

    def delete() -> None:
        for conv in chosen:
            ctx.state["conversations"].remove(conv)
        ctx.local.update(selected=[], confirm_delete=False)
        ctx.toast(ctx.t("Conversation deleted") if count == 1 else ctx.t("{count} conversations deleted", count=count))

    return ui.Dialog(
        ctx.t("Delete {counted}?", counted=counted(count, 'conversation'), count=count),
        ctx.t("All messages in it will be deleted.") if count == 1 else ctx.t("All messages in them will be deleted."),
        [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
         ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)],
        on_dismiss=close,
    )


@APP.screen("/")
def conversations(ctx: Ctx) -> ui.Scaffold:
    names = contact_names(ctx)
    convs = sorted(ctx.state["conversations"], key=last_time, reverse=True)
    selection = [c for c in ctx.local.get("selected") or [] if find_conversation(ctx, c) is not None]
    rows: list[ui.View | None] | ui.Rows = ui.Rows(
        convs, lambda c: _conversation_row(ctx, c, display_name(names, c["address"]), selection))
    if not convs:
        rows = [ui.Text(ctx.t("No conversations"), color="muted", align="center", height=120, rid="empty")]
    if selection:
        chosen = [c for c in convs if c["id"] in selection]
        dialog = _delete_selected_dialog(ctx, chosen) if ctx.local.get("confirm_delete") else None
        return ui.Scaffold(ui.ScrollList(rows, rid="conversation_list"), top=_selection_bar(ctx, len(selection)),
                           dialog=dialog, on_back=lambda: ctx.local.__setitem__("selected", []))
    top = ui.TopBar(ctx.t("Messages"), actions=[
        ui.IconButton("⚲", ctx.t("Search messages"), lambda: ctx.navigate("/search"), rid="search")])
    return ui.Scaffold(ui.ScrollList(rows, rid="conversation_list"), top=top,
                       fab=ui.Fab("✎", ctx.t("Start chat"), lambda: ctx.navigate("/compose"), rid="new_message"))


def _bubbles(ctx: Ctx, messages: list[dict[str, Any]]) -> list[ui.View | None]:
    rows: list[ui.View | None] = []
    day = None
    for message in messages:
        moment = from_ms(message["time_ms"])
        if moment.date() != day:
            day = moment.date()
            rows.append(ui.Text(day_label(ctx, day), size=12, color="muted", align="center", height=28, rid="day_header"))
        mine = not message["incoming"]
        ink = "on_primary" if mine else None
        bubble = ui.Column([
            *(_attachment(ctx, name, ink) for name in message.get("attachments", ())),
            ui.Text(message["text"], size=15, max_lines=None, color=ink, rid="message_text") if message["text"] else None,
            ui.Text(moment.strftime("%H:%M"), size=11, color=ink if mine else "muted", align="right", rid="message_time"),
        ], gap=4, pad=10, bg="primary" if mine else "surface", radius=14, flex=3,
            rid="message_out" if mine else "message_in")
        rows.append(ui.Row([ui.Spacer(flex=1), bubble] if mine else [bubble, ui.Spacer(flex=1)], gap=0))
    return rows


def _attachment(ctx: Ctx, name: str, color: str | None = None, on_remove: Callable[[], None] | None = None) -> ui.View:
    """A file or photo sent with a message (shared into Messages from Files or Gallery): its name, and while
    composing a button that takes it off."""
    remove = ui.IconButton("✕", ctx.t("Remove {name}", name=name), on_remove, rid="remove_attachment") \
        if on_remove is not None else None
    return ui.Row([ui.Icon("📎", size=18, color=color or "muted"),
                   ui.Text(name, size=14, color=color, flex=1, rid="attachment_name"), remove],
                  gap=8, pad=6, radius=8, rid="message_attachment", desc=name)


def _composer(ctx: Ctx, send: Callable[[], None], draft: str = "") -> ui.View:
    return ui.Row([ctx.field("message_input", "draft", draft, hint=ctx.t("Text message"), flex=1, on_submit=send, ime_action="send"),
                   ui.IconButton("➤", ctx.t("Send"), send, rid="send", color="primary")],
                  gap=4, pad=8, bg="surface")


@APP.screen("/thread")
def thread(ctx: Ctx) -> ui.Scaffold:
    conv = find_conversation(ctx, ctx.params.get("id"))
    if conv is None:
        gone = ui.Text(ctx.t("This conversation was deleted."), color="muted", align="center",
                       height=120, rid="missing")
        return ui.Scaffold(ui.ScrollList([gone], rid="message_list"), top=ui.TopBar("", on_back=ctx.back))
    name = display_name(contact_names(ctx), conv["address"])
    known = name != conv["address"]

    def send() -> None:
        text = ctx.local.get("draft", "").strip()
        if not text:
            ctx.toast(ctx.t("Type a message first"))
            return
        conv["messages"].append({"id": ctx.new_id("msg"), "text": text, "time_ms": ctx.os["time_ms"], "incoming": False})
        ctx.local["draft"] = ""
        ctx.scroll_home("message_list")  # what was sent shows, as in every messenger

    rows = _bubbles(ctx, conv["messages"])
    if known:
        rows.insert(0, ui.Text(conv["address"], size=13, color="muted", align="center", height=28, rid="thread_address"))
    actions = [] if known else [ui.IconButton("+", ctx.t("Add to contacts"),
                                              lambda: ctx.open_app("contacts", "/edit", phone=conv["address"]),
                                              rid="add_contact")]
    actions.append(ui.IconButton("🗑", ctx.t("Delete conversation"),
                                 lambda: ctx.local.__setitem__("confirm_delete", True), rid="delete_conversation"))
    dialog = None
    if ctx.local.get("confirm_delete"):
        dialog = _delete_dialog(ctx, conv, name, ctx.back, lambda: ctx.local.__setitem__("confirm_delete", False))
    return ui.Scaffold(ui.ScrollList(rows, rid="message_list", pad=12, gap=8, from_end=True),
                       top=ui.TopBar(name, on_back=ctx.back, actions=actions), bottom=_composer(ctx, send), dialog=dialog)


def _recipient(contacts: list[dict[str, Any]], text: str) -> str | None:
    """The number a typed recipient means: a contact's name (first number) or a dialable number."""
    wanted = text.strip().casefold()
    for contact in contacts:
        if contact["phones"] and contact["name"].casefold() == wanted:
            return contact["phones"][0]["number"]
    return text.strip() if is_dialable(text) else None


@APP.screen("/compose")
def compose(ctx: Ctx) -> ui.Scaffold:
    contacts = _contacts(ctx)
    to = ctx.local.get("to", ctx.params.get("to", ""))
    query = to.strip()

    removed = ctx.local.get("removed", [])
    attached = [name for name in ctx.params.get("attach", []) if name not in removed]

    def send() -> None:
        number = _recipient(contacts, ctx.local.get("to", ctx.params.get("to", "")))
        text = ctx.local.get("draft", ctx.params.get("body", "")).strip()
        if number is None:
            ctx.toast(ctx.t("Choose a contact or enter a number"))
            return
        if not text and not attached:
            ctx.toast(ctx.t("Type a message first"))
            return
        message = {"id": ctx.new_id("msg"), "text": text, "time_ms": ctx.os["time_ms"], "incoming": False}
        if attached:
            message["attachments"] = attached
        conv = next((c for c in ctx.state["conversations"] if same_number(c["address"], number)), None)
        if conv is None:
            conv = {"id": ctx.new_id("conv"), "address": number, "unread": 0, "messages": []}
            ctx.state["conversations"].append(conv)
        conv["messages"].append(message)
        ctx.replace("/thread", id=conv["id"])

    picked = next(((c, p) for c in contacts for p in c["phones"] if query and same_number(p["number"], query)), None)
    rows: list[ui.View | None] = [
        ui.Row([inset(ui.Text(ctx.t("To"), size=15, color="muted"), MARGIN - 12),
                ctx.field("recipient_input", "to", ctx.params.get("to", ""), hint=ctx.t("Name or number"), flex=1)],
               gap=8),
    ]
    rows += [_attachment(ctx, name, on_remove=lambda n=name: ctx.local.__setitem__("removed", [*removed, n]))
             for name in attached]
    if picked is not None:
        contact, phone = picked
        rows.append(ui.Text(f"{contact['name']} · {phone['number']}", size=14, color="primary", rid="recipient_name"))
    elif query:
        wanted, text = digits(query), query.casefold()
        hits = [(c, p) for c in sorted(contacts, key=lambda c: c["name"].casefold()) for p in c["phones"]
                if text in c["name"].casefold() or (len(wanted) >= 3 and wanted in digits(p["number"]))]
        for contact, phone in hits[:SUGGESTION_LIMIT]:
            rows.append(ui.ListItem(contact["name"], subtitle=phone["number"], leading=avatar(contact["name"], 36),
                                    title_rid="suggestion_name", rid="contact_suggestion",
                                    desc=f"{contact['name']} {phone['number']}",
                                    on_click=lambda n=phone["number"]: ctx.local.__setitem__("to", n)))
    return ui.Scaffold(ui.ScrollList(rows, rid="compose_form", pad=12, gap=4),
                       top=ui.TopBar(ctx.t("New message"), on_back=ctx.back),
                       bottom=_composer(ctx, send, ctx.params.get("body", "")))


@APP.screen("/search", focus="search_input")
def search(ctx: Ctx) -> ui.Scaffold:
    query = ctx.local.get("query", "").strip()
    names = contact_names(ctx)
    rows: list[ui.View | None] = []
    if query:
        text = query.casefold()
        for conv in sorted(ctx.state["conversations"], key=last_time, reverse=True):
            name = display_name(names, conv["address"])
            if text in name.casefold() or text in conv["address"]:
                hits = [conv["messages"][-1]]
            else:
                hits = [m for m in reversed(conv["messages"]) if text in m["text"].casefold()]
            for message in hits:
                rows.append(ui.ListItem(name, subtitle=message["text"], trailing=time_label(ctx, message["time_ms"]),
                                        title_rid="result_name", rid="search_result", desc=name,
                                        on_click=lambda c=conv: open_thread(ctx, c)))
        rows = rows[:SEARCH_LIMIT]
        if not rows:
            rows.append(ui.Text(ctx.t("No messages match “{query}”", query=query), color="muted",
                                align="center", max_lines=2, height=96, rid="no_results"))
    field = ctx.field("search_input", "query", hint=ctx.t("Search messages"), ime_action="search")
    body = ui.Column([ui.Row([field], pad=12), ui.ScrollList(rows, rid="search_results")])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Search"), on_back=ctx.back))
