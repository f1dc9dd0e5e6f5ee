"""Scripted plans for the notes suite: one oracle per task and realistic mistakes that must score 0.

Plans only act through the Driver (taps, typing, answers) and read what the screen shows.
"""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.oracle import Driver, negative, plan

from ..calendar.ui import day_events, open_day, today
from ..browser.ui import cook_line, search_and_open
from ..contacts.ui import collect, compose
from ..mail.ui import flight_code, other_code
from .app import FACT_LABELS
from .ui import open_note, write_note
from ..cross_app.ui import add_event


# --- helpers -------------------------------------------------------------------------------------------


def open_todos(d: Driver) -> None:
    d.open_app("Notes")
    d.tap(rid="tab_1")


def add_todo(d: Driver, text: str, due: dt.date | None = None) -> None:
    """Add a to-do from the To-dos tab, its due date set through the date picker."""
    open_todos(d)
    d.tap(rid="add_todo")
    d.type(text, rid="todo_text_input")
    if due is not None:
        d.pick_date(due, rid="todo_due_input")
    d.tap(rid="button1")


def swipe_down(d: Driver) -> bool:
    """Scroll the screen's list one page down; False when it did not move."""
    lists = [n for n in d.nodes() if n.scrollable]
    if not lists:
        return False
    box = lists[-1].bounds
    before = d.nodes()
    x, top, bottom = (box[0] + box[2]) // 2, box[1] + (box[3] - box[1]) // 4, box[1] + 3 * (box[3] - box[1]) // 4
    d.step({"type": "swipe", "x": x, "y": bottom, "x2": x, "y2": top, "duration_ms": 400})
    return d.nodes() != before


def all_todos(d: Driver) -> dict[str, tuple[bool, str | None]]:
    """Every to-do on the To-dos tab: text -> (done, "Due Mar 20" or None), scrolling through the list."""
    seen: dict[str, tuple[bool, str | None]] = {}
    while True:
        nodes = d.nodes()
        for i, node in enumerate(nodes):
            if node.short_id == "todo_check":
                due = next((n.text for n in nodes[i + 1:i + 4] if n.short_id == "todo_due"), None)
                if node.desc not in seen or seen[node.desc][1] is None:
                    seen[node.desc] = (node.checked, due)
        if not swipe_down(d):
            return seen


def delete_todo(d: Driver, text: str) -> None:
    """Open a to-do from the list and delete it there."""
    d.tap(rid="todo_text", text=text)
    d.tap(rid="delete_todo")
    d.tap(rid="button1")


def open_count(d: Driver) -> int:
    """The "N open" count shown above the to-do list."""
    match = re.match(r"(\d+)", d.find(rid="open_count").text)
    assert match is not None
    return int(match.group(1))


# --- PinNote -------------------------------------------------------------------------------------------

@plan("notes.PinNote")
def pin_note(d: Driver) -> None:
    open_note(d, d.params["title"])
    d.tap(rid="pin_note")
    d.complete()


@negative("notes.PinNote", "taps the pin twice (back where it started)")
def pin_note_twice(d: Driver) -> None:
    open_note(d, d.params["title"])
    d.tap(rid="pin_note")
    d.tap(rid="pin_note")
    d.complete()


@negative("notes.PinNote", "pins the neighbouring note instead")
def pin_note_wrong(d: Driver) -> None:
    d.open_app("Notes")
    other = next(t for t in d.texts("note_title_text") if t != d.params["title"])
    open_note(d, other)
    d.tap(rid="pin_note")
    d.complete()


# --- ToggleTodo ----------------------------------------------------------------------------------------

@plan("notes.ToggleTodo")
def toggle_todo(d: Driver) -> None:
    open_todos(d)
    d.tap(rid="todo_check", desc=d.params["text"])
    d.complete()


@negative("notes.ToggleTodo", "opens the to-do (a row tap) and leaves without ticking it")
def toggle_todo_open_only(d: Driver) -> None:
    open_todos(d)
    d.tap(rid="todo_text", text=d.params["text"])
    d.key("back")
    d.complete()


@negative("notes.ToggleTodo", "deletes the to-do instead of toggling it")
def toggle_todo_delete(d: Driver) -> None:
    open_todos(d)
    delete_todo(d, d.params["text"])
    d.complete()


# --- CountOpenTodos ------------------------------------------------------------------------------------

@plan("notes.CountOpenTodos")
def count_open_todos(d: Driver) -> None:
    open_todos(d)
    d.submit_answer([open_count(d)])
    d.complete()


@negative("notes.CountOpenTodos", "counts every to-do, completed ones too")
def count_all_todos(d: Driver) -> None:
    open_todos(d)
    d.submit_answer([len(all_todos(d))])
    d.complete()


# --- CreateNote ----------------------------------------------------------------------------------------

@plan("notes.CreateNote")
def create_note(d: Driver) -> None:
    write_note(d, d.params["note"]["title"], d.params["note"]["body"])
    d.complete()


@negative("notes.CreateNote", "types everything but leaves without saving")
def create_note_unsaved(d: Driver) -> None:
    d.open_app("Notes")
    d.tap(rid="add_note")
    d.type(d.params["note"]["title"], rid="note_title")
    d.type(d.params["note"]["body"], rid="note_body")
    d.key("back")
    d.key("back")
    d.complete()


@negative("notes.CreateNote", "puts only the first half of the text")
def create_note_partial(d: Driver) -> None:
    body = d.params["note"]["body"]
    write_note(d, d.params["note"]["title"], body[: len(body) // 2])
    d.complete()


# --- DeleteNote ----------------------------------------------------------------------------------------

@plan("notes.DeleteNote")
def delete_note(d: Driver) -> None:
    open_note(d, d.params["title"])
    d.tap(rid="delete_note")
    d.tap(rid="button1")
    d.complete()


@negative("notes.DeleteNote", "empties the note instead of deleting it")
def delete_note_emptied(d: Driver) -> None:
    open_note(d, d.params["title"])
    d.type(" ", rid="note_body")
    d.tap(rid="save_note")
    d.complete()


@negative("notes.DeleteNote", "dismisses the confirmation")
def delete_note_cancelled(d: Driver) -> None:
    open_note(d, d.params["title"])
    d.tap(rid="delete_note")
    d.tap(rid="button2")
    d.complete()


# --- AppendToNote --------------------------------------------------------------------------------------

@plan("notes.AppendToNote")
def append_to_note(d: Driver) -> None:
    open_note(d, d.params["entry"]["title"])
    d.type("\n" + d.params["entry"]["item"], rid="note_body", clear=False)
    d.tap(rid="save_note")
    d.complete()


@negative("notes.AppendToNote", "replaces the list with the new item")
def append_to_note_replaced(d: Driver) -> None:
    open_note(d, d.params["entry"]["title"])
    d.type(d.params["entry"]["item"], rid="note_body")
    d.tap(rid="save_note")
    d.complete()


@negative("notes.AppendToNote", "writes it in a new note instead")
def append_to_note_new_note(d: Driver) -> None:
    write_note(d, d.params["entry"]["title"], d.params["entry"]["item"])
    d.complete()


# --- AddTodo -------------------------------------------------------------------------------------------

@plan("notes.AddTodo")
def add_todo_plan(d: Driver) -> None:
    due = today(d) + dt.timedelta(days=d.params["due"])
    add_todo(d, d.params["text"], due)
    d.complete()


@negative("notes.AddTodo", "adds the to-do without a due date")
def add_todo_no_due(d: Driver) -> None:
    add_todo(d, d.params["text"])
    d.complete()


@negative("notes.AddTodo", "due a day late")
def add_todo_late(d: Driver) -> None:
    due = today(d) + dt.timedelta(days=d.params["due"] + 1)
    add_todo(d, d.params["text"], due)
    d.complete()


# --- NoteFactQuery -------------------------------------------------------------------------------------

def _fact_label(d: Driver) -> str:
    """The asked fact's label as the notes of the phone's language write it."""
    return d.t(*FACT_LABELS[d.params["fact"]])


def _fact(d: Driver, label: str) -> str:
    d.open_app("Notes")
    d.tap(rid="search")
    d.type(label, rid="search_input")
    d.tap(rid="search_result")
    body = d.find(rid="note_body").text
    return next(line.split(":", 1)[1].strip() for line in body.split("\n")
                if line.split(":", 1)[0].strip().lower() == label.lower())


@plan("notes.NoteFactQuery")
def note_fact(d: Driver) -> None:
    d.submit_answer([_fact(d, _fact_label(d))])
    d.complete()


@negative("notes.NoteFactQuery", "reads the line above (the network name)")
def note_fact_wrong_line(d: Driver) -> None:
    d.open_app("Notes")
    d.tap(rid="search")
    d.type(_fact_label(d), rid="search_input")
    d.tap(rid="search_result")
    lines = d.find(rid="note_body").text.split("\n")
    index = next(i for i, line in enumerate(lines) if line.lower().startswith(_fact_label(d).lower()))
    d.submit_answer([lines[index - 1].split(":", 1)[1].strip()])
    d.complete()


# --- CompleteTodoAndCount ------------------------------------------------------------------------------

@plan("notes.CompleteTodoAndCount")
def complete_todo_and_count(d: Driver) -> None:
    open_todos(d)
    d.tap(rid="todo_check", desc=d.params["text"])
    d.submit_answer([open_count(d)])
    d.complete()


@negative("notes.CompleteTodoAndCount", "reports the count from before checking it off")
def complete_todo_count_before(d: Driver) -> None:
    open_todos(d)
    before = open_count(d)
    d.tap(rid="todo_check", desc=d.params["text"])
    d.submit_answer([before])
    d.complete()


@negative("notes.CompleteTodoAndCount", "counts right but never checks it off")
def complete_todo_not_checked(d: Driver) -> None:
    open_todos(d)
    d.submit_answer([open_count(d) - 1])
    d.complete()


# --- ClearCompletedTodos -------------------------------------------------------------------------------

def _delete_done(d: Driver, keep_last: bool = False) -> None:
    open_todos(d)
    done = [text for text, (checked, _) in all_todos(d).items() if checked]
    for text in (done[:-1] if keep_last else done):
        delete_todo(d, text)


@plan("notes.ClearCompletedTodos")
def clear_completed_todos(d: Driver) -> None:
    _delete_done(d)
    d.complete()


@negative("notes.ClearCompletedTodos", "misses the last completed to-do")
def clear_completed_partial(d: Driver) -> None:
    _delete_done(d, keep_last=True)
    d.complete()


@negative("notes.ClearCompletedTodos", "unchecks the completed to-dos instead of deleting them")
def clear_completed_unchecked(d: Driver) -> None:
    open_todos(d)
    for text in [text for text, (checked, _) in all_todos(d).items() if checked]:
        d.tap(rid="todo_check", desc=text)
    d.complete()


# --- DayAgendaNote (Calendar -> Notes) -----------------------------------------------------------------

def _agenda_lines(d: Driver) -> list[str]:
    open_day(d, today(d) + dt.timedelta(days=d.params["day"]))
    return [f"{title} {sub.split(' – ')[0]}" if ":" in sub[:5] else title for title, sub in day_events(d)]


@plan("notes.DayAgendaNote")
def day_agenda_note(d: Driver) -> None:
    write_note(d, d.params["title"], "\n".join(_agenda_lines(d)))
    d.complete()


@negative("notes.DayAgendaNote", "lists the events without their times")
def day_agenda_no_times(d: Driver) -> None:
    lines = [line.rsplit(" ", 1)[0] for line in _agenda_lines(d)]
    write_note(d, d.params["title"], "\n".join(lines))
    d.complete()


@negative("notes.DayAgendaNote", "copies the other day's events")
def day_agenda_wrong_day(d: Driver) -> None:
    open_day(d, today(d) + dt.timedelta(days=1 - d.params["day"]))
    lines = [f"{t} {s.split(' – ')[0]}" for t, s in day_events(d)]
    write_note(d, d.params["title"], "\n".join(lines))
    d.complete()


# --- CleanupAndDueThisWeek -----------------------------------------------------------------------------

def _due_this_week(d: Driver) -> list[str]:
    """Open to-dos whose 'Due Mon D' falls in this week (read on screen), today's date from Calendar."""
    start = today(d)
    monday = start - dt.timedelta(days=start.weekday())
    days = [monday + dt.timedelta(days=i) for i in range(7)]
    week = {d.t(f"Due {day:%b} {day.day}", f"{day.month}月{day.day}日截止") for day in days}
    open_todos(d)
    return [text for text, (done, due) in all_todos(d).items() if not done and due in week]


@plan("notes.CleanupAndDueThisWeek")
def cleanup_and_due(d: Driver) -> None:
    due = _due_this_week(d)
    _delete_done(d)
    d.submit_answer([due])
    d.complete()


@negative("notes.CleanupAndDueThisWeek", "right answer but leaves the completed to-dos")
def cleanup_not_done(d: Driver) -> None:
    d.submit_answer([_due_this_week(d)])
    d.complete()


@negative("notes.CleanupAndDueThisWeek", "cleans up but lists every open to-do")
def cleanup_lists_all(d: Driver) -> None:
    _due_this_week(d)
    _delete_done(d)
    d.submit_answer([[text for text, (done, _) in all_todos(d).items() if not done]])
    d.complete()


# --- WeatherForecastNote (Weather -> Notes) ------------------------------------------------------------

def _forecast(d: Driver, index: int) -> str:
    """The forecast of a day of the city, as its row describes it after the day ("Rain, high 13°, low 9°, ...")."""
    d.open_app("Weather")
    d.tap(rid="city_item", desc=_city(d))
    d.tap(rid="forecast_item", index=index)
    desc = [n.desc for n in d.nodes() if n.short_id == "forecast_item"][index]
    return re.split(r": |：", desc, maxsplit=1)[1]


def _city(d: Driver) -> str:
    return d.params["city"][d.t("name", "name_zh")]


def _forecast_note(d: Driver, summary: str) -> None:
    write_note(d, d.t(f"Weather {_city(d)}", f"{_city(d)}天气"), d.t(f"Tomorrow: {summary}", f"明天：{summary}"))


@plan("notes.WeatherForecastNote")
def weather_note(d: Driver) -> None:
    _forecast_note(d, _forecast(d, 1))
    d.complete()


@negative("notes.WeatherForecastNote", "copies today's forecast")
def weather_note_today(d: Driver) -> None:
    _forecast_note(d, _forecast(d, 0))
    d.complete()


@negative("notes.WeatherForecastNote", "writes the conditions without temperatures")
def weather_note_no_temps(d: Driver) -> None:
    _forecast_note(d, re.split(r",|，", _forecast(d, 1))[0])
    d.complete()


# --- JSON tasks ----------------------------------------------------------------------------------------

@plan("notes.add_oat_milk_todo")
def add_oat_milk(d: Driver) -> None:
    add_todo(d, d.t("Buy oat milk", "买燕麦奶"))
    d.complete()


@negative("notes.add_oat_milk_todo", "writes it on the grocery note instead of the to-do list")
def add_oat_milk_to_grocery(d: Driver) -> None:
    open_note(d, d.t("Grocery list", "购物清单"))
    d.type(d.t("\nOat milk", "\n燕麦奶"), rid="note_body", clear=False)
    d.tap(rid="save_note")
    d.complete()


def _note_sections(d: Driver) -> tuple[set[str], set[str]]:
    """(pinned titles, other titles) of the notes list, scrolling through it."""
    pinned: set[str] = set()
    others: set[str] = set()
    section = others
    while True:
        for node in d.nodes():
            if node.short_id == "pinned_header":
                section = pinned
            elif node.short_id == "others_header":
                section = others
            elif node.short_id == "note_title_text":
                section.add(node.text)
        if not swipe_down(d):
            return pinned, others - pinned


@plan("notes.count_pinned_notes")
def count_pinned(d: Driver) -> None:
    d.open_app("Notes")
    d.submit_answer([len(_note_sections(d)[0])])
    d.complete()


@negative("notes.count_pinned_notes", "counts every note, pinned or not")
def count_pinned_all(d: Driver) -> None:
    d.open_app("Notes")
    pinned, others = _note_sections(d)
    d.submit_answer([len(pinned) + len(others)])
    d.complete()


@plan("notes.lock_note_with_password")
def lock_note(d: Driver) -> None:
    open_note(d, d.t("Wi-Fi and door codes", "Wi-Fi 和门锁密码"))
    d.abort("Notes cannot lock a note with a password.")


@negative("notes.lock_note_with_password", "pins the note and claims it is locked")
def lock_note_pinned(d: Driver) -> None:
    open_note(d, d.t("Wi-Fi and door codes", "Wi-Fi 和门锁密码"))
    d.tap(rid="pin_note")
    d.complete("Locked.")


# --- FlightCodeNoteAndText ------------------------------------------------------------------------------

def _note_and_text_code(d: Driver, note_code: str | None, text_code: str | None) -> None:
    city = d.params["city"]
    if note_code is not None:
        write_note(d, d.t(f"Flight {city}", f"{city}航班"), d.t(f"Booking code: {note_code}", f"订座记录编号：{note_code}"))
    if text_code is not None:
        compose(d, d.params["name"], d.t(f"The booking code of my flight to {city} is {text_code}",
                                         f"我飞往{city}的航班订座记录编号是{text_code}"))
    d.complete()


@plan("notes.FlightCodeNoteAndText")
def flight_code_note_and_text(d: Driver) -> None:
    code = flight_code(d, d.params["city"])
    _note_and_text_code(d, code, code)


@negative("notes.FlightCodeNoteAndText", "copies the hotel confirmation number (or another code)")
def flight_code_note_other(d: Driver) -> None:
    code = other_code(d, d.params["city"], flight_code(d, d.params["city"]))
    _note_and_text_code(d, code, code)


@negative("notes.FlightCodeNoteAndText", "writes the note but never texts the code")
def flight_code_note_no_text(d: Driver) -> None:
    _note_and_text_code(d, flight_code(d, d.params["city"]), None)


@negative("notes.FlightCodeNoteAndText", "texts the code but writes no note")
def flight_code_note_no_note(d: Driver) -> None:
    _note_and_text_code(d, None, flight_code(d, d.params["city"]))


# --- RecipeNoteAndCookingTime ---------------------------------------------------------------------------------

def _recipe(d: Driver) -> tuple[list[str], int, int]:
    """(ingredients, prep minutes, cook minutes) of the task's recipe, read on its Browser page."""
    search_and_open(d, d.params["recipe"]["title"])
    prep, cook = cook_line(d, "recipe_prep"), cook_line(d, "recipe_cook")
    items = [n.text.removeprefix("• ").strip() for n in collect(d, "ingredient")]
    return items, prep, cook


def _recipe_note_and_event(d: Driver, drop: int = 0, with_prep: bool = True, event: bool = True) -> None:

    items, prep, cook = _recipe(d)
    title = d.params["recipe"]["title"]
    write_note(d, title, "\n".join(items[:len(items) - drop]))
    if event:
        end = dt.datetime(2000, 1, 1, 18, 0) + dt.timedelta(minutes=cook + (prep if with_prep else 0))
        add_event(d, title, today(d) + dt.timedelta(days=1), "18:00", end.strftime("%H:%M"))
    d.complete()


@plan("notes.RecipeNoteAndCookingTime")
def recipe_note_and_cooking_time(d: Driver) -> None:
    _recipe_note_and_event(d)


@negative("notes.RecipeNoteAndCookingTime", "the event lasts only the cooking time")
def recipe_note_cook_only(d: Driver) -> None:
    _recipe_note_and_event(d, with_prep=False)


@negative("notes.RecipeNoteAndCookingTime", "leaves the last ingredient out of the note")
def recipe_note_short(d: Driver) -> None:
    _recipe_note_and_event(d, drop=1)


@negative("notes.RecipeNoteAndCookingTime", "writes the note but adds no event")
def recipe_note_no_event(d: Driver) -> None:
    _recipe_note_and_event(d, event=False)
