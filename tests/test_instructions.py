"""Instructions have one reading: the grounded suffix is its own sentence, and week/weekday phrases carry dates
computed from the phone's clock."""
from __future__ import annotations

import datetime as dt
import re

import pytest

from mobilegym.judge import default_registry
from mobilegym.judge.grounded import grounded_instruction
from mobilegym.judge.timeutil import datetime_to_ms
from mobilegym.sim.app import load_app
from mobilegym.device.sim import SimDevice
from mobilegym.tasks.calendar.app import Calendar
from tests.test_judge_fakes import FakeDevice

EN = " Then open the AnswerSheet app, enter the answer and submit it."
ZH = "然后打开答题卡应用，填写答案并提交。"
WEEKDAY = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
DATED = re.compile(rf"{WEEKDAY}, (?:January|February|March|April|May|June|July|August|September|October|November|"
                   r"December) \d{1,2}")
AMBIGUOUS = [re.compile(rf"\bnext {WEEKDAY}\b", re.I), re.compile(r"\bthis weekend\b", re.I),
             re.compile("下周|本周|这周|周末|下个?星期")]
WEEK = re.compile(r"\b(?:this|next) week\b", re.I)


@pytest.mark.parametrize("text, language, expected", [
    ("How many alarms?", "en", "How many alarms?" + EN),
    ("Turn off Wi-Fi", "en", "Turn off Wi-Fi." + EN),
    ("Turn off Wi-Fi.  ", "en", "Turn off Wi-Fi." + EN),
    ("List them:", "en", "List them." + EN),
    ('Reply "On my way."', "en", 'Reply "On my way."' + EN),
    ("Name it 'Lab'", "en", "Name it 'Lab'." + EN),
    ("有几个闹钟？", "zh", "有几个闹钟？" + ZH),
    ("关闭 WLAN", "zh", "关闭 WLAN。" + ZH),
    ("说明一下，", "zh", "说明一下。" + ZH),
    ("Count them", "fr", "Count them." + EN),
])
def test_the_grounded_suffix_is_its_own_sentence(text: str, language: str, expected: str) -> None:
    assert grounded_instruction(text, language) == expected


def test_the_suffix_names_the_app_as_the_launcher_shows_it() -> None:
    app = load_app("answer_sheet")
    assert app.label in grounded_instruction("x", "en") and app.label_zh in grounded_instruction("x", "zh")


def _os_on(day: dt.date) -> dict:
    return {"time_ms": datetime_to_ms(dt.datetime.combine(day, dt.time(9, 0)))}


@pytest.mark.parametrize("today, week, label", [
    (dt.date(2026, 3, 16), 0, "Monday, March 16 to Sunday, March 22"),
    (dt.date(2026, 3, 22), 0, "Monday, March 16 to Sunday, March 22"),
    (dt.date(2026, 3, 22), 1, "Monday, March 23 to Sunday, March 29"),
    (dt.date(2026, 12, 30), 1, "Monday, January 4 to Sunday, January 10"),
])
def test_week_labels_follow_the_phone_date(today: dt.date, week: int, label: str) -> None:
    assert Calendar.sample_week_label(None, {}, {"week": week}, _os_on(today)) == label


def test_week_label_without_a_week_parameter_is_the_current_week() -> None:
    assert Calendar.sample_week_label(None, {}, {}, _os_on(dt.date(2026, 3, 18))).startswith("Monday, March 16 ")


@pytest.mark.parametrize("today, weekday, iso", [
    (dt.date(2026, 3, 16), 1, "2026-03-24"),  # "next Tuesday" on a Monday: the Tuesday of next week
    (dt.date(2026, 3, 22), 0, "2026-03-23"),  # on a Sunday, next week starts tomorrow
    (dt.date(2026, 3, 20), 4, "2026-03-27"),
])
def test_day_next_week_follows_the_phone_date(today: dt.date, weekday: int, iso: str) -> None:
    day = Calendar.sample_day_next_week(None, {}, {"weekday": weekday}, _os_on(today))
    assert day["iso"] == iso and day["label"].endswith(f"{dt.date.fromisoformat(iso):%B} {int(iso[-2:])}")


def _instructions() -> list[tuple[str, str, str]]:
    registry = default_registry()
    phone = SimDevice(1080, 2400)
    out = []
    for task_id, ref in sorted(registry.refs.items()):
        if not hasattr(ref, "cls"):
            out += [(task_id, lang, ref.instruction(lang)) for lang in ("en", "zh")]
            continue
        for lang in ("en", "zh"):
            for seed in range(3):
                out.append((task_id, lang, ref.start(phone, seed=seed, eval_mode="text", language=lang).instruction))
    return out


def test_no_instruction_has_a_relative_week_or_weekday_without_its_date() -> None:
    bad = [(task_id, lang, text) for task_id, lang, text in _instructions()
           if any(p.search(text) for p in AMBIGUOUS) or (WEEK.search(text) and not DATED.search(text))]
    assert not bad, bad


def _phone_state_on(day: dt.date) -> dict:
    phone = SimDevice(1080, 2400)
    phone.reset_state(0)
    state = phone.get_state()
    state["os"].update(_os_on(day))
    return state


def test_instruction_and_judge_agree_on_the_phone_date() -> None:
    """On a Sunday the dates move with the phone's clock, and the judge expects the date the instruction names."""
    registry = default_registry()
    device = FakeDevice(_phone_state_on(dt.date(2026, 3, 22)))
    week = registry.refs["calendar.CountEventsInWeek"].start(device, eval_mode="text", params={"week": "next week"})
    assert "next week, from Monday, March 23 to Sunday, March 29" in week.instruction
    event = registry.refs["calendar.CreateDetailedEvent"].start(device, eval_mode="text", params={"weekday": 1})
    assert "Tuesday, March 24" in event.instruction
    assert event.evaluate().checks[0]["expected"]["date"] == "2026-03-24"
