"""Typed mentions of a free-text answer: the numbers (with units), dates, times, ranges and digit codes it writes.

The text is first normalised (:func:`prepare`: full-width folded, lower case, Chinese numerals and English
number words as digits), then read by patterns in a fixed order (dates, weekdays and relative days, time
ranges, times, the forms that depend on the asked kind, numbers), each taking its span so that the digits
of a date or a time are never read again as numbers. Word lists come from the ``vocab/`` JSON files.
"""
from __future__ import annotations

import datetime as _dt
import json
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable, Iterable, Mapping, Sequence

from mobilegym.judge.vocabulary import MONTHS, RELATIVE_DAYS, WEEK_PREFIXES, WEEKDAYS_EN, ZH_WEEK_WORDS, normalize_text


def vocab(name: str) -> dict[str, Any]:
    """A word list of the ``vocab/`` folder (package data)."""
    return json.loads((resources.files(__package__) / "vocab" / f"{name}.json").read_text("utf-8"))


def word_pattern(words: Iterable[str]) -> str:
    """A regex alternative of literal words, longest first, each bounded where it starts or ends with a letter
    (no words: a pattern that never matches)."""
    parts = []
    for word in sorted(set(words), key=lambda w: (-len(w), w)):
        head = r"(?<![a-z])" if word[0].isascii() and word[0].isalpha() else ""
        tail = r"(?![a-z])" if word[-1].isascii() and word[-1].isalpha() else ""
        parts.append(head + re.escape(word) + tail)
    return "(?:" + "|".join(parts) + ")" if parts else "(?!)"


def both(entry: Mapping[str, Sequence[str]]) -> list[str]:
    """The English and the Chinese words of a vocabulary entry."""
    return [*entry["en"], *entry["zh"]]


NUMBERS = vocab("numbers")
MARKERS = vocab("markers")
_UNITS = {form: (dim, unit, spec["to_base"])  # written form -> (dimension, canonical unit, to_base)
          for dim, units in vocab("units")["dimensions"].items()
          for unit, spec in units.items() for form in spec["forms"]}
_BLANK = "\x00"
LATIN = r"[^\W\u2e80-\u9fff\uf900-\ufaff]"  # a word character that is not CJK (CJK text has no spaces)

# --- normalisation -----------------------------------------------------------------------------------

_EN_UNITS: dict[str, int] = NUMBERS["en"]["units"]
_EN_TENS: dict[str, int] = NUMBERS["en"]["tens"]
_SMALL = rf"(?:{word_pattern(_EN_TENS)}(?:[- ]{word_pattern(w for w, n in _EN_UNITS.items() if 0 < n < 10)})?" \
         rf"|{word_pattern(_EN_UNITS)})"
_HUNDREDS = rf"(?:(?:{_SMALL}|a)\s+hundred(?:\s+(?:and\s+)?{_SMALL})?|{_SMALL})"
_NUMBER_WORDS = re.compile(rf"(?<!{LATIN})(?<!-){_HUNDREDS}(?:\s+thousand(?:\s+(?:and\s+)?{_HUNDREDS})?)?"
                           rf"(?!{LATIN})(?!-)")
_PRONOUN_ONE = re.compile(rf"{word_pattern(NUMBERS['en']['one_is_pronoun_after'])}\s+$")
_DASHES = re.compile("[\u2010-\u2015\u2212\ufe58\ufe63]")
_APOSTROPHES = re.compile("[\u2018\u2019\u02bc]")
_WAVES = re.compile("[\u301c\u223c]")
_PERCENT_OF = "\ue000"  # stands for 百分之 ("percent of") while the numerals are folded
_SCRIPT_EDGE = re.compile(r"(?<=[\u2e80-\u9fff])(?=[a-z])|(?<=[a-z])(?=[\u2e80-\u9fff])")


def _word_number(phrase: str) -> int:
    total = current = 0
    for word in re.findall(r"[a-z]+", phrase):
        if word == "hundred":
            current = (current or 1) * 100
        elif word == "thousand":
            total, current = total + (current or 1) * 1000, 0
        elif word in _EN_UNITS or word in _EN_TENS:
            current += _EN_UNITS.get(word, _EN_TENS.get(word, 0))
    return total + current


_MINUS = re.compile(r"\bminus\s+(?=\d)")  # "minus 4 degrees" (and 零下4度, read as "minus 4度"): -4


def _fold_number_words(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        if match.group(0) == "one" and _PRONOUN_ONE.search(text[:match.start()]):
            return "one"
        return str(_word_number(match.group(0)))

    return _NUMBER_WORDS.sub(replace, text)


def prepare(text: Any) -> str:
    """The text the reader works on: :func:`normalize_text` (Chinese numerals as digits; words such as 一共 or
    一样 are not numbers; 百分之48 is 48%), dashes as "-", a space between Chinese and Latin letters
    ("答案是 grace liu"), and English number words as digits ("twenty-one" -> 21)."""
    if text is None:
        return ""
    folded = unicodedata.normalize("NFKC", str(text)).casefold().replace("百分之", _PERCENT_OF).replace("零下", " minus ")
    for word, rest in NUMBERS["zh"]["not_numbers"].items():
        folded = folded.replace(word, rest)
    clean = _WAVES.sub("~", _APOSTROPHES.sub("'", _DASHES.sub("-", normalize_text(folded))))
    clean = re.sub(rf"{_PERCENT_OF}\s*(-?\d+(?:\.\d+)?)", r"\1%", clean).replace(_PERCENT_OF, "%")
    return _MINUS.sub("-", _fold_number_words(_SCRIPT_EDGE.sub(" ", clean)))


# --- patterns ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mention:
    """One value written in an answer.

    ``kind``: number, date, time or code. ``value``: a float (number), minutes after midnight (time),
    the digits (code), or for dates ``("date", year or None, month, day)``, ``("weekday", 0-6)`` or
    ``("relative", text)``. ``start``/``end``: its span in the prepared text. ``role``: value, total
    (after "of", 共...), range (a range's start), range_end or ordinal. ``unit``: a number's canonical unit
    (vocab/units.json). ``negated``: a negation comes before it in its clause.
    """

    kind: str
    value: Any
    start: int
    end: int
    unit: str | None = None
    role: str = "value"
    negated: bool = False


_MONTH_NAMES = {**{m: i + 1 for i, m in enumerate(MONTHS)}, **{m[:3]: i + 1 for i, m in enumerate(MONTHS)}, "sept": 9}
_MONTH = rf"(?P<month>{word_pattern(_MONTH_NAMES)})\.?"
_ORD = r"(?:st|nd|rd|th)"
_WEEKDAY_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5,
                 "sun": 6}
_ZH_WEEKDAY = {str(i + 1): i for i in range(6)} | {"日": 6, "天": 6}
_ZH_PREFIXES = [p for prefixes, _ in WEEK_PREFIXES.values() for p in prefixes]
_EN_PREFIXES = [en for _, en in WEEK_PREFIXES.values()]
_DATE_PATTERNS = [
    re.compile(r"(?<![\d.])(?P<year>\d{4})\s*[-/.年]\s*(?P<m>\d{1,2})\s*[-/.月]\s*(?P<d>\d{1,2})(?:\s*[日号])?(?![\d.])"),
    re.compile(r"(?<![\d.])(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]?(?!\d)"),
    re.compile(rf"(?<![a-z]){_MONTH}\s*(?P<d>\d{{1,2}}){_ORD}?(?!\d|:\d)(?:,?\s*(?P<year>\d{{4}})(?!\d))?"),
    re.compile(rf"(?<![\d.])(?P<d>\d{{1,2}}){_ORD}?\s+(?:of\s+)?{_MONTH}(?![a-z])(?:,?\s*(?P<year>\d{{4}})(?!\d))?"),
]
_DATE_RUN = re.compile(  # March 17, 18 and 19: one month, several days
    rf"(?<![a-z]){_MONTH}\s*(?P<d>\d{{1,2}}){_ORD}?"
    rf"(?P<rest>(?:\s*(?:,|、|/|&|-|and|or|和|或|至|到)\s*\d{{1,2}}{_ORD}?(?!\d|[:.]\d))+)")
_AMBIGUOUS_DATES = [  # read as dates only when a date is asked
    re.compile(r"(?<![\d.:/-])(?P<m>\d{1,2})\s*[-/.]\s*(?P<d>\d{1,2})(?![\d:/]|\.\d|\s*(?:a\.?m|p\.?m))"),
    re.compile(r"(?<!\d)(?P<year>\d{4})(?P<m>\d{2})(?P<d>\d{2})(?!\d)"),
]
_WEEKDAY_PATTERNS = [
    re.compile(rf"(?P<rel>(?:{word_pattern(_EN_PREFIXES)}\s+)?{word_pattern(WEEKDAYS_EN)})"),
    re.compile(rf"(?<![a-z])(?P<abbr>{'|'.join(sorted(_WEEKDAY_ABBR, key=len, reverse=True))})\.?"
               rf"(?=\s*(?:[,.]|\d|{word_pattern(_MONTH_NAMES)}))"),  # "Tue, Mar 17", not "the sun"
    re.compile(rf"(?P<rel>{word_pattern(_ZH_PREFIXES)}?{word_pattern(ZH_WEEK_WORDS)}(?P<zh>[1-6日天]))"),
    re.compile(f"(?P<rel>{word_pattern(w for words in RELATIVE_DAYS.values() for w in words)})"),
]

_PERIOD = r"(?:(?P<period>凌晨|早上|早晨|清晨|上午|中午|正午|下午|傍晚|晚上|夜里|夜间|半夜|午夜)\s*)?"
_AMPM = r"\s*(?P<ampm>a\.?m\.?|p\.?m\.?|in the morning|in the afternoon|in the evening|at night|tonight)(?![a-z])"
_PM_WORDS = {"pm", "in the afternoon", "in the evening", "at night", "tonight"}
_PM_PERIODS = {"下午", "傍晚", "晚上", "夜里", "夜间"}
_AM_PERIODS = {"凌晨", "早上", "早晨", "清晨", "上午", "半夜", "午夜"}
_RANGE_JOIN = r"\s*(?:-|~|to|until|till|through|至|到)\s*"
_TIME_RANGES = [
    re.compile(rf"(?:(?P<between>between)\s+|from\s+)?{_PERIOD}(?<![\d.:])(?P<h>\d{{1,2}})(?::(?P<m>\d{{2}}))?"
               rf"(?:{_AMPM.replace('ampm', 'ampm1')})?(?(between)\s+and\s+|{_RANGE_JOIN})"
               rf"(?P<h2>\d{{1,2}})(?::(?P<m2>\d{{2}}))?{_AMPM}"),
    re.compile(rf"{_PERIOD}(?<![\d.:])(?P<h>\d{{1,2}}):(?P<m>\d{{2}}){_RANGE_JOIN}"
               rf"(?P<h2>\d{{1,2}}):(?P<m2>\d{{2}})(?!\d)"),
    re.compile(rf"{_PERIOD}(?<![\d.:])(?P<h>\d{{1,2}})\s*(?:[点时](?:\s*(?P<half>半))?)?{_RANGE_JOIN}"
               rf"(?P<h2>\d{{1,2}})\s*[点时]"),
]
_TIME_PATTERNS = [
    re.compile(rf"(?:a\s+)?(?P<word>half|quarter)\s+(?P<dir>past|after|to)\s+(?P<h>\d{{1,2}})(?!\d)(?:{_AMPM})?"),
    re.compile(rf"{_PERIOD}(?<![\d.:])(?P<h>\d{{1,2}})\s*:\s*(?P<m>\d{{2}})(?::\d{{2}})?(?!\d)(?:{_AMPM})?"),
    re.compile(rf"{_PERIOD}(?<![\d.:])(?P<h>\d{{1,2}})\s*[点时]"
               rf"(?:\s*(?P<half>半)|\s*(?P<q>[13])\s*刻|\s*(?P<m>\d{{1,2}})\s*分?)?"),
    re.compile(rf"(?<![\d.:])(?P<h>\d{{1,2}})\s*o'?\s*clock(?:{_AMPM})?"),
    re.compile(rf"(?<![\d.:])(?P<h>\d{{1,2}})(?:(?:\.|\s)(?P<m>\d{{2}}))?{_AMPM}"),
    re.compile(r"(?P<noon>noon|midday|midnight|正午)"),
]
_AMBIGUOUS_TIMES = [  # read as times only when a time is asked: 7.15, 0730 (not the digits of a code: G1404)
    re.compile(rf"(?<![\d.,])(?<!{LATIN})(?P<h>[01]?\d|2[0-3])\.(?P<m>[0-5]\d)(?![\d.])"),
    re.compile(rf"(?<![\d.,:])(?<!{LATIN})(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)(?![\d.,:])"),
]

UNIT_PATTERN = word_pattern(_UNITS)
_NUMBER = r"(?P<sign>-)?(?P<num>\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?P<frac>\.\d+)?"
_NUMBER_PATTERN = re.compile(
    rf"(?<!{LATIN})(?<![a-z]-){_NUMBER}(?:\s*(?P<unit>{UNIT_PATTERN})|(?P<ord>{_ORD})(?![a-z]))?")
_NUMBER_RANGE = re.compile(
    rf"(?:(?P<between>between)\s+|from\s+|从\s*)?(?<![.,-])(?<!{LATIN})(?P<a>-?\d+(?:\.\d+)?)(?:\s*{UNIT_PATTERN})?"
    rf"(?(between)\s+and\s+|\s*(?:-|~|to|至|到)\s*)(?P<b>-?\d+(?:\.\d+)?)(?![\d.])")
_CODE = re.compile(rf"(?<!{LATIN})\+?(?:\(\d+\)|\d+)(?:[ \-.]?(?:\(\d+\)|\d+))*(?!{LATIN})")
_ZH_ORDINAL = "第"
_LOOKBACK = 40  # characters before a mention searched for a total or negation word
CLAUSE_BREAK = re.compile(r"[,;:!?。，；：！？、()\[\]（）【】\n]|\.(?!\d)")
_NEGATION = re.compile(word_pattern(both(MARKERS["negations"])))
_TOTAL_BETWEEN = re.compile(rf"\s*(?:[a-z]+\s+){{0,2}}{word_pattern(both(MARKERS['totals']['between']))}\s*$")
_TOTAL_BEFORE = re.compile(rf"{word_pattern(both(MARKERS['totals']['before']))}\s*[:：]?\s*$")
_TOTAL_AFTER = re.compile(rf"\s*{word_pattern(both(MARKERS['totals']['after']))}")


def _clock(hour: int, minute: int, ampm: str | None, period: str | None) -> int | None:
    """Minutes after midnight of a clock reading with an optional am/pm word or Chinese period."""
    ampm = (ampm or "").replace(".", "")
    if hour > 24 or minute > 59:
        return None
    if ampm in _PM_WORDS or period in _PM_PERIODS:
        hour = 0 if hour == 12 and period in ("晚上", "夜里", "夜间") else hour + 12 if hour < 12 else hour
    elif ampm in ("am", "in the morning") or period in _AM_PERIODS:
        hour = 0 if hour == 12 else hour
    elif period in ("中午", "正午") and hour < 6:
        hour += 12
    return (hour % 24) * 60 + minute


def _time_of(groups: Mapping[str, str | None]) -> int | None:
    """Minutes after midnight of a time pattern's match (None when out of range)."""
    if groups.get("noon"):
        return 0 if groups["noon"] == "midnight" else 12 * 60
    hour = int(groups["h"])
    if groups.get("word"):
        offset = 30 if groups["word"] == "half" else 15
        hour, minute = (hour - 1, 60 - offset) if groups["dir"] == "to" else (hour, offset)
        return _clock(hour % 24, minute, groups.get("ampm"), None)
    minute = int(groups["m"]) if groups.get("m") else 30 if groups.get("half") else int(groups.get("q") or 0) * 15
    return _clock(hour, minute, groups.get("ampm"), groups.get("period"))


class _Scanner:
    """Reads mentions out of prepared text, blanking each span it takes so later patterns skip it."""

    def __init__(self, text: str) -> None:
        self.source = text
        self.text = text
        self.found: list[Mention] = []

    def take(self, pattern: re.Pattern[str], build: Callable[[re.Match[str]], list[Mention] | None]) -> None:
        pieces: list[str] = []
        last = 0
        for match in pattern.finditer(self.text):
            made = None if _BLANK in match.group(0) else build(match)
            if made:
                self.found.extend(made)
                pieces += [self.text[last:match.start()], _BLANK * (match.end() - match.start())]
                last = match.end()
        if pieces:
            self.text = "".join(pieces) + self.text[last:]

    def dates(self, patterns: Sequence[re.Pattern[str]]) -> None:
        def build(match: re.Match[str]) -> list[Mention] | None:
            groups = match.groupdict()
            month = _MONTH_NAMES[groups["month"]] if groups.get("month") else int(groups["m"])
            day, year = int(groups["d"]), int(groups["year"]) if groups.get("year") else None
            try:
                _dt.date(year or 2000, month, day)
            except ValueError:
                return None
            return [Mention("date", ("date", year, month, day), *match.span())]

        for pattern in patterns:
            self.take(pattern, build)

    def date_runs(self) -> None:
        """A month followed by several days ("March 17, 18 and 19"); one day after a comma is left alone
        ("March 20, 24" may be a date and a number)."""
        def build(match: re.Match[str]) -> list[Mention] | None:
            rest = match.group("rest")
            days = [int(match.group("d")), *(int(d) for d in re.findall(r"\d+", rest))]
            if len(days) == 2 and re.fullmatch(r"\s*,\s*\d+\w*", rest) or max(days) > 31 or min(days) < 1:
                return None
            month = _MONTH_NAMES[match.group("month")]
            return [Mention("date", ("date", None, month, day), *match.span()) for day in days]

        self.take(_DATE_RUN, build)

    def weekdays(self) -> None:
        def build(match: re.Match[str]) -> list[Mention]:
            groups = match.groupdict()
            if groups.get("abbr"):
                return [Mention("date", ("weekday", _WEEKDAY_ABBR[groups["abbr"]]), *match.span())]
            text = groups["rel"]
            if text in WEEKDAYS_EN:
                return [Mention("date", ("weekday", WEEKDAYS_EN.index(text)), *match.span())]
            if groups.get("zh") and text.startswith(ZH_WEEK_WORDS):
                return [Mention("date", ("weekday", _ZH_WEEKDAY[groups["zh"]]), *match.span())]
            return [Mention("date", ("relative", text), *match.span())]

        for pattern in _WEEKDAY_PATTERNS:
            self.take(pattern, build)

    def time_ranges(self) -> None:
        def build(match: re.Match[str]) -> list[Mention] | None:
            groups = match.groupdict()
            period, ampm = groups.get("period"), groups.get("ampm") or groups.get("ampm1")
            end_hour, start_hour = int(groups["h2"]), int(groups["h"])
            start_ampm = groups.get("ampm1") or (ampm if start_hour <= end_hour or start_hour == 12 else None)
            start = _clock(start_hour, int(groups.get("m") or (30 if groups.get("half") else 0)), start_ampm, period)
            end = _clock(end_hour, int(groups.get("m2") or 0), ampm, period)
            if start is None or end is None:
                return None
            s, e = match.span()
            return [Mention("time", start, s, e, role="range"), Mention("time", end, s, e, role="range_end")]

        for pattern in _TIME_RANGES:
            self.take(pattern, build)

    def times(self, patterns: Sequence[re.Pattern[str]]) -> None:
        def build(match: re.Match[str]) -> list[Mention] | None:
            minutes = _time_of(match.groupdict())
            return None if minutes is None else [Mention("time", minutes, *match.span())]

        for pattern in patterns:
            self.take(pattern, build)

    def codes(self) -> None:
        def build(match: re.Match[str]) -> list[Mention]:
            return [Mention("code", re.sub(r"\D", "", match.group(0)), *match.span())]

        self.take(_CODE, build)

    def numbers(self) -> None:
        def build_range(match: re.Match[str]) -> list[Mention]:
            s, e = match.span()
            return [Mention("number", float(match.group("a")), s, e, role="range"),
                    Mention("number", float(match.group("b")), s, e, role="range_end")]

        def build(match: re.Match[str]) -> list[Mention] | None:
            after = self.text[match.end():match.end() + 1]
            if after.isascii() and after.isalpha():
                return None  # part of a word or code: 4b, 3x
            groups = match.groupdict()
            value = float((groups["sign"] or "") + groups["num"].replace(",", "") + (groups["frac"] or ""))
            ordinal = groups["ord"] or self.text[:match.start()].rstrip().endswith(_ZH_ORDINAL)
            unit = _UNITS[groups["unit"]][1] if groups["unit"] else None
            return [Mention("number", value, *match.span(), unit=unit, role="ordinal" if ordinal else "value")]

        self.take(_NUMBER_RANGE, build_range)
        self.take(_NUMBER_PATTERN, build)

    def finish(self) -> tuple[Mention, ...]:
        """The mentions in text order, with totals and negations marked."""
        ordered = sorted(self.found, key=lambda m: (m.start, m.role == "range_end"))
        out: list[Mention] = []
        previous: Mention | None = None
        for mention in ordered:
            role = mention.role
            if mention.kind == "number" and role == "value":
                before = self.source[max(0, mention.start - _LOOKBACK):mention.start]
                if (previous is not None and _TOTAL_BETWEEN.fullmatch(self.source[previous.end:mention.start])
                        or _TOTAL_BEFORE.search(before) or _TOTAL_AFTER.match(self.source, mention.end)):
                    role = "total"
            previous = mention if mention.kind == "number" else previous
            out.append(Mention(mention.kind, mention.value, mention.start, mention.end, mention.unit, role,
                               negated(self.source, mention.start)))
        return tuple(out)


def mentions(text: Any, prefer: str = "number") -> tuple[Mention, ...]:
    """Every date, time and number written in an answer (the text is prepared first).

    Forms that are ambiguous on their own (4/6, 4.6, 0730, 482 913) are read as the ``prefer`` kind:
    ``date`` (4/6 is April 6), ``time`` (7.15 and 0730 are times), ``code`` (digit groups are one code)
    or ``number`` (4.6 is a number, 4/6 is 4 out of 6, 4-6 a range). Spans index the prepared text.
    """
    return scan(prepare(text), prefer)


def scan(clean: str, prefer: str) -> tuple[Mention, ...]:
    """:func:`mentions` of text that is already prepared."""
    scanner = _Scanner(clean)
    scanner.date_runs()
    scanner.dates(_DATE_PATTERNS)
    scanner.weekdays()
    scanner.time_ranges()
    scanner.times(_TIME_PATTERNS)
    if prefer == "date":
        scanner.dates(_AMBIGUOUS_DATES)
    elif prefer == "time":
        scanner.times(_AMBIGUOUS_TIMES)
    elif prefer == "code":
        scanner.codes()
    scanner.numbers()
    return scanner.finish()


# --- units and bare numbers --------------------------------------------------------------------------

_UNIT_SPECS = {unit: (dim, base) for dim, unit, base in _UNITS.values()}
_QUANTITY = re.compile(
    rf"\s*(?P<value>-?\d{{1,3}}(?:,\d{{3}})+(?!\d)(?:\.\d+)?|-?\d+(?:\.\d+)?)\s*(?P<unit>{UNIT_PATTERN})?\s*")


def dimension(unit: str | None) -> str | None:
    """The dimension of a canonical unit (temperature, speed, storage, count...), None without a unit."""
    return _UNIT_SPECS[unit][0] if unit else None


def converts(value: float, unit: str | None, other: Mention) -> bool:
    """Whether ``other`` is ``value`` (in ``unit``; when unknown, in any unit of other's dimension)
    converted to other's unit, to within rounding (of ``value`` to its written digits, and of the result to
    a whole number): 2 °C and 36 °F, 6.1 m/s and 22 km/h, not 25 °C and 75 °F."""
    if other.unit is None or _UNIT_SPECS[other.unit][1] is None:
        return False
    dim, (scale_to, offset_to) = _UNIT_SPECS[other.unit]
    if unit is not None and dimension(unit) != dim:
        return False
    sources = [unit] if unit is not None and _UNIT_SPECS[unit][1] is not None else \
        [name for name, (d, base) in _UNIT_SPECS.items() if d == dim and base is not None and name != other.unit]
    step = 0.5 * 10 ** -len(f"{value:g}".partition(".")[2])  # half a unit of value's last written digit
    for source in sources:
        scale, offset = _UNIT_SPECS[source][1]
        converted = (value * scale + offset - offset_to) / scale_to
        if abs(converted - other.value) <= step * scale / scale_to + 0.5 + 1e-9:
            return True
    return False


def unit_fits(unit: str | None, wanted: str | None) -> bool:
    """A written unit agrees with the expected one (either unknown, equal, or a bare degree for a temperature)."""
    if unit is None or wanted is None or unit == wanted:
        return True
    return dimension(unit) == dimension(wanted) == "temperature" and "°" in (unit, wanted)


def bare_number(text: Any, counters: bool = True) -> tuple[float, str | None] | None:
    """(value, canonical unit) when the text is one number with at most a unit ("12 °C", "48%", "1,024",
    "三个"), else None. Without ``counters``, a counted noun (个, alarms) is not a unit."""
    match = _QUANTITY.fullmatch(prepare(text))
    if match is None:
        return None
    unit = _UNITS[match.group("unit")][1] if match.group("unit") else None
    if unit is not None and not counters and dimension(unit) == "count":
        return None
    return float(match.group("value").replace(",", "")), unit


def negated(clean: str, start: int) -> bool:
    """Whether a negation comes shortly before ``start`` in its clause: at most two words or two Chinese
    characters between them ("not 4", "isn't exactly 4", "不是3个", "不到3个"; not "没读的对话有3个")."""
    clause = CLAUSE_BREAK.split(clean[max(0, start - _LOOKBACK):start])[-1]
    last = None
    for last in _NEGATION.finditer(clause):
        pass
    if last is None:
        return False
    gap = clause[last.end():]
    return len(re.findall(r"[a-z0-9']+", gap)) <= 2 and len(re.findall(r"[\u2e80-\u9fff]", gap)) <= 2
