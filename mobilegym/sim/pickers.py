"""Material 3 date and time pickers: dialogs over a screen, opened by tapping a date or time field.

A screen shows a :func:`picker_field` for each date or time it asks for; tapping it calls
:func:`open_date` / :func:`open_time`, which put the picker's transient state (shown month,
selection, dial stage, input mode, typed drafts) in the back-stack entry's ``local["picker"]``,
so it survives re-renders and snapshots like a field's draft. The screen passes
:func:`picker_dialog` as its Scaffold's dialog; OK hands the chosen value to the screen's
``on_set(target, value)`` as "YYYY-MM-DD" or "HH:MM" (24-hour), whatever the display.

Resource-ids follow Android's: the framework dialogs' ``android:id/button1`` (OK) and ``button2``
(Cancel), the DatePicker's ``date_picker_header`` / ``date_picker_header_date``, the TimePicker's
``time_header``, ``hours``, ``minutes``, ``am_label`` / ``pm_label``, ``radial_picker``,
``input_hour`` / ``input_minute``, ``label_error`` and ``toggle_mode``; Material's
``month_navigation_previous`` / ``month_navigation_next``, ``month_navigation_fragment_toggle``
(the month title), ``mtrl_picker_header_toggle`` and ``mtrl_picker_text_input_date``; day cells
are ``date_picker_day`` with the day as text and the full date as content-desc.
"""
from __future__ import annotations

import calendar as _cal
import datetime as dt
import math
import re
from typing import TYPE_CHECKING, Any, Callable

from ..calendar_words import MONTHS, WEEKDAYS, WEEKDAY_CHARS as WEEKDAYS_ZH
from . import ui
from .ui import fonts
from .clock import uses_24h
from .fields import parse_date, parse_time
from .strings import system_text

if TYPE_CHECKING:
    from .app import Ctx

OnSet = Callable[[str, str], None]
"""Receives (target, value): value is "YYYY-MM-DD" from the date picker, "HH:MM" (24-hour) from the time picker."""

FIRST_WEEKDAY = 6  # Sunday, as en-US and zh-CN phones start their pickers' weeks
DIAL = 232.0  # the clock face's diameter (dp)
_US_DATE = re.compile(r"^\s*(\d{1,2})\s*/\s*(\d{1,2})\s*/\s*(\d{4})\s*$")
_DIGITS = re.compile(r"^\d{1,2}$")


def _t(ctx: Ctx, text: str, context: str | None = None, **fields: Any) -> str:
    """A picker's own text in the phone's language."""
    return system_text(ctx.language, text, context, **fields)


def fw(name: str) -> str:
    """A framework resource-id (``android:id/<name>``), as the platform's dialogs carry."""
    return f"android:id/{name}"


# --- formatting ----------------------------------------------------------------------------------------

def date_text(ctx: Ctx, day: dt.date) -> str:
    """A date as a field shows it: "Tue, Mar 17, 2026" / "2026年3月17日 周二"."""
    return _t(ctx, "{weekday}, {month_name} {day}, {year}", "short", weekday=WEEKDAYS[day.weekday()][:3],
              month_name=MONTHS[day.month - 1][:3], day=day.day, year=day.year, month=day.month,
              weekday_char=WEEKDAYS_ZH[day.weekday()])


def long_date(ctx: Ctx, day: dt.date) -> str:
    """"Tuesday, March 17, 2026" / "2026年3月17日 星期二"."""
    return _t(ctx, "{weekday}, {month_name} {day}, {year}", weekday=WEEKDAYS[day.weekday()],
              month_name=MONTHS[day.month - 1], day=day.day, year=day.year, month=day.month,
              weekday_char=WEEKDAYS_ZH[day.weekday()])


def time_text(ctx: Ctx, hhmm: str) -> str:
    """A "HH:MM" time as the phone shows it: "14:05" (24-hour) or "2:05 PM" / "下午2:05" (12-hour)."""
    hour, minute = int(hhmm[:2]), int(hhmm[3:])
    if uses_24h(ctx.state_of("settings")):
        return f"{hour:02d}:{minute:02d}"
    h12 = hour % 12 or 12
    text = "{hour}:{minute:02d} PM" if hour >= 12 else "{hour}:{minute:02d} AM"
    return _t(ctx, text, hour=h12, minute=minute)


def parse_typed_date(text: str, language: str) -> dt.date | None:
    """A date typed in the picker's text mode: the locale's order (mm/dd/yyyy; zh yyyy/mm/dd) or ISO."""
    found = parse_date(text)
    if found is not None or language != "en":
        return found
    match = _US_DATE.match(text)
    if match is None:
        return None
    try:
        return dt.date(int(match.group(3)), int(match.group(1)), int(match.group(2)))
    except ValueError:
        return None


# --- opening -------------------------------------------------------------------------------------------

def open_date(local: dict[str, Any], target: str, value: dt.date) -> None:
    """Show the date picker for ``target`` with ``value`` selected (its month shown)."""
    local["picker"] = {"kind": "date", "target": target, "value": value.isoformat(),
                       "month": f"{value.year:04d}-{value.month:02d}", "mode": "calendar", "text": ""}


def open_time(local: dict[str, Any], target: str, hhmm: str) -> None:
    """Show the time picker for ``target`` at ``hhmm`` ("HH:MM"), on the hour dial."""
    if parse_time(hhmm) != hhmm:
        raise ValueError(f"time must be 'HH:MM' (24-hour), got {hhmm!r}")
    local["picker"] = {"kind": "time", "target": target, "hour": int(hhmm[:2]), "minute": int(hhmm[3:]),
                       "stage": "hour", "mode": "dial", "hour_text": "", "minute_text": ""}


def picker_dialog(ctx: Ctx, on_set: OnSet) -> ui.Dialog | None:
    """The open picker of this screen (None when none is open); OK calls ``on_set(target, value)``."""
    state = ctx.local.get("picker")
    if state is None:
        return None
    return _date_dialog(ctx, state, on_set) if state["kind"] == "date" else _time_dialog(ctx, state, on_set)


def _close(ctx: Ctx) -> None:
    ctx.local["picker"] = None


# --- views ---------------------------------------------------------------------------------------------

class PickerField(ui.Text):
    """A read-only field that opens a picker when tapped: it shows the value, or ``hint`` (muted) when empty."""

    def __init__(self, rid: str, value: str, on_click: ui.Handler, *, hint: str = "", size: float = 15,
                 **kw: Any) -> None:
        kw.setdefault("height", 48)
        super().__init__(value, size=size, rid=rid, on_click=on_click, desc=kw.pop("desc", "") or (hint if not value else ""),
                         **kw)
        self.hint = hint

    def paint(self, out: list[ui.Item], env: ui.LayoutEnv) -> None:
        x, y, w, h = self.frame
        out.append(("rect", x, y, w, h, env.color("divider"), 6))
        out.append(("rect", x + 1.5, y + 1.5, w - 3, h - 3, env.color("surface"), 5))
        size = env.sp(self.size)
        shown = fonts.ellipsize(self.value or self.hint, size, False, w - 24)
        out.append(("text", x + 12, y + (h - size) / 2, shown, size, env.color("on_surface" if self.value else "muted"),
                    False))


class _Cell(ui.Text):
    """A tappable label of a picker (a day, a dial number, AM/PM): drawn on a circle when selected."""

    def __init__(self, text: str, on_click: ui.Handler, *, selected: bool = False, marked: bool = False,
                 size: float = 14, **kw: Any) -> None:
        super().__init__(text, size=size, align="center", on_click=on_click, selected=selected,
                         color="on_primary" if selected else ("primary" if marked else None), **kw)
        self.marked = marked

    def paint(self, out: list[ui.Item], env: ui.LayoutEnv) -> None:
        x, y, w, h = self.frame
        side = min(w, h)
        box = (x + (w - side) / 2, y + (h - side) / 2, side, side)
        if self.selected:
            out.append(("rect", *box, env.color("primary"), side / 2))
        elif self.marked:
            out.append(("rect", *box, env.color("primary"), side / 2))
            out.append(("rect", box[0] + 1, box[1] + 1, side - 2, side - 2, env.color("surface"), side / 2 - 1))
        super().paint(out, env)


class _Choice(_Cell):
    """AM or PM: a checkable label."""

    checkable = True

    @property
    def checked(self) -> bool:
        return self.selected

    def paint(self, out: list[ui.Item], env: ui.LayoutEnv) -> None:
        x, y, w, h = self.frame
        out.append(("rect", x, y, w, h, env.color("primary" if self.selected else "divider"), 8))
        ui.Text.paint(self, out, env)


class _Dial(ui.View):
    """The clock face: numbers placed on one or two rings (children are (node, radius, angle))."""

    cls = "android.view.View"

    def __init__(self, rings: list[tuple[ui.View, float, float]], **kw: Any) -> None:
        super().__init__(width=DIAL, height=DIAL, **kw)
        self.rings = rings
        self.children = [node for node, _, _ in rings]

    def place(self, x: float, y: float, w: float, h: float, env: ui.LayoutEnv) -> None:
        side = min(w, h)
        self.frame = (x + (w - side) / 2, y + (h - side) / 2, side, side)
        cx, cy = self.frame[0] + side / 2, self.frame[1] + side / 2
        scale = side / DIAL
        for node, radius, angle in self.rings:
            size = (node.width or 32) * scale
            px = cx + radius * scale * math.sin(angle)
            py = cy - radius * scale * math.cos(angle)
            node.place(px - size / 2, py - size / 2, size, size, env)

    def paint(self, out: list[ui.Item], env: ui.LayoutEnv) -> None:
        x, y, w, h = self.frame
        out.append(("rect", x, y, w, h, env.color("divider"), w / 2))
        out.append(("rect", x + w / 2 - 3, y + h / 2 - 3, 6, 6, env.color("primary"), 3))
        for child in self.children:
            child.paint(out, env)


def _buttons(ctx: Ctx, on_ok: ui.Handler) -> list[ui.Button]:
    return [ui.Button(_t(ctx, "Cancel"), lambda: _close(ctx), style="text", rid=ui.NEGATIVE),
            ui.Button(_t(ctx, "OK"), on_ok, style="text", rid=ui.POSITIVE)]


class _PickerDialog(ui.Dialog):
    """A dialog with a picker's own header instead of an alert title."""

    def __init__(self, body: list[ui.View | None], buttons: list[ui.Button], on_dismiss: ui.Handler, rid: str) -> None:
        actions = ui.Row([ui.Spacer(flex=1), *buttons], gap=8, height=44)
        ui.Column.__init__(self, [*body, actions], gap=8, pad=16, bg="surface", radius=28, rid=rid)
        self.on_dismiss = on_dismiss


# --- date picker ---------------------------------------------------------------------------------------

def _shift_month(month: str, delta: int) -> str:
    year, mon = (int(p) for p in month.split("-"))
    index = year * 12 + mon - 1 + delta
    if not 1 <= index // 12 <= 9999:
        return month
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def _date_dialog(ctx: Ctx, state: dict[str, Any], on_set: OnSet) -> ui.Dialog:
    language = ctx.os["language"]
    typing = state["mode"] == "input"
    typed = parse_typed_date(state["text"], language) if typing else None
    chosen = typed if typing else dt.date.fromisoformat(state["value"])
    invalid = typing and bool(state["text"].strip()) and typed is None

    def ok() -> None:
        if typing and typed is None:
            return  # the error under the field says why; the dialog stays
        _close(ctx)
        on_set(state["target"], (typed or chosen).isoformat())

    def toggle() -> None:
        if typing:
            state.update(mode="calendar", value=(typed or dt.date.fromisoformat(state["value"])).isoformat())
            state["month"] = state["value"][:7]
        else:
            state.update(mode="input", text=_typed_form(chosen, language))

    headline = (_t(ctx, "{weekday}, {month_name} {day}", weekday=WEEKDAYS[chosen.weekday()][:3],
                   month_name=MONTHS[chosen.month - 1][:3], day=chosen.day, month=chosen.month,
                   weekday_char=WEEKDAYS_ZH[chosen.weekday()])
                if chosen is not None else _t(ctx, "Date"))
    header = ui.Row([
        ui.Column([ui.Text(_t(ctx, "Enter date") if typing else _t(ctx, "Select date"), size=13,
                           color="muted"),
                   ui.Text(headline, size=28, rid=fw("date_picker_header_date"))], gap=4, flex=1),
        ui.IconButton("▦" if typing else "✎",
                      _t(ctx, "Switch to calendar input mode") if typing
                      else _t(ctx, "Switch to text input mode"), toggle,
                      rid="mtrl_picker_header_toggle"),
    ], gap=4, rid=fw("date_picker_header"))
    body: list[ui.View | None] = [header, ui.Divider()]
    if typing:
        body += [ui.TextField("mtrl_picker_text_input_date", state["text"], lambda v: state.__setitem__("text", v),
                              hint=_t(ctx, "mm/dd/yyyy")),
                 ui.Text(_t(ctx, "Invalid format."), size=12, color="#B3261E", rid="textinput_error")
                 if invalid else None]
    else:
        body += _month_view(ctx, state)
    return _PickerDialog(body, _buttons(ctx, ok), lambda: _close(ctx), rid=fw("datePicker"))


def _typed_form(day: dt.date, language: str) -> str:
    return f"{day.month:02d}/{day.day:02d}/{day.year}" if language == "en" else f"{day.year}/{day.month:02d}/{day.day:02d}"


def _month_view(ctx: Ctx, state: dict[str, Any]) -> list[ui.View | None]:
    year, mon = (int(p) for p in state["month"].split("-"))
    selected = dt.date.fromisoformat(state["value"])
    today = ctx.now.date()

    def page(delta: int) -> None:
        state["month"] = _shift_month(state["month"], delta)

    def select(day: dt.date) -> None:
        state["value"] = day.isoformat()

    nav = ui.Row([
        ui.Text(_t(ctx, "{month_name} {year}", month_name=MONTHS[mon - 1], year=year, month=mon), size=14, bold=True, flex=1,
                rid="month_navigation_fragment_toggle"),
        ui.IconButton("‹", _t(ctx, "Previous month"), lambda: page(-1), rid="month_navigation_previous"),
        ui.IconButton("›", _t(ctx, "Next month"), lambda: page(1), rid="month_navigation_next"),
    ], gap=0, height=44, pad=0)
    order = [(FIRST_WEEKDAY + i) % 7 for i in range(7)]
    initials = ui.Row([ui.Text(ctx.either(WEEKDAYS[w][0], WEEKDAYS_ZH[w]), size=12, color="muted", align="center", flex=1,
                               desc=ctx.either(WEEKDAYS[w], f"星期{WEEKDAYS_ZH[w]}")) for w in order],
                      gap=0, height=24, rid="mtrl_calendar_days_of_week")
    rows: list[ui.View | None] = [nav, initials]
    for week in _cal.Calendar(firstweekday=FIRST_WEEKDAY).monthdatescalendar(year, mon):
        cells: list[ui.View | None] = []
        for day in week:
            if day.month != mon:
                cells.append(ui.Spacer(flex=1))
                continue
            desc = long_date(ctx, day)
            if day == today:
                desc = _t(ctx, "Today, {desc}", desc=desc)
            cells.append(_Cell(str(day.day), lambda d=day: select(d), selected=day == selected, marked=day == today,
                               rid="date_picker_day", desc=desc, flex=1, height=36))
        rows.append(ui.Row(cells, gap=0, height=36))
    return [ui.Column(rows, gap=2, rid="mtrl_calendar_months")]


# --- time picker ---------------------------------------------------------------------------------------

def _time_dialog(ctx: Ctx, state: dict[str, Any], on_set: OnSet) -> ui.Dialog:
    h24 = uses_24h(ctx.state_of("settings"))
    typing = state["mode"] == "keyboard"
    hour, minute = state["hour"], state["minute"]
    pm = hour >= 12
    typed = _typed_time(state, h24, pm) if typing else None

    def ok() -> None:
        if typing and typed is None:
            return
        _close(ctx)
        h, m = typed if typed is not None else (state["hour"], state["minute"])
        on_set(state["target"], f"{h:02d}:{m:02d}")

    def toggle() -> None:
        if typing:
            if typed is not None:
                state.update(hour=typed[0], minute=typed[1])
            state.update(mode="dial", stage="hour")
        else:
            shown = hour if h24 else hour % 12 or 12
            state.update(mode="keyboard", hour_text=f"{shown:02d}" if h24 else str(shown), minute_text=f"{minute:02d}")

    def set_pm(value: bool) -> None:
        if value != (state["hour"] >= 12):
            state["hour"] = (state["hour"] + 12) % 24

    shown_hour = f"{hour:02d}" if h24 else str(hour % 12 or 12)
    ampm = None if h24 else ui.Column([
        _Choice(_t(ctx, "AM"), lambda: set_pm(False), selected=not pm, rid=fw("am_label"), height=32, width=56),
        _Choice(_t(ctx, "PM"), lambda: set_pm(True), selected=pm, rid=fw("pm_label"), height=32, width=56),
    ], gap=4, width=56, rid=fw("ampm_layout"))
    if typing:
        fields = [ui.TextField(fw("input_hour"), state["hour_text"], lambda v: state.__setitem__("hour_text", v),
                               hint=_t(ctx, "hour"), input_type="number", flex=1, height=56),
                  ui.Text(":", size=32, bold=True, rid=fw("input_separator")),
                  ui.TextField(fw("input_minute"), state["minute_text"], lambda v: state.__setitem__("minute_text", v),
                               hint=_t(ctx, "minute"), input_type="number", flex=1, height=56)]
        header = ui.Row([*fields, ampm], gap=8, rid=fw("input_header"))
        labels = ui.Row([ui.Text(_t(ctx, "Hour"), size=12, color="muted", flex=1),
                         ui.Text(_t(ctx, "Minute"), size=12, color="muted", flex=1),
                         None if h24 else ui.Spacer(width=56)], gap=24)
        error = (ui.Text(_t(ctx, "Enter a valid time"), size=12, color="#B3261E", rid=fw("label_error"))
                 if typed is None else None)
        body: list[ui.View | None] = [header, labels, error]
    else:
        stage = state["stage"]
        header = ui.Row([
            _Cell(shown_hour, lambda: state.__setitem__("stage", "hour"), selected=stage == "hour", size=36,
                  rid=fw("hours"), desc=_t(ctx, "Hour"), height=64, flex=1),
            ui.Text(":", size=36, rid=fw("separator")),
            _Cell(f"{minute:02d}", lambda: state.__setitem__("stage", "minute"), selected=stage == "minute", size=36,
                  rid=fw("minutes"), desc=_t(ctx, "Minute"), height=64, flex=1),
            ampm,
        ], gap=8, rid=fw("time_header"))
        body = [header, ui.Row([ui.Spacer(flex=1), _dial(ctx, state, h24), ui.Spacer(flex=1)], gap=0, height=DIAL)]
    title = ui.Text(_t(ctx, "Enter time") if typing else _t(ctx, "Select time"), size=13, color="muted")
    toggle_button = ui.IconButton(
        "◷" if typing else "⌨",
        _t(ctx, "Switch to clock mode for the time input.") if typing
        else _t(ctx, "Switch to text input mode for the time input."),
        toggle, rid=fw("toggle_mode"))
    buttons = _buttons(ctx, ok)
    dialog = _PickerDialog([title, *body], buttons, lambda: _close(ctx), rid=fw("timePicker"))
    actions = dialog.children[-1]
    actions.children.insert(0, toggle_button)
    return dialog


def _typed_time(state: dict[str, Any], h24: bool, pm: bool) -> tuple[int, int] | None:
    """The (hour, minute) of the keyboard mode's fields, or None when they do not make a time."""
    hour_text, minute_text = state["hour_text"].strip(), state["minute_text"].strip()
    if not (_DIGITS.match(hour_text) and _DIGITS.match(minute_text)):
        return None
    hour, minute = int(hour_text), int(minute_text)
    if minute > 59:
        return None
    if h24:
        return (hour, minute) if hour <= 23 else None
    if not 1 <= hour <= 12:
        return None
    return hour % 12 + (12 if pm else 0), minute


def _dial(ctx: Ctx, state: dict[str, Any], h24: bool) -> ui.View:
    """The hour dial (1-12, or 00-23 on two rings) or the minute dial (labels every five minutes, a tick for
    every other minute); picking an hour moves on to the minutes."""
    hour, minute = state["hour"], state["minute"]
    rings: list[tuple[ui.View, float, float]] = []

    def pick_hour(value: int) -> None:
        state.update(hour=value, stage="minute")

    def pick_minute(value: int) -> None:
        state["minute"] = value

    if state["stage"] == "hour":
        values = range(24) if h24 else range(1, 13)
        for value in values:
            if h24:
                target, radius, label = value, (96 if value < 12 else 62), f"{value:02d}" if value in (0, 12) else str(value)
            else:
                target, radius, label = value % 12 + (12 if hour >= 12 else 0), 96, str(value)
            node = _Cell(label, lambda t=target: pick_hour(t), selected=target == hour, desc=label, width=32,
                         size=14 if radius > 90 else 12)
            rings.append((node, radius, 2 * math.pi * (value % 12) / 12))
    else:
        for value in range(60):
            if value % 5 == 0:
                node = _Cell(f"{value:02d}", lambda v=value: pick_minute(v), selected=value == minute,
                             desc=_t(ctx, "{value} minutes", value=value), width=32)
                rings.append((node, 96, 2 * math.pi * value / 60))
            else:
                rings.append((_Tick(lambda v=value: pick_minute(v), value == minute,
                                    _t(ctx, "{value} minutes", value=value)), 70, 2 * math.pi * value / 60))
    return _Dial(rings, rid=fw("radial_picker"), desc=_t(ctx, "Select hours") if state["stage"] == "hour"
                 else _t(ctx, "Select minutes"))


class _Tick(ui.View):
    """A minute between the labelled ones: a dot on the inner ring, filled when it is the chosen minute."""

    def __init__(self, on_click: ui.Handler, selected: bool, desc: str) -> None:
        super().__init__(on_click=on_click, selected=selected, desc=desc, width=8, height=8)

    def paint(self, out: list[ui.Item], env: ui.LayoutEnv) -> None:
        x, y, w, h = self.frame
        out.append(("rect", x + 2, y + 2, w - 4, h - 4, env.color("primary" if self.selected else "muted"), (w - 4) / 2))
