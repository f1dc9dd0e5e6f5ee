"""The false-negative suite's wordings: values read by kind and said the ways people say them.

The suite itself runs in tests/test_case_matrix.py: on every case, the oracle's answer re-said in English and
Chinese (text mode), re-typed the ways each AnswerSheet field takes it (grounded mode), and written content
re-worded, each must be paid.
"""
from __future__ import annotations

import datetime as dt

from mobilegym.eval.phrasings import (en_words, kind_of, natural_answers, natural_fields, parse_date, render_date,
                                      unit_of, zh_numeral)


def test_values_are_read_by_kind_and_said_in_words() -> None:
    assert [kind_of(v, 2026) for v in (4, "47.3", "482913", "07:15", "2 PM", "Fri, Mar 20", "Grace Liu", ["a"])] == \
        ["number", "number", "code", "time", "time", "date", "text", "list"]
    assert [en_words(n) for n in (4, 13, 40, 47)] == ["four", "thirteen", "forty", "forty-seven"]
    assert [zh_numeral(n) for n in (4, 10, 13, 23)] == ["四", "十", "十三", "二十三"]


def test_chinese_dates_and_full_width_units_are_read() -> None:
    assert unit_of("风速（m/s）") == unit_of("Wind (m/s)") == "m/s" and unit_of("湿度（%）") == "%"
    day, style = parse_date("12月26日 周六", 2026)
    assert day == dt.date(2026, 12, 26) and kind_of("12月26日 周六", 2026) == "date"
    assert render_date(day + dt.timedelta(days=1), style) == "12月27日 周日"
    assert parse_date("2025年3月24日", 2026)[0] == dt.date(2025, 3, 24) and parse_date("2月30日", 2026) is None
    assert {"December 26", "12月26日"} <= {t for _, t in natural_answers(["12月26日 周六"], ["日期"], 2026)}


def test_phrasings_cover_the_issues_cases() -> None:
    said = dict(natural_answers([4], ["Number of alarms"], 2026))
    assert {said["number:en-words"], said["number:zh-total"], said["number:zh-measure"]} == {"Four alarms.", "共4个", "4个"}
    times = {t for _, t in natural_answers(["07:30"], ["Alarm time"], 2026)}
    assert {"7:30 AM", "half past seven", "上午7点半"} <= times
    dates = {t for _, t in natural_answers(["Tue, Mar 24"], ["Date"], 2026)}
    assert {"March 24", "24 March 2026", "3月24日", "Tuesday, March 24"} <= dates
    texts = {t for _, t in natural_answers(["Lotus Studio"], ["Location"], 2026)}
    assert {"It's Lotus Studio.", "答案是Lotus Studio"} <= texts
    assert "6.1 m/s (about 22 km/h)" in {t for _, t in natural_answers(["6.1"], ["Wind (m/s)"], 2026)}
    assert "482 913" in {t for _, t in natural_answers(["482913"], ["Code"], 2026)}
    fields = [{"type": "number", "label": "Humidity (%)"}, {"type": "text", "label": "Start"}]
    typed = {tuple(v) for _, v in natural_fields([48, "07:15"], fields, 2026)}
    assert {("48%", "07:15"), (48, "7.15"), (48, "0715")} <= typed
    assert all(v != [48, "07:15"] for _, v in natural_fields([48, "07:15"], fields, 2026))
