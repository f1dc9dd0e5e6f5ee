"""Scripted plans for the Weather suite: oracles and realistic mistakes, acting only through the UI."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.envs.weather.world import RAINY as RAINY_EN
from mobilegym.oracle import Driver, negative, plan
from mobilegym.screen_text import Node
from mobilegym.sim.strings import translate

from ..calendar.ui import fill_event, open_event, read_date, today
from .ui import city, degrees, forecast, open_saved_city, send_text, set_alarm
from ..cross_app.ui import short_date, spoken_date

RAINY = (*RAINY_EN, *(translate("mobilegym.envs.weather", "zh", c) for c in RAINY_EN))  # as the app names them, in English and in Chinese


# --- helpers: reading and moving around the Weather UI ----------------------------------------------


def pair_city(d: Driver, which: str) -> str:
    """The "warm" or "cool" city of TemperatureDifference as the phone's language writes it."""
    return d.params["pair"][d.t(which, f"{which}_zh")]


def inside(node: Node, box: Node) -> bool:
    x, y = node.center
    return box.bounds[0] <= x < box.bounds[2] and box.bounds[1] <= y < box.bounds[3]


def open_search(d: Driver, name: str) -> None:
    """The add-city search with ``name`` typed in (from the city list)."""
    d.tap(rid="add_city")
    d.type(name, rid="search_input")


def preview_city(d: Driver, name: str) -> None:
    """Open a catalogue city's page through the add-city search."""
    d.open_app("Weather")
    open_search(d, name)
    d.tap(rid="result_name", text=name)


def list_temperature(d: Driver, name: str) -> int:
    """A saved city's temperature as the city list shows it."""
    row = d.reveal(rid="city_item", desc=name)
    return degrees(next(n.text for n in d.nodes() if n.short_id == "city_temp" and inside(n, row)))


def unsaved_other_than(d: Driver, names: set[str]) -> str:
    """From the add-city list (empty query): the first city not saved yet and not in ``names``."""
    d.tap(rid="add_city")
    nodes = d.nodes()
    rows = [n for n in nodes if n.short_id == "search_result"]
    for row in rows:
        name = next(n.text for n in nodes if n.short_id == "result_name" and inside(n, row))
        status = next(n.text for n in nodes if n.short_id == "result_status" and inside(n, row))
        if status == "+" and name not in names:
            return name
    raise RuntimeError("no other unsaved city on screen")


def hourly(d: Driver) -> list[tuple[str, str]]:
    """(hour label, condition) of the hourly forecast of the open city page."""
    d.tap(rid="hourly_entry")
    rows = []
    for desc in d.collect("hourly_item"):
        label, _, detail = desc.split(", ", 2)
        rows.append((label, detail.split(" · ")[0]))
    return rows


# --- AddCity -------------------------------------------------------------------------------------------

@plan("weather.AddCity")
def add_city(d: Driver) -> None:
    preview_city(d, city(d))
    d.tap(rid="add_this_city")


@negative("weather.AddCity", "adds a different city")
def add_other_city(d: Driver) -> None:
    d.open_app("Weather")
    other = unsaved_other_than(d, {city(d)})
    d.tap(rid="result_name", text=other)
    d.tap(rid="add_this_city")


@negative("weather.AddCity", "opens the city but never taps Add")
def preview_only(d: Driver) -> None:
    preview_city(d, city(d))
    d.key("back")


# --- RemoveCity ----------------------------------------------------------------------------------------

@plan("weather.RemoveCity")
def remove_city(d: Driver) -> None:
    open_saved_city(d, city(d))
    d.tap(rid="remove_city")
    d.tap(rid="button1")


@negative("weather.RemoveCity", "cancels the confirmation")
def cancel_remove(d: Driver) -> None:
    open_saved_city(d, city(d))
    d.tap(rid="remove_city")
    d.tap(rid="button2")


@negative("weather.RemoveCity", "removes the wrong city")
def remove_wrong_city(d: Driver) -> None:
    d.open_app("Weather")
    other = next(n.desc for n in d.nodes() if n.short_id == "city_item" and n.desc != city(d))
    d.long_press(rid="city_item", desc=other)
    d.tap(rid="button1")


# --- SetTemperatureUnit --------------------------------------------------------------------------------

@plan("weather.SetTemperatureUnit")
def set_unit(d: Driver) -> None:
    d.open_app("Weather")
    d.tap(rid="settings")
    d.tap(rid="unit_f" if d.params["unit"] == "F" else "unit_c")


@negative("weather.SetTemperatureUnit", "changes the wind speed unit instead")
def set_wind_unit(d: Driver) -> None:
    d.open_app("Weather")
    d.tap(rid="settings")
    d.tap(rid="wind_mph")


# --- CurrentTemperature --------------------------------------------------------------------------------

@plan("weather.CurrentTemperature")
def current_temperature(d: Driver) -> None:
    open_saved_city(d, city(d))
    d.submit_answer([degrees(d.texts("current_temp")[0])])


@negative("weather.CurrentTemperature", "answers the feels-like temperature")
def feels_like(d: Driver) -> None:
    open_saved_city(d, city(d))
    d.submit_answer([degrees(d.reveal(rid="feels_like").text)])


# --- CityConditionsNow ---------------------------------------------------------------------------------

def _humidity_and_wind(d: Driver) -> list[int]:
    humidity = int(d.reveal(rid="humidity").text.rstrip("%"))
    wind = int(d.reveal(rid="wind").text.split()[0])
    return [humidity, wind]


@plan("weather.CityConditionsNow")
def city_conditions(d: Driver) -> None:
    preview_city(d, city(d))
    d.submit_answer(_humidity_and_wind(d))


@negative("weather.CityConditionsNow", "reads another city's page")
def other_city_conditions(d: Driver) -> None:
    d.open_app("Weather")
    other = unsaved_other_than(d, {city(d)})
    d.tap(rid="result_name", text=other)
    d.submit_answer(_humidity_and_wind(d))


# --- TomorrowCondition ---------------------------------------------------------------------------------

@plan("weather.TomorrowCondition")
def tomorrow_condition(d: Driver) -> None:
    open_saved_city(d, city(d))
    d.submit_answer([forecast(d)[1][1]])


@negative("weather.TomorrowCondition", "answers today's current condition")
def current_condition(d: Driver) -> None:
    open_saved_city(d, city(d))
    d.submit_answer([d.texts("current_condition")[0]])


# --- TemperatureDifference ----------------------------------------------------------------------------

@plan("weather.TemperatureDifference")
def temperature_difference(d: Driver) -> None:
    d.open_app("Weather")
    d.submit_answer([list_temperature(d, pair_city(d, "warm")) - list_temperature(d, pair_city(d, "cool"))])


@negative("weather.TemperatureDifference", "answers the warmer city's temperature")
def warm_temperature(d: Driver) -> None:
    d.open_app("Weather")
    d.submit_answer([list_temperature(d, pair_city(d, "warm"))])


# --- WarmestDay ----------------------------------------------------------------------------------------

@plan("weather.WarmestDay")
def warmest_day(d: Driver) -> None:
    open_saved_city(d, city(d))
    label, _, high, _ = max(forecast(d), key=lambda day: day[2])
    d.submit_answer([label, high])


@negative("weather.WarmestDay", "gives that day's low instead of its high")
def warmest_day_low(d: Driver) -> None:
    open_saved_city(d, city(d))
    label, _, _, low = max(forecast(d), key=lambda day: day[2])
    d.submit_answer([label, low])


# --- RainyDays -----------------------------------------------------------------------------------------

def _rainy_labels(d: Driver) -> tuple[list[str], list[str]]:
    open_saved_city(d, city(d))
    days = forecast(d)
    return [day[0] for day in days if day[1] in RAINY], [day[0] for day in days if day[1] not in RAINY]


@plan("weather.RainyDays")
def rainy_days(d: Driver) -> None:
    wet, _ = _rainy_labels(d)
    d.submit_answer([wet])


@negative("weather.RainyDays", "forgets the last rainy day")
def rainy_days_partial(d: Driver) -> None:
    wet, _ = _rainy_labels(d)
    d.submit_answer([wet[:-1] or [d.t("none", "没有")]])


@negative("weather.RainyDays", "also lists a dry day")
def rainy_days_extra(d: Driver) -> None:
    wet, dry = _rainy_labels(d)
    d.submit_answer([wet + dry[:1]])


# --- FahrenheitHighTomorrow ----------------------------------------------------------------------------

def _switch_to_fahrenheit(d: Driver) -> None:
    d.open_app("Weather")
    d.tap(rid="settings")
    d.tap(rid="unit_f")
    d.key("back")


@plan("weather.FahrenheitHighTomorrow")
def fahrenheit_high(d: Driver) -> None:
    _switch_to_fahrenheit(d)
    open_saved_city(d, city(d))
    d.submit_answer([forecast(d)[1][2]])


@negative("weather.FahrenheitHighTomorrow", "switches the unit but answers in Celsius read before")
def celsius_answer(d: Driver) -> None:
    open_saved_city(d, city(d))
    high_c = forecast(d)[1][2]
    d.key("back")
    _switch_to_fahrenheit(d)
    d.submit_answer([high_c])


@negative("weather.FahrenheitHighTomorrow", "converts by hand without switching the unit")
def no_switch(d: Driver) -> None:
    open_saved_city(d, city(d))
    d.submit_answer([round(forecast(d)[1][2] * 9 / 5 + 32)])


# --- AddWarmestCity ------------------------------------------------------------------------------------

def _survey(d: Driver) -> list[tuple[int, str]]:
    """(temperature, name) of the three candidate cities, previewed one by one; ends on the search screen."""
    d.open_app("Weather")
    d.tap(rid="add_city")
    found = []
    for key in ("a", "b", "c"):
        name = city(d, key)
        d.type(name, rid="search_input")
        d.tap(rid="result_name", text=name)
        found.append((degrees(d.texts("current_temp")[0]), name))
        d.key("back")
    return found


def _add_from_search(d: Driver, name: str) -> None:
    d.type(name, rid="search_input")
    d.tap(rid="result_name", text=name)
    d.tap(rid="add_this_city")


@plan("weather.AddWarmestCity")
def add_warmest(d: Driver) -> None:
    temp, name = max(_survey(d))
    _add_from_search(d, name)
    d.submit_answer([temp])


@negative("weather.AddWarmestCity", "adds all three cities")
def add_all_three(d: Driver) -> None:
    found = _survey(d)
    for _, name in found:
        if d.find(rid="search_input") is None:
            d.tap(rid="add_city")
        _add_from_search(d, name)
    d.submit_answer([max(found)[0]])


@negative("weather.AddWarmestCity", "adds the warmest but reports its feels-like temperature")
def add_warmest_feels_like(d: Driver) -> None:
    _, name = max(_survey(d))
    d.type(name, rid="search_input")
    d.tap(rid="result_name", text=name)
    feels = degrees(d.reveal(rid="feels_like").text)
    d.tap(rid="add_this_city")
    d.submit_answer([feels])


@negative("weather.AddWarmestCity", "reports the right temperature but never adds the city")
def warmest_not_added(d: Driver) -> None:
    d.submit_answer([max(_survey(d))[0]])


# --- AlarmWhenRainStarts -------------------------------------------------------------------------------

def _rain_hour(d: Driver) -> int:
    open_saved_city(d, city(d))
    label = next(label for label, condition in hourly(d) if condition in RAINY)
    return int(label.split(":")[0])


@plan("weather.AlarmWhenRainStarts")
def alarm_for_rain(d: Driver) -> None:
    set_alarm(d, _rain_hour(d))


@negative("weather.AlarmWhenRainStarts", "sets the alarm an hour late")
def alarm_hour_late(d: Driver) -> None:
    set_alarm(d, _rain_hour(d) + 1)


@negative("weather.AlarmWhenRainStarts", "finds the time but sets no alarm")
def no_alarm(d: Driver) -> None:
    _rain_hour(d)


# --- TextForecastToContact ---------------------------------------------------------------------------


def _forecast_text(d: Driver, day: tuple[str, str, int, int], with_low: bool = True) -> str:
    _, condition, high, low = day
    if d.language == "zh":
        return f"明天：{condition}，最高 {high}°" + (f"，最低 {low}°" if with_low else "")
    return f"Tomorrow: {condition}, high {high}°" + (f", low {low}°" if with_low else "")


@plan("weather.TextForecastToContact")
def text_forecast(d: Driver) -> None:
    open_saved_city(d, city(d))
    send_text(d, d.params["name"], _forecast_text(d, forecast(d)[1]))


@negative("weather.TextForecastToContact", "sends today's forecast")
def text_today_forecast(d: Driver) -> None:
    open_saved_city(d, city(d))
    send_text(d, d.params["name"], _forecast_text(d, forecast(d)[0]))


@negative("weather.TextForecastToContact", "leaves out the low")
def text_forecast_no_low(d: Driver) -> None:
    open_saved_city(d, city(d))
    send_text(d, d.params["name"], _forecast_text(d, forecast(d)[1], with_low=False))


# --- JSON tasks ----------------------------------------------------------------------------------------

def _add_from_list(d: Driver, name: str) -> None:
    open_search(d, name)
    d.tap(rid="result_name", text=name)
    d.tap(rid="add_this_city")


@plan("weather.add_tokyo_and_seoul")
def add_tokyo_and_seoul(d: Driver) -> None:
    d.open_app("Weather")
    _add_from_list(d, d.t("Tokyo", "东京"))
    _add_from_list(d, d.t("Seoul", "首尔"))


@negative("weather.add_tokyo_and_seoul", "adds only Tokyo")
def add_tokyo_only(d: Driver) -> None:
    d.open_app("Weather")
    _add_from_list(d, d.t("Tokyo", "东京"))


@plan("weather.fahrenheit_and_mph")
def imperial_units(d: Driver) -> None:
    d.tap(rid="settings")
    d.tap(rid="unit_f")
    d.tap(rid="wind_mph")


@negative("weather.fahrenheit_and_mph", "picks m/s for the wind")
def imperial_wrong_wind(d: Driver) -> None:
    d.tap(rid="settings")
    d.tap(rid="unit_f")
    d.tap(rid="wind_ms")


def _wind_value(d: Driver) -> str:
    return d.reveal(rid="wind").text.split()[0]


@plan("weather.london_wind_ms")
def london_wind(d: Driver) -> None:
    preview_city(d, d.t("London", "伦敦"))
    d.submit_answer([_wind_value(d)])


@negative("weather.london_wind_ms", "answers another city's wind speed")
def other_city_wind(d: Driver) -> None:
    preview_city(d, d.t("London", "伦敦"))
    london = _wind_value(d)
    d.key("back")
    d.key("back")
    d.tap(rid="add_city")
    names = [n.text for n in d.nodes() if n.short_id == "result_name" and n.text != d.t("London", "伦敦")]
    for name in names:
        d.tap(rid="result_name", text=name)
        wind = _wind_value(d)
        if wind != london:
            d.submit_answer([wind])
            return
        d.key("back")
    raise RuntimeError("every listed city has London's wind")


@plan("weather.ten_day_forecast")
def ten_day_forecast(d: Driver) -> None:
    preview_city(d, d.t("London", "伦敦"))
    d.abort("The Weather app only offers a five-day forecast")


@negative("weather.ten_day_forecast", "claims success after opening London")
def ten_day_pretend(d: Driver) -> None:
    preview_city(d, d.t("London", "伦敦"))
    d.complete()


# --- events in a saved city ------------------------------------------------------------------------------------

def _city_event(d: Driver) -> tuple[dt.date, str, str, dt.date]:
    """(day, city, attendee, today) of the task's event, from its page (today from the month grid)."""
    now = today(d)
    open_event(d, d.params["event"]["title"])
    day = read_date(d.find(rid="event_date").text)
    found = re.search(r"(?:With (.+?)\.|参加：(.+?)。)", d.find(rid="event_notes").text)
    return day, d.find(rid="event_location").text, found.group(1) or found.group(2), now


def _forecast_by_date(d: Driver, city_name: str, now: dt.date) -> list[tuple[dt.date, str, int, int]]:
    d.open_app("Weather")
    if d.find(rid="city_item", desc=city_name) is not None:
        d.tap(rid="city_item", desc=city_name)
    else:  # not saved: its page from the add-city search
        open_search(d, city_name)
        d.tap(rid="result_name", text=city_name)
    return [(short_date(label, now), condition, high, low) for label, condition, high, low in forecast(d)]


# --- EventForecastToAttendee ----------------------------------------------------------------------------------

def _event_forecast(d: Driver, tomorrow: bool = False, other_person: bool = False) -> None:
    day, place, name, now = _city_event(d)
    rows = _forecast_by_date(d, place, now)
    row = rows[1] if tomorrow else next(r for r in rows if r[0] == day)
    if other_person:
        d.open_app("Contacts")
        name = next(n for n in d.texts("contact_name") if n != name)
    _, condition, high, low = row
    send_text(d, name, d.t(f"{spoken_date(d, row[0])} in {place}: {condition}, high {high}°, low {low}°",
                           f"{spoken_date(d, row[0])}{place}：{condition}，最高 {high}°，最低 {low}°"))


@plan("weather.EventForecastToAttendee")
def event_forecast_to_attendee(d: Driver) -> None:
    _event_forecast(d)


@negative("weather.EventForecastToAttendee", "sends tomorrow's forecast")
def event_forecast_tomorrow(d: Driver) -> None:
    _event_forecast(d, tomorrow=True)


@negative("weather.EventForecastToAttendee", "texts someone else")
def event_forecast_other_person(d: Driver) -> None:
    _event_forecast(d, other_person=True)


# --- RainyEventReschedule -------------------------------------------------------------------------------------

def _rained_out(d: Driver, first_dry_overall: bool = False, text: bool = True) -> None:
    """Move the event off a rainy day and text the new date, or, on a dry day, text that it is still on (the
    mistakes: ``first_dry_overall`` moves it to the forecast's first dry day whatever the weather; ``text=False``
    tells nobody)."""
    day, place, name, now = _city_event(d)
    rows = _forecast_by_date(d, place, now)
    title = d.params["event"]["title"]
    if not first_dry_overall and next(r[1] for r in rows if r[0] == day) not in RAINY:
        if text:
            send_text(d, name, d.t(f"No rain is forecast, so {title} is still on for {spoken_date(d, day)}.",
                                   f"天气预报没有雨，“{title}”照常在{spoken_date(d, day)}。"))
        return
    dry = [r[0] for r in rows if r[1] not in RAINY]
    new = dry[0] if first_dry_overall else next(r for r in dry if r > day)
    d.open_app("Calendar")  # it resumes on the event's page
    if d.find(rid="edit_event") is None:
        open_event(d, d.params["event"]["title"])
    d.tap(rid="edit_event")
    fill_event(d, date=new.isoformat())
    d.tap(rid="save_event")
    if text:
        send_text(d, name, d.t(f"Rain is forecast, so {d.params['event']['title']} is now on {spoken_date(d, new)}.",
                               f"那天有雨，“{d.params['event']['title']}”改到{spoken_date(d, new)}了。"))


@plan("weather.RainyEventReschedule")
def rainy_event_reschedule(d: Driver) -> None:
    _rained_out(d)


@negative("weather.RainyEventReschedule", "moves it to the first dry day of the forecast, before the event")
def rainy_event_first_dry(d: Driver) -> None:
    _rained_out(d, first_dry_overall=True)


@negative("weather.RainyEventReschedule", "moves or keeps it as it should but tells nobody")
def rainy_event_no_text(d: Driver) -> None:
    _rained_out(d, text=False)
