"""Texts of a JSON task given per language: ``{"en": ..., "zh": ...}`` where one text would not fit every phone.

A task whose instruction is given per language may also give, per language, its AnswerSheet texts (the
question, each field's label, hint and options, ``answer_hint``), the state paths its getters read
(``"path": {"en": ".alarms[label=Run]", "zh": ".alarms[label=跑步]"}``) and its literal values
(``{"type": "rule", "by_language": {"en": "Run", "zh": "跑步"}}``). Each such text names exactly the
instruction's languages; :func:`language_problems` reports any that does not, and :func:`pick` chooses the
phone's.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mobilegym.judge.errors import TaskError

Problem = tuple[str, str]
FIELD_TEXTS = ("label", "hint")
STATE_GETTERS = ("app_state", "os_state")


def instruction_languages(doc: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The languages the instruction is written in; None when one text serves every language."""
    text = doc["instruction"]
    return None if isinstance(text, str) else tuple(text)


def pick(value: Any, language: str, what: str = "text") -> Any:
    """``value`` for ``language``: a per-language mapping gives its entry, anything else serves every
    language. A missing language is a TaskError naming ``what``."""
    if not isinstance(value, Mapping):
        return value
    if language not in value:
        raise TaskError(f"{what} has no {language!r} text (has: {', '.join(value)})")
    return value[language]


def rule_value(spec: Mapping[str, Any], language: str) -> Any:
    """The literal of a ``rule`` getter: ``value``, or the ``by_language`` entry of the phone's language."""
    if "by_language" in spec:
        return pick(spec["by_language"], language, "rule by_language")
    return spec["value"]


def localised_fields(spec: Any, language: str) -> tuple[str | None, list[dict[str, Any]]]:
    """(question or None, fields) of an ``answer_fields`` spec with every text in ``language``."""
    if spec is None:
        return None, []
    question = pick(spec.get("question"), language, "answer_fields question") if isinstance(spec, Mapping) else None
    fields = spec["fields"] if isinstance(spec, Mapping) else spec
    out = []
    for i, field in enumerate(fields):
        field = dict(field)
        for key in FIELD_TEXTS:
            if key in field:
                field[key] = pick(field[key], language, f"answer field {i} {key}")
        if "options" in field:
            field["options"] = [pick(o, language, f"answer field {i} option {j}")
                                for j, o in enumerate(field["options"])]
        out.append(field)
    return question, out


def _texts(doc: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """(JSON path, value) of every place that may hold a per-language text."""
    spec = doc.get("answer_fields")
    if isinstance(spec, Mapping):
        if "question" in spec:
            yield "$.answer_fields.question", spec["question"]
        where, fields = "$.answer_fields.fields", spec["fields"]
    else:
        where, fields = "$.answer_fields", spec or []
    for i, field in enumerate(fields):
        for key in FIELD_TEXTS:
            if key in field:
                yield f"{where}[{i}].{key}", field[key]
        for j, option in enumerate(field.get("options", [])):
            yield f"{where}[{i}].options[{j}]", option
    if "answer_hint" in doc:
        yield "$.answer_hint", doc["answer_hint"]
    for where, getter in evaluator_getters(doc["evaluator"]):
        if getter.get("type") in STATE_GETTERS:
            yield f"{where}.path", getter["path"]
        elif getter.get("type") == "rule" and "by_language" in getter:
            yield f"{where}.by_language", getter["by_language"]


def evaluator_getters(evaluator: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(JSON path, spec) of every getter of ``result`` and ``expected``, single or listed."""
    for key in ("result", "expected"):
        value = evaluator.get(key)
        if isinstance(value, list):
            yield from ((f"$.evaluator.{key}[{i}]", v) for i, v in enumerate(value) if isinstance(v, Mapping))
        elif isinstance(value, Mapping):
            yield f"$.evaluator.{key}", value


def language_problems(doc: Mapping[str, Any]) -> list[Problem]:
    """Per-language texts that do not name exactly the instruction's languages (or whose instruction is
    one text for every language)."""
    languages = instruction_languages(doc)
    problems: list[Problem] = []
    for where, value in _texts(doc):
        if not isinstance(value, Mapping):
            continue
        if languages is None:
            problems.append((where, "a text per language needs the instruction per language too"))
        elif set(value) != set(languages):
            parts = [f"no {x!r} entry" for x in languages if x not in value]
            parts += [f"{x!r} is not a language of the instruction" for x in value if x not in languages]
            problems.append((where, f"{'; '.join(parts)} (the instruction is in {', '.join(languages)})"))
    return problems


def each_language(doc: Mapping[str, Any]) -> tuple[str, ...]:
    """The languages an episode of the task may run in, for checks that resolve texts ("en" stands for every
    language when the instruction is one text)."""
    return instruction_languages(doc) or ("en",)
