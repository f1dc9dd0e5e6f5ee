"""Accessor for the Notes app's state: notes, to-dos, checks and samplers."""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from mobilegym.envs.notes.world import pools
from mobilegym.judge import BaseApp, normalize_text
from mobilegym.languages import LANGUAGES
from mobilegym.judge.answers import fact_checks
from mobilegym.judge.result import check

NOTES_ADD_NOTE_CHANGES = ["notes.notes[+]"]  # the one note the task creates
NOTES_DELETE_NOTE_CHANGES = ["notes.notes[-title={title}]"]
NOTES_APPEND_CHANGES = ["notes.notes[title={entry.title}].body", "notes.notes[title={entry.title}].updated"]
NOTES_ADD_TODO_CHANGES = ["notes.todos[+]"]  # the one to-do the task creates
NOTES_COMPLETE_TODO_CHANGES = ["notes.todos[text={text}].done"]
NOTES_CLEAR_DONE_CHANGES = ["notes.todos[-*done=true]"]  # completed to-dos, removed

NEW_NOTES = {  # notes a task asks to write, in the phone's language
    "en": [{"title": "Parking spot", "body": "Level 3, spot C14, near the blue elevator"},
           {"title": "Wedding RSVP", "body": "Reply to Dana and Lee by April 1, two guests"},
           {"title": "Plumber visit", "body": "Leak under the kitchen sink, ask about the water heater"},
           {"title": "Gym schedule", "body": "Monday and Thursday at 7 am, Saturday swim"},
           {"title": "Podcast picks", "body": "Hidden Brain episode on habits and Radiolab on sleep"},
           {"title": "Bike lock", "body": "Combination 3-1-9-6, spare key in the drawer"}],
    "zh": [{"title": "停车位置", "body": "地下三层 C14 车位，蓝色电梯旁边"},
           {"title": "婚礼回执", "body": "4月1日前回复小丁和小李，去两个人"},
           {"title": "水管工上门", "body": "厨房水槽下面漏水，顺便问问热水器的事"},
           {"title": "健身时间表", "body": "周一和周四早上7点，周六游泳"},
           {"title": "想听的播客", "body": "讲习惯养成的那期和讲睡眠的那期"},
           {"title": "车锁密码", "body": "密码 3-1-9-6，备用钥匙在抽屉里"}],
}

def _list_items() -> dict[str, list[str]]:
    """List-like note title -> every item such a note may hold (the canonical lists and the pools' lists)."""
    out = {"Grocery list": ["Bananas", "Olive oil", "Oat milk", "Cherry tomatoes"],
           "Chicago trip packing": ["Umbrella", "Phone charger", "Travel adapter"],
           "Gift ideas for Mom": ["Scented candle", "Photo book"],
           "Movie watchlist": ["Oppenheimer", "Poor Things"],
           "Book recommendations": ["Tomorrow, and Tomorrow, and Tomorrow by Gabrielle Zevin"]}
    for language in LANGUAGES:
        pool = pools(language)
        for spec in (pool["grocery"], *pool["lists"]):
            out[spec["title"]] = list(dict.fromkeys([*out.get(spec["title"], []), *spec["items"]]))
    return out


LIST_ADDITIONS = _list_items()
FACT_LABELS = {  # a fact's label as written in an English and in a Chinese world's notes
    "Garage door code": ["Garage door code", "车库门密码"],
    "Home Wi-Fi password": ["Home Wi-Fi password", "家里 Wi-Fi 密码"],
    "Guest Wi-Fi password": ["Guest Wi-Fi password", "访客 Wi-Fi 密码"],
}
NEW_TODOS = {"en": ["Buy printer ink", "Book a haircut", "Renew car insurance", "Order contact lenses", "Call the bank",
                    "Pick up the parcel", "Back up the laptop"],
             "zh": ["买打印机墨盒", "预约理发", "续交车险", "订隐形眼镜", "给银行打电话", "去驿站拿包裹", "备份笔记本电脑"]}
AGENDA_TITLES = {"en": ["Agenda", "Day plan", "Schedule"], "zh": ["日程", "当天安排", "行程表"]}
MIN_AGENDA_EVENTS = 2  # DayAgendaNote: events on the day, at least (Calendar.prepare_state_with_more_events adds the rest)


def _line_key(line: str) -> str:
    """A line as compared: normalised, without surrounding punctuation."""
    return normalize_text(line).strip(" .,;:!?。，；：！？")


def lines(text: str) -> list[str]:
    """The non-empty, stripped lines of a text."""
    return [line.strip() for line in text.split("\n") if line.strip()]


def describe_note(note: Mapping[str, Any] | None) -> str:
    """A readable one-line summary for checks."""
    if note is None:
        return "no such note"
    return f"{note['title']!r}: {' / '.join(lines(note['body']))}"


class Notes(BaseApp):
    """Notes ({id, title, body, pinned, created, updated}) and to-dos ({id, text, done, due})."""

    # --- data ----------------------------------------------------------------------------------

    def notes(self) -> list[dict[str, Any]]:
        """Every note."""
        return self.require(".notes")

    def note(self, title: str) -> dict[str, Any]:
        """The note with this exact title; raises ValueError when there is none."""
        return self.find(".notes", title=title)

    def note_by_id(self, note_id: str) -> dict[str, Any] | None:
        """The note with this id, or None when it is gone."""
        return next((n for n in self.notes() if n["id"] == note_id), None)

    def new_notes(self) -> list[dict[str, Any]]:
        """Notes that were not in the initial state."""
        if self.init is None:
            raise ValueError("notes: new_notes needs the initial state")
        old = {n["id"] for n in self.init["notes"]}
        return [n for n in self.notes() if n["id"] not in old]

    def new_note(self, title: str) -> dict[str, Any] | None:
        """The newly created note with this title (normalised), or None."""
        want = normalize_text(title)
        return next((n for n in self.new_notes() if normalize_text(n["title"]) == want), None)

    def note_value(self, label: str) -> str:
        """The value of a "label: value" line in any note (label compared case-insensitively; a fact of
        FACT_LABELS also under its Chinese label)."""
        wanted = {normalize_text(name) for name in FACT_LABELS.get(label, [label])}
        for note in self.notes():
            for line in lines(note["body"]):
                key, sep, value = line.replace("：", ":").partition(":")
                if sep and normalize_text(key) in wanted:
                    return value.strip()
        raise ValueError(f"notes: no note has a line '{label}: ...'")

    def todos(self) -> list[dict[str, Any]]:
        """Every to-do."""
        return self.require(".todos")

    def todo(self, text: str) -> dict[str, Any]:
        """The to-do with this exact text; raises ValueError when there is none."""
        return self.find(".todos", text=text)

    def open_todos(self) -> list[dict[str, Any]]:
        """To-dos not done yet."""
        return [t for t in self.todos() if not t["done"]]

    def done_todos(self) -> list[dict[str, Any]]:
        """To-dos already done."""
        return [t for t in self.todos() if t["done"]]

    def open_due_between(self, first: str, last: str) -> list[str]:
        """Texts of open to-dos due on dates first..last (inclusive, ISO)."""
        return [t["text"] for t in self.open_todos() if t["due"] is not None and first <= t["due"] <= last]

    def ids_due_between(self, first: str, last: str) -> list[str]:
        """Ids of to-dos (open or done) due on dates first..last (inclusive, ISO)."""
        return [t["id"] for t in self.todos() if t["due"] is not None and first <= t["due"] <= last]

    def new_todos(self) -> list[dict[str, Any]]:
        """To-dos that were not in the initial state."""
        if self.init is None:
            raise ValueError("notes: new_todos needs the initial state")
        old = {t["id"] for t in self.init["todos"]}
        return [t for t in self.todos() if t["id"] not in old]

    def new_todo(self, text: str) -> dict[str, Any] | None:
        """The newly created to-do with this text (normalised), or None."""
        want = normalize_text(text)
        return next((t for t in self.new_todos() if normalize_text(t["text"]) == want), None)

    # --- checks --------------------------------------------------------------------------------

    @staticmethod
    def check_todo(field: str, todo: Mapping[str, Any] | None, expected: Mapping[str, Any]) -> dict[str, Any]:
        """One check that a to-do exists with every expected field value."""
        shown = {k: todo[k] for k in expected} if todo is not None else "no such to-do"
        return check(field, dict(expected), shown, todo is not None and all(todo[k] == v for k, v in expected.items()))

    @staticmethod
    def check_note_lines(field: str, note: Mapping[str, Any] | None, expected: list[str]) -> dict[str, Any]:
        """One check that the note exists and its lines are exactly ``expected``, in any order (case, spacing
        and end punctuation aside): the dictated text, or a list with its new item, and nothing else."""
        have = sorted(_line_key(line) for line in lines(note["body"])) if note is not None else []
        want = sorted(_line_key(line) for line in expected if line.strip())
        return check(field, expected, describe_note(note), note is not None and have == want)

    @staticmethod
    def check_lines_with_times(field: str, note: Mapping[str, Any] | None,
                               items: list[tuple[str, str | None]]) -> dict[str, Any]:
        """One check that for every (title, start) one line of the note states the title and, when start is
        given, that time of day (read as a written fact)."""
        body = lines(note["body"]) if note is not None else []

        def listed(title: str, start: str | None) -> bool:
            facts = {"title": title, **({"start": start} if start else {})}
            return any(all(c["passed"] for c in fact_checks(line, facts)) for line in body)

        expected = [f"{t} {s}" if s else t for t, s in items]
        return check(field, expected, describe_note(note), note is not None and all(listed(t, s) for t, s in items))

    @staticmethod
    def check_note_facts(field: str, note: Mapping[str, Any] | None, facts: Mapping[str, Any], *,
                         rivals: Mapping[str, Sequence[str]] | None = None, optional: Mapping[str, Any] | None = None,
                         os_state: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """The note exists, and its body states every fact and no rival
        (:func:`mobilegym.judge.answers.fact_checks`)."""
        body = note["body"] if note is not None else ""
        return [check(field, "a new note", describe_note(note), note is not None),
                *fact_checks(body, facts, rivals=rivals, optional=optional, os_state=os_state)]

    def check_gone(self, field: str, path: str, gone_ids: set[str]) -> dict[str, Any]:
        """No item of the list at ``path`` has an id in ``gone_ids``."""
        left = sorted(i["id"] for i in self.require(path) if i["id"] in gone_ids)
        return check(field, "all deleted", left or "all deleted", not left)

    def check_kept(self, field: str, path: str, kept_ids: set[str]) -> dict[str, Any]:
        """Every item of the list at ``path`` whose id is in ``kept_ids`` still exists."""
        missing = sorted(kept_ids - {i["id"] for i in self.require(path)})
        return check(field, "none missing", missing or "none missing", not missing)

    # --- samplers ------------------------------------------------------------------------------

    @staticmethod
    def sample_new_note(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A {title, body} (in the phone's language) for a note whose title is not taken."""
        taken = {normalize_text(n["title"]) for n in state["notes"]}
        pool = [n for n in NEW_NOTES[os_state.get("language", "en")] if normalize_text(n["title"]) not in taken]
        if not pool:
            raise ValueError("notes: every candidate note title is taken")
        return dict(rng.choice(pool))

    @staticmethod
    def sample_list_addition(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """{title, item}: a list-like note and a line it does not contain yet."""
        pool = [(n["title"], item) for n in state["notes"] for item in LIST_ADDITIONS.get(n["title"], [])
                if normalize_text(item) not in normalize_text(n["body"])]
        if not pool:
            raise ValueError("notes: no list note to add an item to")
        title, item = rng.choice(pool)
        return {"title": title, "item": item}

    @staticmethod
    def sample_new_todo(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A to-do text (in the phone's language) not on the list yet."""
        taken = {normalize_text(t["text"]) for t in state["todos"]}
        pool = [t for t in NEW_TODOS[os_state.get("language", "en")] if normalize_text(t) not in taken]
        if not pool:
            raise ValueError("notes: every candidate to-do is taken")
        return rng.choice(pool)

    @staticmethod
    def sample_agenda_title(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """The title of a day's agenda note, in the phone's language."""
        return rng.choice(AGENDA_TITLES[os_state.get("language", "en")])

    @staticmethod
    def sample_open_todo(rng: random.Random, state: dict[str, Any]) -> str:
        """The text of a to-do that is not done."""
        pool = [t["text"] for t in state["todos"] if not t["done"]]
        if not pool:
            raise ValueError("notes: every to-do is done")
        return rng.choice(pool)

    @staticmethod
    def prepare_state_with_note(title: str, **fields: Any) -> dict[str, Any]:
        """A patch setting fields of the note with this title."""
        return {"apps": {"notes": {f"notes[title={title}]": fields}}}

    def prepare_state_with_some_done(self, rng: random.Random, keep_open: str | None = None) -> dict[str, Any]:
        """A patch marking 2-4 random to-dos done and the others open; ``keep_open`` (an id) stays open."""
        ids = [t["id"] for t in self.todos()]
        done = set(rng.sample([i for i in ids if i != keep_open], rng.randint(2, 4)))
        return self.prepare_state_with_todos_done({i: i in done for i in ids})

    @staticmethod
    def prepare_state_with_todos_done(done: Mapping[str, bool]) -> dict[str, Any]:
        """A patch setting the done flag of to-dos by id."""
        return {"apps": {"notes": {f"todos[id={todo_id}]": {"done": flag} for todo_id, flag in done.items()}}}
