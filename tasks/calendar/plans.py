"""Scripted plans for the calendar suite: one oracle per task and realistic mistakes that must score 0.

Plans only act through the Driver (taps, typing, answers) and read what the screen shows.
"""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.calendar_words import MONTHS
from mobilegym.oracle import Driver, negative, plan
from .ui import day_events, fill_event, open_day, open_event, read_date, to_date, today
from ..maps.ui import address_of, category_results
from ..cross_app.ui import add_event
from ..contacts.ui import compose


# --- helpers (reading the screen, common UI paths) ----------------------------------------------------


def delete_open_event(d: Driver) -> None:
    d.tap(rid="delete_event")
    d.tap(rid="button1")


# --- CountEventsOnDate ---------------------------------------------------------------------------------


@plan("calendar.CountEventsOnDate")
def count_events_on_date(d: Driver) -> None:
    open_day(d, to_date(d.params["day"]["iso"]))
    d.submit_answer([len(day_events(d))])
    d.complete()


@negative("calendar.CountEventsOnDate", "counts the day before")
def count_events_wrong_day(d: Driver) -> None:
    day = to_date(d.params["day"]["iso"])
    open_day(d, day)
    right = len(day_events(d))
    d.tap(rid="prev_day")
    wrong = len(day_events(d))
    d.submit_answer([wrong if wrong != right else right + 1])
    d.complete()


# --- EventStartTime ------------------------------------------------------------------------------------

@plan("calendar.EventStartTime")
def event_start_time(d: Driver) -> None:
    open_event(d, d.params["title"])
    d.submit_answer([d.find(rid="event_time").text.split(" – ")[0]])
    d.complete()


@negative("calendar.EventStartTime", "gives the end time")
def event_end_time(d: Driver) -> None:
    open_event(d, d.params["title"])
    d.submit_answer([d.find(rid="event_time").text.split(" – ")[1]])
    d.complete()


# --- NextEventToday ------------------------------------------------------------------------------------

def _next_today(d: Driver) -> list[tuple[str, str]]:
    """Today's timed events after the status-bar time, in order."""
    now = d.find(rid="clock").text
    open_day(d, today(d))
    return [(title, sub.split(" – ")[0]) for title, sub in day_events(d) if sub[:5] >= now and ":" in sub[:5]]


@plan("calendar.NextEventToday")
def next_event_today(d: Driver) -> None:
    title, start = _next_today(d)[0]
    d.submit_answer([title, start])
    d.complete()


@negative("calendar.NextEventToday", "right event, but gives its end time")
def next_event_today_end(d: Driver) -> None:
    now = d.find(rid="clock").text
    open_day(d, today(d))
    title, sub = next((t, s) for t, s in day_events(d) if ":" in s[:5] and s[:5] >= now)
    d.submit_answer([title, sub.split(" – ")[1][:5]])
    d.complete()


# --- CountEventsInWeek ---------------------------------------------------------------------------------

def _week_counts(d: Driver) -> int:
    start = today(d)
    monday = start - dt.timedelta(days=start.weekday()) + dt.timedelta(weeks=d.params["week"])
    open_day(d, monday)
    total = 0
    for i in range(7):
        total += len(day_events(d))
        if i < 6:
            d.tap(rid="next_day")
    return total


@plan("calendar.CountEventsInWeek")
def count_events_in_week(d: Driver) -> None:
    d.submit_answer([_week_counts(d)])
    d.complete()


@negative("calendar.CountEventsInWeek", "counts only Monday to Friday")
def count_events_in_week_weekdays(d: Driver) -> None:
    start = today(d)
    open_day(d, start - dt.timedelta(days=start.weekday()) + dt.timedelta(weeks=d.params["week"]))
    total = 0
    for _ in range(5):
        total += len(day_events(d))
        d.tap(rid="next_day")
    d.submit_answer([total])
    d.complete()


# --- CreateEvent ---------------------------------------------------------------------------------------

def _create_event(d: Driver, day_offset: int, title: str, start: str, end: str) -> None:
    open_day(d, today(d) + dt.timedelta(days=day_offset))
    d.tap(rid="add_event")
    fill_event(d, title=title, start=start, end=end)
    d.tap(rid="save_event")


@plan("calendar.CreateEvent")
def create_event(d: Driver) -> None:
    p = d.params
    _create_event(d, p["day"], p["title"], p["slot"]["start"], p["slot"]["end"])
    d.complete()


@negative("calendar.CreateEvent", "puts the event on today instead")
def create_event_today(d: Driver) -> None:
    p = d.params
    _create_event(d, 0, p["title"], p["slot"]["start"], p["slot"]["end"])
    d.complete()


@negative("calendar.CreateEvent", "enters both times an hour late")
def create_event_hour_late(d: Driver) -> None:
    p = d.params
    late = [(dt.datetime.strptime(p["slot"][k], "%H:%M") + dt.timedelta(hours=1)).strftime("%H:%M")
            for k in ("start", "end")]
    _create_event(d, p["day"], p["title"], *late)
    d.complete()


# --- SetEventReminder ----------------------------------------------------------------------------------

def _set_reminder(d: Driver, chip: str) -> None:
    open_event(d, d.params["title"])
    d.tap(rid="edit_event")
    d.tap(rid=chip)
    d.tap(rid="save_event")


@plan("calendar.SetEventReminder")
def set_event_reminder(d: Driver) -> None:
    _set_reminder(d, f"reminder_{d.params['reminder']}")
    d.complete()


@negative("calendar.SetEventReminder", "picks a neighbouring reminder")
def set_event_reminder_wrong(d: Driver) -> None:
    _set_reminder(d, "reminder_30" if d.params["reminder"] != 30 else "reminder_60")
    d.complete()


@negative("calendar.SetEventReminder", "chooses the reminder but never saves")
def set_event_reminder_unsaved(d: Driver) -> None:
    open_event(d, d.params["title"])
    d.tap(rid="edit_event")
    d.tap(rid=f"reminder_{d.params['reminder']}")
    d.key("back")
    d.complete()


# --- DeleteEvent ---------------------------------------------------------------------------------------

@plan("calendar.DeleteEvent")
def delete_event(d: Driver) -> None:
    open_event(d, d.params["title"])
    delete_open_event(d)
    d.complete()


@negative("calendar.DeleteEvent", "cancels the confirmation dialog")
def delete_event_cancelled(d: Driver) -> None:
    open_event(d, d.params["title"])
    d.tap(rid="delete_event")
    d.tap(rid="button2")
    d.complete()


@negative("calendar.DeleteEvent", "deletes another upcoming event instead")
def delete_event_wrong(d: Driver) -> None:
    open_event(d, d.params["title"])
    d.key("back")
    d.key("back")
    d.tap(rid="tab_1")
    titles = d.texts("event_title_text")
    d.tap(rid="event_title_text", text=next(t for t in titles if t != d.params["title"]))
    delete_open_event(d)
    d.complete()


# --- RescheduleEvent -----------------------------------------------------------------------------------

@plan("calendar.RescheduleEvent")
def reschedule_event(d: Driver) -> None:
    open_event(d, d.params["title"])
    d.tap(rid="edit_event")
    fill_event(d, date=d.params["new_day"]["iso"])
    d.tap(rid="save_event")
    d.complete()


@negative("calendar.RescheduleEvent", "creates a copy on the new day and keeps the old one")
def reschedule_event_copy(d: Driver) -> None:
    open_event(d, d.params["title"])
    start, end = d.find(rid="event_time").text.split(" – ")
    d.key("back")
    d.key("back")
    d.tap(rid="add_event")
    fill_event(d, title=d.params["title"], date=d.params["new_day"]["iso"], start=start, end=end)
    d.tap(rid="save_event")
    d.complete()


@negative("calendar.RescheduleEvent", "moves it one day too far")
def reschedule_event_off_by_one(d: Driver) -> None:
    open_event(d, d.params["title"])
    d.tap(rid="edit_event")
    fill_event(d, date=(to_date(d.params["new_day"]["iso"]) + dt.timedelta(days=1)).isoformat())
    d.tap(rid="save_event")
    d.complete()


# --- CreateDetailedEvent -------------------------------------------------------------------------------

def _detailed(d: Driver, weeks: int) -> None:
    p = d.params
    start = today(d)
    day = start - dt.timedelta(days=start.weekday()) + dt.timedelta(weeks=weeks, days=p["weekday"])
    d.tap(rid="add_event")
    fill_event(d, title=p["title"], date=day.isoformat(), start=p["slot"]["start"], end=p["slot"]["end"],
               location=p["location"])
    d.tap(rid=f"calendar_{p['calendar'].lower()}")
    d.tap(rid=f"reminder_{p['reminder']}")
    d.tap(rid="save_event")


@plan("calendar.CreateDetailedEvent")
def create_detailed_event(d: Driver) -> None:
    _detailed(d, 1)
    d.complete()


@negative("calendar.CreateDetailedEvent", "reads 'next Friday' as this week's")
def create_detailed_event_this_week(d: Driver) -> None:
    _detailed(d, 0)
    d.complete()


@negative("calendar.CreateDetailedEvent", "files it under the wrong calendar")
def create_detailed_event_wrong_calendar(d: Driver) -> None:
    p = d.params
    start = today(d)
    day = start - dt.timedelta(days=start.weekday()) + dt.timedelta(weeks=1, days=p["weekday"])
    d.tap(rid="add_event")
    fill_event(d, title=p["title"], date=day.isoformat(), start=p["slot"]["start"], end=p["slot"]["end"],
               location=p["location"])
    d.tap(rid="calendar_family" if p["calendar"] != "Family" else "calendar_work")
    d.tap(rid=f"reminder_{p['reminder']}")
    d.tap(rid="save_event")
    d.complete()


# --- ClearDayAndCount ----------------------------------------------------------------------------------

@plan("calendar.ClearDayAndCount")
def clear_day_and_count(d: Driver) -> None:
    open_day(d, to_date(d.params["day"]["iso"]))
    titles = [t for t, _ in day_events(d)]
    for title in titles:
        d.tap(rid="event_title_text", text=title)
        delete_open_event(d)
    d.submit_answer([len(titles)])
    d.complete()


@negative("calendar.ClearDayAndCount", "deletes only the first event but reports the full count")
def clear_day_partial(d: Driver) -> None:
    open_day(d, to_date(d.params["day"]["iso"]))
    titles = [t for t, _ in day_events(d)]
    d.tap(rid="event_title_text", text=titles[0])
    delete_open_event(d)
    d.submit_answer([len(titles)])
    d.complete()


@negative("calendar.ClearDayAndCount", "clears the day but reports how many are left")
def clear_day_wrong_answer(d: Driver) -> None:
    open_day(d, to_date(d.params["day"]["iso"]))
    titles = [t for t, _ in day_events(d)]
    for title in titles:
        d.tap(rid="event_title_text", text=title)
        delete_open_event(d)
    d.submit_answer([0])
    d.complete()


# --- FlightTaxiAndNumber -------------------------------------------------------------------------------

def _flight(d: Driver) -> tuple[dt.date, dt.datetime, str]:
    """(date, departure, flight number) read from the flight's detail page."""
    open_event(d, d.params["flight"])
    day = read_date(d.find(rid="event_date").text)
    depart = dt.datetime.combine(day, dt.time.fromisoformat(d.find(rid="event_time").text.split(" – ")[0]))
    number = re.search(r"[A-Z]{2} \d{3,4}", d.find(rid="event_notes").text)
    assert number is not None
    return day, depart, number.group(0)


def _taxi(d: Driver, day: dt.date, start: dt.datetime, end: dt.datetime) -> None:
    d.key("back")
    d.key("back")
    d.tap(rid="add_event")
    fill_event(d, title=d.t("Taxi to airport", "打车去机场"), date=day.isoformat(), start=f"{start:%H:%M}",
               end=f"{end:%H:%M}")
    d.tap(rid="save_event")


@plan("calendar.FlightTaxiAndNumber")
def flight_taxi(d: Driver) -> None:
    day, depart, number = _flight(d)
    _taxi(d, day, depart - dt.timedelta(hours=3), depart - dt.timedelta(hours=2))
    d.submit_answer([number])
    d.complete()


@negative("calendar.FlightTaxiAndNumber", "taxi ends at departure time")
def flight_taxi_too_late(d: Driver) -> None:
    day, depart, number = _flight(d)
    _taxi(d, day, depart - dt.timedelta(hours=1), depart)
    d.submit_answer([number])
    d.complete()


@negative("calendar.FlightTaxiAndNumber", "right taxi, but answers only the airline code")
def flight_taxi_wrong_answer(d: Driver) -> None:
    day, depart, number = _flight(d)
    _taxi(d, day, depart - dt.timedelta(hours=3), depart - dt.timedelta(hours=2))
    d.submit_answer([number.split()[0]])
    d.complete()


# --- EventToTodo (Calendar -> Notes) -------------------------------------------------------------------

def _todo_for_event(d: Driver, shift_days: int) -> None:
    title = d.params["title"]
    open_event(d, title)
    day = read_date(d.find(rid="event_date").text)
    d.open_app("Notes")
    d.tap(rid="tab_1")
    d.tap(rid="add_todo")
    d.type(d.t(f"Prepare for {title}", f"准备{title}"), rid="todo_text_input")
    d.pick_date(day + dt.timedelta(days=shift_days), rid="todo_due_input")
    d.tap(rid="button1")


@plan("calendar.EventToTodo")
def event_to_todo(d: Driver) -> None:
    _todo_for_event(d, 0)
    d.complete()


@negative("calendar.EventToTodo", "due the day before the event")
def event_to_todo_day_before(d: Driver) -> None:
    _todo_for_event(d, -1)
    d.complete()


# --- EventFromMessage (Messages -> Calendar) -----------------------------------------------------------

def _dentist_text(d: Driver) -> tuple[dt.date, str]:
    """(date, "HH:MM") of the appointment in the dentist's text, read in Messages."""
    year = today(d).year
    sender = d.t("Sunrise Dental", "阳光口腔")
    d.open_app("Messages")
    d.tap(rid="conversation_snippet", contains=sender)
    text = next(t for t in d.texts("message_text") if sender in t)
    zh = re.search(r"(\d{1,2})月(\d{1,2})日（周.） (\d{1,2}:\d{2})", text)
    if zh is not None:
        return dt.date(year, int(zh.group(1)), int(zh.group(2))), zh.group(3)
    match = re.search(r"(\w{3}) (\d{1,2}) at (\d{1,2}:\d{2} [AP]M)", text)
    assert match is not None, text
    month = [m[:3] for m in MONTHS].index(match.group(1)) + 1
    return dt.date(year, month, int(match.group(2))), dt.datetime.strptime(match.group(3), "%I:%M %p").strftime("%H:%M")


def _add_event(d: Driver, title: str, day: dt.date, start: str, minutes: int) -> None:
    end = (dt.datetime.strptime(start, "%H:%M") + dt.timedelta(minutes=minutes)).strftime("%H:%M")
    d.open_app("Calendar")
    d.tap(rid="add_event")
    fill_event(d, title=title, date=day.isoformat(), start=start, end=end)
    d.tap(rid="save_event")


@plan("calendar.EventFromMessage")
def event_from_message(d: Driver) -> None:
    day, start = _dentist_text(d)
    _add_event(d, d.params["title"], day, start, d.params["length"])
    d.complete()


@negative("calendar.EventFromMessage", "reads 10:30 AM as 22:30 (or 3 PM as 03:00)")
def event_from_message_pm(d: Driver) -> None:
    day, start = _dentist_text(d)
    _add_event(d, d.params["title"], day, f"{(int(start[:2]) + 12) % 24:02d}:{start[3:]}", d.params["length"])
    d.complete()


@negative("calendar.EventFromMessage", "keeps the default one-hour length")
def event_from_message_default_length(d: Driver) -> None:
    day, start = _dentist_text(d)
    _add_event(d, d.params["title"], day, start, 60 if d.params["length"] != 60 else 30)
    d.complete()


# --- ShareEventByMessage (Calendar -> Messages) --------------------------------------------------------

def _text_contact(d: Driver, name: str, body: str) -> None:
    d.open_app("Messages")
    d.tap(rid="new_message")
    d.type(name, rid="recipient_input")
    d.type(body, rid="message_input")
    d.tap(rid="send")


def _when_where(d: Driver) -> tuple[str, str, str]:
    """(date, start, place) as the event's page shows them."""
    open_event(d, d.params["title"])
    return (d.find(rid="event_date").text, d.find(rid="event_time").text.split(" – ")[0],
            d.find(rid="event_location").text)


def _share_text(d: Driver, day: str | None, start: str, place: str | None) -> str:
    """The text telling when (day, start) and where (place) the event is; a part given as None is left out."""
    title = d.params["title"]
    if d.language == "zh":
        return "".join([f"{title}", f"在{day}，" if day else "，", f"{start}开始", f"，地点：{place}" if place else ""])
    return "".join([f"{title} ", f"is on {day}, starting at {start}" if day else f"starts at {start}",
                    f" at {place}" if place else ""])


@plan("calendar.ShareEventByMessage")
def share_event(d: Driver) -> None:
    day, start, place = _when_where(d)
    _text_contact(d, d.params["contact"], _share_text(d, day, start, place))
    d.complete()


@negative("calendar.ShareEventByMessage", "leaves out the place")
def share_event_no_place(d: Driver) -> None:
    day, start, _ = _when_where(d)
    _text_contact(d, d.params["contact"], _share_text(d, day, start, None))
    d.complete()


@negative("calendar.ShareEventByMessage", "leaves out the day")
def share_event_no_day(d: Driver) -> None:
    _, start, place = _when_where(d)
    _text_contact(d, d.params["contact"], _share_text(d, None, start, place))
    d.complete()


@negative("calendar.ShareEventByMessage", "texts the wrong contact")
def share_event_wrong_contact(d: Driver) -> None:
    day, start, place = _when_where(d)
    d.open_app("Contacts")
    other = next(n for n in d.texts("contact_name") if n != d.params["contact"])
    _text_contact(d, other, _share_text(d, day, start, place))
    d.complete()


# --- JSON tasks ----------------------------------------------------------------------------------------

def _event_date(d: Driver) -> dt.date:
    """The date on the open event's page."""
    return read_date(d.find(rid="event_date").text)


def _book_club(d: Driver, renamed: bool = False) -> str:
    """The event's title before (or after) the rename, in the phone's language."""
    return d.t("Book club: Piranesi", "读书会：皮拉内西") if renamed else d.t("Book club", "读书会")


@plan("calendar.rename_book_club")
def rename_book_club(d: Driver) -> None:
    open_event(d, _book_club(d))
    d.tap(rid="edit_event")
    fill_event(d, title=_book_club(d, renamed=True))
    d.tap(rid="save_event")
    d.complete()


@negative("calendar.rename_book_club", "adds a new event with the new name instead of renaming")
def rename_book_club_new(d: Driver) -> None:
    open_event(d, _book_club(d))
    day = _event_date(d)
    start, end = d.find(rid="event_time").text.split(" – ")
    place = d.find(rid="event_location").text
    d.key("back")
    d.key("back")
    d.tap(rid="add_event")
    fill_event(d, title=_book_club(d, renamed=True), date=day.isoformat(), start=start, end=end, location=place)
    d.tap(rid="save_event")
    d.complete()


@negative("calendar.rename_book_club", "renames it but also shifts the date")
def rename_book_club_moved(d: Driver) -> None:
    open_event(d, _book_club(d))
    day = _event_date(d)
    d.tap(rid="edit_event")
    fill_event(d, title=_book_club(d, renamed=True), date=(day + dt.timedelta(days=1)).isoformat())
    d.tap(rid="save_event")
    d.complete()


def _yoga_on(d: Driver, day: dt.date) -> str:
    """The location of the yoga class on ``day``, opened from that day's agenda."""
    open_day(d, day)
    title = next(t for t, _ in day_events(d) if "yoga" in t.lower() or "瑜伽" in t)
    d.tap(rid="event_title_text", text=title)
    return d.find(rid="event_location").text


@plan("calendar.yoga_location")
def yoga_location(d: Driver) -> None:
    d.submit_answer([_yoga_on(d, today(d))])
    d.complete()


@negative("calendar.yoga_location", "answers next week's class (another studio)")
def yoga_location_wrong(d: Driver) -> None:
    d.submit_answer([_yoga_on(d, today(d) + dt.timedelta(days=7))])
    d.complete()


@plan("calendar.invite_to_review")
def invite_to_review(d: Driver) -> None:
    open_event(d, d.t("Project Falcon review", "猎鹰项目评审"))
    d.abort("The Calendar app cannot invite people or share events.")


@negative("calendar.invite_to_review", "pastes the address into the notes and declares success")
def invite_to_review_notes(d: Driver) -> None:
    open_event(d, d.t("Project Falcon review", "猎鹰项目评审"))
    d.tap(rid="edit_event")
    fill_event(d, notes=d.t("Invite priya.nair@example.com", "邀请 priya.nair@example.com"))
    d.tap(rid="save_event")
    d.complete()


# --- CoffeeAtTopCafe -------------------------------------------------------------------------------------------

def _coffee(d: Driver, rank: int = 0, address: bool = True, next_day: bool = False) -> None:

    name = d.params["name"]
    cafe = category_results(d, d.t("Cafés", "咖啡"), top_rated=True)[rank]
    where = address_of(d, cafe)
    day = dt.date.fromisoformat(d.params["day"]["iso"]) + dt.timedelta(days=1 if next_day else 0)
    add_event(d, d.t(f"Coffee with {name}", f"和{name}喝咖啡"), day, d.params["slot"]["start"], d.params["slot"]["end"],
              place=cafe)
    text = d.t(f"Coffee at {cafe}, {where}", f"我们在{cafe}喝咖啡，地址：{where}") if address else \
        d.t(f"Coffee at {cafe}", f"我们在{cafe}喝咖啡")
    compose(d, name, text)
    d.complete()


@plan("calendar.CoffeeAtTopCafe")
def coffee_at_top_cafe(d: Driver) -> None:
    _coffee(d)


@negative("calendar.CoffeeAtTopCafe", "picks the second-best café")
def coffee_second_cafe(d: Driver) -> None:
    _coffee(d, rank=1)


@negative("calendar.CoffeeAtTopCafe", "texts the café's name without its address")
def coffee_no_address(d: Driver) -> None:
    _coffee(d, address=False)


@negative("calendar.CoffeeAtTopCafe", "puts the event on the next day")
def coffee_next_day(d: Driver) -> None:
    _coffee(d, next_day=True)
