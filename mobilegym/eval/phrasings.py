"""Ways to give an answer: hedges and wrong values that must fail, natural phrasings that must pass.

An answer is what a plan passes to ``Driver.submit_answer``: one value per AnswerSheet field (a
number, a string, or a list of strings for a repeatable field). Values are classified by kind
(number, code, time, date, text, list) from their shape, and re-said in English and Chinese.
"""
from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any, Callable, Mapping, Sequence

from ..calendar_words import WEEKDAY_CHARS as ZH_WEEKDAYS
from .candidates import Candidates

Value = Any
Named = list[tuple[str, str]]

HEDGES: dict[str, Callable[[str, str], str]] = {
    "T or W": lambda t, w: f"{t} or {w}",
    "W or T": lambda t, w: f"{w} or {t}",
    "T, W": lambda t, w: f"{t}, {w}",
    "W (not T)": lambda t, w: f"{w} (not {t})",
    "T/W": lambda t, w: f"{t}/{w}",
    "maybe T": lambda t, w: f"maybe {t}",
    "T或W": lambda t, w: f"{t}或{w}",
}
"""Answers that do not commit to one value: T is the true answer, W a wrong one."""

_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
_CODE = re.compile(r"^\d{5,}$")
_PHONE = re.compile(r"^\+?[\d\s().-]+$")
_TIME_24 = re.compile(r"^(\d{1,2}):(\d{2})$")
_TIME_12 = re.compile(r"^(\d{1,2})(?::(\d{2}))?\s*([AaPp])\.?[Mm]\.?$")
_UNIT = re.compile(r"[(（]([^)）]+)[)）]\s*$")  # "Wind (m/s)", "风速（m/s）"
_COUNT_NOUN = re.compile(r"^(?:number of|how many)\s+(.+)$", re.I)
DATE_STYLES = ("%Y-%m-%d", "%a, %b %d", "%A, %B %d", "%B %d, %Y", "%B %d", "%b %d")
_ZH_DATE = re.compile(r"^(?:(\d{4})年)?(\d{1,2})月(\d{1,2})日(?:(\s*)(周|星期)[一二三四五六日天])?$")
"""A date as a Chinese phone shows it ("3月24日", "12月26日 周六", "2026年3月24日"); its style is a format
template ("{m}月{d}日 周{w}") for render_date."""
ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
ZH_DIGITS = "零一二三四五六七八九"
SENTENCES = {"en-sentence", "there-are", "answer-is", "zh-answer", "zh-total", "quoted", "en-words", "zh-numeral"}
"""Forms that are sentences or carry a noun: left out where fields are joined or typed into a form."""
# unit shown in a field label -> (spellings an agent types, Chinese form); "{n}" is the number
UNITS: dict[str, tuple[tuple[str, ...], str]] = {
    "°C": (("{n}°C", "{n} °C", "{n} degrees", "{n}°"), "{n}度"),
    "°F": (("{n}°F", "{n} °F", "{n} degrees Fahrenheit"), "华氏{n}度"),
    "%": (("{n}%", "{n} %", "{n} percent"), "百分之{n}"),
    "km/h": (("{n} km/h", "{n}km/h", "{n} kph"), "每小时{n}公里"),
    "m/s": (("{n} m/s", "{n}m/s"), "每秒{n}米"),
    "GB": (("{n} GB", "{n}GB"), "{n}GB"),
}


# --- reading values -----------------------------------------------------------------------------------

def kind_of(value: Value, year: int) -> str:
    """number, code, time, date, list or text."""
    if isinstance(value, list):
        return "list"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "number"
    text = str(value)
    if _CODE.match(text):
        return "code"
    if _NUMBER.match(text):
        return "number"
    if parse_time(text) is not None:
        return "time"
    if parse_date(text, year) is not None:
        return "date"
    return "text"


def parse_time(text: str) -> tuple[int, int, str] | None:
    """(hour, minute, style) of "07:15" (style "24h") or "2 PM" / "9:30 am" (style "12h")."""
    match = _TIME_24.match(text.strip())
    if match and int(match[1]) < 24 and int(match[2]) < 60:
        return int(match[1]), int(match[2]), "24h"
    match = _TIME_12.match(text.strip())
    if match and 1 <= int(match[1]) <= 12:
        hour = int(match[1]) % 12 + (12 if match[3].lower() == "p" else 0)
        return hour, int(match[2] or 0), "12h"
    return None


def parse_date(text: str, year: int) -> tuple[dt.date, str] | None:
    """(date, style) of a date as the apps show it: a strptime style, or a template of a Chinese date (see
    _ZH_DATE); a date without a year is in ``year``."""
    zh = _ZH_DATE.match(text)
    if zh:
        try:
            day = dt.date(int(zh[1] or year), int(zh[2]), int(zh[3]))
        except ValueError:
            return None
        return day, ("{Y}年" if zh[1] else "") + "{m}月{d}日" + (f"{zh[4]}{zh[5]}{{w}}" if zh[5] else "")
    for style in DATE_STYLES:
        with_year = "%Y" in style
        try:
            parsed = dt.datetime.strptime(text if with_year else f"{text} {year}", style if with_year else f"{style} %Y")
        except ValueError:
            continue
        return parsed.date(), style
    return None


def unit_of(label: str) -> str | None:
    """The unit a field label names in brackets ("Temperature (°C)" -> "°C"), if known."""
    match = _UNIT.search(label or "")
    return match[1].strip() if match and match[1].strip() in UNITS else None


# --- wrong values and hedges ----------------------------------------------------------------------------

def as_text(value: Value) -> str:
    """A value as the Driver sends it in text mode (a list joined with ", ")."""
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def wrong_value(value: Value, year: int, pool: Candidates, rng: random.Random) -> Value:
    """A plausible wrong answer of the same kind and shape: a number +1, a time an hour later, a date a day
    later, another candidate text; in a list, the last item replaced."""
    kind = kind_of(value, year)
    if kind == "list":
        return [*value[:-1], wrong_value(value[-1], year, pool, rng)] if value else ["?"]
    if kind == "number":
        if isinstance(value, str):
            decimals = len(value.partition(".")[2])
            return f"{float(value) + 1:.{decimals}f}"
        return value + 1
    if kind == "code":
        return str(int(value) + 1).zfill(len(value))
    if kind == "time":
        hour, minute, style = parse_time(value)
        return render_time((hour + 1) % 24, minute, style)
    if kind == "date":
        day, style = parse_date(value, year)
        return render_date(day + dt.timedelta(days=1), style)
    others = [c for c in pool.texts if c.lower() not in value.lower() and value.lower() not in c.lower()
              and any(ch.isalnum() for ch in c)]  # an icon (🏦) is no rival answer
    alike = [c for c in others if _shape(c) == _shape(value)]
    if not alike:  # no text of the same sort: one of the closest in length (a title is no rival of a model name)
        alike = sorted(others, key=lambda c: (abs(len(c) - len(value)), c))[:5]
    return rng.choice(alike or others)


def _shape(text: str) -> tuple[int, bool, bool, bool]:
    """(words, or for Chinese a length class of 4 characters; has a digit; looks like a phone number; Latin
    script only): what makes two texts the same sort of answer ("MEIZU 21" and "Pixel 8", "刘晨阳" and "王芳",
    not a name and a sentence of a web page)."""
    size = len(text.split()) if text.isascii() else min(len(text) // 4, 3)
    return size, any(ch.isdigit() for ch in text), bool(_PHONE.match(text)), text.isascii()


def render_time(hour: int, minute: int, style: str) -> str:
    if style == "24h":
        return f"{hour:02d}:{minute:02d}"
    suffix = "AM" if hour < 12 else "PM"
    return f"{hour % 12 or 12}{f':{minute:02d}' if minute else ''} {suffix}"


def render_date(day: dt.date, style: str) -> str:
    """``day`` in a style parse_date gives (a strptime style, or a Chinese date template)."""
    if "{d}" in style:
        return style.format(Y=day.year, m=day.month, d=day.day, w=ZH_WEEKDAYS[day.weekday()])
    return dt.datetime(day.year, day.month, day.day).strftime(style).replace(" 0", " ")


def hedged(true: Sequence[Value], wrong: Sequence[Value], form: Callable[[str, str], str]) -> list[Value]:
    """Each field's hedge of its true and wrong value (a field whose values agree keeps the truth)."""
    out: list[Value] = []
    for t, w in zip(true, wrong):
        if isinstance(t, list):
            out.append([form(str(a), str(b)) if a != b else a for a, b in zip(t, w)] + list(t[len(w):]))
        else:
            out.append(form(str(t), str(w)) if as_text(t) != as_text(w) else t)
    return out


# --- natural phrasings ------------------------------------------------------------------------------------

def en_words(n: int) -> str | None:
    """English words for 0..99."""
    if not 0 <= n < 100:
        return None
    if n < 20:
        return ONES[n]
    tens, ones = divmod(n, 10)
    return TENS[tens] + (f"-{ONES[ones]}" if ones else "")


def zh_numeral(n: int) -> str | None:
    """Chinese numerals for 0..99 (二十三)."""
    if not 0 <= n < 100:
        return None
    if n <= 10:
        return "十" if n == 10 else ZH_DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else ZH_DIGITS[tens]) + "十" + (ZH_DIGITS[ones] if ones else "")


def _number(value: Value, label: str) -> Named:
    text = str(value)
    n = float(text)
    integral = n == int(n) and "." not in text
    unit = unit_of(label)
    out: Named = [("number:digits", text), ("number:en-sentence", f"It's {text}.")]
    if unit is None:
        out += [("number:there-are", f"There are {text}."), ("number:zh-total", f"共{text}个"),
                ("number:zh-measure", f"{text}个"), ("number:zh-answer", f"答案是{text}")]
        words = en_words(int(n)) if integral else None
        if words:
            noun = _COUNT_NOUN.match(label or "")
            out.append(("number:en-words", f"{words.capitalize()} {noun[1].lower()}." if noun else f"{words.capitalize()}."))
            out.append(("number:zh-numeral", f"{zh_numeral(int(n))}个"))
        return out
    out += [*_with_unit(text, unit), ("number:zh-unit", UNITS[unit][1].format(n=text))]
    if unit == "°C":
        out.append(("number:°C (°F)", f"{text}°C ({n * 9 / 5 + 32:.0f}°F)"))
        if n < 0:
            out += [("number:minus", f"minus {text[1:]} degrees"), ("number:zh-below-zero", f"零下{text[1:]}度")]
    if unit == "m/s":
        out.append(("number:m/s (km/h)", f"{text} m/s (about {n * 3.6:.0f} km/h)"))
    return out


def _with_unit(number: str, unit: str) -> Named:
    """A number typed with its unit the ways people write it ("12°C", "12 °C", "12 degrees")."""
    return [(f"number:unit {s.replace('{n}', '').strip()}", s.format(n=number)) for s in UNITS[unit][0]]


def _time(value: str) -> Named:
    hour, minute, _ = parse_time(value)
    h12, half = hour % 12 or 12, "AM" if hour < 12 else "PM"
    period = "凌晨" if hour < 6 else "上午" if hour < 12 else "中午" if hour == 12 else "下午" if hour < 18 else "晚上"
    zh_minutes = "" if minute == 0 else "半" if minute == 30 else "一刻" if minute == 15 else f"{minute}分"
    out: Named = [("time:12h", f"{h12}:{minute:02d} {half}"), ("time:12h-lower", f"{h12}:{minute:02d}{half.lower()}"),
                  ("time:24h", f"{hour:02d}:{minute:02d}"), ("time:zh", f"{period}{h12 if hour > 12 else hour}点{zh_minutes}"),
                  ("time:en-sentence", f"At {h12}:{minute:02d} {half}.")]
    words = {0: f"{en_words(h12)} o'clock", 15: f"quarter past {en_words(h12)}", 30: f"half past {en_words(h12)}",
             45: f"quarter to {en_words(h12 % 12 + 1)}"}.get(minute)
    if words:
        out.append(("time:words", words + ("" if hour < 12 else " in the afternoon" if hour < 18 else " in the evening")))
    if minute == 0:
        out.append(("time:hour", f"{h12} {half.lower()}"))
    return out


def _time_field(value: str) -> Named:
    hour, minute, _ = parse_time(value)
    return [("time:dot", f"{hour}.{minute:02d}"), ("time:digits", f"{hour:02d}{minute:02d}"), *_time(value)[:4]]


def _date(value: str, year: int) -> Named:
    day, style = parse_date(value, year)
    zh_week = f"星期{ZH_WEEKDAYS[day.weekday()]}"
    if ("%Y" in style or "{Y}" in style) and day.year != year:  # another year's date (a birthday): the year counts
        return [("date:day-month-year", f"{day.day} {day:%B} {day.year}"), ("date:iso", day.isoformat()),
                ("date:abbrev", f"{day:%b} {day.day}, {day.year}"), ("date:zh", f"{day.year}年{day.month}月{day.day}日")]
    return [("date:month-day", f"{day:%B} {day.day}"), ("date:day-month-year", f"{day.day} {day:%B} {day.year}"),
            ("date:weekday", f"{day:%A}, {day:%B} {day.day}"), ("date:ordinal", f"{day:%B} {day.day}{ordinal(day.day)}"),
            ("date:iso", day.isoformat()), ("date:zh", f"{day.month}月{day.day}日"),
            ("date:zh-weekday", f"{day.month}月{day.day}日{zh_week}")]


def ordinal(n: int) -> str:
    """The English ordinal suffix of a day number (1st, 2nd, 11th)."""
    return "th" if 10 <= n % 100 < 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _code(value: str) -> Named:
    groups = " ".join(value[i:i + 3] for i in range(0, len(value), 3))
    return [("code:grouped", groups), ("code:dashed", groups.replace(" ", "-")),
            ("code:en-sentence", f"The code is {value}."), ("code:zh-answer", f"验证码是{value}")]


def _text(value: str) -> Named:
    return [("text:en-sentence", f"It's {value}."), ("text:answer-is", f"The answer is {value}."),
            ("text:lower", value.lower()), ("text:zh-answer", f"答案是{value}"), ("text:quoted", f"\u201c{value}\u201d")]


def _list(value: list[str]) -> Named:
    if len(value) < 2:
        return _text(str(value[0])) if value else []
    head, last = ", ".join(value[:-1]), value[-1]
    return [("list:and", f"{head} and {last}"), ("list:zh-and", "、".join(value[:-1]) + f"和{last}"),
            ("list:zh-comma", "、".join(value)), ("list:semicolon", "; ".join(value))]


def phrasings(value: Value, label: str, year: int) -> Named:
    """Natural ways to say one field's value, named "kind:form"."""
    kind = kind_of(value, year)
    if kind == "number":
        return _number(value, label)
    if kind == "time":
        return _time(value)
    if kind == "date":
        return _date(value, year)
    if kind == "code":
        return _code(value)
    if kind == "list":
        return _list([str(v) for v in value])
    return _text(str(value))


def natural_answers(values: Sequence[Value], labels: Sequence[str], year: int) -> Named:
    """Text-mode answers: each field's phrasings; for several fields, the k-th bare phrasing (no sentence)
    of each, joined with ", "."""
    per_field = [phrasings(v, l, year) for v, l in zip(values, labels)]
    if len(per_field) == 1:
        return _distinct(per_field[0], as_text(values[0]))
    per_field = [[(n, t) for n, t in p if n.split(":")[1] not in SENTENCES] or [("bare", as_text(v))]
                 for p, v in zip(per_field, values)]
    width = max(len(p) for p in per_field)
    combos = [[p[k % len(p)] for p in per_field] for k in range(width)]
    joined = [("+".join(n for n, _ in combo), ", ".join(t for _, t in combo)) for combo in combos]
    return _distinct(joined, ", ".join(map(as_text, values)))


def _distinct(named: Named, original: str) -> Named:
    """Drop phrasings that repeat the original answer or an earlier phrasing."""
    seen = {original}
    return [(n, t) for n, t in named if not (t in seen or seen.add(t))]


def natural_fields(values: Sequence[Value], fields: Sequence[Mapping[str, Any]], year: int) -> list[tuple[str, list[Value]]]:
    """Grounded answers: one field at a time re-typed the ways its input allows, the others as the oracle gave them.

    A number field takes what a numeric keyboard types plus a typed unit; a text field takes its kind's
    phrasings; choice and repeatable fields are left as they are."""
    out: list[tuple[str, list[Value]]] = []
    for index, (value, field) in enumerate(zip(values, fields)):
        if field.get("type") == "choice" or isinstance(value, list):
            continue
        kind = kind_of(value, year)
        if field.get("type") == "number":
            unit = unit_of(field.get("label", ""))
            forms = _with_unit(str(value), unit) if unit else []
        elif kind == "time":
            forms = _time_field(value)
        elif kind in ("date", "code"):
            forms = [(n, t) for n, t in phrasings(value, field.get("label", ""), year)
                     if n.split(":")[1] not in SENTENCES][:4]
        else:
            forms = [("text:lower", str(value).lower()), ("text:period", f"{value}."), ("text:spaced", f"  {value} ")]
        out += [(f"field {index} {name}", [*values[:index], text, *values[index + 1:]])
                for name, text in _distinct(forms, str(value))]
    return out
