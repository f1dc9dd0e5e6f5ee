"""The answer reader: whether a free-text answer commits to the expected value.

Every free-text answer is judged here: text mode's answer, grounded Path B's joined AnswerSheet values
(through :func:`matchers.build_answer_checks`) and content the agent writes (:func:`fact_checks`).
The text is read into typed mentions (:mod:`.mentions`: numbers with their units, dates, times, ranges,
digit codes), and :func:`read_answer` passes only when every mention of the asked kind is the expected
value, apart from mentions that are plainly another quantity (a total after "of", a unit conversion, the
digits of a date or a time). Hedges, negated values, ranges offered as a number (unless both ends are
expected values: "20-25°C" for a low and a high), several values, lists where one value is asked and rival
names fail; a weather condition in a chance phrase ("30% chance of rain") is not stated. Word lists live in
the ``vocab/`` JSON files.
"""
from __future__ import annotations

import datetime as _dt
import marshal
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from mobilegym.answer_sheet_ids import HARNESS_APPS
from mobilegym.judge.errors import TaskError
from mobilegym.judge.vocabulary import WEEKDAYS_EN, date_match_labels, normalize_text, to_date
from mobilegym.judge.result import check
from mobilegym.judge.mentions import (CLAUSE_BREAK, LATIN, MARKERS, NUMBERS, Mention, bare_number, both, converts, dimension,
                       mentions, negated, prepare, scan, unit_fits, vocab, word_pattern)

_CONDITIONS: dict[str, tuple[str, ...]] = {label: tuple(both(words))
                                           for label, words in vocab("conditions")["conditions"].items()}
_HEDGE = re.compile(word_pattern(both(MARKERS["hedges"])) + r"|(?<=[^\W\d_])\s*/\s*(?=[^\W\d_])")
_ZERO_WORDS = re.compile(word_pattern([*NUMBERS["en"]["zero_words"], *NUMBERS["zh"]["zero_words"]]))
MAX_ANSWER_CHARS = 1000  # a longer answer reads as none (and cannot hold the judge: see read_answer)
MAX_PROSE_CHARS = 4000  # the same bound for written content (a message, a note): longer states nothing
_QUOTES = " .,;:!?。，；：！？\"'“”‘’《》「」『』"  # stripped around a value


# --- expected values ---------------------------------------------------------------------------------

_CODE_TEXT = re.compile(r"\s*\+?[\d ()\-]+\s*")
_DATE_TEXT = re.compile(r"\s*\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?\s*")


def kind_of(expected: Any) -> str:
    """How an expected value is read: regex, bool, list, date, time, number, code or text.

    Text is a date when it is one (2026-04-06), a code when it is four digits or more, maybe grouped (4815,
    482913, +1 415-555-0100), a number when it is only a number with at most a unit (12, 278.2, 12°C), a
    time when it is only a time of day (14:30, 7:30 am, 下午2点), else text."""
    if isinstance(expected, re.Pattern):
        return "regex"
    if isinstance(expected, bool):
        return "bool"
    if isinstance(expected, (list, tuple, set, frozenset)):
        return "list"
    if isinstance(expected, (_dt.date, _dt.datetime)):
        return "date"
    if isinstance(expected, _dt.time):
        return "time"
    if isinstance(expected, (int, float)):
        return "number"
    if isinstance(expected, Mapping):
        raise TaskError("a dict answer has slots: judge it with build_answer_checks")
    return _text_kind(str(expected))


@lru_cache(maxsize=4096)
def _text_kind(text: str) -> str:
    if _DATE_TEXT.fullmatch(text):
        return "date"
    if _CODE_TEXT.fullmatch(text) and len(re.sub(r"\D", "", text)) >= 4:
        return "code"
    if bare_number(text) is not None:
        return "number"
    clean = prepare(text).strip(_QUOTES)
    times = scan(clean, "time")
    if len(times) == 1 and times[0].kind == "time" and (times[0].start, times[0].end) == (0, len(clean)):
        return "time"
    return "text"


def _minutes(expected: Any) -> int:
    if isinstance(expected, (_dt.time, _dt.datetime)):
        return expected.hour * 60 + expected.minute
    found = [m for m in mentions(expected, "time") if m.kind == "time"]
    if not found:
        raise TaskError(f"expected value {expected!r} is not a time of day")
    return found[0].value


def _quantity(expected: Any) -> tuple[float, str | None]:
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        return float(expected), None
    quantity = bare_number(expected)
    if quantity is None:
        raise TaskError(f"expected value {expected!r} is not a number")
    return quantity


def _is_value(kind: str, expected: Any, os_state: Mapping[str, Any] | None,
              tolerance: float | None) -> Callable[[Mention], bool]:
    """Whether a mention of the asked kind states ``expected``."""
    if kind == "time":
        want = _minutes(expected)

        def same_time(m: Mention) -> bool:
            diff = abs(m.value - want) % 1440
            return min(diff, 1440 - diff) <= (tolerance or 0) + 1e-9
        return same_time
    if kind == "number":
        value, unit = _quantity(expected)
        return lambda m: _close(m.value, value, tolerance) and unit_fits(m.unit, unit)
    if kind == "code":
        return lambda m: _same_digits(str(expected), m.value)
    day = to_date(expected)
    labels = date_match_labels(day, os_state) if os_state is not None else set()

    def names_day(m: Mention) -> bool:
        tag = m.value[0]
        if tag == "date":
            return m.value[2:] == (day.month, day.day) and m.value[1] in (None, day.year)
        return m.value[1] in labels if tag == "relative" else WEEKDAYS_EN[m.value[1]] in labels
    return names_day


def _same_digits(expected: str, digits: str) -> bool:
    """A code's digits are the expected ones; for phone numbers (7 digits or more) a country code or a
    national trunk 0 is free (+81 90-5555-0172 is 090-5555-0172 and 90-5555-0172)."""
    want = re.sub(r"\D", "", expected)
    if digits == want:
        return True
    forms = [(d, d[1:] if d.startswith("0") else d) for d in (digits, want)]
    return any(min(len(a), len(b)) >= 7 and (a.endswith(b) or b.endswith(a))
               for a in forms[0] for b in forms[1])


def same_code(expected: Any, actual: Any) -> bool:
    """A field holding only a code (digits and separators: "482 913", "482-913", "(415) 555-0100") that is the
    expected one."""
    text = str(actual).strip(_QUOTES) if actual is not None else ""
    return bool(_CODE_TEXT.fullmatch(text)) and _same_digits(str(expected), re.sub(r"\D", "", text))


def _close(a: float, b: float, tolerance: float | None) -> bool:
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=max(tolerance or 0, 1e-9))


# --- reading -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """The verdict on one expected value: passed, why (a short reason), and the candidate values read."""

    passed: bool
    reason: str
    found: tuple[Any, ...] = ()


def read_answer(expected: Any, text: Any, *, rivals: Sequence[str] = (), others: Sequence[Any] = (),
                os_state: Mapping[str, Any] | None = None, tolerance: float | None = None,
                scope: str = "answer", one_value: bool = False) -> Reading:
    """Whether ``text`` commits to ``expected``.

    ``rivals``: other candidate values of the same kind (e.g. every other contact name, see
    :func:`rivals_for`), none of which may be stated. ``others``: values the same text is also expected
    to state (other slots, other list items), which do not count against it. ``os_state``: the phone's
    OS state, for relative dates (tomorrow, next Monday). ``tolerance``: minutes for times (default 0),
    an absolute difference for numbers (default: equal). ``scope``: where a hedge word counts: anywhere in
    the ``"answer"``, or only in a ``"clause"`` that states a value of the asked kind (for prose).
    ``one_value``: the text is an answer giving only the expected value(s) (not prose), so for a name, a
    title or a code a bare list ("A, B") that has the value as one item and another short item that is none
    of the expected values fails: it names another candidate, known to the state or not.
    """
    if text is None or not str(text).strip():
        return Reading(False, "no answer")
    limit = MAX_PROSE_CHARS if scope == "clause" else MAX_ANSWER_CHARS
    if len(str(text)) > limit:  # the reader's patterns are linear-ish, not linear: bound the subject
        return Reading(False, f"the text is longer than {limit} characters")
    kind = kind_of(expected)
    if kind == "list":
        return _read_list(list(expected), text, rivals, others, os_state, tolerance, scope, one_value)
    clean = prepare(text)
    if kind == "bool":
        return _read_bool(expected, clean)
    if kind in ("text", "regex"):
        return _read_text(expected, text, clean, rivals, others, scope, one_value)
    found = scan(clean, kind)
    asked = [m for m in found if m.kind == kind and m.role != "ordinal"  # a time range gives its start
             and (m.role != "range_end" or kind == "number")]
    if kind == "code":
        asked = [m for m in asked if len(m.value) >= min(4, len(re.sub(r"\D", "", str(expected))))]
    shown = _shown(kind, asked)
    hedge = _hedged(clean, scope, [(m.start, m.end) for m in asked], [*((m.start, m.end) for m in found),
                                                                      *_chance_spans(clean)])
    if hedge:
        return Reading(False, f"hedged ({hedge!r})", shown)
    if kind == "code" and one_value and _lists_another(clean, [expected, *others]):
        return Reading(False, "a list is given where one value is asked", shown)
    same = _is_value(kind, expected, os_state, tolerance)
    peers = [o for o in others if kind_of(o) == kind]  # the other expected values of the asked kind
    allowed = [_is_value(kind, o, os_state, tolerance) for o in peers]
    if kind == "number":
        if not asked and _quantity(expected)[0] == 0 and _ZERO_WORDS.search(clean):
            return Reading(True, "ok", ("none",))
        if not all(_two_facts(pair, same, allowed) for pair in _ranges(found)):
            return Reading(False, "a range is not one value", shown)  # unless its ends are two facts: 20-25°C
        allowed.append(_other_quantity(expected, [m for m in asked if same(m)], asked, peers))
    if kind == "date":
        days = [to_date(v) for v in (expected, *peers)]
        allowed.append(lambda m: m.value[0] == "weekday" and any(d.weekday() == m.value[1] for d in days))
    return _commit(asked, same, allowed, shown)


def _commit(asked: Sequence[Mention], same: Callable[[Mention], bool],
            allowed: Sequence[Callable[[Mention], bool]], found: tuple[Any, ...]) -> Reading:
    """Pass when a mention is the value, none of those is negated, and every other one is allowed."""
    committed = [m for m in asked if same(m)]
    if not committed:
        return Reading(False, "the value is not stated", found)
    if any(m.negated for m in committed):
        return Reading(False, "the value is negated", found)
    if any(not same(m) and not any(a(m) for a in allowed) for m in asked):
        return Reading(False, "several values are given", found)
    return Reading(True, "ok", found)


def _two_facts(pair: tuple[Mention, Mention], same: Callable[[Mention], bool],
               peers: Sequence[Callable[[Mention], bool]]) -> bool:
    """A range whose ends are two different expected values (a low and a high), never one value's
    neighbourhood ("between 2 and 4" for 3)."""
    ends = [(same(m), any(p(m) for p in peers)) for m in pair]
    return all(this or peer for this, peer in ends) and not all(this for this, _ in ends)


def _ranges(found: Sequence[Mention]) -> list[tuple[Mention, Mention]]:
    """The (start, end) mentions of each range written ("3-4", "between 3 and 4")."""
    ends = {(m.start, m.end): m for m in found if m.role == "range_end"}
    return [(m, ends[m.start, m.end]) for m in found if m.role == "range" and (m.start, m.end) in ends]


def _other_quantity(expected: Any, committed: Sequence[Mention], asked: Sequence[Mention],
                    others: Sequence[Any]) -> Callable[[Mention], bool]:
    """Numbers that are plainly another quantity than the answer: its conversion to another unit
    (2°C (36°F)) or another expected value's (25°C (77°F) / 20°C (68°F)), the one total it is part of
    (47.3 GB of 128 GB, 3 of 5), or, when the expected value has a unit, a measurement of another
    dimension (12°C, wind 11 km/h)."""
    want, unit = _quantity(expected)
    written = unit or next((m.unit for m in committed if m.unit), None)
    converted = [(want, written), *(_quantity(o) for o in others)]
    totals = [m for m in asked if m.role == "total" and m not in committed and m.value > want]
    return lambda m: (any(converts(value, of, m) for value, of in converted) or totals == [m]
                      or unit is not None and m.unit is not None
                      and dimension(m.unit) not in (dimension(unit), "count"))


def _shown(kind: str, asked: Sequence[Mention]) -> tuple[Any, ...]:
    """The values read, for diagnostics."""
    if kind == "time":
        return tuple(f"{m.value // 60:02d}:{m.value % 60:02d}" for m in asked)
    if kind == "number":
        return tuple(int(m.value) if m.value.is_integer() else m.value for m in asked)
    if kind == "date":
        return tuple(WEEKDAYS_EN[m.value[1]] if m.value[0] == "weekday" else m.value[1] if m.value[0] == "relative"
                     else "-".join(f"{n:02d}" for n in m.value[1:] if n is not None) for m in asked)
    return tuple(m.value for m in asked)


def _hedged(clean: str, scope: str, asked: Sequence[tuple[int, int]], masked: Sequence[tuple[int, int]]) -> str | None:
    """The first hedge word outside the masked spans (in scope "clause": only in a clause with an asked span)."""
    for match in _HEDGE.finditer(clean):
        if any(s <= match.start() < e for s, e in masked):
            continue
        if scope == "clause":
            start = max((b.end() for b in CLAUSE_BREAK.finditer(clean, 0, match.start())), default=0)
            stop = next((b.start() for b in CLAUSE_BREAK.finditer(clean, match.end())), len(clean))
            if not any(start <= s < stop for s, _ in asked):
                continue
        return match.group(0).strip() or "/"
    return None


# --- yes/no ------------------------------------------------------------------------------------------

_YES = re.compile(word_pattern(both(MARKERS["yes_no"]["yes"])))
_NO = re.compile(word_pattern(both(MARKERS["yes_no"]["no"])))
_WEAK_YES = re.compile(word_pattern(both(MARKERS["yes_no"]["weak_yes"])))


def _read_bool(expected: bool, clean: str) -> Reading:
    """Yes/no: a yes word (是的, correct...) with a negation anywhere is both; a negation alone is no;
    otherwise a yes word or an affirming verb (is, 有, 会...) is yes."""
    hedge = _hedged(clean, "answer", [], [])
    if hedge:
        return Reading(False, f"hedged ({hedge!r})")
    strong = bool(_YES.search(clean))
    negative = bool(_NO.search(_YES.sub(" ", clean)))
    if strong and negative:
        return Reading(False, "both yes and no", (True, False))
    said = False if negative else True if strong or _WEAK_YES.search(clean) else None
    if said is None:
        return Reading(False, "neither yes nor no")
    return Reading(said is expected, "ok" if said is expected else "the other answer", (said,))


# --- names, titles, conditions -----------------------------------------------------------------------

_CONDITION_FORMS = {label: tuple(dict.fromkeys(prepare(w) for w in (label, *words)))
                    for label, words in _CONDITIONS.items()}
_CONDITION_OF = {form: label for label, forms in _CONDITION_FORMS.items() for form in forms}
_CHANCE_WORDS = vocab("conditions")["chances"]
_CONDITION_WORD = word_pattern(_CONDITION_OF)
# "30% chance of rain", "有30%的可能下雨", "rain chance", "降雨概率": no condition is stated. A run of lead-ins
# (percentages, "chance of") then the condition, or the condition then a chance word. The run is read unit by
# unit and the condition tried at its end: one regex "(?:unit)+condition" backtracks quadratically on "1%1%1%...".
_CHANCE_UNIT = re.compile(rf"(?:(?<!\d)\d+(?:\.\d+)?\s*%|{word_pattern(both(_CHANCE_WORDS['before']))})\s*(?:的\s*)?")
_CHANCE_AFTER_RUN = re.compile(rf"(?:{word_pattern(both(_CHANCE_WORDS['lead']))}\s*)?{_CONDITION_WORD}")
_CHANCE_AFTER_CONDITION = re.compile(
    rf"{_CONDITION_WORD}\s*(?:的\s*)?{word_pattern(both(_CHANCE_WORDS['after']))}")


def _chance_lead(clean: str, pos: int) -> tuple[int, int] | None:
    """The first "lead-ins then condition" phrase at or after ``pos``: the longest one of the first run of
    lead-ins that a condition follows."""
    best = None
    run_start = run_end = -1
    for unit in _CHANCE_UNIT.finditer(clean, pos):
        if unit.start() != run_end:
            if best:
                return best
            run_start = unit.start()
        run_end = unit.end()
        after = _CHANCE_AFTER_RUN.match(clean, run_end)
        if after:
            best = (run_start, after.end())
    return best


def _chance_spans(clean: str) -> list[tuple[int, int]]:
    """The chance phrases of a text: their condition words state no condition, their hedge words
    ("有30%的可能下雨") are no hedge. Leftmost first, not overlapping (as one regex's finditer would)."""
    spans: list[tuple[int, int]] = []
    pos = 0
    lead = _chance_lead(clean, 0)
    tail_match = _CHANCE_AFTER_CONDITION.search(clean)
    tail = tail_match.span() if tail_match else None
    while lead or tail:  # each candidate is searched again only once a span has passed its start: linear
        if lead and lead[0] < pos:
            lead = _chance_lead(clean, pos)
        if tail and tail[0] < pos:
            tail_match = _CHANCE_AFTER_CONDITION.search(clean, pos)
            tail = tail_match.span() if tail_match else None
        options = [span for span in (lead, tail) if span]
        if not options:
            break
        span = min(options, key=lambda s: s[0])  # at the same start the lead-in form wins, as it came first
        spans.append(span)
        pos = max(span[1], span[0] + 1)
    return spans


_CODE_JOINT = re.compile(r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])|(?<=[a-z\d])[\s-](?=\d)|(?<=\d)[\s-](?=[a-z])")


@lru_cache(maxsize=4096)
def _forms(value: str) -> tuple[str, ...]:
    """The prepared ways of writing a text value (a weather condition's synonyms included)."""
    clean = prepare(value).strip(_QUOTES)
    label = _CONDITION_OF.get(clean)
    return tuple(dict.fromkeys([clean, *_CONDITION_FORMS[label]])) if label else ((clean,) if clean else ())


def _vocab_rivals(value: str) -> list[str]:
    """Every other weather condition when the value is one."""
    label = _CONDITION_OF.get(prepare(value).strip(_QUOTES))
    return [other for other in _CONDITIONS if other != label] if label else []


@lru_cache(maxsize=4096)
def _form_pattern(form: str) -> re.Pattern[str]:
    """A form as whole tokens (no word character of a Latin script right before or after it); the letter and
    digit groups of a code may be joined by a space, a hyphen or nothing (UA 1542, ua1542, 7Z-48213)."""
    head = f"(?<!{LATIN})" if re.match(LATIN, form[0]) else ""
    tail = f"(?!{LATIN})" if re.match(LATIN, form[-1]) else ""
    return re.compile(head + r"[\s-]?".join(re.escape(part) for part in _CODE_JOINT.split(form)) + tail)


def _spans(form: str, clean: str, masks: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """Where a form occurs as whole tokens, outside the masked spans."""
    return [m.span() for m in _form_pattern(form).finditer(clean)
            if not any(s <= m.start() and m.end() <= e for s, e in masks)]


def _read_text(expected: str | re.Pattern[str], raw: Any, clean: str, rivals: Sequence[str],
               others: Sequence[Any], scope: str, one_value: bool) -> Reading:
    """The value occurs as whole tokens (a regex: is found), no rival occurs, it is not negated nor hedged.
    An occurrence inside a longer candidate's occurrence belongs to the longer one ("rain" in "light rain"),
    and a weather condition in a chance phrase ("30% chance of rain") is not stated."""
    chances = _chance_spans(clean)
    if isinstance(expected, re.Pattern):
        own_forms: tuple[str, ...] = ()
        own = [m.span() for m in expected.finditer(clean) if m.end() > m.start()]
        searched = bool(expected.search(str(raw)) or expected.search(normalize_text(raw)))
        label = expected.pattern
    else:
        own_forms = _forms(expected)
        if not own_forms:
            raise TaskError(f"expected answer {expected!r} is empty")
        own = [span for form in own_forms for span in _spans(form, clean, chances)]
        searched, label = False, str(expected)
    other_forms = [f for o in others if isinstance(o, str) and kind_of(o) == "text" for f in _forms(o)]
    taken = {*own_forms, *other_forms}
    rival_spans = {name: [s for f in _forms(name) if f not in taken for s in _spans(f, clean, chances)]
                   for name in dict.fromkeys([*rivals, *(_vocab_rivals(expected) if own_forms else [])])}
    other_spans = [s for f in other_forms for s in _spans(f, clean, chances)]
    every = {*own, *other_spans, *(s for spans in rival_spans.values() for s in spans)}

    def kept(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        return [(a, b) for a, b in spans
                if not any(s <= a and b <= e and e - s > b - a and (s, e) not in spans for s, e in every)]

    own_kept = kept(own)
    stated = [name for name, spans in rival_spans.items() if kept(spans)]
    found = tuple(([label] if own_kept or searched else []) + stated)
    if not own_kept and not searched:
        return Reading(False, "the value is not stated", found)
    if stated:
        return Reading(False, f"another candidate is stated: {', '.join(stated)}", found)
    if one_value and _lists_another(clean, [expected, *others]):
        return Reading(False, "a list is given where one value is asked", found)
    if own_kept and all(negated(clean, s) for s, _ in own_kept):
        return Reading(False, "the value is negated", found)
    hedge = _hedged(clean, scope, own_kept or [(0, len(clean))], [*own, *other_spans, *chances])
    if hedge:
        return Reading(False, f"hedged ({hedge!r})", found)
    return Reading(True, "ok", found)


_LIST_BREAK = re.compile(r"[,;、\n/]|(?<![a-z])or(?![a-z])|或者|或")


def _lists_another(clean: str, values: Sequence[Any]) -> bool:
    """Whether the text is a bare list ("A, B") with one of the values as an item and another short item (at
    most three words or eight Chinese characters, or as long as the longest value) that states none of them and is not only a date, time or quantity ("March 20", "128 GB", "3" may go
    along; "4815" is a code, a candidate, unless a time is expected: then "0730" is 07:30)."""
    items = [i.strip(_QUOTES) for i in _LIST_BREAK.split(clean)]
    items = [i for i in items if i]
    prefer = "time" if any(kind_of(v) == "time" for v in values) else "number"

    def is_value(item: str) -> bool:
        return any(same_code(v, item) if kind_of(v) == "code" else
                   bool(v.fullmatch(item)) if isinstance(v, re.Pattern) else
                   isinstance(v, str) and item in _forms(v) for v in values)

    def states_value(item: str) -> bool:
        return is_value(item) or any(isinstance(v, str) and kind_of(v) == "text" and _spans(f, item)
                                     for v in values for f in _forms(v))

    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]

    def other_kind(item: str) -> bool:  # dates, times and quantities; a bare number of 4+ digits is a code
        covered = [c for m in scan(item, prefer)  # unless it is one of the values ("Rent, 1337.00")
                   if m.kind != "number" or m.unit or abs(m.value) < 1000 or any(m.value == n for n in numbers)
                   for c in range(m.start, m.end)]
        return not re.sub(r"[\s\W]", "", "".join(ch for i, ch in enumerate(item) if i not in covered))

    texts = [str(v) for v in values if isinstance(v, str)]
    words, chars = max([3, *(len(t.split()) for t in texts)]), max([8, *map(len, texts)])

    def short(item: str) -> bool:
        return len(item.split()) <= words if item.isascii() else len(item) <= chars

    return (len(items) > 1 and any(is_value(i) for i in items)
            and any(short(i) and not states_value(i) and not other_kind(i) for i in items))


def _read_list(items: list[Any], text: Any, rivals: Sequence[str], others: Sequence[Any],
               os_state: Mapping[str, Any] | None, tolerance: float | None, scope: str, one_value: bool) -> Reading:
    """Every item is stated (the other items allowed beside it) and no rival outside the list."""
    if not items:
        return Reading(False, "the expected list is empty")
    keys = {prepare(i) for i in items if isinstance(i, str)}
    outside = [r for r in rivals if prepare(r) not in keys]
    found: list[Any] = []
    for i, item in enumerate(items):
        reading = read_answer(item, text, rivals=outside, others=[*items[:i], *items[i + 1:], *others],
                              os_state=os_state, tolerance=tolerance, scope=scope, one_value=one_value)
        found.extend(f for f in reading.found if f not in found)
        if not reading.passed:
            return Reading(False, f"{item}: {reading.reason}", tuple(found))
    return Reading(True, "ok", tuple(found))


# --- rivals and facts --------------------------------------------------------------------------------


def _strings_by_key(node: Any, out: dict[str, list[str]]) -> None:
    if isinstance(node, Mapping):
        for key, value in node.items():
            if isinstance(value, str):
                out.setdefault(str(key), []).append(value)
            else:
                _strings_by_key(value, out)
    elif isinstance(node, list):
        for item in node:
            _strings_by_key(item, out)


StringIndex = tuple[tuple[tuple[str, ...], frozenset[str]], ...]


def _index(state: Any) -> StringIndex:
    """(the strings stored under a key, their normal forms) for every key of one app's state."""
    found: dict[str, list[str]] = {}
    _strings_by_key(state, found)
    return tuple((tuple(values), frozenset(map(normalize_text, values))) for values in found.values())


@lru_cache(maxsize=64)
def _cached_index(blob: bytes) -> StringIndex:
    return _index(marshal.loads(blob))


def _app_index(state: Any) -> StringIndex:
    """The app's string index, built once per distinct app state (judging reads the same world again and again)."""
    try:
        blob = marshal.dumps(state, 2)
    except ValueError:  # not plain data: index it without the cache
        return _index(state)
    return _cached_index(blob)


def rivals_for(expected: Any, apps_init: Mapping[str, Any], skip: Sequence[str] = HARNESS_APPS) -> tuple[str, ...]:
    """Other candidates of the same kind as a text answer: every other distinct string stored under a key
    (in an app) where the expected text (or an item of an expected list) is stored, e.g. every contact
    name for a name found under contacts' ``name``. Non-text answers have none."""
    items = expected if isinstance(expected, (list, tuple, set, frozenset)) else [expected]
    texts = {i for i in items if isinstance(i, str) and kind_of(i) == "text"}
    if not texts:
        return ()
    index = [entry for app in sorted(apps_init) if app not in skip for entry in _app_index(apps_init[app])]
    wanted = {normalize_text(t) for t in texts}
    hits = [values for values, _ in index if texts.intersection(values)]
    if not hits:  # stored in another spelling
        hits = [values for values, normal in index if not wanted.isdisjoint(normal)]
    rivals: dict[str, str] = {}
    for values in hits:
        for value in values:
            key = normalize_text(value)
            if key and key not in wanted:
                rivals.setdefault(key, value)
    for value in _extensions(frozenset(wanted), tuple(index)):
        rivals.setdefault(normalize_text(value), value)
    return tuple(rivals.values())


_EXTENSION_WORDS = 4  # a stored name of a thing ("Grandma's house"), not a sentence that mentions the value


@lru_cache(maxsize=256)
def _extensions(wanted: frozenset[str], index: StringIndex) -> tuple[str, ...]:
    """Stored short names that extend an expected text into another thing ("Grandma's house", "Visit Grandma"
    for "Grandma"): an answer stating one of them names that thing, not the value. A qualifier after a
    comma ("Paris, France") is the value itself."""
    patterns = [(w, _form_pattern(w)) for w in wanted if w]
    found: dict[str, str] = {}
    for values, _ in index:
        for value, normal in zip(values, map(normalize_text, values)):
            if normal in wanted or normal in found or len(normal.split()) > _EXTENSION_WORDS:
                continue
            for w, pattern in patterns:
                m = pattern.search(normal) if w in normal else None
                if m and not normal[m.end():].lstrip().startswith((",", "，", "(", "（")):
                    found[normal] = value
                    break
    return tuple(found.values())


def fact_checks(text: Any, facts: Mapping[str, Any], *, rivals: Mapping[str, Sequence[str]] | None = None,
                optional: Mapping[str, Any] | None = None,
                os_state: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """One check per fact a written text (message, note) must state: the fact is stated (same reading rules
    as answers, vocabulary synonyms included) and no conflicting candidate of the same kind is. ``facts`` is
    {name: expected value}; ``optional`` facts (the day a forecast is for) may be left out, but a text that
    states a value of their kind must state theirs; ``rivals`` is {name: other candidates} for both.
    Hedges count only in a clause stating a value of the fact's kind."""
    if not facts:
        raise TaskError("fact_checks needs at least one fact")
    optional = optional or {}
    if set(facts) & set(optional):
        raise TaskError(f"facts both required and optional: {sorted(set(facts) & set(optional))}")
    every = {**facts, **optional}
    if text is not None and len(str(text)) > MAX_PROSE_CHARS:  # too long to read: it states no fact, optional or not
        return [check(name, value, text, False) for name, value in every.items()]
    checks = []
    for name, value in every.items():
        reading = read_answer(value, text, rivals=(rivals or {}).get(name, ()),
                              others=[v for n, v in every.items() if n != name], os_state=os_state, scope="clause")
        left_out = name in optional and not reading.found
        checks.append(check(name, value, text, reading.passed or left_out))
    return checks
