"""Clock screens: alarm list and editor, timer, stopwatch."""
from __future__ import annotations

from typing import Any

from mobilegym.calendar_words import WEEKDAYS_ZH
from mobilegym.sim import pickers, ui
from mobilegym.sim.app import Ctx

from .app import APP
from .world import DAYS

TABS = [("/alarms", "Alarm"), ("/timer", "Timer"), ("/stopwatch", "Stopwatch")]


def _tabs(ctx: Ctx, current: str) -> ui.View:
    index = [path for path, _ in TABS].index(current)
    return ui.Tabs([ctx.t(label) for _, label in TABS], index, lambda i: ctx.replace(TABS[i][0]), rid_prefix="tab")


DAY_NAMES_ZH = dict(zip(DAYS, WEEKDAYS_ZH))


def repeat_text(ctx: Ctx, days: list[str]) -> str:
    """"Mon, Wed", "Every day", "Weekdays", "Weekends" or "Once" (in the phone's language)."""
    if not days:
        return ctx.t("Once")
    if len(days) == 7:
        return ctx.t("Every day")
    if days == DAYS[:5]:
        return ctx.t("Weekdays")
    if days == DAYS[5:]:
        return ctx.t("Weekends")
    return ctx.t("{days}", days=", ".join(days), days_zh="、".join(DAY_NAMES_ZH[d] for d in days))


def _find(ctx: Ctx, alarm_id: str) -> dict[str, Any]:
    return next(a for a in ctx.state["alarms"] if a["id"] == alarm_id)


@APP.screen("/alarms")
def alarms(ctx: Ctx) -> ui.Scaffold:
    items = sorted(ctx.state["alarms"], key=lambda a: (a["hour"], a["minute"]))
    rows: list[ui.View | None] = []
    for alarm in items:
        def toggle(a: dict[str, Any] = alarm) -> None:
            a["enabled"] = not a["enabled"]

        rows.append(ui.Row(
            [ui.Column([ui.Text(f"{alarm['hour']:02d}:{alarm['minute']:02d}", size=32, rid="alarm_time",
                                color=None if alarm["enabled"] else "muted"),
                        ui.Text(f"{alarm['label'] or ctx.t('Alarm')} · {repeat_text(ctx, alarm['days'])}", size=13, color="muted",
                                rid="alarm_label")], flex=1),
             ui.Switch("alarm_switch", alarm["enabled"], lambda _v, t=toggle: t(), desc=alarm["label"])],
            pad=16, rid="alarm_item", desc=f"{alarm['hour']:02d}:{alarm['minute']:02d} {alarm['label']}",
            on_click=lambda a=alarm: ctx.navigate("/alarm/edit", id=a["id"]),
            on_long_click=lambda a=alarm: ctx.local.__setitem__("delete", a["id"]),
        ))
    rows.append(ui.Spacer(88) if rows else  # the last alarm's switch can scroll clear of the add button
                ui.Text(ctx.t("No alarms"), color="muted", align="center", height=120, rid="empty"))
    dialog = None
    if ctx.local.get("delete"):
        target = _find(ctx, ctx.local["delete"])

        def delete() -> None:
            ctx.state["alarms"].remove(target)
            ctx.local["delete"] = None

        dialog = ui.Dialog(
            ctx.t("Delete alarm {hour:02d}:{minute:02d}?", hour=target['hour'], minute=target['minute']),
            [], [ui.Button(ctx.t("Cancel"), lambda: ctx.local.__setitem__("delete", None), style="text", rid=ui.NEGATIVE),
                 ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)],
            on_dismiss=lambda: ctx.local.__setitem__("delete", None),
        )
    return ui.Scaffold(
        ui.ScrollList(rows, rid="alarm_list"), top=ui.TopBar(ctx.t("Clock")), bottom=_tabs(ctx, "/alarms"),
        fab=ui.Fab("+", ctx.t("Add alarm"), lambda: ctx.navigate("/alarm/edit"), rid="add_alarm"), dialog=dialog,
    )


@APP.screen("/alarm/edit")
def edit_alarm(ctx: Ctx) -> ui.Scaffold:
    alarm_id = ctx.params.get("id")
    existing = _find(ctx, alarm_id) if alarm_id else None
    local = ctx.local
    if "time" not in local:
        source = existing or {"hour": 8, "minute": 0, "label": "", "days": []}
        local.update(time=f"{source['hour']:02d}:{source['minute']:02d}", label=source["label"],
                     days=list(source["days"]))

    def save() -> None:
        hour, minute = int(local["time"][:2]), int(local["time"][3:])
        values = {"hour": hour, "minute": minute, "time": local["time"], "label": local["label"].strip(),
                  "days": [d for d in DAYS if d in local["days"]]}
        if existing is not None:
            existing.update(values)
        else:
            ctx.state["alarms"].append({"id": ctx.new_id("alarm"), **values, "enabled": True})
        ctx.back()

    def toggle_day(day: str) -> None:
        local["days"] = [d for d in local["days"] if d != day] if day in local["days"] else [*local["days"], day]

    def delete() -> None:
        ctx.state["alarms"].remove(existing)
        ctx.back()

    body: list[ui.View | None] = [
        ui.Text(ctx.t("Time"), size=13, color="primary", height=28),
        pickers.PickerField("alarm_time_input", pickers.time_text(ctx, local["time"]),
                            lambda: pickers.open_time(local, "time", local["time"]), size=32, height=64),
        ui.Text(ctx.t("Label"), size=13, color="primary", height=28),
        ctx.field("label_input", "label", hint=ctx.t("Alarm label")),
        ui.Text(ctx.t("Repeat"), size=13, color="primary", height=28),
        ui.Row([ui.Chip(ctx.t("{short}", short=day[:2], char=DAY_NAMES_ZH[day][1]), day in local["days"], lambda _v, d=day: toggle_day(d), rid=f"day_{day}", flex=1)
                for day in DAYS], gap=4),
        ui.Spacer(12),
        ui.Row([ui.Button(ctx.t("Delete"), delete, style="outlined", rid="delete_alarm") if existing else None,
                ui.Spacer(flex=1), ui.Button(ctx.t("Cancel"), ctx.back, style="text", rid="cancel"),
                ui.Button(ctx.t("Save"), save, rid="save_alarm")], gap=8),
    ]
    title = ctx.t("Edit alarm") if existing else ctx.t("Add alarm")
    return ui.Scaffold(ui.ScrollList(body, rid="alarm_form", pad=16, gap=4), top=ui.TopBar(title, on_back=ctx.back),
                       dialog=pickers.picker_dialog(ctx, local.__setitem__))


def _clock_text(total_ms: int, tenths: bool = False) -> str:
    seconds, ms = divmod(max(0, total_ms), 1000)
    hours, rem = divmod(seconds, 3600)
    text = f"{hours:02d}:{rem // 60:02d}:{rem % 60:02d}"
    return f"{text}.{ms // 100}" if tenths else text


def timer_remaining_s(timer: dict[str, Any], now_ms: int) -> int:
    """Seconds left on the timer at ``now_ms``."""
    if not timer["running"]:
        return timer["remaining_s"]
    return max(0, timer["remaining_s"] - (now_ms - timer["started_at_ms"]) // 1000)


@APP.screen("/timer")
def timer(ctx: Ctx) -> ui.Scaffold:
    t = ctx.state["timer"]
    now = ctx.os["time_ms"]
    remaining = timer_remaining_s(t, now)
    local = ctx.local
    local.setdefault("minutes", str(t["duration_s"] // 60))
    local.setdefault("seconds", str(t["duration_s"] % 60))
    # a timer not started (or run out) takes the typed duration on start, and shows it meanwhile
    setting = t["remaining_s"] == 0 or (not t["running"] and t["remaining_s"] == t["duration_s"])
    try:
        typed = int(local["minutes"] or 0) * 60 + int(local["seconds"] or 0)
    except ValueError:
        typed = 0

    def start() -> None:
        if setting:
            duration = typed
            if duration <= 0:
                ctx.toast(ctx.t("Set a duration first"))
                return
            t.update(duration_s=duration, remaining_s=duration)
        t.update(running=True, started_at_ms=now)

    def pause() -> None:
        t.update(running=False, remaining_s=remaining, started_at_ms=None)

    def reset() -> None:
        t.update(running=False, remaining_s=t["duration_s"], started_at_ms=None)

    controls = [ui.Button(ctx.t("Pause"), pause, rid="pause") if t["running"] else
                ui.Button(ctx.t("Start"), start, rid="start"),
                ui.Button(ctx.t("Reset"), reset, style="outlined", rid="reset")]
    body: list[ui.View | None] = [
        ui.Text(_clock_text((typed if setting and not t["running"] else remaining) * 1000), size=48, align="center",
                rid="timer_display", height=96),
        None if t["running"] else ui.Row([ctx.field("minutes_input", "minutes", hint=ctx.t("min"), flex=1),
                                          ui.Text(ctx.t("min")),
                                          ctx.field("seconds_input", "seconds", hint=ctx.t("sec"), flex=1),
                                          ui.Text(ctx.t("sec"))]),
        ui.Row([ui.Spacer(flex=1), *controls, ui.Spacer(flex=1)], gap=12),
    ]
    return ui.Scaffold(ui.ScrollList(body, rid="timer_panel", pad=24, gap=16), top=ui.TopBar(ctx.t("Clock")),
                       bottom=_tabs(ctx, "/timer"))


def stopwatch_elapsed_ms(sw: dict[str, Any], now_ms: int) -> int:
    """Milliseconds on the stopwatch at ``now_ms``."""
    return sw["elapsed_ms"] + (now_ms - sw["started_at_ms"] if sw["running"] else 0)


@APP.screen("/stopwatch")
def stopwatch(ctx: Ctx) -> ui.Scaffold:
    sw = ctx.state["stopwatch"]
    now = ctx.os["time_ms"]
    elapsed = stopwatch_elapsed_ms(sw, now)

    def start() -> None:
        sw.update(running=True, started_at_ms=now)

    def stop() -> None:
        sw.update(running=False, elapsed_ms=elapsed, started_at_ms=None)

    def lap() -> None:
        sw["laps"].append(elapsed)

    def reset() -> None:
        sw.update(running=False, elapsed_ms=0, started_at_ms=None, laps=[])

    controls = ([ui.Button(ctx.t("Stop"), stop, rid="stop"), ui.Button(ctx.t("Lap"), lap, style="outlined", rid="lap")]
                if sw["running"] else
                [ui.Button(ctx.t("Start"), start, rid="start"), ui.Button(ctx.t("Reset"), reset, style="outlined", rid="reset")])
    laps = [ui.ListItem(ctx.t("Lap {value}", value=i + 1), trailing=_clock_text(ms, tenths=True), rid="lap_item")
            for i, ms in reversed(list(enumerate(sw["laps"])))]
    body: list[ui.View | None] = [
        ui.Text(_clock_text(elapsed, tenths=True), size=44, align="center", rid="stopwatch_display", height=96),
        ui.Row([ui.Spacer(flex=1), *controls, ui.Spacer(flex=1)], gap=12),
        *laps,
    ]
    return ui.Scaffold(ui.ScrollList(body, rid="stopwatch_panel", pad=24, gap=8), top=ui.TopBar(ctx.t("Clock")),
                       bottom=_tabs(ctx, "/stopwatch"))
