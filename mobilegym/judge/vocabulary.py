"""The judge's vocabulary: text normalisation (full width, case, Chinese numerals) and the names of months,
weekdays and relative days, with every label a date goes by. The answer tokenizer (:mod:`.mentions`), the
reader (:mod:`.answers`) and the matchers (:mod:`.matchers`) build on it, in that order."""
from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from typing import Any, Mapping

from mobilegym import calendar_words
from mobilegym.judge.errors import TaskError
from mobilegym.judge.timeutil import ms_to_datetime, sim_today

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4,
              "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "亿": 100_000_000}
_CN_RUN = re.compile("[零〇一二两三四五六七八九十百千万亿]+")
_SPACE = re.compile(r"\s+")


def chinese_to_int(run: str) -> int:
    """Value of a Chinese numeral (十二, 二十三, 一百零五, 三万五千); bare digits (二〇二六) read one by one."""
    if all(ch in _CN_DIGITS for ch in run):
        return int("".join(str(_CN_DIGITS[ch]) for ch in run))
    total, section, digit = 0, 0, 0
    for ch in run:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            section += (digit or 1) * _CN_UNITS[ch]
            digit = 0
        else:
            total = (total + section + digit) * _CN_BIG[ch]
            section, digit = 0, 0
    return total + section + digit


def _cn_numbers(text: str) -> str:
    def convert(match: re.Match[str]) -> str:
        run = match.group(0)
        number = run.lstrip("万亿")  # 万/亿 cannot start a number (万一 -> 万1)
        return run[:len(run) - len(number)] + (str(chinese_to_int(number)) if number else "")

    return _CN_RUN.sub(convert, text)


def normalize_text(text: Any) -> str:
    """Canonical form for comparison: full-width folded (NFKC), case-folded, Chinese numerals as digits,
    whitespace collapsed and trimmed. None gives ""."""
    if text is None:
        return ""
    folded = unicodedata.normalize("NFKC", str(text)).casefold()
    return _SPACE.sub(" ", _cn_numbers(folded)).strip()



MONTHS = tuple(month.lower() for month in calendar_words.MONTHS)  # "january" ..
WEEKDAYS_EN = tuple(day.lower() for day in calendar_words.WEEKDAYS)  # "monday" ..


def _ordinal(n: int) -> str:
    return str(n) + ("th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


def to_date(value: Any) -> _dt.date:
    """A date from a date/datetime, epoch ms, or text like 2026-04-06, 2026/4/6, 2026年4月6日."""
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return ms_to_datetime(value).date()
    match = re.match(r"\s*(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})", normalize_text(value))
    if not match:
        raise TaskError(f"cannot read {value!r} as a date (use YYYY-MM-DD)")
    return _dt.date(*(int(g) for g in match.groups()))


RELATIVE_DAYS = {0: ("今天", "今日", "today"), 1: ("明天", "明日", "tomorrow"), 2: ("后天", "the day after tomorrow"),
                 -1: ("昨天", "昨日", "yesterday"), -2: ("前天", "the day before yesterday")}
ZH_WEEK_WORDS = ("周", "星期", "礼拜", "週")
WEEK_PREFIXES = {0: (("本", "这", "这个"), "this"), 1: (("下", "下个"), "next"), -1: (("上", "上个"), "last")}


def weekday_names(day: _dt.date) -> list[str]:
    zh = calendar_words.WEEKDAY_CHARS[day.weekday()]
    names = [word + zh for word in ZH_WEEK_WORDS]
    if day.weekday() == 6:
        names += ["周天", "星期天", "礼拜天"]
    en = WEEKDAYS_EN[day.weekday()]
    return names + [en, en[:3], en[:3] + "."]


def _relative_labels(day: _dt.date, today: _dt.date) -> list[str]:
    delta = (day - today).days
    labels = list(RELATIVE_DAYS.get(delta, ()))
    names = weekday_names(day)
    if 0 <= delta <= 6:
        labels += names
    if 1 <= delta <= 6:  # "next Thursday" said on a Monday: this week's Thursday, or next week's (below)
        labels += [f"next {n}" for n in names[-3:]]
    week = (day - _dt.timedelta(days=day.weekday()) - (today - _dt.timedelta(days=today.weekday()))).days // 7
    if week in WEEK_PREFIXES:
        zh_prefixes, en_prefix = WEEK_PREFIXES[week]
        labels += [p + n for p in zh_prefixes for n in names[:3]] + [f"{en_prefix} {n}" for n in names[-3:]]
    return labels


def date_match_labels(value: Any, os_state: Mapping[str, Any] | None = None) -> set[str]:
    """Every normalised way of writing a date; with the OS state, also relative ones
    (today, tomorrow, weekday names within the coming week, this/next/last weekday; "next Thursday" has
    both readings: the coming Thursday and Thursday of next week)."""
    day = to_date(value)
    y, m, d = day.year, day.month, day.day
    labels = [f"{y}-{m:02}-{d:02}", f"{y}-{m}-{d}", f"{y}/{m:02}/{d:02}", f"{y}/{m}/{d}",
              f"{y}.{m:02}.{d:02}", f"{y}.{m}.{d}", f"{y}年{m}月{d}日", f"{y}年{m}月{d}号",
              f"{y}年{m:02}月{d:02}日", f"{m:02}-{d:02}", f"{m}-{d}", f"{m:02}/{d:02}", f"{m}/{d}",
              f"{m}.{d}", f"{m}月{d}日", f"{m}月{d}号", f"{m:02}月{d:02}日", f"{y}{m:02}{d:02}"]
    full = MONTHS[m - 1]
    for month in {full, full[:3], full[:3] + "."}:
        for day_text in (str(d), _ordinal(d)):
            labels += [f"{month} {day_text}", f"{day_text} {month}", f"{day_text} of {month}",
                       f"{month} {day_text}, {y}", f"{month} {day_text} {y}", f"{day_text} {month} {y}",
                       f"{day_text} of {month} {y}", f"{day_text} of {month}, {y}"]
    if os_state is not None:
        labels += _relative_labels(day, sim_today(os_state))
    return {normalize_text(label) for label in labels}
