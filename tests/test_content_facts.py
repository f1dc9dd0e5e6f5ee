"""Content the agent writes (messages, notes) is judged by facts (issue 13, item 3).

Each writing task is started on the simulated phone, the agent's work is written straight into the state
(a sent text, a new or edited note), and the episode is judged: natural wording in English and Chinese
passes, a wrong day or another candidate's value fails, and so does a text that names every candidate.
"""
from __future__ import annotations

from typing import Any

import pytest

from mobilegym.eval.candidates import Candidates
from mobilegym.judge import default_registry
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

REGISTRY = default_registry()


def start(task_id: str, **params: Any) -> tuple[Phone, Any]:
    phone = SimDevice(world="canonical")  # the facts below are the canonical world's
    return phone, REGISTRY.refs[task_id].start(phone, seed=0, params=params)


def send(phone: Phone, number: str, *texts: str) -> None:
    """Texts sent to ``number`` (in a new thread)."""
    now = phone.get_state()["os"]["time_ms"]
    messages = [{"id": f"sent_{i}", "text": t, "time_ms": now + i, "incoming": False} for i, t in enumerate(texts)]
    phone.set_state({"apps": {"messages": {"conversations[]": {"id": "conv_sent", "address": number, "unread": 0,
                                                               "messages": messages}}}})


def write_note(phone: Phone, title: str, body: str) -> None:
    now = phone.get_state()["os"]["time_ms"]
    note = {"id": "note_new", "title": title, "body": body, "pinned": False, "created": now, "updated": now}
    phone.set_state({"apps": {"notes": {"notes[]": note}}})


def failed(ep: Any) -> list[str]:
    """The fields of the failing checks (empty: paid)."""
    result = ep.evaluate()
    assert result.error is None, result.error
    assert result.success == (not [c for c in result.checks if not c["passed"]])
    return [c["field"] for c in result.checks if not c["passed"]]


def shotgun(phone: Phone) -> str:
    """The content adversary's text: every name, place, condition, day, date, time and temperature."""
    return Candidates.from_state(phone.get_state()).content_shotgun()


def judged_text(task_id: str, number: str, *texts: str, **params: Any) -> list[str]:
    phone, ep = start(task_id, **params)
    send(phone, number, *texts)
    return failed(ep)


def judged_note(task_id: str, heading: str, body: str, **params: Any) -> list[str]:
    phone, ep = start(task_id, **params)
    write_note(phone, heading, body)
    return failed(ep)


# --- calendar.ShareEventByMessage: day, start time, place ------------------------------------------------------

EVENT = {"title": "Book club", "contact": "Hiro Tanaka"}  # Thursday, March 19, 19:00 at Maple Library
HIRO = "+81 90-5555-0172"


@pytest.mark.parametrize("text", [
    "Book club is on Thursday, March 19 at 7 PM at Maple Library",
    "Book club: Thu, Mar 19, 19:00, Maple Library. See you there!",
    "Book club is this Thursday at 7 in the evening, at Maple Library",
    "读书会在3月19日晚上7点，地点是Maple Library",
    "Book club is next Thursday at 7 PM at Maple Library",  # said on Monday: the coming Thursday is one reading
])
def test_an_event_shared_in_natural_wording_is_paid(text: str) -> None:
    assert judged_text("calendar.ShareEventByMessage", HIRO, text, **EVENT) == []


def test_an_event_shared_over_two_texts_is_paid() -> None:
    assert judged_text("calendar.ShareEventByMessage", HIRO, "Book club is on Thursday, March 19",
                       "It starts at 19:00 at Maple Library", **EVENT) == []


@pytest.mark.parametrize("text, wrong", [
    ("Book club is on Friday, March 20 at 7 PM at Maple Library", ["day"]),
    ("Book club starts at 19:00 at Maple Library", ["day"]),
    ("Book club is on Thursday, March 19 at 7:30 PM at Maple Library", ["start time"]),
    ("Book club is on Thursday, March 19 at 7 PM at Lotus Studio", ["place"]),
    ("Book club is on Thursday or Friday at 7 PM at Maple Library", ["day", "start time", "place"]),
])
def test_an_event_shared_with_a_wrong_or_missing_fact_fails(text: str, wrong: list[str]) -> None:
    assert judged_text("calendar.ShareEventByMessage", HIRO, text, **EVENT) == wrong


def test_an_event_shared_with_every_candidate_fails() -> None:
    phone, ep = start("calendar.ShareEventByMessage", **EVENT)
    send(phone, HIRO, f"Book club is on Thursday, March 19 at 7 PM at Maple Library\n{shotgun(phone)}")
    assert set(failed(ep)) == {"day", "start time", "place"}


def test_an_event_texted_to_someone_else_fails() -> None:
    assert judged_text("calendar.ShareEventByMessage", "+1 720-555-0121",
                       "Book club is on Thursday, March 19 at 7 PM at Maple Library", **EVENT) == \
        ["message to Hiro Tanaka", "day", "start time", "place"]


# --- weather.TextForecastToContact and notes.WeatherForecastNote: condition, high, low (a day, if named) ---------

SYDNEY = {"id": "sydney", "name": "Sydney", "name_zh": "悉尼"}  # tomorrow: Thunderstorm, 25° / 20°
SHANGHAI = {"id": "shanghai", "name": "Shanghai", "name_zh": "上海"}  # tomorrow: Rain, 13° / 9°
NEW_YORK = {"id": "new_york", "name": "New York", "name_zh": "纽约"}  # tomorrow: Partly cloudy, 11° / 2°
JACK = "+1 206-555-0133"

NATURAL_FORECASTS = [
    (SYDNEY, "Tomorrow in Sydney: Thunderstorms, high 25°C, low 20°C"),
    (SYDNEY, "Tue, March 17 - thunder storms, high of 25 degrees and a low of 20 degrees, 75% precipitation"),
    (SYDNEY, "Tue, Mar 17: Thunderstorm, high 25°, low 20°, 75% precipitation"),
    (SYDNEY, "Sydney tomorrow: thunderstorm, 25°C (77°F) / 20°C (68°F)"),
    (SYDNEY, "Tomorrow: thunderstorms, 20-25°C"),
    (SYDNEY, "悉尼明天雷阵雨，最高25°，最低20°"),
    (SHANGHAI, "Tomorrow will be rainy in Shanghai, high 13°C, low 9°C"),
    (SHANGHAI, "Shanghai: rain, 13 / 9 degrees, wind 11 km/h"),
    (NEW_YORK, "New York tomorrow: partly cloudy, 20% chance of rain, high 11°C, low 2°C"),  # a chance is no condition
    (NEW_YORK, "纽约明天多云，降雨概率20%，最高11°，最低2°"),
]
WRONG_FORECASTS = [
    (SYDNEY, "Wednesday, March 18 - Thunderstorm, high 25°, low 20°", ["day"]),
    (SYDNEY, "Tomorrow: Showers, high 25°, low 20°", ["condition"]),
    (SYDNEY, "Tomorrow: Thunderstorm or showers, high 25°, low 20°", ["condition"]),
    (SYDNEY, "Tomorrow: Thunderstorm, high 24°, low 20°", ["high", "low"]),  # 24° is another temperature for both
    (SYDNEY, "Tomorrow: Thunderstorm, high 25°, low 19-20°", ["high", "low"]),
    (SHANGHAI, "Tomorrow: Light rain, high 13°, low 9°", ["condition"]),
    (NEW_YORK, "Tomorrow: partly cloudy, then rain, high 11°, low 2°", ["condition"]),
]


@pytest.mark.parametrize("city, text", NATURAL_FORECASTS)
def test_a_forecast_texted_in_natural_wording_is_paid(city: dict, text: str) -> None:
    assert judged_text("weather.TextForecastToContact", JACK, text, city=city, name="Jack Wilson") == []


@pytest.mark.parametrize("city, text", NATURAL_FORECASTS)
def test_a_forecast_noted_in_natural_wording_is_paid(city: dict, text: str) -> None:
    assert judged_note("notes.WeatherForecastNote", f"Weather {city['name']}", text, city=city) == []


@pytest.mark.parametrize("city, text, wrong", WRONG_FORECASTS)
def test_a_forecast_texted_with_a_wrong_fact_fails(city: dict, text: str, wrong: list[str]) -> None:
    assert judged_text("weather.TextForecastToContact", JACK, text, city=city, name="Jack Wilson") == wrong


@pytest.mark.parametrize("city, text, wrong", WRONG_FORECASTS)
def test_a_forecast_noted_with_a_wrong_fact_fails(city: dict, text: str, wrong: list[str]) -> None:
    assert judged_note("notes.WeatherForecastNote", f"Weather {city['name']}", text, city=city) == wrong


def test_a_forecast_with_every_candidate_fails_in_a_text_and_in_a_note() -> None:
    phone, ep = start("weather.TextForecastToContact", city=SYDNEY, name="Jack Wilson")
    send(phone, JACK, f"Tomorrow: Thunderstorm, high 25°, low 20°\n{shotgun(phone)}")
    assert set(failed(ep)) == {"condition", "high", "low", "day"}
    phone, ep = start("notes.WeatherForecastNote", city=SYDNEY)
    write_note(phone, "Weather Sydney", f"Tomorrow: Thunderstorm, high 25°, low 20°\n{shotgun(phone)}")
    assert set(failed(ep)) == {"condition", "high", "low", "day"}


def test_a_forecast_note_under_another_title_fails() -> None:
    assert "forecast note" in judged_note("notes.WeatherForecastNote", "Sydney", "Tomorrow: Thunderstorm, 25°/20°",
                                          city=SYDNEY)


# --- notes.DayAgendaNote: every event of the day with its start, nothing else ------------------------------------

AGENDA = {"title": "Agenda", "day": 0}  # Monday: Team standup 09:30, Dentist appointment 14:00, Yoga class 18:30


@pytest.mark.parametrize("body", [
    "Team standup 09:30\nDentist appointment 14:00\nYoga class 18:30",
    "Monday, March 16\n9:30 AM - Team standup (Room 4B)\n2 PM - Dentist appointment\n6:30 PM - Yoga class",
    "Team standup 09:30-09:45\nDentist appointment 14:00-14:45\nYoga class 18:30-19:30",
    "今天\n上午9点半 Team standup\n下午2点 Dentist appointment\n晚上6点半 Yoga class",
])
def test_an_agenda_in_natural_wording_is_paid(body: str) -> None:
    assert judged_note("notes.DayAgendaNote", "Agenda", body, **AGENDA) == []


@pytest.mark.parametrize("body, wrong", [
    ("Tuesday, March 17\nTeam standup 09:30\nDentist appointment 14:00\nYoga class 18:30", ["day"]),
    ("Team standup 09:30\nDentist appointment 14:30\nYoga class 18:30",  # 14:30 is another time for every event
     ["agenda lines", "start of Team standup", "start of Dentist appointment", "start of Yoga class"]),
    ("Team standup 14:00\nDentist appointment 09:30\nYoga class 18:30", ["agenda lines"]),
    ("Team standup 09:30\nYoga class 18:30", ["agenda lines", "title Dentist appointment",
                                              "start of Dentist appointment"]),
])
def test_an_agenda_with_a_wrong_or_missing_fact_fails(body: str, wrong: list[str]) -> None:
    assert judged_note("notes.DayAgendaNote", "Agenda", body, **AGENDA) == wrong


def test_an_agenda_with_another_days_event_or_every_candidate_fails() -> None:
    right = "Team standup 09:30\nDentist appointment 14:00\nYoga class 18:30"
    assert set(judged_note("notes.DayAgendaNote", "Agenda", f"{right}\nLunch with Priya 12:30", **AGENDA)) == {
        "title Team standup", "start of Team standup", "title Dentist appointment", "start of Dentist appointment",
        "title Yoga class", "start of Yoga class"}
    phone, ep = start("notes.DayAgendaNote", **AGENDA)
    write_note(phone, "Agenda", f"{right}\n{shotgun(phone)}")
    assert "start of Team standup" in failed(ep) and "title Yoga class" in failed(ep)


# --- contacts.SendContactNumber and messages.ShareTrackingNumber: one number, the right one ----------------------

SHARE = {"share": {"recipient": "Olivia Brown", "subject": "Hiro Tanaka"}}
OLIVIA = "+1 503-555-0151"


@pytest.mark.parametrize("text", ["+81 90-5555-0172", "Hiro's mobile is +81 90 5555 0172, call him after 6 pm",
                                  "Hiro's mobile is 090-5555-0172",
                                  "Hiro的手机号是+81 90-5555-0172"])
def test_a_number_shared_in_natural_wording_is_paid(text: str) -> None:
    assert judged_text("contacts.SendContactNumber", OLIVIA, text, **SHARE) == []


@pytest.mark.parametrize("text", ["Hiro's mobile is +1 720-555-0121",
                                  "Hiro's mobile is +81 90-5555-0172 or +1 720-555-0121"])
def test_another_number_shared_fails(text: str) -> None:
    assert judged_text("contacts.SendContactNumber", OLIVIA, text, **SHARE) == ["mobile number"]


def test_every_number_shared_fails() -> None:
    phone, ep = start("contacts.SendContactNumber", **SHARE)
    send(phone, OLIVIA, f"{HIRO}\n{shotgun(phone)}")
    assert failed(ep) == ["mobile number"]


FARID = "+1 415-555-0161"


@pytest.mark.parametrize("text", ["Here's the tracking number: 7Z-48213",
                                  "My parcel 7Z-48213 arrives today between 2 and 5 PM",
                                  "包裹单号是7Z-48213"])
def test_a_tracking_number_shared_in_natural_wording_is_paid(text: str) -> None:
    assert judged_text("messages.ShareTrackingNumber", FARID, text, name="Farid Haddad") == []


@pytest.mark.parametrize("text", ["Here's the tracking number: 482913",
                                  "Tracking number 7Z-48213 (or 482913)",
                                  "Tracking number 7Z-48213, PackTrack +1 800-555-0142"])
def test_another_code_shared_fails(text: str) -> None:
    assert judged_text("messages.ShareTrackingNumber", FARID, text, name="Farid Haddad") == ["tracking number"]


def test_every_code_shared_fails() -> None:
    phone, ep = start("messages.ShareTrackingNumber", name="Farid Haddad")
    send(phone, FARID, f"Here's the tracking number: 7Z-48213\n{shotgun(phone)}")
    assert failed(ep) == ["tracking number"]


# --- notes.CreateNote and notes.AppendToNote: the dictated text, nothing else -------------------------------------

NOTE = {"note": {"title": "Parking spot", "body": "Level 3, spot C14, near the blue elevator"}}
GROCERIES = "Milk\nEggs\nSpinach\nGreek yogurt\nCoffee beans\nSourdough bread"


@pytest.mark.parametrize("body, paid", [("Level 3, spot C14, near the blue elevator.", True),
                                        ("level 3,  spot C14, near the blue elevator", True),
                                        ("Level 3, spot C14", False),
                                        ("Level 4, spot C14, near the blue elevator", False)])
def test_a_new_note_says_the_dictated_text(body: str, paid: bool) -> None:
    assert (judged_note("notes.CreateNote", "Parking spot", body, **NOTE) == []) is paid


def test_a_new_note_with_every_candidate_fails() -> None:
    phone, ep = start("notes.CreateNote", **NOTE)
    write_note(phone, "Parking spot", f"{NOTE['note']['body']}\n{shotgun(phone)}")
    assert failed(ep) == ["new note"]


@pytest.mark.parametrize("body, paid", [(f"{GROCERIES}\nCherry tomatoes", True),
                                        (f"Cherry tomatoes.\n{GROCERIES}", True),
                                        (f"{GROCERIES}\nCherry tomatoes\nBananas", False),
                                        (GROCERIES.replace("Milk", "Cherry tomatoes"), False)])
def test_an_appended_item_keeps_the_list_and_adds_only_it(body: str, paid: bool) -> None:
    phone, ep = start("notes.AppendToNote", entry={"title": "Grocery list", "item": "Cherry tomatoes"})
    phone.set_state({"apps": {"notes": {"notes[title=Grocery list]": {"body": body}}}})
    assert (failed(ep) == []) is paid


def test_an_appended_item_with_every_candidate_fails() -> None:
    phone, ep = start("notes.AppendToNote", entry={"title": "Grocery list", "item": "Cherry tomatoes"})
    body = f"{GROCERIES}\nCherry tomatoes\n{shotgun(phone)}"
    phone.set_state({"apps": {"notes": {"notes[title=Grocery list]": {"body": body}}}})
    assert failed(ep) == ["note content"]



def test_a_name_counts_in_chinese_prose_and_only_as_a_whole_word() -> None:
    from mobilegym.tasks.cross_app.app import check_names_one

    assert check_names_one("channel", ["这个视频是历史开箱发布的"], "历史开箱", ["美食日记"])["passed"]
    assert check_names_one("song", ["Added Sing in the Showers!"], "Sing in the Shower", [])["passed"]
    assert not check_names_one("name", ["Anna said hi"], "Ann", [])["passed"]  # inside a longer word
    assert not check_names_one("channel", ["历史开箱还是美食日记"], "历史开箱", ["美食日记"])["passed"]  # a rival too
