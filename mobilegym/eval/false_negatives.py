"""The false-negative suite: right answers in natural wording, English and Chinese, must be paid.

From the oracle's own answer on a case, the answer is re-said the ways a person or a model would
(:mod:`mobilegym.eval.phrasings`) and submitted in its place: as the text answer, or one AnswerSheet
field at a time in the forms its input takes. Tasks where the oracle writes a message or a note get
its content re-worded the same way (a plural condition, "12 °C", "7:30 PM"). A few phrasings the issue
names for particular tasks are in :data:`TASK_PHRASINGS`.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..judge import Registry
from .phrasings import Named, as_text, natural_answers, natural_fields, ordinal, parse_date, render_date
from .runs import CONTENT_FIELDS, Case, OracleRun, Outcome, Runner, TaskKind

CONTENT_REWORDINGS: dict[str, tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = {
    "content:plural condition": (re.compile(r"\b(Thunderstorm|Shower)\b(?!s)"), lambda m: m[1] + "s"),
    "content:adjective condition": (re.compile(r"\b(Rain|Snow)\b"), lambda m: m[1] + "y"),
    "content:°C": (re.compile(r"(-?\d+)°(?![CF])"), lambda m: f"{m[1]}°C"),
    "content:degrees": (re.compile(r"(-?\d+)°(?![CF])"), lambda m: f"{m[1]} degrees"),
    "content:12h time": (re.compile(r"\b([01]\d|2[0-3]):([0-5]\d)\b"),
                         lambda m: f"{int(m[1]) % 12 or 12}:{m[2]} {'AM' if int(m[1]) < 12 else 'PM'}"),
}
"""Re-wordings of written content that keep its facts."""


def _storage(run: OracleRun) -> Named:
    total = run.initial["apps"]["settings"]["about"]["storage_total_gb"]
    return [("issue:of total", f"{run.answer[0]} GB of {total} GB")]


def _warmest_day(run: OracleRun) -> Named:
    day, _ = parse_date(run.answer[0], run.year)
    return [("issue:sentence", f"{render_date(day, '%A, %B %d')}{ordinal(day.day)}, high of {run.answer[1]}°C")]


def _clock12(hhmm: str) -> tuple[str, str]:
    """"14:30" -> ("2:30", "PM"); "09:00" -> ("9", "AM")."""
    hour, minute = (int(part) for part in hhmm.split(":"))
    shown = str(hour % 12 or 12) + (f":{minute:02d}" if minute else "")
    return shown, "PM" if hour >= 12 else "AM"


def _parcel_window(run: OracleRun) -> Named:
    """The delivery window as people write it: "2-5 PM", "between 2 and 5 pm" (both ends marked when the
    window crosses noon)."""
    window = next(m["window"] for c in run.initial["apps"]["messages"]["conversations"]
                  for m in c["messages"] if m.get("window"))
    (start, start_half), (end, end_half) = _clock12(window["start"]), _clock12(window["end"])
    first = start if start_half == end_half else f"{start} {start_half}"
    return [("issue:window", f"{first}-{end} {end_half}"),
            ("issue:between", f"between {first.lower()} and {end} {end_half.lower()}")]


TASK_PHRASINGS: dict[str, Callable[[OracleRun], Named]] = {
    "messages.parcel_window": _parcel_window,
    "settings.storage_used": _storage,
    "settings.DarkModeAndStorage": _storage,
    "weather.WarmestDay": _warmest_day,
}
"""Text-mode phrasings from the issue for particular tasks, built from the case's true answer."""


def _outcome(name: str, variant: str, case: Case, judge: Mapping[str, Any]) -> Outcome:
    return Outcome(f"{case.mode} {name}", variant, case, bool(judge.get("success")), judge)


def answer_phrasings(runner: Runner, case: Case) -> list[Outcome]:
    """The oracle's answer re-said naturally, each submitted in its place."""
    run = runner.oracle(case)
    if case.mode == "text":
        named = natural_answers(run.answer, [f.get("label", "") for f in run.fields], run.year)
        named += TASK_PHRASINGS.get(case.task_id, lambda _: [])(run)
        return [_outcome(name, text, case, runner.answer_instead(run, [text])) for name, text in named]
    return [_outcome(name.split(" ", 2)[2], f"{[as_text(v) for v in values]}", case, runner.answer_instead(run, values))
            for name, values in natural_fields(run.answer, run.fields, run.year)]


def content_rewordings(runner: Runner, case: Case) -> list[Outcome]:
    """The oracle plan with its written content re-worded (only wordings that change it)."""
    run = runner.oracle(case)
    outcomes = []
    for name, (pattern, replace) in CONTENT_REWORDINGS.items():
        if not any(pattern.search(text) for text in run.written):
            continue
        _, judge = runner.replay(case, text_filter=lambda rid, text, p=pattern, r=replace:
                                 p.sub(r, text) if rid in CONTENT_FIELDS else text)
        reworded = [pattern.sub(replace, t) for t in run.written]
        outcomes.append(_outcome(name, f"{reworded}", case, judge))
    return outcomes


def false_negative_cases(registry: Registry, seeds: Iterable[int], task_ids: Sequence[str] | None = None,
                         language: str = "en") -> list[Case]:
    """Answer tasks in both modes; feasible tasks that operate in grounded mode (for written content); on a phone
    in ``language``."""
    seeds = list(seeds)
    out = []
    for task_id in task_ids or sorted(registry.refs):
        kind = TaskKind.of(registry.refs[task_id].metadata)
        modes = kind.modes if kind.has_answer else ("grounded",) if not kind.infeasible else ()
        out += [Case(task_id, mode, seed, language) for mode in modes for seed in seeds]
    return out


def play(runner: Runner, case: Case) -> list[Outcome]:
    """Every natural phrasing of the case's answer and content, judged."""
    kind = runner.kind(case.task_id)
    outcomes = answer_phrasings(runner, case) if kind.has_answer else []
    if case.mode == "grounded" and kind.objective != "query" and runner.facts(case.task_id).writes:
        outcomes += content_rewordings(runner, case)
    return outcomes
