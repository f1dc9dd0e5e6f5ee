"""Grounded evaluation: the agent fills and submits the AnswerSheet app; the judge reads its state.

This module holds the AnswerSheet's side of it for every task kind: the app's id and names, the
state that shows a question and its fields, the sentence that asks for it, and the reading of the
fields (one field with its matcher, all fields joined, the submitted flag).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from mobilegym.answer_sheet_ids import ANSWER_SHEET, SHEET_LABELS
from mobilegym.judge.errors import TaskError
from mobilegym.judge.matchers import DEFAULT_MATCHER, match_field
from mobilegym.judge.result import Check, check

EXTRA_STEPS = 15
SUFFIX = {"en": "Then open the {app} app, enter the answer and submit it.",
          "zh": "然后打开{app}应用，填写答案并提交。"}
SENTENCE_ENDS = {"en": ".?!", "zh": "。？！.?!"}
CLOSING = "\"'”’)）」』"
DANGLING = ",;:，；：、"


def grounded_instruction(instruction: str, language: str) -> str:
    """The instruction followed by grounded mode's request, as a sentence of its own naming the
    AnswerSheet as the launcher shows it (English unless a translation exists)."""
    language = language if language in SUFFIX else "en"
    suffix = SUFFIX[language].format(app=SHEET_LABELS[language])
    text = instruction.rstrip().rstrip(DANGLING).rstrip()
    ended = text.rstrip(CLOSING).endswith(tuple(SENTENCE_ENDS[language]))
    stop = "" if ended else ("。" if language == "zh" else ".")
    return f"{text}{stop}{suffix}" if language == "zh" else f"{text}{stop} {suffix}"


def sheet_state(question: str, hint: str | None, fields: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The AnswerSheet's initial state for an episode: UI attributes only, no answers, not submitted.
    A field without a hint shows the app's localised placeholder ("Please enter", "Please enter a number")."""
    shown = []
    for field in fields:
        shown.append({"type": field["type"], "label": field["label"],
                      "hint": field.get("hint") or "",
                      "options": list(field.get("options") or []), "repeatable": bool(field.get("repeatable"))})
    return {"question": question, "hint": hint or "", "fields": shown, "answers": {}, "submitted": False}


def _entries(raw: Any) -> list[str]:
    """A field's answer as a list of non-empty entries."""
    values = raw if isinstance(raw, list) else [raw]
    return [str(v).strip() for v in values if v is not None and str(v).strip()]


def submitted_check(sheet: Mapping[str, Any]) -> Check:
    """The agent must leave the sheet submitted."""
    submitted = sheet.get("submitted") is True
    return check("answer_sheet.submitted", True, submitted, submitted)


def joined_answer(sheet: Mapping[str, Any], count: int) -> str | None:
    """Path B's ``input.answer``: every entry of every field, in order, joined with ", " (None if not submitted)."""
    if sheet.get("submitted") is not True:
        return None
    answers = sheet.get("answers") or {}
    return ", ".join(v for i in range(count) for v in _entries(answers.get(str(i))))


def _match_set(matcher: str, expected: Sequence[Any], actual: Sequence[str], os_state: Mapping[str, Any]) -> bool:
    """Every expected value paired with a distinct entry (bipartite matching)."""
    if len(expected) != len(actual):
        return False
    owner: dict[int, int] = {}

    def assign(i: int, seen: set[int]) -> bool:
        for j, value in enumerate(actual):
            if j not in seen and match_field(matcher, expected[i], value, os_state):
                seen.add(j)
                if j not in owner or assign(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(assign(i, set()) for i in range(len(expected)))


def field_check(field: Mapping[str, Any], expected: Any, raw: Any, os_state: Mapping[str, Any]) -> Check:
    """One AnswerSheet field matched with its matcher (and compare mode when repeatable)."""
    matcher = field.get("matcher") or DEFAULT_MATCHER[field["type"]]
    entries = _entries(raw)
    if field.get("repeatable"):
        if not isinstance(expected, (list, tuple)):
            raise TaskError(f"field {field['label']!r} is repeatable: its expected value must be a list, "
                            f"got {expected!r} (return [[v1, v2, ...]] from get_expected_response)")
        if field.get("compare") == "set":
            passed = _match_set(matcher, list(expected), entries, os_state)
        else:
            passed = len(entries) == len(expected) and all(
                match_field(matcher, e, a, os_state) for e, a in zip(expected, entries))
        return check(field["label"], list(expected), entries, passed)
    actual = entries[0] if len(entries) == 1 else (entries or None)
    passed = len(entries) == 1 and match_field(matcher, expected, entries[0], os_state)
    return check(field["label"], expected, actual, passed)
