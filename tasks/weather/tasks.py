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
"""
from __future__ import annotations

from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, build_answer_checks
from mobilegym.judge.result import check

from ..clock.app import CLOCK_ADD_ALARM_CHANGES
from ..contacts.app import Contacts
from ..messages.app import MESSAGES_SEND_CHANGES, Messages
from ..l10n import localised
from .app import (CONDITION_LABELS, CONDITION_LABELS_ZH, WEATHER_ADD_CITY_CHANGES, WEATHER_REMOVE_CITY_CHANGES,
                  WEATHER_UNIT_CHANGES, Weather, current_hour, fahrenheit, forecast_date, forecast_facts, new_alarm_times,
                  prepare_state_with_metric_units)



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

    def _prepare(self, device):
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

    def _prepare(self, device):
        prepare_state_with_metric_units(device, wind=True)  # the answer is asked in °C and km/h


@localised(zh={"fields": [{"label": "{city.name_zh}明天的天气", "options": CONDITION_LABELS_ZH}]})
class TomorrowCondition(AnswerTask):
    """Verdict: the answer names tomorrow's forecast condition (any synonym; no other condition, and a longer
    label such as "Light rain" does not count for "Rain"). Sampled so tomorrow differs from now."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval", "date-reasoning"]
    templates = {"en": ["What will the weather be like in {city.name} tomorrow?",
                        "Check tomorrow's forecast for {city.name}: sunny, rainy, cloudy...?"],
                 "zh": ["{city.name_zh}明天天气怎么样？"]}
    parameters = {"city": {"sampler": Weather.sample_city_changing_tomorrow}}
    answer_fields = [{"type": "choice", "label": "Tomorrow in {city.name}", "options": CONDITION_LABELS}]

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

    def _prepare(self, device):
        prepare_state_with_metric_units(device)  # the answer is asked in °C

    def get_answer(self, input):
        weather = Weather(input.apps_init["weather"])
        return weather.current(self.p.pair["warm_id"])["temp"] - weather.current(self.p.pair["cool_id"])["temp"]


@localised(zh={"fields": [{"label": "日期", "hint": "例如 4月2日"}, {"label": "最高气温（°C）"}]})
class WarmestDay(AnswerTask):
    """Verdict: the answer names the date of the forecast day with the highest high, and that high
    (sampled so the warmest day is unique and not today)."""

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

    def _prepare(self, device):
        prepare_state_with_metric_units(device)  # the answer is asked in °C

    def get_answer(self, input):
        weather = Weather(input.apps_init["weather"])
        offset = weather.warmest_day(self.p.city["id"])
        return {"date": forecast_date(input.os_init, offset), "high": weather.day(self.p.city["id"], offset)["high"]}


@localised(zh={"fields": [{"label": "下雨的日子", "hint": "例如 4月2日"}]})
class RainyDays(BaseTask):
    """Verdict: the answer names every forecast day with rain (light rain, rain, showers or
    thunderstorms) and no dry day (sampled so some days are dry and some rainy)."""

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

    def check_goals(self, input):
        rainy = Weather(input.apps_init["weather"]).rainy_days(self.p.city["id"])
        return build_answer_checks([forecast_date(input.os_init, offset) for offset in rainy], input.answer,
                                   "rainy days named", os_state=input.os_init)


@localised(zh={"fields": [{"label": "{city.name_zh}明天的最高气温（°F）"}]})
class FahrenheitHighTomorrow(BaseTask):
    """Verdict: the app shows °F, and the answer is tomorrow's high in °F as the app rounds it."""

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

    def _prepare(self, device):
        prepare_state_with_metric_units(device)  # the answer is asked in °C

    def check_goals(self, input):
        high = Weather(input.apps_init["weather"]).day(self.p.city["id"], 1)["high"]
        return [Weather(input.apps["weather"]).check_value("temperature unit", ".unit", "F"),
                *build_answer_checks(fahrenheit(high), input.answer, field="high_f")]


@localised(zh={"fields": [{"label": "它现在的气温（°C）"}]})
class AddWarmestCity(BaseTask):
    """Verdict: exactly the warmest (right now) of the three cities was added to the saved list, and the
    answer is its current temperature (the three are unsaved and differ in temperature)."""

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
                  "c": {"sampler": Weather.sample_unsaved_city}}
    expected_changes = WEATHER_ADD_CITY_CHANGES
    answer_fields = [{"type": "number", "label": "Its temperature now (°C)"}]

    def _prepare(self, device):
        prepare_state_with_metric_units(device)  # the answer is asked in °C

    def check_goals(self, input):
        before = Weather(input.apps_init["weather"])
        warmest = before.warmest_of([self.p.a["id"], self.p.b["id"], self.p.c["id"]])
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

    def _prepare(self, device):
        prepare_state_with_metric_units(device)  # the answer is asked in °C

    def check_goals(self, input):
        day = Weather(input.apps_init["weather"]).day(self.p.city["id"], 1)
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return messages.check_sent_facts(self.p.name, numbers, forecast_facts(day),
                                         optional={"day": forecast_date(input.os_init, 1).isoformat()},
                                         os_state=input.os_init)
