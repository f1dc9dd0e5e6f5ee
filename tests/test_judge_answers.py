"""The answer reader: typed mentions, the commit rule, rivals, facts, and its use by AnswerTask."""
from __future__ import annotations

import dataclasses
import datetime as dt
import re

import pytest

from mobilegym.judge import AnswerTask, PyTaskRef, TaskError, build_answer_checks, fact_checks, read_answer, rivals_for
from mobilegym.judge.answers import bare_number, kind_of, mentions, prepare
from mobilegym.judge.timeutil import datetime_to_ms
from tests.test_judge_fakes import FakeDevice

TUE_MAR_17 = {"time_ms": datetime_to_ms(dt.datetime(2026, 3, 17, 10, 0))}
CONTACTS = ["Grace Liu", "Alice Chen", "Ben Okafor", "Carla Mendes", "Li Na"]
CONDITIONS = ["Sunny", "Partly cloudy", "Cloudy", "Rain", "Light rain", "Thunderstorm"]


def reads(expected, text, **kw):
    return read_answer(expected, text, os_state=TUE_MAR_17, **kw)


# --- normalisation and mentions -------------------------------------------------------------------

@pytest.mark.parametrize("raw, clean", [
    ("Four alarms.", "4 alarms."), ("twenty-one", "21"), ("one hundred and five", "105"), ("a hundred", "100"),
    ("seven thirty pm", "7 30 pm"), ("the next one", "the next one"), ("only one", "only 1"),
    ("一共三个", "共3个"), ("两个城市一样", "2个城市样"), ("百分之七十八", "78%"), ("答案是Afterglow", "答案是 afterglow"),
    ("3–4", "3-4"), ("isn’t", "isn't"), ("Ｔｈｒｅｅ", "3"),
    (None, ""),
])
def test_prepare(raw, clean):
    assert prepare(raw) == clean


def _typed(text, prefer="number"):
    return [(m.kind, m.value, m.unit, m.role, m.negated) for m in mentions(text, prefer)]


def test_mentions_read_numbers_with_units_totals_and_negation():
    assert _typed("47.3 GB of 128 GB") == [("number", 47.3, "gb", "value", False),
                                           ("number", 128, "gb", "total", False)]
    assert _typed("5 alarms (not 4)") == [("number", 5, "count", "value", False), ("number", 4, None, "value", True)]
    assert _typed("1,024 MB, -5°C, 48 %") == [("number", 1024, "mb", "value", False),
                                             ("number", -5, "°c", "value", False), ("number", 48, "%", "value", False)]
    assert _typed("3-4") == [("number", 3, None, "range", False), ("number", 4, None, "range_end", False)]
    assert _typed("the 3rd, MG-1, 4b") == [("number", 3, None, "ordinal", False)]
    assert _typed("共3个") == [("number", 3, "count", "total", False)]


def test_mentions_read_dates_times_and_codes():
    assert _typed("Friday, March 20th, high of 12°C") == [("date", ("weekday", 4), None, "value", False),
                                                          ("date", ("date", None, 3, 20), None, "value", False),
                                                          ("number", 12, "°c", "value", False)]
    assert _typed("October 21") == [("date", ("date", None, 10, 21), None, "value", False)]
    assert _typed("2026年4月6日 下周一") == [("date", ("date", 2026, 4, 6), None, "value", False),
                                       ("date", ("relative", "下周1"), None, "value", False)]
    assert [m.value for m in mentions("2-4 PM", "time")] == [14 * 60, 16 * 60]
    assert [m.role for m in mentions("between 2 and 4 pm", "time")] == ["range", "range_end"]
    for text, minutes in [("14:30", 870), ("2:30 pm", 870), ("7.15", 435), ("0730", 450), ("half past seven", 450),
                          ("quarter to 8 pm", 1185), ("noon", 720), ("下午2点半", 870), ("7 o'clock", 420)]:
        assert [m.value for m in mentions(text, "time")] == [minutes], text
    assert [m.kind for m in mentions("7.15")] == ["number"]               # a number unless a time is asked
    # a code's digits are no time, whatever script follows it: train G1404 leaves at 06:40
    for text in ("G1404 06:40", "坐G1404次，06:40发车", "K1215, leaving 06:40"):
        assert [m.value for m in mentions(text, "time")] == [400], text
    assert [m.value for m in mentions("482 913", "code")] == ["482913"]
    assert [m.value for m in mentions("4/6", "date")] == [("date", None, 4, 6)]


@pytest.mark.parametrize("expected, kind", [
    (3, "number"), (2.5, "number"), ("278.2", "number"), ("12°C", "number"), ("482913", "code"),
    ("+1 415-555-0100", "code"), ("0042", "code"), ("4829", "code"), ("12", "number"), ("2026-04-06", "date"),
    (dt.date(2026, 4, 6), "date"), ("14:30", "time"), (dt.time(7, 0), "time"), ("MG-1 Pro", "text"),
    (True, "bool"), (["a", "b"], "list"), (re.compile("x"), "regex"),
])
def test_kind_of(expected, kind):
    assert kind_of(expected) == kind


def test_kind_of_rejects_slots():
    with pytest.raises(TaskError):
        kind_of({"a": 1})


@pytest.mark.parametrize("text, value", [
    ("12", (12, None)), ("12°", (12, "°")), ("12 °C", (12, "°c")), ("48%", (48, "%")), ("11 km/h", (11, "km/h")),
    ("1,024", (1024, None)), ("三个", (3, "count")), ("3 or 4", None), ("about 3", None), ("3 4", None),
])
def test_bare_number(text, value):
    assert bare_number(text) == value


# --- the commit rule ------------------------------------------------------------------------------

RIGHT_ANSWERS = [
    (4, "Four alarms."), (4, "There are four alarms"), (21, "twenty-one"), (3, "The answer is 3."), (3, "共3个"),
    (3, "三个"), (3, "一共有三个闹钟"), (3, "没读的对话有3个"), (3, "3 conversations I haven't read"), (3, "~3"),
    (3, "approximately 3"), (0, "No events that day"),
    (47.3, "47.3 GB of 128 GB"), (47.3, "47.3 GB used out of 128 GB"), (47.3, "已用47.3GB，总共128GB"),
    (6.1, "6.1 m/s (about 22 km/h)"), (2, "2°C (36°F)"), (12, "Friday, March 20th, high of 12°C"),
    (12, "最高气温12度"), ("12°C", "12°C, wind 11 km/h"), (-5, "-5°C"), ("278.2", "总计 278.20 元"),
    ("482913", "482 913"), ("482913", "验证码是482913"), ("+1 415-555-0100", "(415) 555-0100"),
    (dt.time(14, 0), "2-4 PM"), (dt.time(14, 0), "between 2 and 4 pm"), (dt.time(14, 0), "下午两点"),
    (dt.time(14, 0), "下午2点到4点"), (dt.time(7, 30), "half past seven"), (dt.time(7, 15), "7.15"),
    (dt.time(7, 30), "0730"), (dt.time(7, 15), "7:15 am"), (dt.time(19, 45), "quarter to eight in the evening"),
    (dt.time(12, 0), "noon"), ("14:30", "It starts at 2:30 pm on April 6"),
    (dt.date(2026, 3, 20), "Friday, March 20th, high of 12°C"), (dt.date(2026, 3, 20), "3月20日（周五）"),
    (dt.date(2026, 3, 20), "周五"), (dt.date(2026, 3, 20), "this Friday"), (dt.date(2026, 3, 18), "tomorrow"),
    (dt.date(2026, 3, 18), "明天"), ("2026-04-06", "4/6"), (dt.date(1990, 5, 3), "May 3"),
    (dt.date(2026, 3, 20), "next Friday"), (dt.date(2026, 3, 27), "next Friday"),   # both readings, said on Tuesday
    (dt.date(2026, 3, 17), "Tue, Mar 17: rain"), ("+81 90-5555-0172", "090-5555-0172"),
    ("+81 90-5555-0172", "Call 90 5555 0172"), ("UA 1542", "Flight UA1542"), ("7Z-48213", "7Z 48213"),
    ("Cloudy", "Cloudy, 30% chance of rain"), ("Cloudy", "cloudy with a chance of thunderstorms"),
    ("Cloudy", "阴，有30%的可能下雨"), ("Cloudy", "Cloudy, rain chance 30%"), ("Rain", "Rain (80% chance)"),
    ("Thunderstorm", "Thunderstorms"), ("Thunderstorm", "thunder storms tomorrow"), ("Thunderstorm", "明天有雷阵雨"),
    ("Rain", "rainy"), ("Partly cloudy", "Partly cloudy"), ("Partly cloudy", "多云"), ("Sunny", "晴天"),
    ("Grace Liu", "It's Grace Liu."), ("Grace Liu", "答案是Grace Liu"), ("Li Na", "是李娜吗？不，是Li Na"),
    ("MG-1 Pro", "the model is mg-1 pro."), ("三体", "《三体》"),
    (True, "是的，需要补班"), (True, "Yes"), (False, "No, it is not on"), (False, "不需要"), (False, "It isn’t"),
    (re.compile(r"一样|相同|tie"), "两个城市温度一样"), (re.compile(r"\bpartly cloudy\b"), "答案是Partly cloudy"),
]


@pytest.mark.parametrize("expected, text", RIGHT_ANSWERS)
def test_right_answers_in_natural_words_pass(expected, text):
    reading = reads(expected, text, rivals=CONTACTS if expected in CONTACTS else ())
    assert reading.passed, reading


EVERY_NUMBER = " ".join(str(n) for n in range(121))
EVERY_CONTACT = ", ".join(CONTACTS)
WRONG_ANSWERS = [
    (3, "0, 1, 2, 3, ..., 120"), (3, EVERY_NUMBER), (3, "3 or 4"), (4, "5 alarms (not 4)"), (5, "5 alarms (not 4)"),
    (3, "3-4"), (3, "3, 4"), (2, "2/3"), (3, "maybe 3"), (3, "probably three"), (3, "3到4个"), (3, "可能3个"), (3, "3个或者4个"),
    (3, "不是3个"), (3, "不到3个"), (3, "it is not exactly 3"), ("Rain", "There is no chance of rain"), (3, "13 alarms"),
    (3, "3.5"), (3, "between 3 and 4"), (12, "12°C, 13%, 14 km/h"),
    (47.3, "47.3 GB of 128 GB of 256 GB of 512 GB"),
    ("482913", "482913, 123456"), ("482913", "48291"),
    (dt.time(7, 30), "7:30 or 8:00"), (dt.time(7, 30), "7:30, 8:00, 8:30"), (dt.time(7, 30), "not 7:30"),
    (dt.time(19, 30), "7:30"), (dt.time(7, 30), "7.30 或 8.30"),
    (dt.date(2026, 10, 2), "October 21"), (dt.date(2026, 3, 20), "Thursday, March 20"),
    (dt.date(2026, 3, 20), "March 20 or 21"), (dt.date(2026, 3, 20), "last Friday"),
    (dt.date(2026, 3, 19), "next Friday"), ("Rain", "Cloudy, 30% chance of rain"), ("Rain", "阴，降雨概率30%"),
    ("+81 90-5555-0172", "090-5555-0173"), ("UA 1542", "UA 15420"), ("UA 1542", "UA 154"),
    (dt.date(2026, 3, 17), "March 17, 18, 19 and 20"),
    (True, "yes and no"), (True, "maybe"), (False, "Yes, no"), (True, "probably yes"),
    ("Sunny", "Sunny or Partly cloudy"), ("Rain", "Light rain"), ("Cloudy", "Partly cloudy"), ("Rain", "雷阵雨"),
    ("Rain", "明天不下雨"), ("Thunderstorm", "Thunderstorm, sunny, cloudy, rain"),
    ("MG-1 Pro", "MG-1"), ("Grace Liu", "Grace"),
]


@pytest.mark.parametrize("expected, text", WRONG_ANSWERS)
def test_hedged_shotgun_and_wrong_answers_fail(expected, text):
    assert not reads(expected, text).passed


@pytest.mark.parametrize("text", ["Grace Liu or Alice Chen", EVERY_CONTACT, "Grace Liu (not Alice Chen)",
                                  "Grace Liu / Alice Chen", "not Grace Liu", "Grace Liu 或 李雷"])
def test_a_name_with_rivals_or_hedges_fails(text):
    reading = reads("Grace Liu", text, rivals=CONTACTS)
    assert not reading.passed and reading.reason != "ok"


def test_reading_reports_why_and_what_it_found():
    reading = reads(3, "3 or 4")
    assert dataclasses.is_dataclass(reading) and reading == type(reading)(False, "hedged ('or')", (3, 4))
    with pytest.raises(dataclasses.FrozenInstanceError):
        reading.passed = True  # type: ignore[misc]
    assert reads(3, None).reason == "no answer" and reads(3, "   ").reason == "no answer"
    assert reads("Grace Liu", "Grace Liu, Alice Chen", rivals=CONTACTS).found == ("Grace Liu", "Alice Chen")


@pytest.mark.parametrize("expected, text", [
    ("MG-1 Pro", "MG-1 Pro, Pixel 8, Galaxy S24"), ("MG-1 Pro", "MG-1 Pro, Room 2C"), ("MG-1 Pro", "MG-1 Pro/2.4 bar"),
    ("Grace Liu", "Grace Liu, Cascade Software"), ("welcome2026", "welcome2026, 4815"), ("4815", "4815, welcome2026"),
    ("482913", "482913, the old one"), (["Alice Chen", "Ben Okafor"], "Ben Okafor, Alice Chen, Car Audio"),
    (re.compile(r"\bpartly cloudy\b"), "Partly cloudy, Windy"), ("Afterglow", "Afterglow, Sun"),
])
def test_a_bare_list_naming_something_else_fails_an_answer(expected, text):
    assert not reads(expected, text, one_value=True).passed
    assert reads(expected, text).passed or kind_of(expected) == "list"          # prose may say more


@pytest.mark.parametrize("expected, text", [
    ("MG-1 Pro", "MG-1 Pro, 128 GB"), ("Grace Liu", "Grace Liu, March 20"),
    ("Grace Liu", "It's Grace Liu, my colleague"),
    ("MG-1 Pro", "The model is MG-1 Pro, and it has 128 GB of storage"), ("Lotus Studio", "Lotus Studio"),
    (["Alice Chen", "Ben Okafor"], "Alice Chen, Ben Okafor"),
])
def test_an_answer_may_say_more_than_a_bare_list(expected, text):
    assert reads(expected, text, one_value=True).passed


def test_rivals_inside_or_around_the_expected_value():
    assert reads("Partly cloudy", "Partly cloudy all day", rivals=["Cloudy"]).passed       # rival inside it
    assert not reads("Rain", "Light rain", rivals=["Light rain"]).passed                  # it inside a rival
    assert reads("Li Na", "Li Na", rivals=["Li", "Na Li"]).passed
    assert not reads("Li Na", "Li Na or Na Li", rivals=["Na Li"]).passed


def test_slots_may_state_each_other():
    assert reads(23, "high 23, low 15", others=[15]).passed
    assert reads(78, "百分之78, 每小时19公里", others=[19]).passed and reads(19, "百分之78, 每小时19公里", others=[78]).passed
    assert not reads(23, "high 23, low 15, 30", others=[15]).passed
    assert reads("Yellow", "Yellow by Coldplay", rivals=["Coldplay Live"], others=["Coldplay"]).passed


def test_a_range_of_expected_values_and_conversions_of_any_of_them_pass():
    assert reads("25°C", "Thunderstorms, 20-25°C", others=["20°C"]).passed
    assert reads("20°C", "Thunderstorms, 20-25°C", others=["25°C"]).passed
    assert not reads("20°C", "Thunderstorms, 19-25°C", others=["25°C"]).passed
    assert not reads(25, "20-25").passed                                                 # a hedge without slots
    assert reads("20°C", "25°C (77°F) / 20°C (68°F)", others=["25°C"]).passed
    assert not reads("20°C", "25°C (77°F) / 20°C (75°F)", others=["25°C"]).passed
    assert [m.kind for m in mentions("Tue, Mar 17: rain, high 13°")] == ["date", "date", "number"]


def test_tolerance_for_times_and_numbers():
    assert reads(dt.time(9, 54), "9:58", tolerance=5).passed and not reads(dt.time(9, 54), "9:58").passed
    assert reads(10, "10.4", tolerance=0.5).passed and not reads(10, "10.4").passed


def test_lists_need_every_item_and_no_other():
    names = ["Grace Liu", "Ben Okafor"]
    assert reads(names, "Grace Liu and Ben Okafor", rivals=CONTACTS).passed
    assert not reads(names, "Grace Liu", rivals=CONTACTS).passed
    assert not reads(names, "Grace Liu, Ben Okafor and Alice Chen", rivals=CONTACTS).passed
    days = [dt.date(2026, 3, 18), dt.date(2026, 3, 20)]
    assert reads(days, "Wednesday March 18 and Friday March 20").passed
    assert not reads(days, "March 18, 19 and 20").passed and not reads(days, "March 18, March 19, March 20").passed
    assert reads([3, 5], "3 and 5").passed and not reads([3, 5], "3, 4 and 5").passed
    assert not reads([], "anything").passed


def test_relative_dates_need_the_phone_date():
    assert read_answer(dt.date(2026, 3, 18), "tomorrow", os_state=TUE_MAR_17).passed
    assert not read_answer(dt.date(2026, 3, 18), "tomorrow").passed
    assert read_answer(dt.date(2026, 3, 18), "March 18").passed


def test_empty_expected_text_is_a_task_error():
    with pytest.raises(TaskError):
        reads("", "anything")


# --- rivals from the initial state ----------------------------------------------------------------

APPS = {
    "contacts": {"contacts": [{"name": n, "phones": [{"type": "mobile", "number": f"+1 555-010{i}"}]}
                              for i, n in enumerate(CONTACTS)]},
    "weather": {"cities": [{"name": "Paris", "current": {"condition": "Sunny"},
                            "forecast": [{"condition": "Rain"}, {"condition": "Partly cloudy"}]},
                           {"name": "Oslo", "current": {"condition": "Snow"}, "forecast": [{"condition": "Sunny"}]}]},
    "answer_sheet": {"answers": {"0": "Grace Liu"}, "name": "Zed"},
}


def test_rivals_for_finds_candidates_stored_under_the_same_keys():
    assert rivals_for("Grace Liu", APPS) == ("Alice Chen", "Ben Okafor", "Carla Mendes", "Li Na")
    assert rivals_for("grace liu", APPS) == ("Alice Chen", "Ben Okafor", "Carla Mendes", "Li Na")  # another spelling
    assert set(rivals_for("Sunny", APPS)) == {"Rain", "Partly cloudy", "Snow"}
    assert rivals_for(["Grace Liu", "Li Na"], APPS) == ("Alice Chen", "Ben Okafor", "Carla Mendes")
    assert rivals_for("Paris", APPS) == ("Oslo",)
    assert rivals_for("Zed", APPS) == ()                 # the AnswerSheet is not app data
    assert rivals_for(3, APPS) == () and rivals_for("nobody", APPS) == ()


def test_rivals_for_names_stored_things_that_extend_the_value():
    apps = {**APPS, "calendar": {"events": [{"title": "Visit Grace Liu", "location": "Grace Liu's house"},
                                            {"title": "Paris, France trip notes for the whole family"},
                                            {"location": "Paris, France"}]}}
    rivals = rivals_for(["Grace Liu", "Li Na"], apps)
    assert {"Visit Grace Liu", "Grace Liu's house"} <= set(rivals)
    assert rivals_for("Paris", apps) == ("Oslo",)  # a qualifier after a comma, or a sentence, is no other thing
    assert read_answer(["Grace Liu", "Li Na"], "Grace Liu, Li Na", rivals=rivals).passed
    assert not read_answer(["Grace Liu", "Li Na"], "Grace Liu, Li Na, Grace Liu's house", rivals=rivals).passed


class FindSender(AnswerTask):
    suite, app = "demo", "contacts"
    objective, difficulty, capabilities = "query", "L1", ["information-retrieval"]
    templates = ["Who texted me?"]
    answer = "contacts:.contacts[name=Grace Liu].name"


def test_answer_tasks_use_rivals_by_default():
    device = FakeDevice({"os": dict(TUE_MAR_17), "apps": {k: v for k, v in APPS.items() if k != "answer_sheet"}})
    ep = PyTaskRef(FindSender).start(device, seed=0, eval_mode="text")
    assert ep.evaluate("It was Grace Liu").success
    assert not ep.evaluate(EVERY_CONTACT).success and not ep.evaluate("Grace Liu or Alice Chen").success


def test_build_answer_checks_reads_answers_strictly():
    assert not build_answer_checks("MG-1 Pro", "MG-1 Pro, Pixel 8")[0]["passed"]
    slots = build_answer_checks({"title": "Yellow", "artist": "Coldplay"}, "Yellow, Coldplay")
    assert all(c["passed"] for c in slots)
    assert not any(c["passed"] for c in build_answer_checks({"title": "Yellow", "artist": "Coldplay"},
                                                            "Yellow, Zoe Martin, Coldplay, Lunch"))


def test_build_answer_checks_takes_rivals_per_slot_and_the_os_state():
    [one] = build_answer_checks("Grace Liu", "Grace Liu, Alice Chen", "who", rivals=CONTACTS)
    assert one == {"field": "who", "expected": "Grace Liu", "actual": "Grace Liu, Alice Chen", "passed": False}
    checks = build_answer_checks({"who": "Grace Liu", "when": dt.date(2026, 3, 18)}, "Grace Liu, tomorrow",
                                 rivals={"who": CONTACTS}, os_state=TUE_MAR_17)
    assert [c["passed"] for c in checks] == [True, True]
    with pytest.raises(TaskError):
        build_answer_checks("Grace Liu", "x", rivals="Alice Chen")


def test_build_answer_checks_takes_a_tolerance_per_slot_or_for_all():
    assert build_answer_checks("09:30", "9:33", tolerance=5)[0]["passed"]
    assert not build_answer_checks("09:30", "9:33")[0]["passed"]
    slots = {"title": "Team standup", "start": "09:30"}
    assert [c["passed"] for c in build_answer_checks(slots, "Team standup at 9:33", tolerance={"start": 5})] == \
        [True, True]
    assert not build_answer_checks(slots, "Team standup at 9:40", tolerance=5)[1]["passed"]
    with pytest.raises(TaskError):
        build_answer_checks("09:30", "9:30", tolerance="5")


# --- facts in written content ---------------------------------------------------------------------

def test_fact_checks_one_per_fact():
    facts = {"day": dt.date(2026, 3, 20), "time": dt.time(14, 0), "place": "Room 4B", "title": "Design review"}
    rivals = {"place": ["Room 2A", "Cafe Luna"], "title": ["Team lunch"]}
    good = "Design review is on Friday, March 20 at 2 pm in Room 4B. Bring your laptop or tablet."
    assert all(c["passed"] for c in fact_checks(good, facts, rivals=rivals, os_state=TUE_MAR_17))
    wrong_day = "Design review is on Thursday at 2 pm in Room 4B."
    assert [c["passed"] for c in fact_checks(wrong_day, facts, rivals=rivals, os_state=TUE_MAR_17)] == \
        [False, True, True, True]
    shotgun = "Design review, Team lunch: Room 4B, Room 2A, Cafe Luna, March 19, 20, 21 at 1 pm, 2 pm, 3 pm"
    assert not any(c["passed"] for c in fact_checks(shotgun, facts, rivals=rivals, os_state=TUE_MAR_17))
    checks = fact_checks(good, facts, rivals=rivals, os_state=TUE_MAR_17)
    assert [c["field"] for c in checks] == ["day", "time", "place", "title"] and checks[0]["actual"] == good
    with pytest.raises(TaskError):
        fact_checks(good, {})


def test_optional_facts_may_be_left_out_but_not_misstated():
    facts, day = {"condition": "Rain", "high": "13°C"}, {"day": dt.date(2026, 3, 18)}

    def passed(text):
        return [c["passed"] for c in fact_checks(text, facts, optional=day, os_state=TUE_MAR_17)]

    assert passed("Rain, high 13°") == passed("Tomorrow: rain, high 13°") == passed("明天有雨，最高13°") == [True] * 3
    assert passed("Thursday: rain, high 13°") == passed("Tomorrow or Thursday: rain, high 13°") == [True, True, False]
    assert [c["field"] for c in fact_checks("Rain, 13°", facts, optional=day)] == ["condition", "high", "day"]
    with pytest.raises(TaskError):
        fact_checks("Rain", facts, optional={"high": "13°C"})


def test_fact_checks_for_a_forecast_use_the_condition_vocabulary():
    facts = {"condition": "Thunderstorm", "high": 24, "low": 17}
    assert all(c["passed"] for c in fact_checks("Tomorrow: thunderstorms, high 24°C, low 17°C.", facts))
    assert all(c["passed"] for c in fact_checks("明天雷阵雨，最高24度，最低17度", facts))
    hedged = fact_checks("Tomorrow: thunderstorms or showers, high 24°C, low 17°C.", facts)
    assert [c["passed"] for c in hedged] == [False, True, True]
    assert not fact_checks("Sunny, cloudy, rain, thunderstorm; 17, 24", facts)[0]["passed"]
    assert [c["passed"] for c in fact_checks("Thunderstorms, high 24, low 17, maybe 30", facts)] == [True, False, False]
