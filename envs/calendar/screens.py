"""Calendar screens: month grid, upcoming schedule, day agenda, event detail, editor and search.

Events are ``{id, title, date "YYYY-MM-DD", start/end "HH:MM" (None when all-day), all_day,
location, notes, calendar, reminder (minutes before, or None)}``.
"""
from __future__ import annotations

import calendar as _cal
import datetime as dt
from typing import Any

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.envs.l10n import counted
from mobilegym.sim import pickers, ui
from mobilegym.sim.app import Ctx
from mobilegym.sim.pickers import MONTHS, WEEKDAYS, WEEKDAYS_ZH, long_date

from .app import APP

REMINDERS = [(None, "None"), (10, "10 min"), (30, "30 min"), (60, "1 hour")]
TABS = [("/", "Month"), ("/schedule", "Schedule")]
BUILT_IN_CALENDARS = ("Work", "Personal", "Family")  # translated by the catalog; the owner's own keep their names


# --- formatting ---------------------------------------------------------------------------------

def short_date(ctx: Ctx, day: dt.date) -> str:
    """"Mon, Mar 16" / "3月16日 周一"."""
    return ctx.t("{weekdays}, {months} {day}", weekdays=WEEKDAYS[day.weekday()][:3], months=MONTHS[day.month - 1][:3], day=day.day, month=day.month, weekdays_zh=WEEKDAYS_ZH[day.weekday()])


def calendar_name(ctx: Ctx, name: str) -> str:
    """A calendar's name as the phone shows it (the built-in ones are translated; the state keeps "Work" etc.)."""
    return ctx.t(name) if name in BUILT_IN_CALENDARS else name


def time_range(ctx: Ctx, event: dict[str, Any]) -> str:
    """"09:30 – 09:45" or "All day"."""
    return ctx.t("All day") if event["all_day"] else f"{event['start']} – {event['end']}"


def reminder_text(ctx: Ctx, minutes: int | None) -> str:
    if minutes is None:
        return ctx.t("No reminder")
    if minutes % 60 == 0:
        hours = minutes // 60
        return ctx.t("{counted} before", counted=counted(hours, 'hour'), hours=hours)
    return ctx.t("{minutes} minutes before", minutes=minutes)


def sort_key(event: dict[str, Any]) -> tuple[str, int, str, str]:
    """Date, all-day first, then start time and title."""
    return event["date"], 0 if event["all_day"] else 1, event["start"] or "", event["title"]


def events_on(ctx: Ctx, iso: str) -> list[dict[str, Any]]:
    return sorted((e for e in ctx.state["events"] if e["date"] == iso), key=sort_key)


def _find(ctx: Ctx, event_id: str) -> dict[str, Any] | None:
    return next((e for e in ctx.state["events"] if e["id"] == event_id), None)


def _color(ctx: Ctx, name: str) -> str:
    return next((c["color"] for c in ctx.state["calendars"] if c["name"] == name), "primary")


def _event_row(ctx: Ctx, event: dict[str, Any], rid: str, with_date: bool = False) -> ui.View:
    when = time_range(ctx, event)
    if with_date:
        when = f"{short_date(ctx, dt.date.fromisoformat(event['date']))} · {when}"
    sub = f"{when} · {event['location']}" if event["location"] else when
    dot = ui.Icon("●", size=14, color=_color(ctx, event["calendar"]))
    return ui.ListItem(event["title"], subtitle=sub, leading=dot,
                       rid=rid, title_rid="event_title_text", desc=event["title"],
                       on_click=lambda e=event: ctx.navigate("/event", id=e["id"]))


def _tabs(ctx: Ctx, current: str) -> ui.View:
    index = [path for path, _ in TABS].index(current)
    return ui.Tabs([ctx.t(label) for _, label in TABS], index, lambda i: ctx.replace(TABS[i][0]), rid_prefix="tab")


# --- month grid --------------------------------------------------------------------------------

def _shift_month(month: str, delta: int) -> str:
    year, mon = (int(p) for p in month.split("-"))
    index = year * 12 + mon - 1 + delta
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def _day_cell(ctx: Ctx, day: dt.date, count: int, today: dt.date) -> ui.View:
    is_today = day == today
    label = long_date(ctx, day)
    if count:
        label += ctx.t(", {counted}", counted=counted(count, 'event'), count=count)
    return ui.Column(
        [ui.Text(str(day.day), size=15, bold=is_today, align="center", color="on_primary" if is_today else None,
                 rid="day_number"),
         ui.Text("•" * min(count, 3), size=12, align="center", color="on_primary" if is_today else "primary",
                 height=14)],
        rid="day_cell", desc=label, selected=is_today, flex=1, height=48, pad=2,
        bg="primary" if is_today else None, radius=8,
        on_click=lambda: ctx.navigate("/day", date=day.isoformat()),
    )


@APP.screen("/")
def month(ctx: Ctx) -> ui.Scaffold:
    today = ctx.now.date()
    shown = ctx.local.get("month") or f"{today.year:04d}-{today.month:02d}"
    year, mon = (int(p) for p in shown.split("-"))
    counts: dict[str, int] = {}
    for event in ctx.state["events"]:
        if event["date"].startswith(shown):
            counts[event["date"]] = counts.get(event["date"], 0) + 1
    title = ctx.t("{months} {year}", months=MONTHS[mon - 1], year=year, mon=mon)
    header = ui.Row([
        ui.IconButton("‹", ctx.t("Previous month"),
                      lambda: ctx.local.__setitem__("month", _shift_month(shown, -1)), rid="prev_month"),
        ui.Text(title, size=18, bold=True, align="center", flex=1, rid="month_title"),
        ui.IconButton("›", ctx.t("Next month"),
                      lambda: ctx.local.__setitem__("month", _shift_month(shown, 1)), rid="next_month"),
    ], gap=0, height=48)
    names = WEEKDAYS if ctx.os["language"] == "en" else WEEKDAYS_ZH
    weekdays = ui.Row([ui.Text(n[:2], size=12, color="muted", align="center", flex=1) for n in names], gap=0, height=24)
    rows: list[ui.View | None] = [header, weekdays]
    for week in _cal.Calendar(firstweekday=0).monthdatescalendar(year, mon):
        cells = [_day_cell(ctx, d, counts.get(d.isoformat(), 0), today) if d.month == mon else ui.Spacer(flex=1)
                 for d in week]
        rows.append(ui.Row(cells, gap=2))
    total = sum(counts.values())
    rows.append(ui.Text(ctx.t("{counted} this month", counted=counted(total, 'event'), total=total),
                        size=13, color="muted", align="center", height=32, rid="month_summary"))
    top = ui.TopBar(ctx.t("Calendar"), actions=[
        ui.Button(ctx.t("Today"), lambda: ctx.local.__setitem__("month", None), style="text", rid="today"),
        ui.IconButton("⚲", ctx.t("Search"), lambda: ctx.navigate("/search"), rid="search"),
    ])
    return ui.Scaffold(ui.ScrollList(rows, rid="month_grid", pad=8, gap=4), top=top, bottom=_tabs(ctx, "/"),
                       fab=ui.Fab("+", ctx.t("New event"), lambda: ctx.navigate("/event/edit"),
                                  rid="add_event"))


@APP.screen("/schedule")
def schedule(ctx: Ctx) -> ui.Scaffold:
    today = ctx.now.date().isoformat()
    rows: list[ui.View | None] = []
    current = None
    for event in sorted((e for e in ctx.state["events"] if e["date"] >= today), key=sort_key):
        if event["date"] != current:
            current = event["date"]
            rows.append(inset(ui.Text(long_date(ctx, dt.date.fromisoformat(current)), size=13, bold=True,
                                      color="primary", height=36, rid="date_header"), MARGIN - 8))
        rows.append(_event_row(ctx, event, "event_item"))
    if not rows:
        rows.append(ui.Text(ctx.t("No upcoming events"), color="muted", align="center",
                            height=120, rid="empty"))
    rows.append(ui.Spacer(ui.FAB_CLEARANCE))
    return ui.Scaffold(ui.ScrollList(rows, rid="schedule_list", pad=8), top=ui.TopBar(ctx.t("Schedule")),
                       bottom=_tabs(ctx, "/schedule"),
                       fab=ui.Fab("+", ctx.t("New event"), lambda: ctx.navigate("/event/edit"),
                                  rid="add_event"))


@APP.screen("/day")
def day(ctx: Ctx) -> ui.Scaffold:
    shown = dt.date.fromisoformat(ctx.params["date"])
    rows: list[ui.View | None] = [inset(ui.Text(long_date(ctx, shown), size=14, color="muted", height=32, rid="day_title"),
                                        MARGIN - 8)]
    rows += [_event_row(ctx, e, "event_item") for e in events_on(ctx, shown.isoformat())]
    if len(rows) == 1:
        rows.append(ui.Text(ctx.t("No events"), color="muted", align="center", height=120, rid="empty"))
    rows.append(ui.Spacer(ui.FAB_CLEARANCE))
    top = ui.TopBar(short_date(ctx, shown), on_back=ctx.back, actions=[
        ui.IconButton("‹", ctx.t("Previous day"),
                      lambda: ctx.replace("/day", date=(shown - dt.timedelta(days=1)).isoformat()), rid="prev_day"),
        ui.IconButton("›", ctx.t("Next day"),
                      lambda: ctx.replace("/day", date=(shown + dt.timedelta(days=1)).isoformat()), rid="next_day"),
    ])
    return ui.Scaffold(ui.ScrollList(rows, rid="day_events", pad=8), top=top,
                       fab=ui.Fab("+", ctx.t("New event"),
                                  lambda: ctx.navigate("/event/edit", date=shown.isoformat()), rid="add_event"))


# --- event detail ------------------------------------------------------------------------------

def _field_row(label: str, value: str, rid: str, max_lines: int | None = 2) -> ui.View:
    return ui.Column([ui.Text(label, size=12, color="muted"), ui.Text(value, size=16, max_lines=max_lines, rid=rid)],
                     gap=2, pad=4)


@APP.screen("/event")
def event_detail(ctx: Ctx) -> ui.Scaffold:
    event = _find(ctx, ctx.params["id"])
    if event is None:
        body = ui.ScrollList([ui.Text(ctx.t("This event no longer exists."), color="muted",
                                      align="center", height=120, rid="empty")], rid="event_detail")
        return ui.Scaffold(body, top=ui.TopBar(ctx.t("Event"), on_back=ctx.back))
    rows: list[ui.View | None] = [
        ui.Text(event["title"], size=22, bold=True, max_lines=3, rid="event_title"),
        ui.Spacer(4),
        _field_row(ctx.t("Date"), long_date(ctx, dt.date.fromisoformat(event["date"])), "event_date"),
        _field_row(ctx.t("Time"), time_range(ctx, event), "event_time"),
        _field_row(ctx.t("Location"), event["location"] or "—", "event_location"),
        _field_row(ctx.t("Calendar"), calendar_name(ctx, event["calendar"]), "event_calendar"),
        _field_row(ctx.t("Reminder"), reminder_text(ctx, event["reminder"]), "event_reminder"),
        _field_row(ctx.t("Notes"), event["notes"] or "—", "event_notes", max_lines=None),
    ]
    dialog = None
    if ctx.local.get("confirm_delete"):
        def delete() -> None:
            ctx.state["events"].remove(event)
            ctx.local["confirm_delete"] = False
            ctx.back()
            ctx.toast(ctx.t("Event deleted"))

        dialog = ui.Dialog(
            ctx.t("Delete event?"),
            ctx.t("\"{title}\" will be removed from your calendar.", title=event['title']),
            [ui.Button(ctx.t("Cancel"), lambda: ctx.local.__setitem__("confirm_delete", False), style="text",
                       rid=ui.NEGATIVE),
             ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)],
            on_dismiss=lambda: ctx.local.__setitem__("confirm_delete", False),
        )
    top = ui.TopBar(ctx.t("Event"), on_back=ctx.back, actions=[
        ui.IconButton("✎", ctx.t("Edit"), lambda: ctx.navigate("/event/edit", id=event["id"]), rid="edit_event"),
        ui.IconButton("🗑", ctx.t("Delete"), lambda: ctx.local.__setitem__("confirm_delete", True),
                      rid="delete_event"),
    ])
    return ui.Scaffold(ui.ScrollList(rows, rid="event_detail", pad=16, gap=8), top=top, dialog=dialog)


# --- editor ------------------------------------------------------------------------------------

def _next_hour(now: dt.datetime) -> int:
    return min(22, now.hour + 1)


@APP.screen("/event/edit")
def edit_event(ctx: Ctx) -> ui.Scaffold:
    existing = _find(ctx, ctx.params["id"]) if ctx.params.get("id") else None
    local = ctx.local
    if "title" not in local:
        if existing is not None:
            local.update(title=existing["title"], date=existing["date"], start=existing["start"] or "09:00",
                         end=existing["end"] or "10:00", all_day=existing["all_day"], location=existing["location"],
                         notes=existing["notes"], calendar=existing["calendar"], reminder=existing["reminder"])
        else:
            hour = _next_hour(ctx.now)
            local.update(title="", date=ctx.params.get("date") or ctx.now.date().isoformat(), start=f"{hour:02d}:00",
                         end=f"{hour + 1:02d}:00", all_day=False, location="", notes="", calendar="Personal",
                         reminder=30)

    def save() -> None:
        title = local["title"].strip()
        if not title:
            ctx.toast(ctx.t("Add a title"))
            return
        if not local["all_day"] and local["end"] <= local["start"]:
            ctx.toast(ctx.t("The end time must be after the start time"))
            return
        values = {"title": title, "date": local["date"], "all_day": local["all_day"],
                  "start": None if local["all_day"] else local["start"], "end": None if local["all_day"] else local["end"],
                  "location": local["location"].strip(), "notes": local["notes"].strip(),
                  "calendar": local["calendar"], "reminder": local["reminder"]}
        if existing is not None:
            existing.update(values)
        else:
            ctx.state["events"].append({"id": ctx.new_id("evt"), **values})
        ctx.back()
        ctx.toast(ctx.t("Event saved"))

    def pick(key: str, value: Any) -> None:
        local[key] = value

    def label(text: str) -> ui.View:
        return ui.Text(text, size=13, color="primary", height=24)

    def time_field(key: str) -> ui.View:
        return pickers.PickerField(f"{key}_input", pickers.time_text(ctx, local[key]),
                                   lambda: pickers.open_time(local, key, local[key]))

    body: list[ui.View | None] = [
        label(ctx.t("Title")),
        ctx.field("title_input", "title", hint=ctx.t("Event title")),
        label(ctx.t("Date")),
        pickers.PickerField("date_input", pickers.date_text(ctx, dt.date.fromisoformat(local["date"])),
                            lambda: pickers.open_date(local, "date", dt.date.fromisoformat(local["date"]))),
        ui.ListItem(ctx.t("All day"), trailing=ui.Switch("all_day_switch", local["all_day"],
                                                                lambda v: pick("all_day", v)),
                    rid="all_day_row", on_click=lambda: pick("all_day", not local["all_day"])),
        None if local["all_day"] else ui.Row([
            ui.Column([label(ctx.t("Starts")), time_field("start")], flex=1),
            ui.Column([label(ctx.t("Ends")), time_field("end")], flex=1),
        ], gap=12),
        label(ctx.t("Location")),
        ctx.field("location_input", "location", hint=ctx.t("Add location")),
        label(ctx.t("Calendar")),
        ui.Row([ui.Chip(calendar_name(ctx, c["name"]), local["calendar"] == c["name"], lambda _v, n=c["name"]: pick("calendar", n),
                        rid=f"calendar_{c['name'].lower()}", flex=1) for c in ctx.state["calendars"]], gap=6),
        label(ctx.t("Reminder")),
        ui.Row([ui.Chip(ctx.t(label), local["reminder"] == minutes, lambda _v, m=minutes: pick("reminder", m),
                        rid=f"reminder_{minutes if minutes is not None else 'none'}", flex=1)
                for minutes, label in REMINDERS], gap=4),
        label(ctx.t("Notes")),
        ctx.field("notes_input", "notes", hint=ctx.t("Add notes"), lines=3),
    ]
    title = ctx.t("Edit event") if existing is not None else ctx.t("New event")
    top = ui.TopBar(title, on_back=ctx.back,
                    actions=[ui.Button(ctx.t("Save"), save, style="text", rid="save_event")])
    return ui.Scaffold(ui.ScrollList(body, rid="event_form", pad=16, gap=4), top=top,
                       dialog=pickers.picker_dialog(ctx, lambda key, value: _set_when(local, key, value)))


def _set_when(local: dict[str, Any], key: str, value: str) -> None:
    """A picked date or time; a new start moves the end along, keeping the event's length within the day."""
    if key == "start":
        length = _minutes(local["end"]) - _minutes(local["start"])
        end = _minutes(value) + length
        if length > 0 and end < 24 * 60:
            local["end"] = f"{end // 60:02d}:{end % 60:02d}"
    local[key] = value


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:])


# --- search ------------------------------------------------------------------------------------

@APP.screen("/search", focus="search_input")
def search(ctx: Ctx) -> ui.Scaffold:
    query = ctx.local.get("query", "").strip().casefold()
    rows: list[ui.View | None] = [ctx.field("search_input", "query", hint=ctx.t("Search events"), ime_action="search")]
    if query:
        found = sorted((e for e in ctx.state["events"]
                        if query in f"{e['title']}\n{e['location']}\n{e['notes']}".casefold()), key=sort_key)
        rows.append(ui.Text(ctx.tn("{count} result", "{count} results", len(found)),
                            size=13, color="muted", height=28, rid="result_count"))
        rows += [_event_row(ctx, e, "search_result", with_date=True) for e in found]
    return ui.Scaffold(ui.ScrollList(rows, rid="search_results", pad=8, gap=4),
                       top=ui.TopBar(ctx.t("Search"), on_back=ctx.back))
