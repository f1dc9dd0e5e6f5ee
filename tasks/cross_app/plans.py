"""Scripted plans for the cross-app suite: oracles and realistic mistakes, acting only through the UI."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.oracle import Driver, negative, plan

from ..calendar.ui import open_event, today
from ..contacts.ui import compose, first_name, open_home
from ..music.ui import add_song_to, recommended_song, search, song_rows
from ..notes.ui import open_note, write_note
from ..weather.ui import city, forecast, open_saved_city, set_alarm
from .ui import add_event, short_date, spoken_date


# --- helpers --------------------------------------------------------------------------------------------


def event_times(d: Driver, title: str) -> tuple[str, str]:
    """(start, end) "HH:MM" of an event, from its page."""
    open_event(d, title)
    start, end = d.find(rid="event_time").text.split(" – ")
    return start, end


def minus(hhmm: str, minutes: int) -> tuple[int, int]:
    moment = dt.datetime.strptime(hhmm, "%H:%M") - dt.timedelta(minutes=minutes)
    return moment.hour, moment.minute


# --- BirthdayEventAndGreeting -------------------------------------------------------------------------

def _upcoming_birthdays(d: Driver) -> list[tuple[str, dt.date]]:
    """(name, date) of the Contacts home's upcoming birthdays, soonest first."""
    now = today(d)
    open_home(d, "Contacts")
    return [(name, short_date(label, now)) for name, label in zip(d.texts("upcoming_name"), d.texts("upcoming_date"))]


def _birthday_title(d: Driver, name: str) -> str:
    return d.t(f"{name}'s birthday", f"{name}的生日")


@plan("cross_app.BirthdayEventAndGreeting")
def birthday_event_and_greeting(d: Driver) -> None:
    name, day = _upcoming_birthdays(d)[0]
    add_event(d, _birthday_title(d, name), day)
    compose(d, name, d.params["greeting"])
    d.complete()


@negative("cross_app.BirthdayEventAndGreeting", "takes a later birthday")
def birthday_later(d: Driver) -> None:
    rows = _upcoming_birthdays(d)
    name, day = next(row for row in rows if row[1] != rows[0][1])
    add_event(d, _birthday_title(d, name), day)
    compose(d, name, d.params["greeting"])
    d.complete()


@negative("cross_app.BirthdayEventAndGreeting", "adds the event but sends no greeting")
def birthday_no_text(d: Driver) -> None:
    name, day = _upcoming_birthdays(d)[0]
    add_event(d, _birthday_title(d, name), day)
    d.complete()


@negative("cross_app.BirthdayEventAndGreeting", "a timed event instead of an all-day one")
def birthday_timed(d: Driver) -> None:
    name, day = _upcoming_birthdays(d)[0]
    add_event(d, _birthday_title(d, name), day, "09:00", "10:00")
    compose(d, name, d.params["greeting"])
    d.complete()


# --- WarmestDayPicnic -----------------------------------------------------------------------------------

def _forecast_days(d: Driver) -> list[tuple[dt.date, int]]:
    """(date, high) of the city's five forecast days."""
    now = today(d)
    open_saved_city(d, city(d))
    return [(short_date(label, now), high) for label, _, high, _ in forecast(d)]


def _picnic(d: Driver, day: dt.date, text: str) -> None:
    add_event(d, d.t("Picnic", "野餐"), day, "12:00", "14:00", place=city(d))
    compose(d, d.params["name"], text)
    d.complete()


def _picnic_text(d: Driver, day: dt.date) -> str:
    return d.t(f"Picnic on {spoken_date(d, day)}, 12:00 to 14:00. Join me!", f"{spoken_date(d, day)}中午一起去野餐吧！")


@plan("cross_app.WarmestDayPicnic")
def warmest_day_picnic(d: Driver) -> None:
    day, _ = max(_forecast_days(d), key=lambda row: row[1])
    _picnic(d, day, _picnic_text(d, day))


@negative("cross_app.WarmestDayPicnic", "picks the second-warmest day")
def second_warmest_picnic(d: Driver) -> None:
    days = sorted(_forecast_days(d), key=lambda row: row[1], reverse=True)
    _picnic(d, days[1][0], _picnic_text(d, days[1][0]))


@negative("cross_app.WarmestDayPicnic", "the text does not say which day")
def picnic_no_day(d: Driver) -> None:
    day, _ = max(_forecast_days(d), key=lambda row: row[1])
    _picnic(d, day, d.t("Picnic this week, join me!", "这几天一起去野餐吧！"))


# --- AlarmBeforeEventTellAttendee -------------------------------------------------------------------------

def _event_and_attendee(d: Driver) -> tuple[str, str | None]:
    """(start, the one name in the notes' "With X." line, None without one) of the task's event."""
    start, _ = event_times(d, d.params["title"])
    found = re.search(r"(?:With (.+?)\.|参加：(.+?)。)", d.find(rid="event_notes").text)
    return start, (found.group(1) or found.group(2)) if found else None


def _alarm_and_text(d: Driver, before: int, wrong_person: bool = False) -> None:
    start, name = _event_and_attendee(d)
    set_alarm(d, *minus(start, before))
    if wrong_person:
        open_home(d, "Contacts")
        name = next(n for n in d.texts("contact_name") if n != name)
    if name is not None:
        compose(d, name, d.t(f"{d.params['title']} starts at {start}", f"“{d.params['title']}”{start}开始"))
    d.complete()


@plan("cross_app.AlarmBeforeEventTellAttendee")
def alarm_before_event(d: Driver) -> None:
    _alarm_and_text(d, 30)


@negative("cross_app.AlarmBeforeEventTellAttendee", "sets the alarm at the start time")
def alarm_at_start(d: Driver) -> None:
    _alarm_and_text(d, 0)


@negative("cross_app.AlarmBeforeEventTellAttendee", "texts someone else")
def alarm_text_other(d: Driver) -> None:
    _alarm_and_text(d, 30, wrong_person=True)


# --- QuietDuringEvent -----------------------------------------------------------------------------------

def _quiet(d: Driver, dnd: bool, at_end: bool) -> None:
    start, end = event_times(d, d.params["title"])
    if dnd:
        d.open_app("Settings")
        d.tap(rid="sound_entry")
        d.tap(rid="do_not_disturb_row")
    set_alarm(d, *minus(end if at_end else start, 0))
    d.complete()


@plan("cross_app.QuietDuringEvent")
def quiet_during_event(d: Driver) -> None:
    _quiet(d, dnd=True, at_end=True)


@negative("cross_app.QuietDuringEvent", "sets the alarm at the start")
def quiet_alarm_at_start(d: Driver) -> None:
    _quiet(d, dnd=True, at_end=False)


@negative("cross_app.QuietDuringEvent", "forgets Do Not Disturb")
def quiet_no_dnd(d: Driver) -> None:
    _quiet(d, dnd=False, at_end=True)


# --- SaveNewNumberWithNote ------------------------------------------------------------------------------

WHERE_MET = (r"(?:met at|talked at|seeing you at) (.+?)(?:[.!]|$)", r"我们在(.+?)(?:认识的|见过)", r"上次在(.+?)聊得",
             r"，([^，]+?)认识的")


def _save_and_note(d: Driver, name: str, place_index: int = 0, note: bool = True) -> None:
    """Open the new number's thread, read where you met, save the number as ``name``, note the place."""
    open_home(d, "Messages")
    d.tap(rid="search")
    d.type(d.params["name"], rid="search_input")
    d.tap(rid="search_result")
    texts = d.texts("message_text")
    place = next(m.group(1) for pattern in WHERE_MET for t in texts for m in [re.search(pattern, t)] if m)
    d.tap(rid="add_contact")
    d.type(name, rid="name_input")
    d.tap(rid="save_contact")
    if note:
        places = [place, d.t("the office party", "公司年会")]
        write_note(d, d.params["name"], d.t(f"We met at {places[place_index]}", f"我们是在{places[place_index]}认识的"))
    d.complete()


@plan("cross_app.SaveNewNumberWithNote")
def save_new_number_with_note(d: Driver) -> None:
    _save_and_note(d, d.params["name"])


@negative("cross_app.SaveNewNumberWithNote", "saves only the first name")
def save_new_number_first_name(d: Driver) -> None:
    _save_and_note(d, first_name(d.params["name"]))


@negative("cross_app.SaveNewNumberWithNote", "notes a place the text does not say")
def save_new_number_wrong_place(d: Driver) -> None:
    _save_and_note(d, d.params["name"], place_index=1)


@negative("cross_app.SaveNewNumberWithNote", "saves the contact but writes no note")
def save_new_number_no_note(d: Driver) -> None:
    _save_and_note(d, d.params["name"], note=False)


# --- TextErrandsList ------------------------------------------------------------------------------------

def _errands(d: Driver) -> tuple[str, list[str]]:
    """(the person, the items) of the errands note."""
    open_note(d, d.params["errands"]["title"])
    first, *items = [line.strip() for line in d.find(rid="note_body").text.split("\n") if line.strip()]
    found = re.search(r"(?:Pick up for (.+?):|帮(.+?)带：)", first)
    assert found is not None, first
    return found.group(1) or found.group(2), items


def _text_errands(d: Driver, name: str, items: list[str]) -> None:
    compose(d, name, d.t(f"Here's what I'm picking up for you: {', '.join(items)}", f"我帮你带的东西：{'、'.join(items)}"))
    d.complete()


@plan("cross_app.TextErrandsList")
def text_errands_list(d: Driver) -> None:
    _text_errands(d, *_errands(d))


@negative("cross_app.TextErrandsList", "leaves the last item out")
def text_errands_partial(d: Driver) -> None:
    name, items = _errands(d)
    _text_errands(d, name, items[:-1])


@negative("cross_app.TextErrandsList", "texts the list to someone else")
def text_errands_other(d: Driver) -> None:
    name, items = _errands(d)
    open_home(d, "Contacts")
    _text_errands(d, next(n for n in d.texts("contact_name") if n != name), items)


# --- RecommendedSongAndReply ------------------------------------------------------------------------------

def _griped_song(d: Driver) -> str:
    """The title of the song another contact texted they are tired of."""
    open_home(d, "Messages")
    d.tap(rid="search")
    d.type(d.t("sick of it", "听烦了"), rid="search_input")
    d.tap(rid="search_result")
    text = next(t for t in d.texts("message_text") if d.t("sick of it", "听烦了") in t)
    return text.split("《", 1)[1].split("》", 1)[0] if "《" in text else text.split('"')[1]


def _add_and_reply(d: Driver, other_song: bool = False, reply: bool = True, playlist: str | None = None,
                   griped: bool = False) -> None:
    title, artist = recommended_song(d)
    target = d.params["playlist"]["name"]
    if griped:
        title = _griped_song(d)
        search(d, title)
    elif other_song:
        search(d, artist)
        title = [t for t, _, _ in song_rows(d) if t != title][-1]  # the list is scrolled to its end
    else:
        search(d, title)
    add_song_to(d, title, target)
    if reply:
        named = playlist or target
        compose(d, d.params["name"], d.t(f"Love it, it's on my {named} playlist now!", f"好听！已经加到“{named}”歌单里了"))
    d.complete()


@plan("cross_app.RecommendedSongAndReply")
def recommended_song_and_reply(d: Driver) -> None:
    _add_and_reply(d)


@negative("cross_app.RecommendedSongAndReply", "adds another song by the same artist")
def recommended_other_song(d: Driver) -> None:
    _add_and_reply(d, other_song=True)


@negative("cross_app.RecommendedSongAndReply", "adds the song another contact is tired of")
def recommended_griped_song(d: Driver) -> None:
    _add_and_reply(d, griped=True)


@negative("cross_app.RecommendedSongAndReply", "adds the song but never replies")
def recommended_no_reply(d: Driver) -> None:
    _add_and_reply(d, reply=False)
