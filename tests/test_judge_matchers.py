"""Matchers: normalisation, free-text checks (through the answer reader), and the grounded field matchers."""
from __future__ import annotations

import datetime as dt
import re

import pytest

from mobilegym.judge import TaskError
from mobilegym.judge.matchers import (build_answer_checks, check_alternatives, extract_numbers, match_bool, match_date,
                                      match_duration, match_exact, match_field, match_number, match_time, match_value,
                                      parse_duration, parse_time)
from mobilegym.judge.vocabulary import chinese_to_int, date_match_labels, normalize_text
from mobilegym.judge.timeutil import datetime_to_ms


def os_at(year, month, day, hour=10, minute=0):
    return {"time_ms": datetime_to_ms(dt.datetime(year, month, day, hour, minute))}


# --- normalize_text ------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    ("  Hello   World ", "hello world"),
    ("ＡＢＣ１２３", "abc123"),           # full-width letters and digits
    ("北京：晴", "北京:晴"),               # full-width colon
    ("三", "3"), ("十", "10"), ("十二", "12"), ("二十", "20"), ("二十三", "23"),
    ("一百零五", "105"), ("两千", "2000"), ("三万五千", "35000"), ("二〇二六", "2026"),
    ("共有三个闹钟", "共有3个闹钟"), ("周一", "周1"), ("第二", "第2"),
    ("万一", "万1"),                       # 万 cannot start a number
    ("\tTabs\nand\r\nnewlines ", "tabs and newlines"),
    (None, ""), (42, "42"),
])
def test_normalize_text(raw, expected):
    assert normalize_text(raw) == expected


def test_chinese_to_int():
    assert [chinese_to_int(s) for s in ("零", "九", "十五", "九十九", "一千零一", "一亿")] == [0, 9, 15, 99, 1001, 100_000_000]


def test_extract_numbers():
    assert extract_numbers("3 alarms, 1,234 steps, -5 degrees, 2.5h") == [3, 1234, -5, 2.5]
    assert extract_numbers("date 2026-04-06") == [2026, 4, 6]
    assert extract_numbers("三个") == [3]
    assert extract_numbers("none here") == []


# --- match_value / build_answer_checks -----------------------------------------------------------

@pytest.mark.parametrize("expected, answer, ok", [
    (3, "There are 3 alarms", True),
    (3, "There are three alarms", True),      # English number words are read
    (3, "3 or 4", False), (3, "0, 1, 2, 3, 4", False), (3, "3-4", False),  # hedges, shotguns, ranges
    (3, "共有三个闹钟", True),
    (3, "13 alarms", False),
    (3, "3.5", False),
    (47.3, "47.3 GB used", True),
    ("278.2", "总计 278.20 元", True),          # numeric strings compare as numbers
    ("北京", "答案是北京", True),
    ("北京", "上海", False),
    ("MG-1 Pro", "the model is mg-1 pro.", True),
    ("Ｐｒｏ", "pro", True),
    (re.compile(r"一样|相同|tie"), "两个城市温度一样", True),
    (re.compile(r"^\d+$"), "12", True),
    (re.compile(r"tied"), "Beijing", False),
    (True, "是的，需要补班", True),
    (True, "不需要", False),
    (False, "不需要", True),
    (False, "No, it is not on", True),
    (True, "Yes", True),
    (True, "maybe", False),
    (["Beijing", "Shanghai"], "Beijing and Shanghai", True),
    (["Beijing", "Shanghai"], "Beijing only", False),
    ("Sunny", "Sunny or Partly cloudy", False), (dt.date(2026, 10, 2), "October 21", False),
    (dt.date(2026, 4, 6), "It is on 4月6日", True),
    (3, None, False),
])
def test_match_value(expected, answer, ok):
    assert match_value(expected, answer) is ok


def test_match_value_rejects_empty_expected():
    with pytest.raises(TaskError):
        match_value("", "anything")


def test_match_bool_detects_negation_first():
    assert match_bool(False, "没有") and not match_bool(True, "没有")
    assert match_bool(False, "it isn't") and match_bool(True, "yes it is")
    assert not match_bool(True, "yes and no") and not match_bool(False, "yes and no")


def test_match_value_takes_rivals_and_the_os_state():
    assert match_value("Grace Liu", "Grace Liu") and not match_value("Grace Liu", "Grace Liu, Alice Chen",
                                                                     rivals=["Alice Chen"])
    assert match_value(dt.date(2026, 4, 6), "tomorrow", os_state=SUN_APR_5) and not match_value(dt.date(2026, 4, 6),
                                                                                                "tomorrow")


def test_build_answer_checks_single_and_slots():
    [one] = build_answer_checks(4, "4 alarms")
    assert one == {"field": "answer", "expected": 4, "actual": "4 alarms", "passed": True}
    checks = build_answer_checks({"high": 23, "low": 15}, "high 23, low 15")
    assert [c["field"] for c in checks] == ["high", "low"] and all(c["passed"] for c in checks)
    missing = build_answer_checks({"high": 23, "low": 15}, "high 23")
    assert [c["passed"] for c in missing] == [True, False]
    assert build_answer_checks(4, None)[0]["passed"] is False
    assert not build_answer_checks({"high": 23, "low": 15}, "high 23, low 15, 30")[0]["passed"]  # a third number
    [named] = build_answer_checks("Grace Liu", "Grace Liu or Alice Chen", "who", rivals=["Alice Chen"])
    assert named["field"] == "who" and named["passed"] is False
    with pytest.raises(TaskError):
        build_answer_checks(None, "x")
    with pytest.raises(TaskError):
        build_answer_checks({}, "x")


def test_check_alternatives():
    def c(name, ok):
        return {"field": name, "expected": 1, "actual": 1, "passed": ok}

    first = [c("a1", False), c("a2", True)]
    second = [c("b1", True), c("b2", True)]
    assert check_alternatives(first, second) == [first[1], second[1]]      # candidate 2 passes
    failing = check_alternatives([c("a1", False), c("a2", False)], [c("b1", True), c("b2", False)])
    assert [x["field"] for x in failing] == ["a1", "b1"]                  # none pass: the first, for diagnostics
    with pytest.raises(ValueError):
        check_alternatives([c("a", True)], [c("b", True), c("b", True)])
    with pytest.raises(ValueError):
        check_alternatives([])
    with pytest.raises(ValueError):
        check_alternatives()


# --- exact / number --------------------------------------------------------------------------------

@pytest.mark.parametrize("expected, actual, ok", [
    ("北京", " 北京 ", True), ("北京", "上海", False), ("Tied", "tied", True), ("三体", "《三体》", True),
    ("MG-1 Pro", "MG-1 Pro.", True), ("第三", "第3", True), ("Beijing", "", False), ("Beijing", None, False),
    ("Beijing", "Beijing city", False),
    ("482913", "482 913", True), ("482913", "482-913", True), ("482913", "482 914", False),   # codes: the digits
    ("482913", "code 482913", False), ("4815", "4815.", True), ("+1 415-555-0100", "(415) 555-0100", True),
])
def test_match_exact(expected, actual, ok):
    assert match_exact(expected, actual) is ok


@pytest.mark.parametrize("expected, actual, ok", [
    (3, "3", True), (3, "3.0", True), (3, "３", True), (3, "三", True), (3, "4", False),
    (47.3, "47.30", True), (1234, "1,234", True), (0.1, "0.1000001", True), (3, "", False), (3, None, False),
    ("12", " 12 ", True), (-5, "-5", True),
    (12, "12°", True), (12, "12 °C", True), (48, "48%", True), (11, "11 km/h", True), (47.3, "47.3 GB", True),
    (3, "3个", False), (3, "3 alarms", False), (3, "about 3", False), (3, "3 4", False), (3, "3 or 4", False),
    (3, "3-4", False), (12, "12°C (54°F)", False),
])
def test_match_number(expected, actual, ok):
    assert match_number(expected, actual) is ok


def test_match_number_rejects_non_numeric_expectation():
    with pytest.raises(TaskError):
        match_number("many", "3")


# --- dates ---------------------------------------------------------------------------------------

SAT_APR_4 = os_at(2026, 4, 4)     # 2026-04-06 is a Monday
SUN_APR_5 = os_at(2026, 4, 5)


@pytest.mark.parametrize("actual, os_state, ok", [
    ("4月6日", None, True), ("4月6号", None, True), ("04-06", None, True), ("2026-04-06", None, True),
    ("2026/4/6", None, True), ("2026年4月6日", None, True), ("April 6", None, True), ("6 April 2026", None, True),
    ("Apr 6th", None, True), ("april 6, 2026", None, True), ("四月六日", None, True),
    ("明天", SUN_APR_5, True), ("tomorrow", SUN_APR_5, True), ("后天", SAT_APR_4, True),
    ("周一", SUN_APR_5, True), ("星期一", SUN_APR_5, True), ("Monday", SUN_APR_5, True), ("mon", SUN_APR_5, True),
    ("下周一", SUN_APR_5, True), ("next Monday", SUN_APR_5, True), ("这周一", SAT_APR_4, False),
    ("today", os_at(2026, 4, 6), True), ("今天", os_at(2026, 4, 6), True), ("yesterday", os_at(2026, 4, 7), True),
    ("Monday, April 6", None, True), ("4月6日（周一）", None, True), ("4月6日 周二", None, False),
    ("明天", None, False),                              # relative labels need the simulated date
    ("周一", os_at(2026, 3, 20), False),                # far away: a weekday name alone is ambiguous
    ("4月7日", None, False), ("周二", SUN_APR_5, False), ("2025-04-06", None, False), ("4月6日或4月7日", None, False),
    ("", None, False), (None, None, False),
])
def test_match_date(actual, os_state, ok):
    assert match_date("2026-04-06", actual, os_state) is ok


def test_date_match_labels_relative_and_absolute():
    labels = date_match_labels(dt.date(2026, 4, 6), SUN_APR_5)
    for label in ("4月6日", "明天", "周一", "monday", "tomorrow", "04-06", "april 6"):
        assert normalize_text(label) in labels
    assert normalize_text("今天") not in labels
    assert normalize_text("今天") in date_match_labels("2026-04-05", SUN_APR_5)
    assert date_match_labels(dt.datetime(2026, 4, 6, 8, 0)) == date_match_labels("2026-04-06")


def test_date_helpers_need_the_simulated_clock():
    with pytest.raises(ValueError):
        date_match_labels("2026-04-06", {"language": "en"})
    with pytest.raises(TaskError):
        match_date("not a date", "4月6日")


# --- times ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("expected, actual, ok", [
    ("14:30", "下午2点30分", True), ("09:54", "9:58", True), ("09:54", "10:02", False),
    ("14:30", "2:30 PM", True), ("14:30", "2:30pm", True), ("14:30", "14：30", True), ("14:30", "2:30", False),
    ("14:30", "下午两点半", True), ("07:15", "早上7点一刻", True), ("19:45", "晚上7点3刻", True),
    ("00:10", "凌晨12点10分", True), ("00:00", "midnight", True), ("12:00", "noon", True),
    ("12:30", "中午12点半", True), ("13:00", "中午1点", True), ("00:00", "12 am", True), ("12:00", "12pm", True),
    ("07:00", "7am", True), ("19:00", "7 p.m.", True),
    ("23:58", "00:02", True), ("00:02", "23:58", True), ("23:50", "00:02", False),       # midnight wrap
    ("06:30", "The alarm rings at 6:30 AM", True), ("22:15", "10:15 PM", True), ("22:15", "10:15 AM", False),
    ("14:30", "", False), ("14:30", None, False), ("14:30", "soon", False),
    (dt.time(8, 5), "8:05", True),
    ("07:15", "7.15", True), ("07:30", "0730", True), ("07:15", "7:15 am", True), ("07:30", "half past seven", True),
    ("14:00", "2-4 pm", True), ("14:00", "between 2 and 4 pm", True),            # a range gives its start
    ("07:30", "7:30, 8:00", False), ("07:30", "7:30 or 8:00", False), ("07:30", "not 7:30", False),
])
def test_match_time(expected, actual, ok):
    assert match_time(expected, actual) is ok


def test_match_time_tolerance_and_bad_expectation():
    assert match_time("09:54", "10:02", tolerance_minutes=10)
    assert not match_time("09:54", "9:55", tolerance_minutes=0)
    with pytest.raises(TaskError):
        match_time("later", "9:00")


def test_parse_time_values():
    assert parse_time("下午2点") == 14 * 60 and parse_time("晚上12点") == 0 and parse_time("25:00") is None


# --- durations -----------------------------------------------------------------------------------

@pytest.mark.parametrize("expected, actual, ok", [
    ("1小时30分", "90分钟", True), ("0小时59分", "59分", True), ("2小时15分", "2:15", True),
    ("1小时30分", "1 hour 30 minutes", True), ("1小时30分", "90 min", True), ("1小时30分", "1.5 hours", True),
    ("1小时30分", "一个半小时", True), ("1小时30分", "1h30m", True), ("1小时30分", "1h 30", True),
    ("1小时30分", "an hour and a half", True), ("30分钟", "half an hour", True), ("30分钟", "半小时", True),
    ("90", "1小时30分钟", True), (90, "90", True), ("2 hrs", "120 mins", True), ("1天2小时", "26 hours", True),
    ("1小时30分", "1小时20分", False), ("1小时30分", "1:20", False), ("1小时30分", "soon", False),
    ("1小时30分", None, False), ("1小时30分", "", False),
])
def test_match_duration(expected, actual, ok):
    assert match_duration(expected, actual) is ok


def test_parse_duration_values():
    assert parse_duration("45 secs") == pytest.approx(0.75)
    assert parse_duration("两个半小时") == 150
    assert parse_duration(dt.timedelta(hours=2)) == 120
    with pytest.raises(TaskError):
        match_duration("a while", "5 min")


def test_match_field_dispatch():
    assert match_field("number", 3, "3") and match_field("exact", "a", "A")
    assert match_field("date", "2026-04-06", "明天", SUN_APR_5)
    assert match_field("time", "14:30", "2:31 pm") and match_field("duration", "1小时", "60分钟")
    with pytest.raises(TaskError):
        match_field("fuzzy", "a", "a")


def test_names_moved_to_the_vocabulary_resolve_with_a_deprecation_warning() -> None:
    import mobilegym.judge.matchers as matchers
    from mobilegym.judge import vocabulary

    with pytest.warns(DeprecationWarning, match="moved to mobilegym.judge.vocabulary.MONTHS"):
        assert matchers.MONTHS is vocabulary.MONTHS
    with pytest.raises(AttributeError):
        matchers.no_such_name  # noqa: B018
