"""Weather screens: city list, city detail, hourly forecast, add-city search, settings."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.calendar_words import WEEKDAY_PAIRS as WEEKDAYS, MONTH_ABBRS as MONTHS
from mobilegym.envs.layout import MARGIN, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from .app import APP

# English label (translated by the catalog) -> glyph
CONDITIONS = {
    "Sunny": "☀", "Partly cloudy": "☁", "Cloudy": "☁", "Fog": "≋", "Windy": "≈", "Light rain": "☂", "Rain": "☂",
    "Showers": "☔", "Thunderstorm": "☈", "Snow": "❄",
}
WIND_UNITS = [("km/h", "wind_kmh"), ("m/s", "wind_ms"), ("mph", "wind_mph")]


def city_by_id(state: dict[str, Any], city_id: str) -> dict[str, Any]:
    """A catalogue city by id (raises KeyError naming it when absent)."""
    for city in state["cities"]:
        if city["id"] == city_id:
            return city
    raise KeyError(f"no city {city_id!r} in the weather catalogue")


def degrees(state: dict[str, Any], celsius: float) -> int:
    """A Celsius temperature in the user's unit, rounded."""
    return round(celsius * 9 / 5 + 32) if state["unit"] == "F" else round(celsius)


def wind_speed(state: dict[str, Any], kph: float) -> str:
    """A wind speed in the user's unit, with the unit."""
    unit = state["wind_unit"]
    if unit == "m/s":
        return f"{kph / 3.6:.1f} m/s"
    if unit == "mph":
        return f"{round(kph * 0.621371)} mph"
    return f"{round(kph)} km/h"


def _deg(ctx: Ctx, celsius: float) -> str:
    return f"{degrees(ctx.state, celsius)}°"


def _cond(ctx: Ctx, condition: str) -> str:
    return ctx.t(condition)


def _glyph(condition: str, size: float = 28, **kw: Any) -> ui.Icon:
    return ui.Icon(CONDITIONS[condition], size=size, color="primary", **kw)


def _name(ctx: Ctx, city: dict[str, Any]) -> str:
    return ctx.either(city["name"], city["name_zh"])


def day_label(ctx: Ctx, offset: int) -> str:
    """"Today", then "Tue, Mar 17" (zh: "今天", "3月17日 周二") for the days after."""
    if offset == 0:
        return ctx.t("Today")
    day = (ctx.now + dt.timedelta(days=offset)).date()
    en, zh = WEEKDAYS[day.weekday()]
    return ctx.t("{en}, {months} {day}", en=en, months=MONTHS[day.month - 1], day=day.day, month=day.month, zh=zh)


def _remove_dialog(ctx: Ctx, after: str) -> ui.Dialog | None:
    """The confirm dialog for ``ctx.local["remove"]``; ``after`` is "stay" or "back"."""
    city_id = ctx.local.get("remove")
    if not city_id:
        return None
    city = city_by_id(ctx.state, city_id)

    def remove() -> None:
        ctx.state["saved"] = [c for c in ctx.state["saved"] if c != city_id]
        ctx.local["remove"] = None
        ctx.toast(ctx.t("Removed {name}", name=city['name'], name_zh=city['name_zh']))
        if after == "back":
            ctx.back()

    return ui.Dialog(
        ctx.t("Remove {name}?", name=city['name'], name_zh=city['name_zh']),
        ctx.t("It will no longer appear in your cities."),
        [ui.Button(ctx.t("Cancel"), lambda: ctx.local.__setitem__("remove", None), style="text", rid=ui.NEGATIVE),
         ui.Button(ctx.t("Remove"), remove, style="text", rid=ui.POSITIVE)],
        on_dismiss=lambda: ctx.local.__setitem__("remove", None),
    )


@APP.screen("/")
def cities(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    rows: list[ui.View | None] = []
    for city_id in s["saved"]:
        city = city_by_id(s, city_id)
        now, today = city["current"], city["forecast"][0]
        name = _name(ctx, city)
        rows.append(ui.Card([ui.Row([
            ui.Column([ui.Text(name, size=18, bold=True, rid="city_name"),
                       ui.Text(_cond(ctx, now["condition"]), size=13, color="muted", rid="city_condition"),
                       ui.Text(ctx.t("H:{deg} L:{deg_2}", deg=_deg(ctx, today['high']), deg_2=_deg(ctx, today['low'])),
                               size=12, color="muted", rid="city_high_low")], gap=2, flex=1),
            _glyph(now["condition"], 32),
            ui.Text(_deg(ctx, now["temp"]), size=34, rid="city_temp"),
        ], gap=12)], rid="city_item", desc=name,
            on_click=lambda c=city_id: ctx.navigate("/city", id=c),
            on_long_click=lambda c=city_id: ctx.local.__setitem__("remove", c)))
    if not rows:
        rows.append(ui.Text(ctx.t("No cities yet. Tap + to add one."), color="muted",
                            align="center", height=120, rid="empty"))
    top = ui.TopBar(ctx.t("Weather"), actions=[
        ui.IconButton("+", ctx.t("Add city"), lambda: ctx.navigate("/add"), rid="add_city"),
        ui.IconButton("⚙", ctx.t("Settings"), lambda: ctx.navigate("/settings"), rid="settings")])
    return ui.Scaffold(ui.ScrollList(rows, rid="city_list", pad=12, gap=10), top=top,
                       dialog=_remove_dialog(ctx, "stay"))


def _detail_row(label: str, value: str, rid: str) -> ui.View:
    return ui.Row([ui.Text(label, size=14, color="muted", flex=1), ui.Text(value, size=15, rid=rid)], height=32)


def _hour_label(ctx: Ctx, hour: int) -> str:
    return ctx.t("Now") if hour == ctx.now.hour else f"{hour:02d}:00"


def _hour_row(ctx: Ctx, entry: dict[str, Any]) -> ui.View:
    cond, label, temp = _cond(ctx, entry["condition"]), _hour_label(ctx, entry["hour"]), _deg(ctx, entry["temp"])
    detail = ctx.t("{cond} · {precip}% precipitation", cond=cond, precip=entry['precip'])
    return ui.ListItem(label, subtitle=detail, leading=_glyph(entry["condition"], 24),
                       trailing=ui.Text(temp, size=16, rid="hourly_temp"), title_rid="hourly_time", rid="hourly_item",
                       desc=f"{label}, {temp}, {detail}")


def _day_row(ctx: Ctx, day: dict[str, Any]) -> ui.View:
    label, cond = day_label(ctx, day["day"]), _cond(ctx, day["condition"])
    temps = f"{_deg(ctx, day['high'])} / {_deg(ctx, day['low'])}"
    detail = ctx.t("{cond} · {precip}% precipitation", cond=cond, precip=day['precip'])
    return ui.ListItem(label, subtitle=detail, leading=_glyph(day["condition"], 24), title_rid="forecast_day",
                       rid="forecast_item", trailing=ui.Text(temps, size=15, rid="forecast_temp"),
                       desc=ctx.t("{label}: {cond}, high {deg}, low {deg_2}, {precip}% precipitation", label=label, cond=cond, deg=_deg(ctx, day['high']), deg_2=_deg(ctx, day['low']), precip=day['precip']))


@APP.screen("/city")
def city_detail(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    city = city_by_id(s, ctx.params["id"])
    saved = city["id"] in s["saved"]
    now, today = city["current"], city["forecast"][0]

    def add() -> None:
        s["saved"] = [*s["saved"], city["id"]]
        ctx.toast(ctx.t("Added {name}", name=city['name'], name_zh=city['name_zh']))
        stack = ctx.os["stacks"][APP.id]
        while len(stack) > 1 and stack[-1]["path"] != "/":
            ctx.back()
        if stack[-1]["path"] != "/":
            ctx.replace("/")

    action: ui.View = (ui.IconButton("✕", ctx.t("Remove city"), lambda: ctx.local.__setitem__("remove", city["id"]),
                                     rid="remove_city") if saved else
                       ui.Button(ctx.t("Add"), add, style="text", rid="add_this_city"))
    upcoming = [h for h in city["hourly"] if h["hour"] >= ctx.now.hour][:4]
    rows: list[ui.View | None] = [
        ui.Column([
            _glyph(now["condition"], 56),
            ui.Text(_deg(ctx, now["temp"]), size=56, align="center", rid="current_temp"),
            ui.Text(_cond(ctx, now["condition"]), size=18, align="center", rid="current_condition"),
            ui.Text(ctx.t("H:{deg}  L:{deg_2}", deg=_deg(ctx, today['high']), deg_2=_deg(ctx, today['low'])),
                    size=14, color="muted", align="center", rid="today_high_low"),
        ], gap=4, pad=8),
        ui.Card([
            ui.Text(ctx.t("Current conditions"), size=13, color="primary", bold=True),
            _detail_row(ctx.t("Feels like"), _deg(ctx, now["feels_like"]), "feels_like"),
            _detail_row(ctx.t("Humidity"), f"{now['humidity']}%", "humidity"),
            _detail_row(ctx.t("Wind"),
                        f"{wind_speed(s, now['wind_kph'])} {ctx.t(now['wind_dir'], context='wind')}", "wind"),
        ]),
        ui.Card([
            ui.Text(ctx.t("Next hours"), size=13, color="primary", bold=True),
            *[_hour_row(ctx, h) for h in upcoming],
            ui.Button(ctx.t("Hourly forecast ›"), lambda: ctx.navigate("/city/hourly", id=city["id"]),
                      style="text", rid="hourly_entry"),
        ]),
        ui.Card([ui.Text(ctx.t("5-day forecast"), size=13, color="primary", bold=True),
                 *[_day_row(ctx, day) for day in city["forecast"]]]),
    ]
    top = ui.TopBar(_name(ctx, city), on_back=ctx.back, actions=[action])
    return ui.Scaffold(ui.ScrollList(rows, rid="city_detail", pad=12, gap=12), top=top,
                       dialog=_remove_dialog(ctx, "back"))


@APP.screen("/city/hourly")
def hourly(ctx: Ctx) -> ui.Scaffold:
    city = city_by_id(ctx.state, ctx.params["id"])
    rows: list[ui.View | None] = [_hour_row(ctx, h) for h in city["hourly"] if h["hour"] >= ctx.now.hour]
    title = ctx.t("{name} · Hourly", name=city['name'], name_zh=city['name_zh'])
    return ui.Scaffold(ui.ScrollList(rows, rid="hourly_list", pad=8), top=ui.TopBar(title, on_back=ctx.back))


def matches(city: dict[str, Any], query: str) -> bool:
    """Whether a search query matches a city's name or country (English or Chinese)."""
    needle = query.strip().casefold()
    return any(needle in city[k].casefold() for k in ("name", "name_zh", "country", "country_zh"))


@APP.screen("/add", focus="search_input")
def add_city(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    query = ctx.local.get("query", "")
    found = sorted((c for c in s["cities"] if matches(c, query)), key=lambda c: c["name"])
    rows: list[ui.View | None] = [
        inset(ui.Text(ctx.t("All cities") if not query.strip() else ctx.t("Results"),
                      size=13, color="primary", height=32, rid="results_header"), MARGIN - 4)]
    rows += [ui.ListItem(_name(ctx, c), subtitle=ctx.either(c["country"], c["country_zh"]), rid="search_result",
                         title_rid="result_name",
                         trailing=ui.Text(ctx.t("Added") if c["id"] in s["saved"] else "+", size=14,
                                          color="muted", rid="result_status"),
                         on_click=lambda c=c: ctx.navigate("/city", id=c["id"]))
             for c in found]
    if not found:
        rows.append(ui.Text(ctx.t("No cities match “{strip}”", strip=query.strip()),
                            color="muted", align="center", height=80, max_lines=2, rid="no_results"))
    body = ui.Column([
        ui.Column([ctx.field("search_input", "query", hint=ctx.t("Search for a city"), ime_action="search")], pad=12),
        ui.ScrollList(rows, rid="search_results", pad=4),
    ])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Add city"), on_back=ctx.back))


@APP.screen("/settings")
def settings(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state

    def setter(key: str, value: str):
        return lambda: s.__setitem__(key, value)

    rows: list[ui.View | None] = [
        inset(ui.Text(ctx.t("Temperature unit"), size=13, color="primary", height=36, rid="unit_header"),
              MARGIN - 12),
        ui.Radio("unit_c", s["unit"] == "C", setter("unit", "C"), ctx.t("Celsius (°C)"), height=48),
        ui.Radio("unit_f", s["unit"] == "F", setter("unit", "F"), ctx.t("Fahrenheit (°F)"), height=48),
        ui.Divider(),
        inset(ui.Text(ctx.t("Wind speed unit"), size=13, color="primary", height=36, rid="wind_header"),
              MARGIN - 12),
        *[ui.Radio(rid, s["wind_unit"] == unit, setter("wind_unit", unit), unit, height=48) for unit, rid in WIND_UNITS],
        ui.Divider(),
        ui.ListItem(ctx.t("Severe weather alerts"),
                    subtitle=ctx.t("Notify me about storms, heat and snow"),
                    trailing=ui.Switch("alerts_switch", s["alerts"], None), rid="alerts_row",
                    on_click=lambda: s.__setitem__("alerts", not s["alerts"])),
    ]
    return ui.Scaffold(ui.ScrollList(rows, rid="settings_list", pad=12),
                       top=ui.TopBar(ctx.t("Settings"), on_back=ctx.back))
