"""Notes tasks.

Task index:
    PinNote                  operate  L1  pin or unpin a note
    ToggleTodo               operate  L1  check off or reopen a to-do
    CountOpenTodos           query    L1  how many to-dos are still open
    CreateNote               operate  L2  a new note with a title and text
    DeleteNote               operate  L2  delete a note (with confirmation)
    AppendToNote             operate  L2  add a line to a list note
    AddTodo                  operate  L2  a new to-do due today / tomorrow
    NoteFactQuery            query    L2  read a code or password written in a note
    CompleteTodoAndCount     hybrid   L2  check off a to-do and say how many remain open
    ClearCompletedTodos      operate  L3  delete every completed to-do, keep the open ones
    DayAgendaNote            operate  L3  cross-app: a note listing a day's calendar events with times
    WeatherForecastNote      operate  L3  cross-app: a note with tomorrow's forecast for a city
    CleanupAndDueThisWeek    hybrid   L4  delete completed to-dos, report the open ones due this week
    FlightCodeNoteAndText    operate  L4  cross-app: Mail -> Notes -> Messages: note a flight's booking code, text it
    RecipeNoteAndCookingTime operate  L4  cross-app: Browser -> Notes -> Calendar: a recipe's ingredients in a note, the
                                          cooking blocked out in Calendar (prep + cook time)
"""
from __future__ import annotations

import datetime as dt

from mobilegym.judge import (AnswerTask, BaseTask, CriteriaTask, build_answer_checks, normalize_text, rivals_for,
                             sim_today, copy_state)
from mobilegym.judge.result import check

from ..calendar.app import CALENDAR_ADD_EVENT_CHANGES, Calendar, week_bounds
from ..l10n import localised
from ..weather.app import Weather, forecast_date, forecast_facts, prepare_state_with_metric_units
from ..browser.app import BROWSE_CHANGES
from ..contacts.app import Contacts
from ..mail.app import Mail
from ..messages.app import MESSAGES_SEND_CHANGES, Messages
from .app import (NOTES_ADD_NOTE_CHANGES, NOTES_ADD_TODO_CHANGES, NOTES_APPEND_CHANGES, NOTES_CLEAR_DONE_CHANGES,
                   MIN_AGENDA_EVENTS, NOTES_COMPLETE_TODO_CHANGES, NOTES_DELETE_NOTE_CHANGES, Notes)


@localised(zh={"labels": {"pinned": {True: "置顶", False: "取消置顶"}}})
class PinNote(CriteriaTask):
    """Verdict: the note's pinned flag is as asked. Injection: the note starts in the opposite state."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["toggle"]
    templates = {"en": ["{pinned} my '{title}' note", "{pinned} the note called '{title}'"],
                 "zh": ["{pinned}我的“{title}”笔记", "把名为“{title}”的笔记{pinned}"]}
    parameters = {"title": {"source": ".notes[*].title"},
                  "pinned": {"type": "bool", "values": {"Pin": True, "Unpin": False}}}
    criteria = {".notes[title={title}].pinned": "{pinned}"}

    def inject(self, device) -> None:
        device.set_state(Notes.prepare_state_with_note(self.p.title, pinned=not self.p.pinned))


@localised(zh={"labels": {"done": {True: "标记为已完成", False: "标记为未完成"}}})
class ToggleTodo(CriteriaTask):
    """Verdict: the to-do's done flag is as asked. Injection: the to-do starts in the opposite state."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["toggle"]
    templates = {"en": ["In my to-do list, {done} '{text}'", "{done} the to-do '{text}' in Notes"],
                 "zh": ["在待办清单里把“{text}”{done}", "把笔记里的待办“{text}”{done}"]}
    parameters = {"text": {"source": ".todos[*].text"},
                  "done": {"type": "bool", "values": {"check off": True, "uncheck": False}}}
    criteria = {".todos[text={text}].done": "{done}"}

    def inject(self, device) -> None:
        todo = Notes(copy_state(device)["apps"]["notes"]).todo(self.p.text)
        device.set_state(Notes.prepare_state_with_todos_done({todo["id"]: not self.p.done}))


@localised(zh={"fields": [{"label": "未完成的待办数"}]})
class CountOpenTodos(AnswerTask):
    """Verdict: the answer is the number of to-dos not done.
    Injection: each to-do is randomly open or done, so the count varies."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["counting"]
    templates = {"en": ["How many to-dos do I still have to do?", "How many open items are on my to-do list?"],
                 "zh": ["我还有几项待办没做？", "待办清单里还有几项没完成？"]}
    answer = staticmethod(lambda task, apps_init: len(Notes(apps_init["notes"]).open_todos()))
    answer_fields = [{"type": "number", "label": "Open to-dos"}]

    def inject(self, device) -> None:
        notes = Notes(copy_state(device)["apps"]["notes"])
        device.set_state(notes.prepare_state_with_some_done(self.rng))


class CreateNote(BaseTask):
    """Verdict: one new note has the title and its text is the requested content (nothing else)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["text-entry", "form-filling"]
    templates = {"en": ["Create a note titled '{note.title}' that says: {note.body}",
                        "Write down '{note.body}' in a new note called '{note.title}'"],
                 "zh": ["新建一条标题为“{note.title}”的笔记，内容是：{note.body}",
                        "在一条名为“{note.title}”的新笔记里写下“{note.body}”"]}
    parameters = {"note": {"sampler": Notes.sample_new_note, "fields": ["title", "body"]}}
    expected_changes = NOTES_ADD_NOTE_CHANGES

    def check_goals(self, input):
        notes = Notes(input.apps["notes"], init=input.apps_init["notes"])
        added = notes.new_notes()
        return [notes.check_note_lines("new note", notes.new_note(self.p.note["title"]), [self.p.note["body"]]),
                check("notes added", 1, len(added), len(added) == 1)]


class DeleteNote(BaseTask):
    """Verdict: the note is gone and every other note is still there."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["deletion", "confirmation-dialog"]
    templates = {"en": ["Delete my '{title}' note", "I don't need the note '{title}' anymore, delete it"],
                 "zh": ["删除我的“{title}”笔记", "我不需要“{title}”这条笔记了，把它删掉"]}
    parameters = {"title": {"source": ".notes[*].title"}}
    expected_changes = NOTES_DELETE_NOTE_CHANGES

    def check_goals(self, input):
        init = Notes(input.apps_init["notes"])
        notes = Notes(input.apps["notes"])
        target = init.note(self.p.title)["id"]
        gone = notes.note_by_id(target) is None
        return [check(f"note '{self.p.title}' deleted", "deleted", "deleted" if gone else "still there", gone),
                notes.check_kept("other notes kept", ".notes", {n["id"] for n in init.notes()} - {target})]


class AppendToNote(BaseTask):
    """Verdict: the same note (by id) keeps every line it had and now also has the new item, and no other line."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["text-entry", "editing"]
    templates = {"en": ["Add '{entry.item}' to my '{entry.title}' note",
                        "Put '{entry.item}' on the '{entry.title}' list in Notes"],
                 "zh": ["把“{entry.item}”加到我的“{entry.title}”笔记里", "在笔记“{entry.title}”里加一行“{entry.item}”"]}
    parameters = {"entry": {"sampler": Notes.sample_list_addition, "fields": ["title", "item"]}}
    expected_changes = NOTES_APPEND_CHANGES

    def check_goals(self, input):
        before = Notes(input.apps_init["notes"]).note(self.p.entry["title"])
        note = Notes(input.apps["notes"]).note_by_id(before["id"])
        return [Notes.check_note_lines("note content", note, [*before["body"].split("\n"), self.p.entry["item"]])]


@localised(zh={"labels": {"due": {0: "今天", 1: "明天"}}})
class AddTodo(BaseTask):
    """Verdict: one new open to-do with the text and the due date (relative to the phone's date)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["form-filling", "date-entry"]
    templates = {"en": ["Add a to-do '{text}' due {due}", "Remind me to '{text}' with a to-do that is due {due}"],
                 "zh": ["添加一个待办“{text}”，{due}截止", "用一个{due}截止的待办提醒我“{text}”"]}
    parameters = {"text": {"sampler": Notes.sample_new_todo},
                  "due": {"type": "enum", "values": {"today": 0, "tomorrow": 1}}}
    expected_changes = NOTES_ADD_TODO_CHANGES

    def check_goals(self, input):
        notes = Notes(input.apps["notes"], init=input.apps_init["notes"])
        due = (sim_today(input.os_init) + dt.timedelta(days=self.p.due)).isoformat()
        added = notes.new_todos()
        return [notes.check_todo("new to-do", notes.new_todo(self.p.text), {"done": False, "due": due}),
                check("to-dos added", 1, len(added), len(added) == 1)]


@localised(zh={"labels": {"fact": {"Garage door code": "车库门密码", "Home Wi-Fi password": "家里 Wi-Fi 密码",
                                     "Guest Wi-Fi password": "访客 Wi-Fi 密码"}},
               "fields": [{"label": "答案", "hint": "按笔记里写的原样填写"}]})
class NoteFactQuery(AnswerTask):
    """Verdict: the answer is the value written after '<label>:' in the notes."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval", "search"]
    templates = {"en": ["What is the {fact} I saved in my notes?", "Look up my {fact} in Notes and tell me"],
                 "zh": ["我在笔记里记的{fact}是什么？", "在笔记里查一下我的{fact}，告诉我"]}
    parameters = {"fact": {"type": "enum", "values": {"garage door code": "Garage door code",
                                                      "home Wi-Fi password": "Home Wi-Fi password",
                                                      "guest Wi-Fi password": "Guest Wi-Fi password"}}}
    answer = staticmethod(lambda task, apps_init: Notes(apps_init["notes"]).note_value(task.p.fact))
    answer_fields = [{"type": "text", "label": "Answer", "hint": "exactly as written in the note"}]


@localised(zh={"fields": [{"label": "剩余未完成的待办数"}]})
class CompleteTodoAndCount(BaseTask):
    """Verdict: the to-do is done, and the answer is how many to-dos are open afterwards."""

    objective = "hybrid"
    difficulty = "L2"
    capabilities = ["toggle", "counting"]
    templates = {"en": ["Check off '{text}' in my to-dos, then tell me how many are still open",
                        "I finished '{text}'. Mark it done and tell me how many to-dos remain"],
                 "zh": ["在待办里勾掉“{text}”，然后告诉我还有几项没完成",
                        "“{text}”我已经做完了，把它标为完成，再告诉我还剩几项待办"]}
    parameters = {"text": {"sampler": Notes.sample_open_todo}}
    expected_changes = NOTES_COMPLETE_TODO_CHANGES
    answer_fields = [{"type": "number", "label": "Open to-dos left"}]

    def check_goals(self, input):
        notes = Notes(input.apps["notes"])
        remaining = len(Notes(input.apps_init["notes"]).open_todos()) - 1
        return [notes.check_value(f"'{self.p.text}' done", f".todos[text={self.p.text}].done", True),
                *build_answer_checks(remaining, input.answer, field="open_left")]


class ClearCompletedTodos(BaseTask):
    """Verdict: no completed to-do is left and every open one is kept.
    Injection: each to-do is randomly open or done (at least one of each)."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    capabilities = ["deletion", "filtering"]
    composition = "aggregate"
    templates = {"en": ["Delete all the completed items from my to-do list, keep the open ones",
                        "Clean up my to-dos: remove everything already checked off",
                        "Get rid of every finished to-do in Notes"],
                 "zh": ["把待办清单里已完成的项目都删掉，没完成的留着", "清理一下待办：已经勾选的全部删除",
                        "把笔记里所有已完成的待办都删掉"]}
    expected_changes = NOTES_CLEAR_DONE_CHANGES

    def inject(self, device) -> None:
        notes = Notes(copy_state(device)["apps"]["notes"])
        device.set_state(notes.prepare_state_with_some_done(self.rng))

    def distractors(self, apps, os_state):
        notes = Notes(apps["notes"])
        return {"completed to-dos to delete": (len(notes.done_todos()), 2), "open to-dos to keep": (len(notes.open_todos()), 2)}

    def check_goals(self, input):
        init = Notes(input.apps_init["notes"])
        notes = Notes(input.apps["notes"])
        return [notes.check_gone("completed to-dos deleted", ".todos", {t["id"] for t in init.done_todos()}),
                notes.check_kept("open to-dos kept", ".todos", {t["id"] for t in init.open_todos()})]


@localised(zh={"labels": {"day": {0: "今天", 1: "明天"}}})
class DayAgendaNote(BaseTask):
    """Verdict: a new note with the title lists every event of the day, each on a line with its start time
    (all-day events by title only), and no other event's title, no other time and no other day. The events
    come from the Calendar app."""

    objective = "operate"
    difficulty = "L3"
    scope = "cross-app"
    related_apps = ["notes", "calendar"]
    capabilities = ["cross-app", "information-retrieval", "text-entry"]
    composition = "aggregate"
    templates = {"en": ["Make a note titled '{title}' listing my calendar events for {day}, one per line with its "
                        "start time",
                        "Copy {day}'s events from my calendar into a new note called '{title}', with the time each "
                        "starts"],
                 "zh": ["新建一条标题为“{title}”的笔记，列出我{day}日历上的所有日程，每行一个，写上开始时间",
                        "把{day}日历上的日程抄到一条名为“{title}”的新笔记里，写上每个日程的开始时间"]}
    parameters = {"title": {"sampler": Notes.sample_agenda_title},
                  "day": {"type": "enum", "values": {"today": 0, "tomorrow": 1}}}
    expected_changes = NOTES_ADD_NOTE_CHANGES

    def inject(self, device) -> None:
        state = copy_state(device)
        day = (sim_today(state["os"]) + dt.timedelta(days=self.p.day)).isoformat()
        calendar = Calendar(state["apps"]["calendar"])
        if (missing := MIN_AGENDA_EVENTS - len(calendar.events_on(day))) > 0:
            device.set_state(calendar.prepare_state_with_more_events(self.rng, day, missing, state["os"].get("language", "en")))

    def distractors(self, apps, os_state):
        day = (sim_today(os_state) + dt.timedelta(days=self.p.day)).isoformat()
        calendar = Calendar(apps["calendar"])
        return {"events of the day": (len(calendar.events_on(day)), MIN_AGENDA_EVENTS),
                "events of other days": (len(calendar.events()) - len(calendar.events_on(day)), 1)}

    def check_goals(self, input):
        day = (sim_today(input.os_init) + dt.timedelta(days=self.p.day)).isoformat()
        calendar = Calendar(input.apps_init["calendar"])
        events = calendar.events_on(day)
        titles = [e["title"] for e in events]
        facts = {**{f"title {t}": t for t in titles},
                 **{f"start of {e['title']}": e["start"] for e in events if e["start"] is not None}}
        rivals = dict.fromkeys((f"title {t}" for t in titles), calendar.other_values("title", titles))
        notes = Notes(input.apps["notes"], init=input.apps_init["notes"])
        note = notes.new_note(self.p.title)
        return [notes.check_lines_with_times("agenda lines", note, [(e["title"], e["start"]) for e in events]),
                *notes.check_note_facts("agenda note", note, facts, rivals=rivals, optional={"day": day},
                                        os_state=input.os_init)]


def sample_city_with_a_new_forecast(rng, state):
    """A saved city whose forecast for tomorrow differs from today's (condition, high or low), so copying
    today's forecast cannot pass; any saved city when none differs."""
    def facts(city, offset):
        day = city["forecast"][offset]
        return day["condition"], day["high"], day["low"]

    saved = [c for c in state["cities"] if c["id"] in state["saved"]]
    changing = [c for c in saved if facts(c, 0) != facts(c, 1)]
    return Weather._pick(rng, changing or saved, "saved")


class WeatherForecastNote(BaseTask):
    """Verdict: a new note titled 'Weather <city>' ('<city>天气' on a Chinese phone) states tomorrow's condition for
    the city (any synonym; no other condition, "Light rain" is not "Rain") and its high and low in °C (no other
    temperature); a day, when named, is tomorrow. The forecast is read from the Weather app's state.
    Injection: the Weather app shows °C (a world may have set °F)."""

    objective = "operate"
    difficulty = "L3"
    scope = "cross-app"
    related_apps = ["notes", "weather"]
    app = "weather"
    capabilities = ["cross-app", "information-retrieval", "text-entry"]
    templates = {"en": ["Check tomorrow's weather for {city.name} and save it in a new note titled "
                        "'Weather {city.name}': the conditions and the high and low temperatures",
                        "Write tomorrow's {city.name} forecast (conditions, high, low) into a note called "
                        "'Weather {city.name}'"],
                 "zh": ["查一下{city.name_zh}明天的天气，记到一条标题为“{city.name_zh}天气”的新笔记里：写上天气状况和最高、"
                        "最低气温",
                        "把{city.name_zh}明天的天气预报（天气状况、最高气温、最低气温）写进一条名为“{city.name_zh}天气”的笔记"]}
    parameters = {"city": {"sampler": sample_city_with_a_new_forecast, "fields": ["id", "name", "name_zh"]}}
    expected_changes = NOTES_ADD_NOTE_CHANGES

    def set_up(self, device) -> None:
        prepare_state_with_metric_units(device)  # the app shows °C, the unit the check reads

    def distractors(self, apps, os_state):
        weather = Weather(apps["weather"])
        facts = [(d["condition"], d["high"], d["low"]) for d in (weather.day(self.p.city["id"], i) for i in (0, 1))]
        return {"today's forecast, unlike tomorrow's": (int(facts[0] != facts[1]), 1),
                "other saved cities": (len(apps["weather"]["saved"]) - 1, 1)}

    def check_goals(self, input):
        day = Weather(input.apps_init["weather"]).day(self.p.city["id"], 1)
        notes = Notes(input.apps["notes"], init=input.apps_init["notes"])
        title = f"{self.p.city['name_zh']}天气" if self.language == "zh" else f"Weather {self.p.city['name']}"
        return notes.check_note_facts("forecast note", notes.new_note(title),
                                      forecast_facts(day),
                                      optional={"day": forecast_date(input.os_init, 1).isoformat()},
                                      os_state=input.os_init)


@localised(zh={"fields": [{"label": "本周到期的待办"}]})
class CleanupAndDueThisWeek(BaseTask):
    """Verdict: completed to-dos are deleted (open ones kept), and the answer names every open to-do due this
    week (Monday to Sunday of the phone's date) and no other to-do.
    Injection: each to-do is randomly open or done, so the list varies."""

    objective = "hybrid"
    difficulty = "L4"
    high_risk = True
    capabilities = ["deletion", "filtering", "temporal-reasoning"]
    composition = "sequential"
    templates = {"en": ["Tidy my to-do list by deleting everything already done, then tell me which open to-dos are "
                        "due this week, from {span}",
                        "Remove the finished to-dos, and list the remaining ones whose due date falls in this week "
                        "({span})"],
                 "zh": ["把待办清单里已完成的都删掉，然后告诉我哪些未完成的待办在{span}之间到期",
                        "删除已完成的待办，再列出剩下的待办中截止日期在{span}之间的"]}
    parameters = {"span": {"sampler": Calendar.sample_week_label}}
    expected_changes = NOTES_CLEAR_DONE_CHANGES
    answer_fields = [{"type": "text", "label": "To-dos due this week", "repeatable": True, "compare": "set"}]

    def inject(self, device) -> None:
        state = copy_state(device)
        notes = Notes(state["apps"]["notes"])
        keep = self.rng.choice(notes.ids_due_between(*week_bounds(sim_today(state["os"]))))
        device.set_state(notes.prepare_state_with_some_done(self.rng, keep_open=keep))

    def distractors(self, apps, os_state):
        notes, (first, last) = Notes(apps["notes"]), week_bounds(sim_today(os_state))
        due = lambda t: t["due"] is not None and first <= t["due"] <= last
        return {"completed to-dos to delete": (len(notes.done_todos()), 2),
                "open to-dos due this week": (sum(map(due, notes.open_todos())), 1),
                "open to-dos due another week": (sum(not due(t) for t in notes.open_todos()), 1)}

    def check_goals(self, input):
        init = Notes(input.apps_init["notes"])
        notes = Notes(input.apps["notes"])
        due = init.open_due_between(*week_bounds(sim_today(input.os_init)))
        return [notes.check_gone("completed to-dos deleted", ".todos", {t["id"] for t in init.done_todos()}),
                notes.check_kept("open to-dos kept", ".todos", {t["id"] for t in init.open_todos()}),
                *build_answer_checks(due, input.answer, "due this week", rivals=rivals_for(due, input.apps_init))]


class FlightCodeNoteAndText(BaseTask):
    """Verdict: a new note titled 'Flight <city>' ('<city>航班' on a Chinese phone) states the booking code of the
    flight to the city from its Mail confirmation, and a text to the contact states that code; neither names any
    other booking, confirmation or order number the mail shows."""

    objective = "operate"
    difficulty = "L4"
    scope = "cross-app"
    app = "mail"
    related_apps = ["mail", "notes", "messages", "contacts"]
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "text-entry", "messaging"]
    templates = {"en": ["Find the booking code of my flight to {city} in Mail, save it in a new note titled "
                        "'Flight {city}', and text the code to {name}",
                        "Look up my {city} flight's booking code in my email, write it down in a note called "
                        "'Flight {city}' and send it to {name} by text message"],
                 "zh": ["在邮件里找到我飞往{city}的航班订座记录编号，记到一条标题为“{city}航班”的新笔记里，再把编号发短信告诉{name}",
                        "查一下邮件里我去{city}那趟航班的订座记录编号，写进名为“{city}航班”的笔记，并用短信发给{name}"]}
    parameters = {"city": {"sampler": Mail.sample_flight_city},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*NOTES_ADD_NOTE_CHANGES, *MESSAGES_SEND_CHANGES]

    def distractors(self, apps, os_state):
        mail = Mail(apps["mail"])
        code = mail.booking_code(self.p.city)
        return {"other codes and numbers in the mail": (sum(c != code for c in mail.codes()), 2)}

    def check_goals(self, input):
        known = Mail(input.apps_init["mail"])
        code = known.booking_code(self.p.city)
        rivals = {"booking code": [c for c in known.codes() if c != code]}
        title = f"{self.p.city}航班" if self.language == "zh" else f"Flight {self.p.city}"
        notes = Notes(input.apps["notes"], init=input.apps_init["notes"])
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [*notes.check_note_facts(f"note '{title}'", notes.new_note(title), {"booking code": code},
                                        rivals=rivals, os_state=input.os_init),
                *messages.check_sent_facts(self.p.name, numbers, {"booking code": code}, rivals=rivals,
                                           os_state=input.os_init)]


COOK_START = "18:00"  # when the cooking a RecipeNoteAndCookingTime event blocks starts, tomorrow


def sample_recipe_to_cook(rng, state) -> dict:
    """A recipe page with three or more ingredients and a title no other page has: {"id", "title"}."""
    pages = state["pages"]
    fits = [p for p in pages if p["kind"] == "recipe" and len(p["ingredients"]) >= 3
            and sum(q["title"] == p["title"] for q in pages) == 1]
    if not fits:
        raise ValueError("browser: no recipe to cook")
    page = rng.choice(fits)
    return {"id": page["id"], "title": page["title"]}


class RecipeNoteAndCookingTime(BaseTask):
    """Verdict: a new note titled with the recipe lists every ingredient of its Browser page (no ingredient of
    another recipe), and a new Calendar event titled with the recipe is tomorrow from 18:00 to 18:00 plus the
    recipe's preparation and cooking times."""

    objective = "operate"
    difficulty = "L4"
    scope = "cross-app"
    app = "browser"
    related_apps = ["browser", "notes", "calendar"]
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "time-arithmetic", "form-filling"]
    templates = {"en": ["I'm cooking {recipe.title} tomorrow. Look up the recipe in the Browser, copy its ingredients "
                        "into a new note titled '{recipe.title}', and block the time in my calendar: an event "
                        "'{recipe.title}' tomorrow starting at 18:00 and ending when it's done (preparation plus "
                        "cooking time)",
                        "Find the {recipe.title} recipe in the Browser. Make a note called '{recipe.title}' with its "
                        "ingredients, then add a '{recipe.title}' Calendar event for tomorrow from 18:00 lasting its "
                        "prep time plus its cook time"],
                 "zh": ["我明天要做“{recipe.title}”。在浏览器里查到这个菜谱，把食材抄到一条标题为“{recipe.title}”的新笔记里，"
                        "再在日历里明天添加日程“{recipe.title}”，18:00 开始，结束时间按准备时间加烹饪时间算",
                        "在浏览器里找到“{recipe.title}”的做法，新建笔记“{recipe.title}”写上所有食材，然后在日历里明天 18:00 "
                        "添加日程“{recipe.title}”，时长为准备时间加烹饪时间"]}
    parameters = {"recipe": {"sampler": sample_recipe_to_cook, "fields": ["id", "title"]}}
    expected_changes = [*NOTES_ADD_NOTE_CHANGES, *CALENDAR_ADD_EVENT_CHANGES, *BROWSE_CHANGES]

    def distractors(self, apps, os_state):
        pages = [p for p in apps["browser"]["pages"] if p["kind"] == "recipe"]
        page = next(p for p in pages if p["id"] == self.p.recipe["id"])
        return {"ingredients to copy": (len(page["ingredients"]), 3), "other recipes": (len(pages) - 1, 2)}

    def check_goals(self, input):
        pages = [p for p in input.apps_init["browser"]["pages"] if p["kind"] == "recipe"]
        page = next(p for p in pages if p["id"] == self.p.recipe["id"])
        mine = [normalize_text(i) for i in page["ingredients"]]
        others = sorted({i for p in pages for i in p["ingredients"]
                         if not any(normalize_text(i) in m or m in normalize_text(i) for m in mine)})
        facts = {f"ingredient {n + 1}": item for n, item in enumerate(page["ingredients"])}
        tomorrow = (sim_today(input.os_init) + dt.timedelta(days=1)).isoformat()
        start = dt.datetime.strptime(COOK_START, "%H:%M")
        end = (start + dt.timedelta(minutes=page["prep_min"] + page["cook_min"])).strftime("%H:%M")
        notes = Notes(input.apps["notes"], init=input.apps_init["notes"])
        calendar = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        return [*notes.check_note_facts(f"note '{page['title']}'", notes.new_note(page["title"]), facts,
                                        rivals=dict.fromkeys(facts, others), os_state=input.os_init),
                Calendar.check_event("cooking event", calendar.new_event(page["title"]),
                                     {"date": tomorrow, "all_day": False, "start": COOK_START, "end": end})]
