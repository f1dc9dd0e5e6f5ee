"""Answer matchers: free-text checks and the grounded field matchers, on the answer reader (:mod:`.answers`).

Free text (text mode's answer, grounded Path B's joined fields) is judged by :func:`match_value` /
:func:`build_answer_checks`, which read it with the one answer reader (:mod:`.answers`: the answer must
commit to the expected value). Grounded mode (one AnswerSheet field at a time) uses the matchers of
:data:`MATCHERS`: ``exact``, ``number``, ``date``, ``time`` and ``duration``.
"""
from __future__ import annotations

import datetime as _dt
import math
import re
from typing import Any, Callable, Mapping, Sequence

from mobilegym.judge.errors import TaskError
from mobilegym.judge.answers import kind_of, read_answer, same_code
from mobilegym.judge.mentions import bare_number, mentions
from mobilegym.judge.result import check
from mobilegym.judge.vocabulary import date_match_labels, normalize_text, to_date, weekday_names

# --- normalisation -----------------------------------------------------------------------------


_EDGE_PUNCT = " \t\n.。!！?？,，;；:：、\"'“”‘’「」『』《》()（）[]【】"


def _bare(text: Any) -> str:
    """normalize_text without surrounding punctuation or quotes."""
    return normalize_text(text).strip(_EDGE_PUNCT)


_NUMBER = re.compile(r"(?:(?<![\w.])[-−])?\d+(?:\.\d+)?")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def extract_numbers(text: Any) -> list[float]:
    """Every number written in the text (Chinese numerals and thousands separators included)."""
    clean = _THOUSANDS.sub("", normalize_text(text))
    return [float(m.group(0).replace("−", "-")) for m in _NUMBER.finditer(clean)]


def _number_of(value: Any) -> float | None:
    """A bare number (int, float, or text that is only a number), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    text = _THOUSANDS.sub("", normalize_text(value))
    try:
        return float(text)
    except ValueError:
        return None


# --- booleans ----------------------------------------------------------------------------------


def match_bool(expected: bool, text: Any) -> bool:
    """Whether a yes/no answer says ``expected`` (negation-aware; saying both yes and no fails)."""

    return read_answer(bool(expected), text).passed


# --- text mode ---------------------------------------------------------------------------------


def match_value(expected: Any, actual: Any, *, rivals: Sequence[str] = (),
                os_state: Mapping[str, Any] | None = None) -> bool:
    """Whether a free-text answer commits to one expected value (:func:`.answers.read_answer`):
    every number, date or time of the asked kind in it is the expected one, a name or title appears as
    whole words and no rival does, yes/no is read with negations; hedges and ranges fail."""

    return read_answer(expected, actual, rivals=rivals, os_state=os_state).passed


def build_answer_checks(expected: Any, answer: Any, field: str = "answer", *,
                        rivals: Sequence[str] | Mapping[str, Sequence[str]] | None = None,
                        os_state: Mapping[str, Any] | None = None,
                        tolerance: float | Mapping[str, float] | None = None) -> list[dict[str, Any]]:
    """Checks of a free-text answer to a question: one per slot when ``expected`` is a dict (each slot may be
    stated beside the others), else one; a bare list naming something else besides the values fails.
    ``rivals``: other candidates; ``tolerance``: minutes for a time, a difference for a number (for slots,
    both may be {slot: value} dicts; one tolerance applies to every slot)."""

    if expected is None:
        raise TaskError("the expected answer is None (missing data in the environment?)")
    if not isinstance(expected, Mapping):
        reading = read_answer(expected, answer, rivals=_sequence(rivals), os_state=os_state,
                              tolerance=_number(tolerance), one_value=True)
        return [check(field, expected, answer, reading.passed)]
    if not expected:
        raise TaskError("the expected answer is an empty dict")
    rivals_of = rivals if isinstance(rivals, Mapping) else {}
    tolerance_of = tolerance if isinstance(tolerance, Mapping) else dict.fromkeys(expected, tolerance)
    checks = []
    for slot, value in expected.items():
        others = [v for s, v in expected.items() if s != slot]
        reading = read_answer(value, answer, rivals=_sequence(rivals_of.get(slot)), others=others, os_state=os_state,
                              tolerance=_number(tolerance_of.get(slot)), one_value=True)
        checks.append(check(str(slot), value, answer, reading.passed))
    return checks


def _number(tolerance: Any) -> float | None:
    if tolerance is None:
        return None
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)):
        raise TaskError(f"a tolerance is a number, got {tolerance!r}")
    return float(tolerance)


def _sequence(rivals: Any) -> tuple[str, ...]:
    if rivals is None or isinstance(rivals, Mapping):
        return ()
    if isinstance(rivals, str):
        raise TaskError(f"rivals must be a sequence of candidates, got the text {rivals!r}")
    return tuple(rivals)


def check_alternatives(*check_arrays: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Candidate-wise OR. Candidate k is the k-th check of every array; the first candidate whose
    checks all pass is returned, else the first candidate (for diagnostics)."""
    if not check_arrays or any(len(a) == 0 for a in check_arrays):
        raise ValueError("check_alternatives needs at least one non-empty array of checks")
    sizes = {len(a) for a in check_arrays}
    if len(sizes) != 1:
        raise ValueError(f"check_alternatives: arrays differ in length {sorted(len(a) for a in check_arrays)}")
    candidates = [[array[k] for array in check_arrays] for k in range(sizes.pop())]
    for candidate in candidates:
        if all(c["passed"] for c in candidate):
            return candidate
    return candidates[0]


# --- grounded matchers -------------------------------------------------------------------------


def match_exact(expected: Any, actual: Any) -> bool:
    """Equal after normalisation (and without surrounding punctuation or quotes); a code (482913, a phone
    number) is equal when its digits are, however they are grouped ("482 913", "482-913")."""

    if kind_of(expected) == "code":
        return same_code(expected, actual)
    return actual is not None and _bare(actual) != "" and _bare(actual) == _bare(expected)


def match_number(expected: Any, actual: Any) -> bool:
    """The field holds one number, optionally with a unit of measure ("12", "12 °C", "48%", "11 km/h", "1,024"),
    close to the expected one; other words ("3个", "3 alarms", "about 3") or a second number fail."""

    want = _number_of(expected)
    if want is None:
        raise TaskError(f"expected value {expected!r} is not a number")
    got = bare_number(actual, counters=False) if actual is not None else None
    return got is not None and math.isclose(got[0], want, rel_tol=1e-6, abs_tol=1e-9)


# dates

_DATE_SEPARATORS = " \t,，、.。;；()（）[]【】-/"

def match_date(expected: Any, actual: Any, os_state: Mapping[str, Any] | None = None) -> bool:
    """The answer is a label of the expected date, or labels of that date (plus its weekday) and separators only."""
    if actual is None:
        return False
    text = normalize_text(actual).strip(_DATE_SEPARATORS)
    labels = date_match_labels(expected, os_state)
    if text in labels:
        return True
    decorations = {normalize_text(n) for n in weekday_names(to_date(expected))}
    rest, hit = text, False
    for label in sorted(labels, key=len, reverse=True):
        if label in rest:
            rest, hit = rest.replace(label, " "), True
    for label in sorted(decorations, key=len, reverse=True):
        rest = rest.replace(label, " ")
    return hit and rest.strip(_DATE_SEPARATORS) == ""


# times


def parse_time(value: Any) -> int | None:
    """Minutes after midnight of the first time of day in the value (14:30, 2:30 pm, 7.15, 0730, 下午2点半,
    7点1刻, half past seven, noon), else None."""

    if isinstance(value, (_dt.datetime, _dt.time)):
        return value.hour * 60 + value.minute
    return next((m.value for m in mentions(value, "time") if m.kind == "time"), None)


TIME_TOLERANCE = 5  # minutes a time answer may be off (the grounded time matcher's default)


def match_time(expected: Any, actual: Any, tolerance_minutes: float = TIME_TOLERANCE) -> bool:
    """The text commits to the expected time of day within the tolerance (default ±5 minutes, wrapping
    around midnight): every time in it is that time ("2-4 pm" gives its start), no hedge."""

    want = parse_time(expected)
    if want is None:
        raise TaskError(f"expected value {expected!r} is not a time of day")
    return read_answer(_dt.time(want // 60, want % 60), actual, tolerance=tolerance_minutes).passed


# durations

_DURATION_WORDS = [
    ("an hour and a half", "90 minutes"), ("one and a half hours", "90 minutes"),
    ("half an hour", "30 minutes"), ("a quarter of an hour", "15 minutes"), ("quarter of an hour", "15 minutes"),
    ("an hour", "1 hour"), ("a hour", "1 hour"), ("a minute", "1 minute"), (" and ", " "),
]
_EN_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
               "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
               "thirty": 30, "forty": 40, "forty-five": 45, "forty five": 45, "fifty": 50, "ninety": 90}
_UNIT_MINUTES = [
    (r"天|日|(?:days?|d)(?![a-z])", 1440.0),
    (r"小时|小時|钟头|(?:hours?|hrs?|h)(?![a-z])", 60.0),
    (r"分钟|分鐘|分|(?:minutes?|mins?|m)(?![a-z])", 1.0),
    (r"秒钟|秒|(?:seconds?|secs?|s)(?![a-z])", 1 / 60),
]
_DURATION_PART = re.compile(
    r"(?P<n>\d+(?:\.\d+)?)\s*个?\s*(?P<unit>" + "|".join(u for u, _ in _UNIT_MINUTES) + r")(?P<trail>\s*半)?")


def parse_duration(value: Any) -> float | None:
    """Total minutes of a duration (1小时30分, 90分钟, 2:15, 1 hour 30 minutes, 90 min, 1.5h, 半小时), else None.
    A bare number counts as minutes."""
    if isinstance(value, _dt.timedelta):
        return value.total_seconds() / 60
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = normalize_text(value)
    for phrase, replacement in _DURATION_WORDS:
        text = text.replace(phrase, replacement)
    for word in sorted(_EN_NUMBERS, key=len, reverse=True):
        text = re.sub(rf"\b{word}\b", str(_EN_NUMBERS[word]), text)
    text = re.sub(r"(\d+)\s*个半\s*(?=小时|钟头)", r"\1.5", text)
    text = re.sub(r"(?<!\d)半\s*个?\s*(小时|钟头)", "30分钟", text)
    text = text.replace("1刻钟", "15分钟").replace("3刻钟", "45分钟")
    clock = re.fullmatch(r"(\d+)\s*:\s*(\d{2})(?:\s*:\s*(\d{2}))?", text)
    if clock:
        return int(clock.group(1)) * 60 + int(clock.group(2)) + int(clock.group(3) or 0) / 60
    total, found = 0.0, False
    for part in _DURATION_PART.finditer(text):
        unit = next(minutes for pattern, minutes in _UNIT_MINUTES if re.fullmatch(pattern, part.group("unit")))
        amount = float(part.group("n")) + (0.5 if part.group("trail") else 0)
        total += amount * unit
        found = True
        tail = re.match(r"\s*(\d+)\s*$", text[part.end():])
        if tail and unit == 60.0:  # "1h30", "1小时30"
            total += int(tail.group(1))
    if found:
        return total
    bare = re.fullmatch(r"\d+(?:\.\d+)?", text)
    return float(bare.group(0)) if bare else None


def match_duration(expected: Any, actual: Any, tolerance_minutes: float = 0) -> bool:
    """Same total length (to within the tolerance, default exact to the minute)."""
    want = parse_duration(expected)
    if want is None:
        raise TaskError(f"expected value {expected!r} is not a duration")
    got = parse_duration(actual) if actual is not None else None
    return got is not None and abs(got - want) <= tolerance_minutes + 1e-9


MATCHERS: dict[str, Callable[..., bool]] = {
    "exact": match_exact,
    "number": match_number,
    "date": match_date,
    "time": match_time,
    "duration": match_duration,
}
DEFAULT_MATCHER = {"text": "exact", "choice": "exact", "number": "number", "date": "date", "time": "time"}


def match_field(matcher: str, expected: Any, actual: Any, os_state: Mapping[str, Any] | None = None) -> bool:
    """Apply a grounded matcher by name (the date matcher also gets the OS state for relative dates)."""
    if matcher not in MATCHERS:
        raise TaskError(f"unknown matcher {matcher!r} (known: {', '.join(MATCHERS)})")
    if matcher == "date":
        return match_date(expected, actual, os_state)
    return MATCHERS[matcher](expected, actual)


_MOVED_TO_VOCABULARY = ("MONTHS", "WEEKDAYS_EN", "RELATIVE_DAYS", "ZH_WEEK_WORDS", "WEEK_PREFIXES", "chinese_to_int")


def __getattr__(name: str) -> Any:
    """Names that moved to :mod:`mobilegym.judge.vocabulary` still resolve here, with a DeprecationWarning."""
    if name in _MOVED_TO_VOCABULARY:
        import warnings

        from mobilegym.judge import vocabulary

        warnings.warn(f"mobilegym.judge.matchers.{name} moved to mobilegym.judge.vocabulary.{name}",
                      DeprecationWarning, stacklevel=2)
        return getattr(vocabulary, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
