"""Notes screens: the notes list, the note editor, search, the to-do list and a to-do's detail.

Notes are ``{id, title, body, pinned, created, updated}`` ("YYYY-MM-DD HH:MM" timestamps);
to-dos are ``{id, text, done, due}`` (due is "YYYY-MM-DD" or None).
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.calendar_words import MONTH_ABBRS as MONTHS
from mobilegym.envs.layout import MARGIN, inset
from mobilegym.envs.l10n import counted
from mobilegym.sim import pickers, ui
from mobilegym.sim.app import Ctx

from .app import APP

TABS = [("/", "Notes"), ("/todos", "To-dos")]


def short_date(ctx: Ctx, day: dt.date) -> str:
    """"Mar 20" / "3月20日"."""
    return ctx.t("{months} {day}", months=MONTHS[day.month - 1], day=day.day, month=day.month)


def stamp(ctx: Ctx) -> str:
    """The phone's time as a note timestamp."""
    return ctx.now.strftime("%Y-%m-%d %H:%M")


def _when(ctx: Ctx, updated: str) -> str:
    moment = dt.datetime.strptime(updated, "%Y-%m-%d %H:%M")
    return moment.strftime("%H:%M") if moment.date() == ctx.now.date() else short_date(ctx, moment.date())


def preview(body: str) -> str:
    """The first non-empty line of a note's body."""
    return next((line.strip() for line in body.split("\n") if line.strip()), "")


def _tabs(ctx: Ctx, current: str) -> ui.View:
    index = [path for path, _ in TABS].index(current)
    return ui.Tabs([ctx.t(label) for _, label in TABS], index, lambda i: ctx.replace(TABS[i][0]), rid_prefix="tab")


def _note_row(ctx: Ctx, note: dict[str, Any], rid: str) -> ui.View:
    title = note["title"] or ctx.t("Untitled")
    return ui.ListItem(title, subtitle=preview(note["body"]) or None, title_rid="note_title_text",
                       leading=ui.Icon("★" if note["pinned"] else "✎", size=20,
                                       color="primary" if note["pinned"] else "muted"),
                       trailing=_when(ctx, note["updated"]), rid=rid, desc=title,
                       on_click=lambda n=note: ctx.navigate("/note", id=n["id"]))


def _find(items: list[dict[str, Any]], item_id: str | None) -> dict[str, Any] | None:
    return next((i for i in items if i["id"] == item_id), None)


# --- notes list --------------------------------------------------------------------------------

@APP.screen("/")
def notes_list(ctx: Ctx) -> ui.Scaffold:
    notes = sorted(ctx.state["notes"], key=lambda n: n["updated"], reverse=True)
    pinned = [n for n in notes if n["pinned"]]
    others = [n for n in notes if not n["pinned"]]
    rows: list[ui.View | None] = []
    if pinned:
        rows.append(inset(ui.Text(ctx.t("Pinned"), size=13, bold=True, color="primary", height=32,
                                  rid="pinned_header"), MARGIN - 8))
        rows += [_note_row(ctx, n, "note_item") for n in pinned]
        rows.append(inset(ui.Text(ctx.t("Others"), size=13, bold=True, color="primary", height=32,
                                  rid="others_header"), MARGIN - 8))
    rows += [_note_row(ctx, n, "note_item") for n in others]
    if not notes:
        rows.append(ui.Text(ctx.t("No notes yet"), color="muted", align="center", height=120, rid="empty"))
    rows.append(ui.Spacer(ui.FAB_CLEARANCE))
    top = ui.TopBar(ctx.t("Notes"), actions=[
        ui.IconButton("⚲", ctx.t("Search notes"), lambda: ctx.navigate("/search"), rid="search")])
    return ui.Scaffold(ui.ScrollList(rows, rid="notes_list", pad=8), top=top, bottom=_tabs(ctx, "/"),
                       fab=ui.Fab("+", ctx.t("New note"), lambda: ctx.navigate("/note"), rid="add_note"))


# --- editor ------------------------------------------------------------------------------------

@APP.screen("/note")
def note_editor(ctx: Ctx) -> ui.Scaffold:
    note = _find(ctx.state["notes"], ctx.params.get("id"))
    local = ctx.local
    if "title" not in local:
        local.update(title=note["title"] if note else "", body=note["body"] if note else "", pinned=False)

    def save() -> None:
        title, body = local["title"].strip(), local["body"].strip()
        if note is None and not title and not body:
            ctx.back()
            ctx.toast(ctx.t("Empty note discarded"))
            return
        if note is not None:
            if (title, body) != (note["title"], note["body"]):
                note.update(title=title, body=body, updated=stamp(ctx))
        else:
            ctx.state["notes"].append({"id": ctx.new_id("note"), "title": title, "body": body,
                                       "pinned": local["pinned"], "created": stamp(ctx), "updated": stamp(ctx)})
        ctx.back()
        ctx.toast(ctx.t("Note saved"))

    def toggle_pin() -> None:
        if note is not None:
            note["pinned"] = not note["pinned"]
        else:
            local["pinned"] = not local["pinned"]

    pinned = note["pinned"] if note is not None else local["pinned"]
    actions: list[ui.View] = [
        ui.IconButton("★" if pinned else "☆", ctx.t("Unpin") if pinned else ctx.t("Pin"),
                      toggle_pin, rid="pin_note", selected=pinned, color="primary" if pinned else None),
    ]
    if note is not None:
        actions.append(ui.IconButton("🗑", ctx.t("Delete"), lambda: local.__setitem__("confirm_delete", True),
                                     rid="delete_note"))
    actions.append(ui.Button(ctx.t("Save"), save, style="text", rid="save_note"))
    dialog = None
    if note is not None and local.get("confirm_delete"):
        def delete() -> None:
            ctx.state["notes"].remove(note)
            local["confirm_delete"] = False
            ctx.back()
            ctx.toast(ctx.t("Note deleted"))

        dialog = ui.Dialog(
            ctx.t("Delete this note?"),
            ctx.t("\"{title}\" will be deleted permanently.", title=note["title"] or ctx.t("Untitled")),
            [ui.Button(ctx.t("Cancel"), lambda: local.__setitem__("confirm_delete", False), style="text",
                       rid=ui.NEGATIVE),
             ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)],
            on_dismiss=lambda: local.__setitem__("confirm_delete", False),
        )
    body: list[ui.View | None] = [
        ctx.field("note_title", "title", hint=ctx.t("Title")),
        ctx.field("note_body", "body", hint=ctx.t("Note", context="note_editor"), lines=14),
        ui.Text(ctx.t("Edited {when}", when=_when(ctx, note['updated'])), size=12,
                color="muted", height=24, rid="edited_at") if note is not None else None,
    ]
    title = ctx.t("Note") if note is not None else ctx.t("New note")
    return ui.Scaffold(ui.ScrollList(body, rid="note_form", pad=16, gap=8),
                       top=ui.TopBar(title, on_back=ctx.back, actions=actions), dialog=dialog)


# --- search ------------------------------------------------------------------------------------

@APP.screen("/search", focus="search_input")
def search(ctx: Ctx) -> ui.Scaffold:
    query = ctx.local.get("query", "").strip().casefold()
    rows: list[ui.View | None] = [ctx.field("search_input", "query", hint=ctx.t("Search notes"), ime_action="search")]
    if query:
        found = sorted((n for n in ctx.state["notes"] if query in f"{n['title']}\n{n['body']}".casefold()),
                       key=lambda n: n["updated"], reverse=True)
        rows.append(ui.Text(ctx.t("{counted} found", counted=counted(len(found), 'note'), n_found=len(found)),
                            size=13, color="muted", height=28, rid="result_count"))
        rows += [_note_row(ctx, n, "search_result") for n in found]
    return ui.Scaffold(ui.ScrollList(rows, rid="search_results", pad=8, gap=4),
                       top=ui.TopBar(ctx.t("Search"), on_back=ctx.back))


# --- to-dos ------------------------------------------------------------------------------------

def _due_field(ctx: Ctx, due: str | None, target: str) -> ui.View:
    """The due date as a date-picker field (``todo_due_input``) and, when one is set, a button clearing it."""
    day = dt.date.fromisoformat(due) if due else None
    shown = pickers.date_text(ctx, day) if day is not None else ""
    field = pickers.PickerField("todo_due_input", shown, lambda: pickers.open_date(ctx.local, target, day or ctx.now.date()),
                                hint=ctx.t("Add due date"), flex=1)
    clear = ui.IconButton("✕", ctx.t("Remove due date"), lambda: _set_due(ctx, target, ""),
                          rid="todo_due_clear", size=18) if day is not None else None
    return ui.Row([field, clear], gap=4)


def _set_due(ctx: Ctx, target: str, value: str) -> None:
    """Apply a picked (or cleared, "") due date: to the open to-do (target "due") or the new to-do's draft."""
    if target == "due":
        todo = _find(ctx.state["todos"], ctx.params.get("id"))
        if todo is not None:
            todo["due"] = value or None
    else:
        ctx.local[target] = value


def _todo_row(ctx: Ctx, todo: dict[str, Any]) -> ui.View:
    def toggle(_value: bool | None = None) -> None:
        todo["done"] = not todo["done"]

    due = todo["due"]
    overdue = due is not None and not todo["done"] and due < ctx.now.date().isoformat()
    texts: list[ui.View | None] = [ui.Text(todo["text"], size=16, color="muted" if todo["done"] else None,
                                           max_lines=2, rid="todo_text")]
    if due is not None:
        label = ctx.t("Due {short_date}", short_date=short_date(ctx, dt.date.fromisoformat(due)))
        texts.append(ui.Text(label, size=12, color="#D32F2F" if overdue else "muted", rid="todo_due"))
    return ui.Row([
        ui.Checkbox("todo_check", todo["done"], toggle, desc=todo["text"], width=32),
        ui.Column(texts, gap=2, flex=1),
    ], gap=8, pad=8, rid="todo_item", desc=todo["text"], on_click=lambda: ctx.navigate("/todo", id=todo["id"]))


@APP.screen("/todos")
def todos(ctx: Ctx) -> ui.Scaffold:
    items = ctx.state["todos"]
    open_items = sorted((t for t in items if not t["done"]), key=lambda t: (t["due"] is None, t["due"] or ""))
    done_items = [t for t in items if t["done"]]
    rows: list[ui.View | None] = [inset(ui.Text(ctx.t("{n_open_items} open", n_open_items=len(open_items)), size=13,
                                                color="muted", height=28, rid="open_count"), MARGIN - 8)]
    rows += [_todo_row(ctx, t) for t in open_items]
    if done_items:
        rows.append(inset(ui.Text(ctx.t("Completed ({n_done_items})", n_done_items=len(done_items)), size=13,
                                  bold=True, color="primary", height=36, rid="completed_header"), MARGIN - 8))
        rows += [_todo_row(ctx, t) for t in done_items]
    rows.append(ui.Spacer(ui.FAB_CLEARANCE))
    local = ctx.local
    dialog = pickers.picker_dialog(ctx, lambda target, value: _set_due(ctx, target, value))
    if dialog is None and local.get("adding"):
        def add() -> None:
            text = local.get("todo_text", "").strip()
            if not text:
                ctx.toast(ctx.t("Write the to-do first"))
                return
            items.append({"id": ctx.new_id("todo"), "text": text, "done": False, "due": local.get("todo_due") or None})
            local.update(adding=False, todo_text="", todo_due="")

        dialog = ui.Dialog(
            ctx.t("New to-do"),
            [ctx.field("todo_text_input", "todo_text", hint=ctx.t("What needs doing?"), on_submit=add),
             _due_field(ctx, local.get("todo_due"), "todo_due")],
            [ui.Button(ctx.t("Cancel"), lambda: local.__setitem__("adding", False), style="text", rid=ui.NEGATIVE),
             ui.Button(ctx.t("Add"), add, style="text", rid=ui.POSITIVE)],
            on_dismiss=lambda: local.__setitem__("adding", False),
        )
    return ui.Scaffold(ui.ScrollList(rows, rid="todo_list", pad=8), top=ui.TopBar(ctx.t("To-dos")),
                       bottom=_tabs(ctx, "/todos"),
                       fab=ui.Fab("+", ctx.t("New to-do"), lambda: local.__setitem__("adding", True),
                                  rid="add_todo"), dialog=dialog)


@APP.screen("/todo")
def todo_detail(ctx: Ctx) -> ui.Scaffold:
    """One to-do, as Google Tasks opens it: its title (saved as typed, unless emptied), due date, completed
    checkbox and a delete action."""
    todo = _find(ctx.state["todos"], ctx.params.get("id"))
    top_title = ctx.t("To-do")
    if todo is None:
        gone = ui.Text(ctx.t("This to-do was deleted."), color="muted", align="center", height=120,
                       rid="empty")
        return ui.Scaffold(ui.ScrollList([gone]), top=ui.TopBar(top_title, on_back=ctx.back))
    local = ctx.local

    def rename(value: str) -> None:
        local["title"] = value
        if value.strip():
            todo["text"] = value.strip()

    def toggle(_value: bool | None = None) -> None:
        todo["done"] = not todo["done"]

    def delete() -> None:
        ctx.state["todos"].remove(todo)
        local["confirm_delete"] = False
        ctx.back()
        ctx.toast(ctx.t("To-do deleted"))

    dialog = pickers.picker_dialog(ctx, lambda target, value: _set_due(ctx, target, value))
    if dialog is None and local.get("confirm_delete"):
        dialog = ui.Dialog(
            ctx.t("Delete to-do?"),
            todo["text"],
            [ui.Button(ctx.t("Cancel"), lambda: local.__setitem__("confirm_delete", False), style="text",
                       rid=ui.NEGATIVE),
             ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)],
            on_dismiss=lambda: local.__setitem__("confirm_delete", False),
        )
    body: list[ui.View | None] = [
        ui.TextField("todo_title_input", local.get("title", todo["text"]), rename, hint=ctx.t("Title")),
        ui.Text(ctx.t("Due date"), size=13, color="primary", height=24),
        _due_field(ctx, todo["due"], "due"),
        ui.ListItem(ctx.t("Completed"), trailing=ui.Checkbox("todo_done_check", todo["done"], toggle),
                    rid="todo_done_row", on_click=toggle),
    ]
    actions = [ui.IconButton("🗑", ctx.t("Delete"), lambda: local.__setitem__("confirm_delete", True),
                             rid="delete_todo")]
    return ui.Scaffold(ui.ScrollList(body, rid="todo_form", pad=16, gap=8),
                       top=ui.TopBar(top_title, on_back=ctx.back, actions=actions), dialog=dialog)
