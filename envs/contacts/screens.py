"""Contacts screens: list and favourites tabs, search, contact card, edit form, call screen."""
from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from mobilegym.calendar_words import MONTHS as MONTHS_EN, WEEKDAY_PAIRS as WEEKDAYS
from mobilegym.envs.layout import MARGIN, inset
from mobilegym.sim import pickers, ui
from mobilegym.sim.app import Ctx

from .app import APP
from .numbers import digits, is_dialable

TABS = [("/", "Contacts"), ("/favorites", "Favourites")]  # labels in the catalog's "tabs" context
PHONE_TYPES = {"mobile": "Mobile", "work": "Work", "home": "Home"}
AVATAR_COLORS = ["#BF360C", "#1565C0", "#2E7D32", "#6A1B9A", "#AD1457", "#00838F", "#4E342E", "#283593"]
SEARCH_LIMIT = 30
UPCOMING_DAYS = 14  # the card lists every birthday of the next two weeks,
UPCOMING_MIN = 3  # and at least the next three whenever they are


def type_label(ctx: Ctx, kind: str) -> str:
    """The display name of a phone type."""
    return ctx.t(PHONE_TYPES[kind])


def sort_key(contact: dict[str, Any]) -> str:
    return contact["name"].casefold()


def initial(name: str) -> str:
    """The letter a contact is filed under ("#" for names not starting with a letter)."""
    first = name.strip()[:1].upper()
    return first if first.isalpha() else "#"


def avatar(name: str, size: float = 40) -> ui.Icon:
    color = AVATAR_COLORS[sum(map(ord, name)) % len(AVATAR_COLORS)]
    return ui.Icon(initial(name), size=size, badge=color, color="#FFFFFF")  # white: 4.5:1 on every colour


def birthday_text(ctx: Ctx, iso: str) -> str:
    """"April 12, 1991" / "1991年4月12日"."""
    day = dt.date.fromisoformat(iso)
    return ctx.t("{months_en} {day}, {year}", months_en=MONTHS_EN[day.month - 1], day=day.day, year=day.year, month=day.month)


def next_birthday(iso: str, today: dt.date) -> dt.date:
    """The first date on or after ``today`` when a birthday (YYYY-MM-DD) falls (29 February: 1 March in other years)."""
    born = dt.date.fromisoformat(iso)
    for year in (today.year, today.year + 1):
        try:
            day = dt.date(year, born.month, born.day)
        except ValueError:
            day = dt.date(year, 3, 1)
        if day >= today:
            return day
    raise AssertionError("unreachable: a birthday recurs within a year")


def _upcoming(ctx: Ctx, contacts: list[dict[str, Any]]) -> ui.View | None:
    """A card listing the birthdays of the next two weeks (at least the next three), soonest first."""
    today = ctx.now.date()
    soon = sorted((next_birthday(c["birthday"], today), c["name"].casefold(), c) for c in contacts if c["birthday"])
    soon = [(day, c) for n, (day, _, c) in enumerate(soon) if n < UPCOMING_MIN or (day - today).days < UPCOMING_DAYS]
    if not soon:
        return None
    rows: list[ui.View | None] = [ui.Text(ctx.t("Upcoming birthdays"), size=13, bold=True, color="primary")]
    for day, contact in soon:
        en, zh = WEEKDAYS[day.weekday()]
        when = ctx.t("Today") if day == today else ctx.t("{en}, {months_en} {day}", en=en, months_en=MONTHS_EN[day.month - 1][:3], day=day.day, month=day.month, zh=zh)
        rows.append(ui.Row([ui.Text(contact["name"], size=15, flex=1, rid="upcoming_name"),
                            ui.Text(when, size=14, color="muted", rid="upcoming_date")], gap=8, rid="upcoming_birthday",
                           desc=f"{contact['name']} {when}", on_click=lambda c=contact: ctx.navigate("/contact", id=c["id"])))
    return inset(ui.Card(rows, gap=8), MARGIN - 12, MARGIN - 12)


def find_contact(ctx: Ctx, contact_id: str | None) -> dict[str, Any] | None:
    return next((c for c in ctx.state["contacts"] if c["id"] == contact_id), None)


def start_call(ctx: Ctx, contact: dict[str, Any] | None, number: str) -> None:
    """Log an outgoing call and show the in-call screen."""
    call = {"id": ctx.new_id("call"), "contact_id": contact["id"] if contact else None, "number": number,
            "time_ms": ctx.os["time_ms"], "duration_s": None}
    ctx.state["calls"].append(call)
    ctx.navigate("/call", id=call["id"])


def _tabs(ctx: Ctx, current: str) -> ui.View:
    index = [path for path, _ in TABS].index(current)
    return ui.Tabs([ctx.t(label, context="tabs") for _, label in TABS], index, lambda i: ctx.replace(TABS[i][0]), rid_prefix="tab")


def _contact_row(ctx: Ctx, contact: dict[str, Any], rid: str = "contact_item", subtitle: str | None = None) -> ui.View:
    star = ui.Icon("★", size=20, color="primary", desc=ctx.t("Favourite")) if contact["favorite"] else None
    return ui.ListItem(contact["name"], subtitle=subtitle, leading=avatar(contact["name"]), trailing=star,
                       title_rid="contact_name", rid=rid, desc=contact["name"],
                       on_click=lambda c=contact: ctx.navigate("/contact", id=c["id"]))


def _list_scaffold(ctx: Ctx, current: str, rows: list[ui.View | None] | ui.Rows) -> ui.Scaffold:
    top = ui.TopBar(ctx.t("Contacts"), actions=[
        ui.IconButton("⚲", ctx.t("Search contacts"), lambda: ctx.navigate("/search"), rid="search")])
    body = ui.Column([_tabs(ctx, current), ui.ScrollList(rows, rid="contact_list")])
    return ui.Scaffold(body, top=top, fab=ui.Fab("+", ctx.t("Create contact"),
                                                 lambda: ctx.navigate("/edit"), rid="add_contact"))


@APP.screen("/")
def contact_list(ctx: Ctx) -> ui.Scaffold:
    contacts = sorted(ctx.state["contacts"], key=sort_key)
    card = _upcoming(ctx, contacts)
    rows: list[Callable[[], ui.View]] = [lambda: card] if card is not None else []  # built as the list shows them
    letter = None
    for contact in contacts:
        if initial(contact["name"]) != letter:
            letter = initial(contact["name"])
            rows.append(lambda letter=letter: inset(ui.Text(letter, size=13, bold=True, color="primary", height=28,
                                                            rid="section_header"), MARGIN))
        rows.append(lambda contact=contact: _contact_row(ctx, contact))
    count = len(contacts)
    if contacts:
        rows.append(lambda: ui.Text(ctx.tn("{count} contact", "{count} contacts", count),
                                    size=13, color="muted", align="center", height=48, rid="contact_count"))
    else:
        rows.append(lambda: ui.Text(ctx.t("No contacts yet"), color="muted", align="center",
                                    height=120, rid="empty"))
    return _list_scaffold(ctx, "/", ui.Rows(rows, lambda make: make()))


@APP.screen("/favorites")
def favorites(ctx: Ctx) -> ui.Scaffold:
    starred = sorted((c for c in ctx.state["contacts"] if c["favorite"]), key=sort_key)
    rows: list[ui.View | None] = [
        _contact_row(ctx, c, rid="favorite_item", subtitle=c["phones"][0]["number"] if c["phones"] else None)
        for c in starred]
    if not rows:
        rows.append(ui.Text(ctx.t("No favourites yet. Tap ☆ on a contact to add one."),
                            color="muted", align="center", max_lines=3, height=120, rid="empty"))
    return _list_scaffold(ctx, "/favorites", rows)


def _match(contact: dict[str, Any], query: str) -> tuple[bool, str | None]:
    """Whether a contact matches a search, and the detail to show under it."""
    text = query.casefold()
    first_phone = contact["phones"][0]["number"] if contact["phones"] else None
    if text in contact["name"].casefold():
        return True, first_phone or contact["company"] or None
    wanted = digits(query) if is_dialable(query) else ""  # "@163.com" is no number
    for phone in contact["phones"]:
        if len(wanted) >= 3 and wanted in digits(phone["number"]):
            return True, phone["number"]
    for key in ("email", "company"):
        if contact[key] and text in contact[key].casefold():
            return True, contact[key]
    return False, None


@APP.screen("/search", focus="search_input")
def search(ctx: Ctx) -> ui.Scaffold:
    query = ctx.local.get("query", "").strip()
    rows: list[ui.View | None] = []
    if query:
        for contact in sorted(ctx.state["contacts"], key=sort_key):
            hit, shown = _match(contact, query)
            if hit:
                rows.append(_contact_row(ctx, contact, rid="search_result", subtitle=shown))
            if len(rows) == SEARCH_LIMIT:
                break
        if not rows:
            rows.append(ui.Text(ctx.t("No contacts match “{query}”", query=query), color="muted",
                                align="center", height=96, max_lines=2, rid="no_results"))
    field = ctx.field("search_input", "query", hint=ctx.t("Search name, number or email"), ime_action="search")
    body = ui.Column([ui.Row([field], pad=12), ui.ScrollList(rows, rid="search_results")])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Search"), on_back=ctx.back))


def _info_row(glyph: str, value: str, label: str, rid: str) -> ui.View:
    return ui.ListItem(value, subtitle=label, leading=ui.Icon(glyph, size=24, color="muted"), title_rid=rid, rid=f"{rid}_row")


@APP.screen("/contact")
def contact_detail(ctx: Ctx) -> ui.Scaffold:
    contact = find_contact(ctx, ctx.params.get("id"))
    if contact is None:
        body = ui.Text(ctx.t("This contact no longer exists."), color="muted", align="center",
                       height=120, rid="missing")
        return ui.Scaffold(ui.ScrollList([body], rid="contact_detail"), top=ui.TopBar("", on_back=ctx.back))
    fav = contact["favorite"]
    phones = contact["phones"]

    def message(number: str) -> None:
        ctx.open_app("messages", "/compose", to=number)

    header = ui.Column([
        ui.Row([ui.Spacer(flex=1), avatar(contact["name"], 72), ui.Spacer(flex=1)]),
        ui.Text(contact["name"], size=24, bold=True, align="center", max_lines=2, rid="contact_name"),
        ui.Text(contact["company"], size=14, color="muted", align="center", rid="contact_company")
        if contact["company"] else None,
    ], gap=6, pad=12)
    actions = ui.Row([
        ui.Spacer(flex=1),
        ui.Button(ctx.t("Call"), (lambda: start_call(ctx, contact, phones[0]["number"])) if phones else None,
                  style="outlined", rid="call_button", enabled=bool(phones)),
        ui.Button(ctx.t("Message"), (lambda: message(phones[0]["number"])) if phones else None,
                  style="outlined", rid="message_button", enabled=bool(phones)),
        ui.Spacer(flex=1),
    ], gap=12)
    rows: list[ui.View | None] = [header, actions, ui.Divider()]
    for phone in phones:
        rows.append(ui.ListItem(
            phone["number"], subtitle=type_label(ctx, phone["type"]), leading=ui.Icon("☎", size=24, color="primary"),
            trailing=ui.IconButton("✉", ctx.t("Message {number}", number=phone['number']),
                                   lambda n=phone["number"]: message(n), rid="message_number"),
            title_rid="phone_number", rid="phone_item", desc=f"{type_label(ctx, phone['type'])} {phone['number']}",
            on_click=lambda n=phone["number"]: start_call(ctx, contact, n)))
    if contact["email"]:
        rows.append(_info_row("✉", contact["email"], ctx.t("Email"), "email"))
    if contact["birthday"]:
        rows.append(_info_row("✱", birthday_text(ctx, contact["birthday"]), ctx.t("Birthday"), "birthday"))
    if contact["notes"]:
        rows.append(ui.Column([ui.Text(ctx.t("Notes"), size=13, color="primary"),
                               ui.Text(contact["notes"], size=15, max_lines=None, rid="notes")], gap=4, pad=12))
    dialog = None
    if ctx.local.get("confirm_delete"):
        def delete() -> None:
            ctx.state["contacts"].remove(contact)
            ctx.back()
            ctx.toast(ctx.t("Contact deleted"))

        dialog = ui.Dialog(
            ctx.t("Delete {name}?", name=contact['name']),
            ctx.t("This contact will be removed from your phone."),
            [ui.Button(ctx.t("Cancel"), lambda: ctx.local.__setitem__("confirm_delete", False), style="text",
                       rid=ui.NEGATIVE),
             ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)],
            on_dismiss=lambda: ctx.local.__setitem__("confirm_delete", False),
        )
    top = ui.TopBar("", on_back=ctx.back, actions=[
        ui.IconButton("★" if fav else "☆", ctx.t("Remove from favourites") if fav else ctx.t("Add to favourites"),
                      lambda: contact.__setitem__("favorite", not fav), rid="favorite_toggle", selected=fav),
        ui.IconButton("✎", ctx.t("Edit contact"), lambda: ctx.navigate("/edit", id=contact["id"]), rid="edit_contact"),
        ui.IconButton("🗑", ctx.t("Delete contact"), lambda: ctx.local.__setitem__("confirm_delete", True),
                      rid="delete_contact"),
    ])
    return ui.Scaffold(ui.ScrollList(rows, rid="contact_detail"), top=top, dialog=dialog)


def _initial_phones(ctx: Ctx, existing: dict[str, Any] | None) -> list[dict[str, str]]:
    if existing is not None:
        return [dict(p) for p in existing["phones"]] or [{"type": "mobile", "number": ""}]
    return [{"type": "mobile", "number": ctx.params.get("phone", "")}]


def _birthday_field(ctx: Ctx, birthday: str) -> ui.View:
    """The birthday as a date-picker field (opening on it, or on today when unset) and a button clearing it."""
    day = dt.date.fromisoformat(birthday) if birthday else None
    field = pickers.PickerField("birthday_input", birthday_text(ctx, birthday) if birthday else "",
                                lambda: pickers.open_date(ctx.local, "birthday", day or ctx.now.date()),
                                hint=ctx.t("Add birthday"), flex=1)
    clear = ui.IconButton("✕", ctx.t("Remove birthday"), lambda: ctx.local.__setitem__("birthday", ""),
                          rid="birthday_clear") if day is not None else None
    return ui.Row([field, clear], gap=4)


@APP.screen("/edit")
def edit_contact(ctx: Ctx) -> ui.Scaffold:
    existing = find_contact(ctx, ctx.params.get("id"))
    local = ctx.local
    phones: list[dict[str, str]] = local.get("phones") or _initial_phones(ctx, existing)
    source = existing or {"name": ctx.params.get("name", ""), "email": "", "company": "", "birthday": "", "notes": ""}

    def draft_phones() -> list[dict[str, str]]:
        local["phones"] = [dict(p) for p in phones]
        return local["phones"]

    def set_number(i: int, value: str) -> None:
        draft_phones()[i]["number"] = value

    def set_type(i: int, kind: str) -> None:
        draft_phones()[i]["type"] = kind

    def remove_phone(i: int) -> None:
        draft = draft_phones()
        del draft[i]
        if not draft:
            draft.append({"type": "mobile", "number": ""})

    def add_phone() -> None:
        draft_phones().append({"type": "mobile", "number": ""})

    def value(key: str) -> str:
        return local.get(key, source[key]).strip()

    def save() -> None:
        name = value("name")
        numbers = [{"type": p["type"], "number": p["number"].strip()} for p in phones if p["number"].strip()]
        birthday = value("birthday")
        if not name:
            ctx.toast(ctx.t("Enter a name"))
            return
        if any(not is_dialable(p["number"]) for p in numbers):
            ctx.toast(ctx.t("Enter a valid phone number"))
            return
        values = {"name": name, "phones": numbers, "email": value("email"), "company": value("company"),
                  "birthday": birthday, "notes": value("notes")}
        if existing is not None:
            existing.update(values)
            ctx.back()
        else:
            contact = {"id": ctx.new_id("contact"), **values, "favorite": False}
            ctx.state["contacts"].append(contact)
            ctx.replace("/contact", id=contact["id"])
        ctx.toast(ctx.t("Contact saved"))

    def label(text: str) -> ui.View:
        return ui.Text(ctx.t(text), size=13, color="primary", height=24)

    body: list[ui.View | None] = [label("Name"),
                                  ctx.field("name_input", "name", source["name"], hint=ctx.t("Full name")),
                                  label("Phone")]
    for i, phone in enumerate(phones):
        body.append(ui.Row([
            ui.TextField(f"phone_{i}_input", phone["number"], lambda v, i=i: set_number(i, v),
                         hint=ctx.t("Phone number"), flex=1),
            ui.IconButton("✕", ctx.t("Remove phone"), lambda i=i: remove_phone(i), rid=f"phone_{i}_remove"),
        ], gap=4))
        body.append(ui.Row([ui.Chip(ctx.t(name), phone["type"] == key, lambda _v, i=i, k=key: set_type(i, k),
                                    rid=f"phone_{i}_{key}", flex=1) for key, name in PHONE_TYPES.items()], gap=8))
    body += [
        ui.Row([ui.Button(ctx.t("+ Add phone"), add_phone, style="text", rid="add_phone"), ui.Spacer(flex=1)]),
        label("Email"), ctx.field("email_input", "email", source["email"], hint="name@example.com"),
        label("Company"), ctx.field("company_input", "company", source["company"], hint=ctx.t("Company")),
        label("Birthday"), _birthday_field(ctx, value("birthday")),
        label("Notes"), ctx.field("notes_input", "notes", source["notes"], hint=ctx.t("Notes"), lines=3),
        ui.Spacer(8),
        ui.Row([ui.Spacer(flex=1), ui.Button(ctx.t("Cancel"), ctx.back, style="outlined", rid="cancel")]),
    ]
    title = ctx.t("Edit contact") if existing else ctx.t("Create contact")
    top = ui.TopBar(title, on_back=ctx.back, actions=[ui.Button(ctx.t("Save"), save, rid="save_contact")])
    return ui.Scaffold(ui.ScrollList(body, rid="contact_form", pad=16, gap=6), top=top,
                       dialog=pickers.picker_dialog(ctx, lambda key, picked: local.__setitem__(key, picked)))


@APP.screen("/call")
def call_screen(ctx: Ctx) -> ui.Scaffold:
    call = next(c for c in ctx.state["calls"] if c["id"] == ctx.params["id"])
    contact = find_contact(ctx, call["contact_id"])
    name = contact["name"] if contact else call["number"]
    ongoing = call["duration_s"] is None
    seconds = (ctx.os["time_ms"] - call["time_ms"]) // 1000 if ongoing else call["duration_s"]
    kind = next((p["type"] for p in contact["phones"] if p["number"] == call["number"]), None) if contact else None

    def end() -> None:
        call["duration_s"] = seconds
        ctx.back()

    status = ctx.t("Calling…") if ongoing else ctx.t("Call ended")
    body: list[ui.View | None] = [
        ui.Spacer(32),
        ui.Row([ui.Spacer(flex=1), avatar(name, 96), ui.Spacer(flex=1)]),
        ui.Text(name, size=26, bold=True, align="center", max_lines=2, rid="call_name"),
        ui.Text(f"{type_label(ctx, kind)} {call['number']}" if kind else call["number"], size=15, color="muted",
                align="center", rid="call_number"),
        ui.Text(f"{status} {seconds // 60:02d}:{seconds % 60:02d}", size=15, align="center", rid="call_status"),
        ui.Spacer(48),
        ui.Row([ui.Spacer(flex=1), ui.Button(ctx.t("End call"), end if ongoing else ctx.back, rid="end_call",
                                             width=160), ui.Spacer(flex=1)]),
    ]
    return ui.Scaffold(ui.ScrollList(body, rid="call_panel", gap=12))
