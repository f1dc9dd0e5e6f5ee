"""Cross-app tasks: each chains three or more apps of the phone.

Task index:
    BirthdayEventAndGreeting  operate  L4  Contacts -> Calendar -> Messages: mark the next birthday, greet them
    WarmestDayPicnic          operate  L4  Weather -> Calendar -> Messages: a picnic on the warmest day, text a friend
    AlarmBeforeEventTellAttendee operate L4 Calendar -> Clock -> Messages: alarm 30 min before, text the attendee
    QuietDuringEvent          operate  L3  Calendar -> Settings -> Clock: Do Not Disturb on, alarm when the event ends
    SaveNewNumberWithNote     operate  L4  Messages -> Contacts -> Notes: save a new number, note where you met
    TextErrandsList           operate  L3  Notes -> Contacts -> Messages: text the person an errands note names its items
    RecommendedSongAndReply   operate  L4  Messages -> Music -> Messages: add a recommended song, tell the sender
"""
from __future__ import annotations

import datetime as dt

from mobilegym.judge import BaseTask, copy_state
from mobilegym.judge.result import check

from ..calendar.app import CALENDAR_ADD_EVENT_CHANGES, Calendar
from ..clock.app import CLOCK_ADD_ALARM_CHANGES
from ..contacts.app import CONTACTS_ADD_CHANGES, Contacts
from ..messages.app import MESSAGES_READ_CHANGES, MESSAGES_SEND_CHANGES, Messages, text_from_contact
from ..music.app import MUSIC_ADD_TO_PLAYLIST_CHANGES, Music
from ..notes.app import NOTES_ADD_NOTE_CHANGES, Notes
from ..weather.app import Weather, forecast_date, prepare_state_with_runner_up, warmest_day_distractors
from ..weather.app import new_alarm_times
from .app import (upcoming_timed, MIN_OTHER_NEWCOMERS, MIN_SONG_GRIPES, PICNIC, PICNIC_SLOT, check_birthday_event,
                  check_names_one, grocery_items, next_birthday_people, other_newcomers, prepare_state_with_attendee,
                  prepare_state_with_errands, prepare_state_with_other_newcomer, prepare_state_with_song_gripe,
                  sample_errands, sample_event_apart_by_end, sample_event_apart_by_start, sample_introduced_with_place,
                  song_gripes, where_met)

SETTINGS_DND_CHANGES = ["settings.do_not_disturb"]


def _check_alarm(input, hour: int, minute: int, what: str) -> dict:
    """Clock has one more enabled alarm at hour:minute than at the start (a new one, or one switched on or moved
    there; an alarm already set for that time does not count)."""
    def count(clock: dict) -> int:
        return sum(1 for a in clock["alarms"] if (a["hour"], a["minute"], a["enabled"]) == (hour, minute, True))

    fresh = new_alarm_times(input.apps_init["clock"], input.apps["clock"])
    shown = [f"{h:02d}:{m:02d}{'' if on else ' (off)'}" for h, m, on in fresh]
    return check(what, f"{hour:02d}:{minute:02d} (on)", shown or "no new alarm",
                 count(input.apps["clock"]) > count(input.apps_init["clock"]))


class BirthdayEventAndGreeting(BaseTask):
    """Verdict: a new all-day Calendar event on the next birthday (from the phone's date, today counting) is
    titled with the person's name and "birthday", and the greeting (exact wording, end punctuation aside) went
    to that person. When several contacts share the next birthday, any one of them, consistently."""

    scope = "cross-app"
    app = "contacts"
    related_apps = ["contacts", "calendar", "messages"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app-transfer", "date-reasoning", "form-filling", "messaging"]
    templates = {"en": ["Find out in Contacts whose birthday comes next (a birthday today counts). Add an all-day "
                        "Calendar event on that day called \"<their name>'s birthday\", then text them \"{greeting}\".",
                        "Whose birthday is coming up next in my contacts? Put it in my calendar as an all-day event "
                        "titled with their name and the word birthday, and send them \"{greeting}\"."],
                 "zh": ["在通讯录里看看谁下一个过生日（今天过生日也算），在日历里那天添加一个全天日程，标题写“某某的生日”"
                        "（某某是他的名字），再给他发短信“{greeting}”"]}
    parameters = {"greeting": {"sampler": Messages.sample_greeting}}
    expected_changes = [*CALENDAR_ADD_EVENT_CHANGES, *MESSAGES_SEND_CHANGES]

    def distractors(self, apps, os_state):
        _, people = next_birthday_people(Contacts(apps["contacts"]).contacts(), os_state)
        return {"other contacts with a birthday": (sum(bool(c["birthday"]) for c in Contacts(apps["contacts"]).contacts()) - len(people), 2)}

    def check_goals(self, input):
        iso, people = next_birthday_people(Contacts(input.apps_init["contacts"]).contacts(), input.os_init)
        calendar = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        event_check, named = check_birthday_event(calendar.new_events(), iso, people)
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        greeted = [messages.check_sent(p["name"], [n["number"] for n in p["phones"]], self.p.greeting,
                                       lambda t: Messages.same_text(self.p.greeting, t)) for p in (named or people)]
        passed = [c for c in greeted if c["passed"]]
        return [event_check, (passed or greeted)[0]]


class WarmestDayPicnic(BaseTask):
    """Verdict: a new Calendar event titled Picnic (野餐) on the warmest day of the city's five-day forecast,
    12:00-14:00, at the city (its name as the
    phone's language writes it), and a text to the contact stating that day and no other forecast day (sampled so the warmest
    day is unique and not today; set-up plants a runner-up day NEAR_MISS °C or less below it)."""

    scope = "cross-app"
    app = "weather"
    related_apps = ["weather", "calendar", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["comparison", "cross-app-transfer", "form-filling", "messaging"]
    templates = {"en": ["Find the warmest day in the five-day forecast for {city.name}, add a \"Picnic\" event to my "
                        "calendar that day from 12:00 to 14:00 with {city.name} as its location, and text {name} which "
                        "day the picnic is.",
                        "I want a picnic in {city.name} on whichever of the next five days is warmest. Put \"Picnic\" in "
                        "Calendar for that day, 12:00-14:00, location {city.name}, and send {name} a message with the date."],
                 "zh": ["看看{city.name_zh}五天天气预报里哪天最暖和，在日历里那天 12:00 到 14:00 添加日程“野餐”，地点填{city.name_zh}，"
                        "再发短信告诉{name}野餐是哪一天"]}
    parameters = {"city": {"sampler": Weather.sample_city_with_warmest_day},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*CALENDAR_ADD_EVENT_CHANGES, *MESSAGES_SEND_CHANGES]

    def inject(self, device) -> None:
        device.set_state(prepare_state_with_runner_up(copy_state(device)["apps"]["weather"], self.rng, self.p.city["id"]))

    def distractors(self, apps, os_state):
        return warmest_day_distractors(apps["weather"], self.p.city["id"])

    def check_goals(self, input):
        offset = Weather(input.apps_init["weather"]).warmest_day(self.p.city["id"])
        day = forecast_date(input.os_init, offset).isoformat()
        others = [forecast_date(input.os_init, o).isoformat() for o in range(5) if o != offset]
        calendar = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        title = PICNIC["zh" if self.language == "zh" else "en"]
        event = calendar.new_event(title)
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [Calendar.check_event("picnic event", event, {"date": day, "all_day": False, "start": PICNIC_SLOT[0],
                                                             "end": PICNIC_SLOT[1],
                                                             "location": self.p.city["name_zh" if self.language == "zh" else "name"]}),
                *messages.check_sent_facts(self.p.name, numbers, {"day": day}, rivals={"day": others},
                                           os_state=input.os_init)]


class AlarmBeforeEventTellAttendee(BaseTask):
    """Verdict: Clock has a new enabled alarm 30 minutes before the event starts, and the person its notes list
    got a text stating the start time (no other start time of that day's events).
    Injection: the event's notes list one contact ("With X." / "参加：X。")."""

    scope = "cross-app"
    app = "calendar"
    related_apps = ["calendar", "clock", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "time-arithmetic", "cross-app-transfer", "messaging"]
    templates = {"en": ["Set an alarm 30 minutes before my '{title}' starts, then text the person listed in the "
                        "event's notes what time it starts.",
                        "I don't want to be late for '{title}': add a Clock alarm half an hour before it begins and "
                        "let the person named in its notes know the start time by text."],
                 "zh": ["在时钟里设一个比“{title}”开始时间早 30 分钟的闹钟，再发短信把开始时间告诉这个日程备注里写的参加人"]}
    parameters = {"title": {"sampler": sample_event_apart_by_start},
                  "attendee": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*CLOCK_ADD_ALARM_CHANGES, *MESSAGES_SEND_CHANGES]

    def inject(self, device) -> None:
        state = copy_state(device)
        device.set_state(prepare_state_with_attendee(state["apps"]["calendar"], self.p.title, self.p.attendee,
                                                     state["os"].get("language", "en")))

    def distractors(self, apps, os_state):
        return {"other upcoming timed events": (len(upcoming_timed(apps["calendar"], os_state)) - 1, 2)}

    def check_goals(self, input):
        calendar = Calendar(input.apps_init["calendar"])
        event = calendar.event(self.p.title)
        start = dt.datetime.strptime(event["start"], "%H:%M")
        alarm = start - dt.timedelta(minutes=30)
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.attendee)["phones"]]
        others = [e["start"] for e in calendar.events_on(event["date"]) if e["start"] and e["start"] != event["start"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [_check_alarm(input, alarm.hour, alarm.minute, "alarm 30 min before"),
                *messages.check_sent_facts(self.p.attendee, numbers, {"start time": event["start"]},
                                           rivals={"start time": others}, os_state=input.os_init)]


class QuietDuringEvent(BaseTask):
    """Verdict: Do Not Disturb is on (it was off), and Clock has a new enabled alarm at the event's end time."""

    scope = "cross-app"
    app = "calendar"
    related_apps = ["calendar", "settings", "clock"]
    objective = "operate"
    difficulty = "L3"
    composition = "sequential"
    capabilities = ["information-retrieval", "settings", "cross-app-transfer"]
    templates = {"en": ["I'm heading into '{title}'. Turn on Do Not Disturb in Settings, and set an alarm for the "
                        "time it ends so I remember to turn it back off.",
                        "Silence my phone for '{title}': switch on Do Not Disturb and add a Clock alarm at the "
                        "event's end time."],
                 "zh": ["我要去参加“{title}”了。在设置里打开勿扰模式，再在时钟里按这个日程的结束时间设一个闹钟，提醒我关掉勿扰"]}
    parameters = {"title": {"sampler": sample_event_apart_by_end}}
    expected_changes = [*SETTINGS_DND_CHANGES, *CLOCK_ADD_ALARM_CHANGES]

    def set_up(self, device):
        device.set_state({"apps": {"settings": {"do_not_disturb": False}}})

    def distractors(self, apps, os_state):
        return {"other upcoming timed events": (len(upcoming_timed(apps["calendar"], os_state)) - 1, 2)}

    def check_goals(self, input):
        end = Calendar(input.apps_init["calendar"]).event(self.p.title)["end"]
        dnd = input.apps["settings"]["do_not_disturb"]
        return [check("Do Not Disturb", True, dnd, dnd is True),
                _check_alarm(input, int(end[:2]), int(end[3:]), "alarm at the end")]


class SaveNewNumberWithNote(BaseTask):
    """Verdict: a new contact named after the texter holds the number their text came from, and a new note
    titled with their name states where you met (the place their text names, no other place of the pools).
    Injection: another new number introduced itself a day ago, met somewhere else, when none has."""

    scope = "cross-app"
    app = "messages"  # the name is sampled from the texts: a new number that introduced itself and a place
    related_apps = ["messages", "contacts", "notes"]
    objective = "operate"
    difficulty = "L4"
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "form-filling", "text-entry"]
    templates = {"en": ["{name} texted me from a new number. Save it in Contacts under the name {name}, then write a "
                        "note titled '{name}' saying where we met.",
                        "Add the number {name} just texted me from to my contacts as {name}, and make a note called "
                        "'{name}' that records where their message says we met."],
                 "zh": ["{name}用新号码给我发了短信。把这个号码以{name}的名字存进通讯录，再新建一条标题为“{name}”的笔记，"
                        "写上短信里说的我们是在哪儿认识的"]}
    parameters = {"name": {"sampler": sample_introduced_with_place}}
    expected_changes = [*CONTACTS_ADD_CHANGES, *MESSAGES_READ_CHANGES, *NOTES_ADD_NOTE_CHANGES]

    def inject(self, device) -> None:
        if patch := prepare_state_with_other_newcomer(copy_state(device), self.p.name, self.rng):
            device.set_state(patch)

    def distractors(self, apps, os_state):
        return {"new numbers that met you elsewhere": (len(other_newcomers(apps["messages"], self.p.name)),
                                                       MIN_OTHER_NEWCOMERS)}

    def check_goals(self, input):
        number, place, others = where_met(input.apps_init["messages"], self.p.name)
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        notes = Notes(input.apps["notes"], init=input.apps_init["notes"])
        return [contacts.check_new_contact(self.p.name, number),
                *Notes.check_note_facts(f"note '{self.p.name}'", notes.new_note(self.p.name), {"where we met": place},
                                        rivals={"where we met": others}, os_state=input.os_init)]


class TextErrandsList(BaseTask):
    """Verdict: the person the errands note names got a text listing its three items and no other grocery item.
    Injection: a note "Errands" ("跑腿清单"): "Pick up for X:" and three grocery items, one a line."""

    scope = "cross-app"
    app = "notes"
    related_apps = ["notes", "contacts", "messages"]
    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "messaging"]
    templates = {"en": ["My '{errands.title}' note lists things I'm picking up for someone. Text that person "
                        "everything on the list so they can check it.",
                        "Look at my '{errands.title}' note and send the person it's for a message with all the items "
                        "on it."],
                 "zh": ["我的笔记“{errands.title}”里记着要帮一个人带的东西。把清单上的东西都发短信告诉这个人，让他核对一下"]}
    parameters = {"errands": {"sampler": sample_errands, "fields": ["title", "items"]},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MESSAGES_SEND_CHANGES

    def inject(self, device) -> None:
        device.set_state(prepare_state_with_errands(self.p.errands, self.p.name, copy_state(device)["os"]))

    def distractors(self, apps, os_state):
        return {"other notes": (len(apps["notes"]["notes"]) - 1, 2)}

    def check_goals(self, input):
        items = self.p.errands["items"]
        others = [i for i in grocery_items(self.language) if i not in items]
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return messages.check_sent_facts(self.p.name, numbers, {f"item {i + 1}": item for i, item in enumerate(items)},
                                         rivals={f"item {i + 1}": others for i in range(len(items))},
                                         os_state=input.os_init)


class RecommendedSongAndReply(BaseTask):
    """Verdict: the playlist holds its songs plus the song a contact recommended by text, and that contact got a
    text naming the playlist (no other playlist).
    Injection: the contact texts the recommendation an hour ago (unread); another contact, three hours ago, that they
    are tired of another song, when no other text names one."""

    scope = "cross-app"
    app = "music"
    related_apps = ["messages", "music", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "list-management", "messaging"]
    templates = {"en": ["A friend texted me a song recommendation. Add that song to my '{playlist.name}' playlist, "
                        "then text them back that it's on '{playlist.name}' now.",
                        "Someone recommended a song in Messages: put it on my '{playlist.name}' playlist and reply to "
                        "them saying it's in '{playlist.name}'."],
                 "zh": ["有个朋友发短信给我推荐了一首歌。把这首歌加到我的歌单“{playlist.name}”里，再回短信告诉他已经加进"
                        "“{playlist.name}”了"]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}, "playlist": {"sampler": Music.sample_playlist},
                  "song": {"sampler": Music.sample_song_not_in_playlist}}
    expected_changes = [*MUSIC_ADD_TO_PLAYLIST_CHANGES, *MESSAGES_READ_CHANGES, *MESSAGES_SEND_CHANGES]

    def inject(self, device) -> None:
        text_from_contact(device, self.p.name, f"rec_{self.p.song['id']}",
                          lambda language: Music.recommendation_text(self.p.song, language))
        doc = copy_state(device)
        if patch := prepare_state_with_song_gripe(doc, self.p.name, self.p.song["id"], self.p.playlist["id"], self.rng):
            device.set_state(patch)

    def distractors(self, apps, os_state):
        music = Music(apps["music"])
        artist = music.song(self.p.song["id"])["artist_id"]
        return {"other songs of the artist": (len(music.artist_songs(artist)) - 1, 2),
                "other contacts' texts naming another song": (len(song_gripes(apps, self.p.name, self.p.song["id"])),
                                                              MIN_SONG_GRIPES),
                "other playlists": (len(music.require(".playlists")) - 1, 1)}

    def check_goals(self, input):
        music_init = Music(input.apps_init["music"])
        others = [p["name"] for p in music_init.require(".playlists") if p["id"] != self.p.playlist["id"]]
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [Music(input.apps["music"]).check_playlist_songs(music_init, self.p.playlist, added=(self.p.song["id"],)),
                messages.check_sent(self.p.name, numbers, "a text", lambda text: True),
                check_names_one("playlist named", messages.texts_to(numbers), self.p.playlist["name"], others)]
