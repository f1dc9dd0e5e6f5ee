"""The AnswerSheet form: question, hint, one control per answer field, and a Submit toggle.

A number field has a numeric keyboard (input type "number"): it holds digits, one decimal point and
a leading minus, whatever else is typed. A date or time field opens the date or time picker when tapped
and keeps "YYYY-MM-DD" or "HH:MM" (24-hour) whatever the phone's display."""
from __future__ import annotations

from typing import Any

import datetime as dt

from mobilegym.sim import pickers, ui
from mobilegym.sim.app import Ctx

from .app import APP

PLACEHOLDERS = {"text": "Please enter", "number": "Please enter a number", "date": "Select a date",
                "time": "Select a time"}


def _set_answer(ctx: Ctx, key: str, value: Any) -> None:
    ctx.state["answers"][key] = value


def _entry_setter(ctx: Ctx, key: str, n: int):
    def set_entry(value: str) -> None:
        entries = list(ctx.state["answers"].get(key, [""]))
        entries[n] = value
        ctx.state["answers"][key] = entries

    return set_entry


def _picker_field(ctx: Ctx, rid: str, kind: str, value: str, target: str, hint: str) -> ui.View:
    """A date or time field: shows the chosen value (or the hint) and opens its picker."""
    if kind == "date":
        shown = pickers.date_text(ctx, dt.date.fromisoformat(value)) if value else ""
        return pickers.PickerField(rid, shown, lambda: pickers.open_date(
            ctx.local, target, dt.date.fromisoformat(value) if value else ctx.now.date()), hint=hint, flex=1)
    shown = pickers.time_text(ctx, value) if value else ""
    return pickers.PickerField(rid, shown, lambda: pickers.open_time(ctx.local, target, value or f"{ctx.now:%H:%M}"),
                               hint=hint, flex=1)


def _set_picked(ctx: Ctx, target: str, value: str) -> None:
    """A picked value for field ``target`` ("<index>", or "<index>#<entry>" in a repeatable field)."""
    key, _, entry = target.partition("#")
    if entry:
        _entry_setter(ctx, key, int(entry))(value)
    else:
        _set_answer(ctx, key, value)


def _field_views(ctx: Ctx, index: int, spec: dict[str, Any]) -> list[ui.View | None]:
    key = str(index)
    kind = spec.get("type", "text")
    views: list[ui.View | None] = [ui.Text(spec.get("label") or ctx.t("Answer {value}", value=index + 1), size=15, bold=True, max_lines=3,
                                           rid=f"field_{index}_label")]
    if kind == "choice":
        chosen = ctx.state["answers"].get(key)
        views += [ui.Radio(f"field_{index}_option", option == chosen, lambda o=option: _set_answer(ctx, key, o), option,
                           height=44)
                  for option in spec.get("options", [])]
        return views
    input_type = "number" if kind == "number" else "text"
    hint = spec.get("hint") or ctx.t(PLACEHOLDERS[kind if kind in PLACEHOLDERS else input_type])
    picked = kind in ("date", "time")
    if not spec.get("repeatable"):
        value = ctx.state["answers"].get(key, "")
        views.append(_picker_field(ctx, f"field_{index}_input", kind, str(value), key, hint) if picked else
                     ui.TextField(f"field_{index}_input", str(value), lambda v: _set_answer(ctx, key, v), hint=hint,
                                  input_type=input_type))
        return views
    entries = ctx.state["answers"].get(key) or [""]
    for n, value in enumerate(entries):
        def remove(n: int = n) -> None:
            rest = [e for i, e in enumerate(ctx.state["answers"].get(key) or [""]) if i != n]
            ctx.state["answers"][key] = rest or [""]

        views.append(ui.Row([
            _picker_field(ctx, f"field_{index}_input", kind, value, f"{key}#{n}", hint) if picked else
            ui.TextField(f"field_{index}_input", value, _entry_setter(ctx, key, n), hint=hint, input_type=input_type,
                         flex=1),
            ui.IconButton("✕", ctx.t("Remove entry"), remove, rid=f"field_{index}_remove"),
        ], gap=4))
    views.append(ui.Button(ctx.t("+ Add entry"),
                           lambda: ctx.state["answers"].__setitem__(key, [*entries, ""]), style="text",
                           rid=f"field_{index}_add"))
    return views


@APP.screen("/")
def sheet(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    body: list[ui.View | None] = [
        ui.Text(s["question"] or ctx.t("No question for this task."), size=17, max_lines=None, rid="question"),
        ui.Text(s["hint"], size=13, color="muted", max_lines=None, rid="hint") if s["hint"] else None,
        ui.Divider(),
    ]
    for index, spec in enumerate(s["fields"]):
        body += _field_views(ctx, index, spec)
        body.append(ui.Spacer(8))
    submitted = s["submitted"]
    body.append(ui.Text(ctx.t("Submitted ✓") if submitted else ctx.t("Not submitted"),
                        size=14, color="primary" if submitted else "muted", rid="status"))
    body.append(ui.Button(ctx.t("Edit answer") if submitted else ctx.t("Submit"),
                          lambda: s.__setitem__("submitted", not submitted), style="outlined" if submitted else "filled",
                          rid="submit", selected=submitted))
    return ui.Scaffold(ui.ScrollList(body, rid="answer_form", pad=16, gap=8), top=ui.TopBar(ctx.either(APP.label, APP.label_zh)),
                       dialog=pickers.picker_dialog(ctx, lambda target, value: _set_picked(ctx, target, value)))
