"""Weather tasks.

Task index:
    AddCity                 operate  L2  find a catalogue city and save it
    RemoveCity              operate  L2  remove a saved city (confirm dialog)
    SetTemperatureUnit      operate  L1  switch between °C and °F
    CurrentTemperature      query    L1  a saved city's temperature now
    CityConditionsNow       query    L2  humidity and wind of a city that is not saved
    TomorrowCondition       query    L2  tomorrow's condition in a saved city
    TemperatureDifference   query    L2  how much warmer one saved city is than another
    WarmestDay              query    L3  the warmest forecast day and its high
    RainyDays               query    L3  every forecast day with rain
    FahrenheitHighTomorrow  hybrid   L3  switch to °F and report tomorrow's high in °F
    AddWarmestCity          hybrid   L4  save the warmest of three cities and report its temperature
    AlarmWhenRainStarts     operate  L3  cross-app: a Clock alarm at the hour the rain starts
    TextForecastToContact   operate  L3  cross-app: text a contact tomorrow's forecast
    EventForecastToAttendee operate  L4  Calendar -> Weather -> Messages: text the attendee the forecast of an
                                         event's day in its city (high risk)
    RainyEventReschedule    operate  L4  Calendar -> Weather -> Calendar -> Messages: move a rained-out event to
                                         the first dry day after it, text the attendee the new date (high risk)
"""
from __future__ import annotations

from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, build_answer_checks, copy_state
from mobilegym.judge.result import check

from ..calendar.app import Calendar
from ..clock.app import CLOCK_ADD_ALARM_CHANGES
from ..contacts.app import Contacts
from ..messages.app import MESSAGES_SEND_CHANGES, Messages
from ..cross_app.app import attendee_line
from ..l10n import localised
from .app import (RAINY, CONDITION_LABELS, CONDITION_LABELS_ZH, WEATHER_ADD_CITY_CHANGES, WEATHER_REMOVE_CITY_CHANGES,
                  WEATHER_UNIT_CHANGES, MIN_NEAR_MISS, MIN_RAINY_DAYS, Weather, current_hour, fahrenheit,
                  forecast_date, forecast_facts, near_misses, new_alarm_times, prepare_state_with_distinct_highs,
                  prepare_state_with_metric_units, prepare_state_with_rainy_days, prepare_state_with_runner_up,
                  prepare_state_with_tomorrow, warmest_day_distractors)



class AddCity(BaseTask):
    """Verdict: the saved cities are the initial ones plus the requested city."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["search", "list-management"]
    templates = {"en": ["Add {city.name} to my cities in the Weather app",
                        "I want to keep an eye on the weather in {city.name}; save it in my Weather cities"],
                 "zh": ["在天气应用里把{city.name_zh}添加到我的城市"]}
    parameters = {"city": {"sampler": Weather.sample_unsaved_city}}
    expected_changes = WEATHER_ADD_CITY_CHANGES

    def check_goals(self, input):
        before = Weather(input.apps_init["weather"]).saved()
        return [Weather(input.apps["weather"]).check_saved_list([*before, self.p.city["id"]])]


class RemoveCity(BaseTask):
    """Verdict: the saved cities are the initial ones without the requested city."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["deletion", "confirmation-dialog"]
    templates = {"en": ["Remove {city.name} from my cities in the Weather app",
                        "I no longer need the weather for {city.name}, delete it from my Weather cities"],
                 "zh": ["在天气应用里把{city.name_zh}从我的城市中移除"]}
    parameters = {"city": {"sampler": Weather.sample_saved_city}}
    expected_changes = WEATHER_REMOVE_CITY_CHANGES

    def check_goals(self, input):
        before = Weather(input.apps_init["weather"]).saved()
        return [Weather(input.apps["weather"]).check_saved_list([c for c in before if c != self.p.city["id"]])]


@localised(zh={"labels": {"unit": {"F": "华氏度（°F）", "C": "摄氏度（°C）"}}})
class SetTemperatureUnit(CriteriaTask):
    """Verdict: the temperature unit is the requested one (the start unit is the other one)."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["settings", "selection"]
    templates = {"en": ["Show temperatures in {unit} in the Weather app", "Switch the Weather app to {unit}"],
                 "zh": ["把天气应用的温度单位改成{unit}", "让天气应用用{unit}显示温度"]}
    parameters = {"unit": {"type": "enum", "values": {"Fahrenheit (°F)": "F", "Celsius (°C)": "C"}}}
    criteria = {".unit": "{unit}"}


@localised(zh={"fields": [{"label": "{city.name_zh}的气温（°C）"}]})
class CurrentTemperature(AnswerTask):
    """Verdict: the answer is the city's current temperature in °C."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval"]
    templates = {"en": ["What's the temperature in {city.name} right now?", "How warm is it in {city.name} at the moment?"],
                 "zh": ["{city.name_zh}现在多少度？"]}
    parameters = {"city": {"sampler": Weather.sample_saved_city}}
    answer = ".cities[id={city.id}].current.temp"
    answer_fields = [{"type": "number", "label": "Temperature in {city.name} (°C)"}]

    def set_up(self, device):
        prepare_state_with_metric_units(device)  # the answer is asked in °C


@localised(zh={"fields": [{"label": "湿度（%）"}, {"label": "风速（km/h）"}]})
class CityConditionsNow(AnswerTask):
    """Verdict: the answer gives the current humidity (%) and wind speed (km/h) of a city that is not
    in the saved list, so the agent has to look it up through the city search."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["search", "information-retrieval"]
    templates = {"en": ["Look up {city.name} in the Weather app (no need to save it) and tell me the current humidity "
                        "and wind speed",
                        "How humid and how windy is it in {city.name} right now? I don't need the city saved."],
                 "zh": ["在天气应用里查一下{city.name_zh}现在的湿度和风速（不用添加这个城市）"]}
    parameters = {"city": {"sampler": Weather.sample_unsaved_city}}
    answer = {"humidity": ".cities[id={city.id}].current.humidity", "wind": ".cities[id={city.id}].current.wind_kph"}
    answer_fields = [{"type": "number", "label": "Humidity (%)"}, {"type": "number", "label": "Wind speed (km/h)"}]

    def set_up(self, device):
        prepare_state_with_metric_units(device, wind=True)  # the answer is asked in °C and km/h


@localised(zh={"fields": [{"label": "{city.name_zh}明天的天气", "options": CONDITION_LABELS_ZH}]})
class TomorrowCondition(AnswerTask):
    """Verdict: the answer names tomorrow's forecast condition (any synonym; no other condition, and a longer
    label such as "Light rain" does not count for "Rain"). Sampled so tomorrow differs from now; on generated
    phones set-up draws tomorrow's condition spread over the worlds (tasks/spread.py), keeping it unlike now."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval", "date-reasoning"]
    templates = {"en": ["What will the weather be like in {city.name} tomorrow?",
                        "Check tomorrow's forecast for {city.name}: sunny, rainy, cloudy...?"],
                 "zh": ["{city.name_zh}明天天气怎么样？"]}
    parameters = {"city": {"sampler": Weather.sample_city_changing_tomorrow}}
    answer_fields = [{"type": "choice", "label": "Tomorrow in {city.name}", "options": CONDITION_LABELS}]

    def inject(self, device) -> None:
        if self.spreads:
            device.set_state(prepare_state_with_tomorrow(copy_state(device)["apps"]["weather"], self.p.city["id"],
                                                         self.spread.choice(CONDITION_LABELS), self.rng))

    def get_answer(self, input):
        return Weather(input.apps_init["weather"]).day(self.p.city["id"], 1)["condition"]

    def get_expected_response(self, input):
        """The option to choose: the condition as the sheet lists it in the phone's language."""
        condition = self.get_answer(input)
        return [CONDITION_LABELS_ZH[CONDITION_LABELS.index(condition)] if self.language == "zh" else condition]


@localised(zh={"fields": [{"label": "温差（°C）"}]})
class TemperatureDifference(AnswerTask):
    """Verdict: the answer is how many °C warmer the first city is than the second right now
    (sampled so the first is strictly warmer)."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval", "arithmetic"]
    templates = {"en": ["How many degrees warmer is it in {pair.warm} than in {pair.cool} right now?",
                        "Compare {pair.warm} and {pair.cool} in Weather: by how many °C is {pair.warm} warmer?"],
                 "zh": ["{pair.warm_zh}现在比{pair.cool_zh}暖和几度？"]}
    parameters = {"pair": {"sampler": Weather.sample_warmer_pair}}
    answer_fields = [{"type": "number", "label": "Difference (°C)"}]

    def set_up(self, device):
        prepare_state_with_metric_units(device)  # the answer is asked in °C

    def get_answer(self, input):
        weather = Weather(input.apps_init["weather"])
        return weather.current(self.p.pair["warm_id"])["temp"] - weather.current(self.p.pair["cool_id"])["temp"]


@localised(zh={"fields": [{"label": "日期", "hint": "例如 4月2日"}, {"label": "最高气温（°C）"}]})
class WarmestDay(AnswerTask):
    """Verdict: the answer names the date of the forecast day with the highest high, and that high
    (sampled so the warmest day is unique and not today; set-up plants a runner-up day NEAR_MISS °C or less below)."""

    objective = "query"
    difficulty = "L3"
    capabilities = ["information-retrieval", "comparison", "date-reasoning"]
    templates = {"en": ["Which day in the five-day forecast for {city.name} is the warmest, and what is its high?",
                        "Of the five days in the {city.name} forecast, starting today, which is the warmest? Tell me "
                        "the date and the forecast high.",
                        "Looking at the {city.name} five-day forecast, which day gets warmest and how warm?"],
                 "zh": ["{city.name_zh}的五天天气预报里哪天最暖和？最高气温是多少？",
                        "看看{city.name_zh}的五天天气预报，哪天最热，最高几度？"]}
    parameters = {"city": {"sampler": Weather.sample_city_with_warmest_day}}
    answer_fields = [{"type": "text", "label": "Date", "hint": "e.g. Apr 2", "matcher": "date"},
                     {"type": "number", "label": "High (°C)"}]

    def set_up(self, device):
        prepare_state_with_metric_units(device)  # the answer is asked in °C

    def inject(self, device) -> None:
        device.set_state(prepare_state_with_runner_up(copy_state(device)["apps"]["weather"], self.rng, self.p.city["id"]))

    def distractors(self, apps, os_state):
        return warmest_day_distractors(apps["weather"], self.p.city["id"])

    def get_answer(self, input):
        weather = Weather(input.apps_init["weather"])
        offset = weather.warmest_day(self.p.city["id"])
        return {"date": forecast_date(input.os_init, offset), "high": weather.day(self.p.city["id"], offset)["high"]}


@localised(zh={"fields": [{"label": "下雨的日子", "hint": "例如 4月2日"}]})
class RainyDays(BaseTask):
    """Verdict: the answer names every forecast day with rain (light rain, rain, showers or
    thunderstorms) and no dry day (sampled so some days are dry and some rainy; set-up makes MIN_RAINY_DAYS rainy)."""

    objective = "query"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["information-retrieval", "filtering", "date-reasoning"]
    templates = {"en": ["On which days of the {city.name} five-day forecast (today and the next four days) is rain "
                        "forecast? Any kind counts: light rain, showers or thunderstorms.",
                        "List the days in the {city.name} five-day forecast that have rain, showers or storms.",
                        "I need to plan around the rain in {city.name}: which days of the five-day forecast will be "
                        "wet?"],
                 "zh": ["{city.name_zh}的五天天气预报（从今天起）里哪几天有雨（小雨、阵雨、雷阵雨都算）？"]}
    parameters = {"city": {"sampler": Weather.sample_city_with_some_rain}}
    answer_fields = [{"type": "text", "label": "Rainy days", "hint": "e.g. Apr 2", "repeatable": True}]

    def inject(self, device) -> None:
        device.set_state(prepare_state_with_rainy_days(copy_state(device)["apps"]["weather"], self.p.city["id"], self.rng))

    def distractors(self, apps, os_state):
        rainy = len(Weather(apps["weather"]).rainy_days(self.p.city["id"]))
        return {"rainy days": (rainy, MIN_RAINY_DAYS), "dry days": (5 - rainy, 1)}

    def check_goals(self, input):
        rainy = Weather(input.apps_init["weather"]).rainy_days(self.p.city["id"])
        return build_answer_checks([forecast_date(input.os_init, offset) for offset in rainy], input.answer,
                                   "rainy days named", os_state=input.os_init)


@localised(zh={"fields": [{"label": "{city.name_zh}明天的最高气温（°F）"}]})
class FahrenheitHighTomorrow(BaseTask):
    """Verdict: the app shows °F, and the answer is tomorrow's high in °F as the app rounds it (set-up makes it
    differ from today's high)."""

    objective = "hybrid"
    difficulty = "L3"
    composition = "sequential"
    capabilities = ["settings", "information-retrieval"]
    templates = {"en": ["Switch the Weather app to Fahrenheit, then tell me tomorrow's high in {city.name} in °F",
                        "I think in Fahrenheit: change Weather to °F and tell me how warm it gets in {city.name} tomorrow"],
                 "zh": ["把天气应用切换成华氏度，然后告诉我{city.name_zh}明天的最高气温（°F）"]}
    parameters = {"city": {"sampler": Weather.sample_saved_city}}
    expected_changes = WEATHER_UNIT_CHANGES
    answer_fields = [{"type": "number", "label": "Tomorrow's high in {city.name} (°F)"}]

    def set_up(self, device):
        prepare_state_with_metric_units(device)  # the answer is asked in °C

    def inject(self, device) -> None:
        device.set_state(prepare_state_with_distinct_highs(copy_state(device)["apps"]["weather"], self.p.city["id"]))

    def distractors(self, apps, os_state):
        weather = Weather(apps["weather"])
        today, tomorrow = (weather.day(self.p.city["id"], offset) for offset in (0, 1))
        high = fahrenheit(tomorrow["high"])
        return {"today's high in °F, another number": (int(fahrenheit(today["high"]) != high), 1),
                "tomorrow's low in °F, another number": (int(fahrenheit(tomorrow["low"]) != high), 1),
                "other saved cities": (len(weather.saved()) - 1, 1)}

    def check_goals(self, input):
        high = Weather(input.apps_init["weather"]).day(self.p.city["id"], 1)["high"]
        return [Weather(input.apps["weather"]).check_value("temperature unit", ".unit", "F"),
                *build_answer_checks(fahrenheit(high), input.answer, field="high_f")]


@localised(zh={"fields": [{"label": "它现在的气温（°C）"}]})
class AddWarmestCity(BaseTask):
    """Verdict: exactly the warmest (right now) of the three cities was added to the saved list, and the
    answer is its current temperature (the three are unsaved and differ in temperature; the third is sampled, and
    set-up warms the runner-up, so one is NEAR_MISS °C or less below the warmest)."""

    objective = "hybrid"
    difficulty = "L4"
    composition = "conditional"
    capabilities = ["search", "comparison", "list-management"]
    templates = {"en": ["I'm choosing between {a.name}, {b.name} and {c.name} for a weekend trip. Add whichever is "
                        "warmest right now to my Weather cities and tell me its current temperature.",
                        "Of {a.name}, {b.name} and {c.name}, which is warmest at the moment? Save that one in Weather "
                        "and tell me how warm it is.",
                        "Check the current temperature in {a.name}, {b.name} and {c.name}; save only the warmest city "
                        "to my list and report its temperature."],
                 "zh": ["比较{a.name_zh}、{b.name_zh}和{c.name_zh}现在的气温，把最暖和的城市添加到天气里，并告诉我它现在多少度"]}
    parameters = {"a": {"sampler": Weather.sample_unsaved_city}, "b": {"sampler": Weather.sample_unsaved_city},
                  "c": {"sampler": Weather.sample_unsaved_rival}}
    expected_changes = WEATHER_ADD_CITY_CHANGES
    answer_fields = [{"type": "number", "label": "Its temperature now (°C)"}]

    def set_up(self, device):
        prepare_state_with_metric_units(device)  # the answer is asked in °C

    def _ids(self) -> list[str]:
        return [self.p.a["id"], self.p.b["id"], self.p.c["id"]]

    def inject(self, device) -> None:
        device.set_state(prepare_state_with_runner_up(copy_state(device)["apps"]["weather"], self.rng, among=self._ids()))

    def distractors(self, apps, os_state):
        weather = Weather(apps["weather"])
        warmest = weather.current(weather.warmest_of(self._ids()))
        return {"cities 1-2 °C below the warmest": (near_misses([weather.current(c)["temp"] for c in self._ids()]),
                                                    MIN_NEAR_MISS),
                "cooler cities": (len(self._ids()) - 1, 2),
                "its feels-like temperature, another number": (int(warmest["feels_like"] != warmest["temp"]), 1)}

    def check_goals(self, input):
        before = Weather(input.apps_init["weather"])
        warmest = before.warmest_of(self._ids())
        return [Weather(input.apps["weather"]).check_saved_list([*before.saved(), warmest]),
                *build_answer_checks(before.current(warmest)["temp"], input.answer, field="temperature")]


class AlarmWhenRainStarts(BaseTask):
    """Verdict: Clock has a new (or newly set) enabled alarm at the first rainy hour after now in the
    city's hourly forecast (sampled so it is dry now and rain starts later today)."""

    scope = "cross-app"
    related_apps = ["weather", "clock"]
    objective = "operate"
    difficulty = "L3"
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "form-filling"]
    templates = {"en": ["Rain is on its way to {city.name} later today. Set an alarm in Clock for the hour it starts "
                        "so I remember to bring the laundry in.",
                        "Find out when the rain starts in {city.name} today and set a Clock alarm for that time."],
                 "zh": ["{city.name_zh}今天晚些时候会下雨。查一下几点开始下，在时钟里设一个那个整点的闹钟。"]}
    parameters = {"city": {"sampler": Weather.sample_city_with_rain_later}}
    expected_changes = CLOCK_ADD_ALARM_CHANGES

    def distractors(self, apps, os_state):
        weather, now = Weather(apps["weather"]), current_hour(os_state)
        start = weather.rain_start_hour(self.p.city["id"], now)
        return {"rainy hours after the first": (sum(h["hour"] > start and h["condition"] in RAINY
                                                    for h in weather.city(self.p.city["id"])["hourly"]), 1),
                "other saved cities": (len(weather.saved()) - 1, 1)}

    def check_goals(self, input):
        hour = Weather(input.apps_init["weather"]).rain_start_hour(self.p.city["id"], current_hour(input.os_init))
        fresh = new_alarm_times(input.apps_init["clock"], input.apps["clock"])
        shown = [f"{h:02d}:{m:02d}{'' if on else ' (off)'}" for h, m, on in fresh]
        return [check("alarm at rain start", f"{hour:02d}:00 (on)", shown or "no new alarm", (hour, 0, True) in fresh)]


class TextForecastToContact(BaseTask):
    """Verdict: what was texted to the contact (any of their numbers) states tomorrow's condition for the
    city (any synonym; no other condition, "Light rain" is not "Rain") and its high and low in °C (no other
    temperature); a day, when named, is tomorrow."""

    scope = "cross-app"
    related_apps = ["weather", "messages", "contacts"]
    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "messaging"]
    templates = {"en": ["Text {name} tomorrow's weather forecast for {city.name}: the conditions plus the high and low",
                        "{name} is visiting {city.name} tomorrow. Send them a message with the forecast for tomorrow "
                        "there (conditions, high and low)."],
                 "zh": ["把{city.name_zh}明天的天气预报（天气状况、最高和最低气温）发短信告诉{name}"]}
    parameters = {"city": {"sampler": Weather.sample_saved_city}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MESSAGES_SEND_CHANGES

    def set_up(self, device):
        prepare_state_with_metric_units(device)  # the answer is asked in °C

    def distractors(self, apps, os_state):
        weather = Weather(apps["weather"])
        today, tomorrow = (_facts(weather.day(self.p.city["id"], i)) for i in (0, 1))
        return {"today's forecast, unlike tomorrow's": (int(today != tomorrow), 1),
                "other saved cities": (len(weather.saved()) - 1, 1)}

    def check_goals(self, input):
        day = Weather(input.apps_init["weather"]).day(self.p.city["id"], 1)
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return messages.check_sent_facts(self.p.name, numbers, forecast_facts(day),
                                         optional={"day": forecast_date(input.os_init, 1).isoformat()},
                                         os_state=input.os_init)


# --- an outdoor Calendar event in a saved city ---------------------------------------------------------------

OUTDOOR_TITLES = {"en": ("Garden party", "Harbour cruise", "Outdoor concert", "Kite flying", "Rooftop barbecue"),
                  "zh": ("花园派对", "游船观光", "户外音乐会", "放风筝", "天台烧烤")}  # no Calendar pool has these


def _event_in_city(rng, state, os_state, fits, saved_only: bool = True) -> dict:
    """{id, name, name_zh, offset, date, title}: a city (a saved one with ``saved_only``, else any of the catalogue)
    and a forecast day ``offset`` with ``fits(forecast, offset)``, and an outdoor event title (in the phone's
    language)."""
    language = "zh" if os_state.get("language") == "zh" else "en"
    pool = [(c, o) for c in state["cities"] if c["id"] in state["saved"] or not saved_only for o in range(1, 5)
            if fits(c["forecast"], o)]
    if not pool:
        raise ValueError("weather: no city has a forecast day that fits")
    city, offset = rng.choice(pool)
    return {"id": city["id"], "name": city["name"], "name_zh": city["name_zh"], "offset": offset,
            "date": forecast_date(os_state, offset).isoformat(), "title": rng.choice(OUTDOOR_TITLES[language])}


def _facts(day) -> tuple:
    return day["condition"], day["high"], day["low"]


def sample_event_forecast_day(rng, state, os_state) -> dict:
    """An event day 2 to 4 days ahead whose forecast (condition, high, low) no other forecast day of the city has."""
    return _event_in_city(rng, state, os_state, lambda f, o: o >= 2 and all(_facts(f[o]) != _facts(x) for i, x in
                                                                            enumerate(f) if i != o))


def first_dry_after(forecast, offset: int) -> int | None:
    return next((i for i in range(offset + 1, len(forecast)) if forecast[i]["condition"] not in RAINY), None)


DRY_EVENT_ONE_IN = 3  # one world in three has a dry event day: the plan must stay (never-move and always-move fail)


def sample_maybe_rained_out_day(rng, state, os_state) -> dict:
    """A city of the catalogue (saved or not) and an event day 2 to 4 days ahead with a dry day before it (so the
    first dry day of the whole forecast is never the answer), and "rain": whether that day is rainy. A rainy day
    has a dry day after it to move to; a dry one (one world in DRY_EVENT_ONE_IN, when some city has one) stays."""
    def dry_before(f, o):
        return any(f[i]["condition"] not in RAINY for i in range(0, o))

    def rained_out(f, o):
        return o >= 2 and f[o]["condition"] in RAINY and first_dry_after(f, o) is not None and dry_before(f, o)

    def stays(f, o):
        return o >= 2 and f[o]["condition"] not in RAINY and dry_before(f, o)

    if rng.randrange(DRY_EVENT_ONE_IN) == 0:
        try:
            return {**_event_in_city(rng, state, os_state, stays, saved_only=False), "rain": False}
        except ValueError:
            pass
    return {**_event_in_city(rng, state, os_state, rained_out, saved_only=False), "rain": True}


def _inject_city_event(device, event: dict, name: str, language: str) -> None:
    """The event ``event`` (title, date) 11:00 to 13:00 in its city (the name as the phone writes it), with ``name``
    as the one attendee in its notes."""
    device.set_state({"apps": {"calendar": {"events[]": {
        "id": "evt_weather_city", "title": event["title"], "date": event["date"], "start": "11:00", "end": "13:00",
        "all_day": False, "location": event["name_zh" if language == "zh" else "name"],
        "notes": attendee_line(name, language), "calendar": "Personal", "reminder": 60}}}})


class EventForecastToAttendee(BaseTask):
    """Verdict: the one person the event's notes name got a text stating the forecast of the event's day in the
    event's city: its condition (any synonym, no other), high and low in °C (no other temperature); a date, when
    named, is the event's. Injection: an event 2 to 4 days ahead in a saved city, with that person in its notes;
    sampled so that no other forecast day of the city has the same condition, high and low."""

    scope = "cross-app"
    app = "weather"
    related_apps = ["calendar", "weather", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "date-navigation", "cross-app-transfer", "messaging"]
    templates = {"en": ["Check my '{event.title}' event in Calendar, then text the person going with me the Weather "
                        "forecast for that day in the event's city: the conditions plus the high and low.",
                        "Whoever is joining me at '{event.title}' (see the event's notes in Calendar) wants to know the "
                        "weather: text them that day's forecast for the city it's in (conditions, high and low)."],
                 "zh": ["看看日历里的“{event.title}”，在天气里查活动那天活动所在城市的预报，把天气状况、最高和最低气温发短信告诉和我"
                        "一起去的人。"]}
    parameters = {"event": {"sampler": sample_event_forecast_day}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MESSAGES_SEND_CHANGES

    def set_up(self, device):
        prepare_state_with_metric_units(device)  # the temperatures are asked in °C

    def inject(self, device) -> None:
        _inject_city_event(device, self.p.event, self.p.name, "zh" if self.language == "zh" else "en")

    def distractors(self, apps, os_state):
        weather = Weather(apps["weather"])
        forecast = weather.city(self.p.event["id"])["forecast"]
        day = _facts(forecast[self.p.event["offset"]])
        return {"other forecast days": (sum(_facts(d) != day for d in forecast), 4),
                "other saved cities": (len(weather.saved()) - 1, 1)}

    def check_goals(self, input):
        day = Weather(input.apps_init["weather"]).day(self.p.event["id"], self.p.event["offset"])
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return messages.check_sent_facts(self.p.name, numbers, forecast_facts(day),
                                         optional={"day": self.p.event["date"]}, os_state=input.os_init)


class RainyEventReschedule(BaseTask):
    """Verdict: when rain is forecast for the event's day in its city, the outdoor event (the same one, by id, not
    copied) now falls on the first day after it in the five-day forecast without rain, at its times, and the person
    its notes name got a text stating that date (no other forecast date); when no rain is forecast, the event is
    unchanged and the text states its own date. Injection: the event 2 to 4 days ahead in a city of the catalogue
    (saved or not), with a dry day before it (the first dry day of the whole forecast is wrong); two worlds in three
    its day is rainy with a dry day after it, else dry."""

    scope = "cross-app"
    app = "weather"
    related_apps = ["calendar", "weather", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "conditional"
    capabilities = ["information-retrieval", "date-navigation", "form-filling", "messaging"]
    templates = {"en": ["My '{event.title}' is outdoors (it's in Calendar). If Weather forecasts rain in its city that "
                        "day, move the event to the first later day of the five-day forecast without rain, keeping its "
                        "time, and text the person going with me the new date; if not, text them that it's still on "
                        "for its date.",
                        "Check the forecast for the city and day of my '{event.title}' event in Calendar. If rain is "
                        "expected, push it to the next day in the five-day forecast with no rain (same time) and let "
                        "the person in the event's notes know the new date by text; otherwise text them that it's "
                        "still on that day."],
                 "zh": ["日历里的“{event.title}”是户外活动。如果天气预报活动那天所在城市有雨，就把活动改到五天预报里之后第一个不下雨"
                        "的日子，时间不变，再发短信把新日期告诉和我一起去的人；如果没雨，就发短信告诉他活动照常，并说明日期。"]}
    parameters = {"event": {"sampler": sample_maybe_rained_out_day}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = ["calendar.events[title={event.title}].date", *MESSAGES_SEND_CHANGES]

    def inject(self, device) -> None:
        _inject_city_event(device, self.p.event, self.p.name, "zh" if self.language == "zh" else "en")

    def distractors(self, apps, os_state):
        forecast = Weather(apps["weather"]).city(self.p.event["id"])["forecast"]
        offset = self.p.event["offset"]
        return {"dry days before the event": (sum(d["condition"] not in RAINY for d in forecast[:offset]), 1),
                "other forecast dates": (len(forecast) - 1, 4)}

    def check_goals(self, input):
        forecast = Weather(input.apps_init["weather"]).city(self.p.event["id"])["forecast"]
        offset = self.p.event["offset"]
        target = forecast_date(input.os_init, first_dry_after(forecast, offset) if self.p.event["rain"] else offset)
        target = target.isoformat()
        before = Calendar(input.apps_init["calendar"]).event(self.p.event["title"])
        cal = Calendar(input.apps["calendar"])
        copies = cal.events_titled(self.p.event["title"])
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        others = [forecast_date(input.os_init, i).isoformat() for i in range(len(forecast))]
        return [cal.check_event("moved event" if self.p.event["rain"] else "event kept", cal.by_id(before["id"]),
                                {"date": target, "start": before["start"], "end": before["end"]}),
                check(f"events titled '{self.p.event['title']}'", 1, len(copies), len(copies) == 1),
                *messages.check_sent_facts(self.p.name, numbers, {"date": target},
                                           rivals={"date": [o for o in others if o != target]}, os_state=input.os_init)]
