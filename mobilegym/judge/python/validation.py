"""Checks run when a task class is registered: metadata, templates, parameters, criteria, answers, fields."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from mobilegym.judge.state.diff import parse_pattern
from mobilegym.judge.errors import PathError, TaskError
from mobilegym.judge.matchers import MATCHERS
from mobilegym.judge.python.params import validate_parameters
from mobilegym.judge.state.paths import parse_path
from mobilegym.judge.episode import DIFFICULTY_STEPS
from mobilegym.judge.python.tasks import AnswerTask, BaseTask, CriteriaTask
from mobilegym.judge.state.templating import placeholders

SCOPES = ("single-app", "cross-app")
OBJECTIVES = ("operate", "query", "hybrid")
COMPOSITIONS = ("atomic", "sequential", "conditional", "aggregate")
DIFFICULTIES = tuple(DIFFICULTY_STEPS)
STEP_BUDGETS = (15, 30, 45, 60)
FIELD_TYPES = ("text", "number", "choice", "date", "time")
MIN_CHOICE_OPTIONS = 4  # a choice field's options (drawn into a per-world order): a fixed guess wins 1 in 4 at most
FIELD_KEYS = {"type", "label", "hint", "options", "repeatable", "matcher", "compare"}
BASES = (BaseTask, CriteriaTask, AnswerTask)


def _one_of(name: str, attr: str, value: Any, allowed: Iterable[Any]) -> None:
    allowed = tuple(allowed)
    if value not in allowed:
        raise TaskError(f"{name}: {attr} {value!r} is not one of {', '.join(map(str, allowed))}")


def _known_placeholders(name: str, where: str, text: str, parameters: Mapping[str, Mapping[str, Any]]) -> None:
    for ref in placeholders(text):
        head, _, field = ref.partition(".")
        if head not in parameters:
            raise TaskError(f"{name}: {where} uses {{{ref}}} but there is no parameter {head!r}")
        fields = parameters[head].get("fields")
        if field and fields is not None and field not in fields:
            raise TaskError(f"{name}: {where} uses {{{ref}}} but {head!r} has fields {fields}")


def validate_answer_fields(name: str, spec: Any, parameters: Mapping[str, Mapping[str, Any]]) -> None:
    """``answer_fields``: a list of fields, or {"question": str, "fields": [...]}."""
    if isinstance(spec, Mapping):
        unknown = set(spec) - {"question", "fields"}
        if unknown or "fields" not in spec:
            raise TaskError(f"{name}: answer_fields dict takes 'question' and 'fields' (got {sorted(spec)})")
        if spec.get("question") is not None:
            if not isinstance(spec["question"], str) or not spec["question"].strip():
                raise TaskError(f"{name}: answer_fields question must be a non-empty string")
            _known_placeholders(name, "answer_fields question", spec["question"], parameters)
        spec = spec["fields"]
    if not isinstance(spec, (list, tuple)) or not spec:
        raise TaskError(f"{name}: answer_fields must be a non-empty list of fields")
    for i, field in enumerate(spec):
        where = f"answer field {i}"
        if not isinstance(field, Mapping):
            raise TaskError(f"{name}: {where} must be a dict")
        unknown = set(field) - FIELD_KEYS
        if unknown:
            raise TaskError(f"{name}: {where} has unknown keys {sorted(unknown)} (allowed: {sorted(FIELD_KEYS)})")
        _one_of(name, f"{where} type", field.get("type"), FIELD_TYPES)
        if not isinstance(field.get("label"), str) or not field["label"].strip():
            raise TaskError(f"{name}: {where} needs a non-empty 'label'")
        for key in ("label", "hint"):
            if field.get(key) is not None:
                _known_placeholders(name, f"{where} {key}", str(field[key]), parameters)
        options = field.get("options")
        if field["type"] == "choice":
            if not isinstance(options, (list, tuple)) or not options:
                raise TaskError(f"{name}: {where} is a choice and needs non-empty 'options'")
            if len(options) < MIN_CHOICE_OPTIONS:
                raise TaskError(f"{name}: {where} is a choice with {len(options)} options; it needs at least "
                                f"{MIN_CHOICE_OPTIONS}, so a guess is right on at most 1 world in {MIN_CHOICE_OPTIONS}")
            for option in options:
                _known_placeholders(name, f"{where} option", str(option), parameters)
        elif options is not None:
            raise TaskError(f"{name}: {where}: 'options' only applies to choice fields")
        if "matcher" in field:
            _one_of(name, f"{where} matcher", field["matcher"], MATCHERS)
        if "compare" in field:
            _one_of(name, f"{where} compare", field["compare"], ("sequence", "set"))
            if not field.get("repeatable"):
                raise TaskError(f"{name}: {where}: 'compare' only applies to repeatable fields")
        if "repeatable" in field and not isinstance(field["repeatable"], bool):
            raise TaskError(f"{name}: {where}: 'repeatable' must be a bool")


def validate_task_class(cls: type) -> None:
    """Raise TaskError naming the task and the problem if the class breaks the task rules."""
    if not isinstance(cls, type) or not issubclass(cls, BaseTask) or cls in BASES:
        raise TaskError(f"{cls!r} is not a task class (subclass BaseTask, CriteriaTask or AnswerTask)")
    name = cls.task_id()
    if len(cls.__bases__) != 1 or cls.__bases__[0] not in BASES:
        raise TaskError(f"{name}: a task inherits exactly one of BaseTask, CriteriaTask, AnswerTask directly "
                        f"(bases: {', '.join(b.__name__ for b in cls.__bases__)})")
    _one_of(name, "objective", cls.objective, OBJECTIVES)
    _one_of(name, "difficulty", cls.difficulty, DIFFICULTIES)
    _one_of(name, "scope", cls.scope, SCOPES)
    _one_of(name, "composition", cls.composition, COMPOSITIONS)
    apps = cls.related_apps
    if not isinstance(apps, (list, tuple)) or not all(isinstance(a, str) and a for a in apps):
        raise TaskError(f"{name}: related_apps must list app ids, got {apps!r}")
    if cls.scope == "cross-app" and len(set(apps)) < 2:
        raise TaskError(f"{name}: a cross-app task must name the two or more apps it involves in related_apps")
    if cls.scope != "cross-app" and len(apps) > 1:
        raise TaskError(f"{name}: related_apps lists several apps but scope is {cls.scope!r}, not 'cross-app'")
    caps = cls.capabilities
    if (not isinstance(caps, (list, tuple)) or not 1 <= len(caps) <= 4
            or not all(isinstance(c, str) and c.strip() for c in caps)):
        raise TaskError(f"{name}: capabilities must list 1 to 4 non-empty names, got {caps!r}")
    if cls.max_steps is not None:
        _one_of(name, "max_steps", cls.max_steps, STEP_BUDGETS)
    if cls.note is not None and (not isinstance(cls.note, str) or not cls.note.strip()):
        raise TaskError(f"{name}: note must be a non-empty string")
    if not isinstance(cls.high_risk, bool):
        raise TaskError(f"{name}: high_risk must be True or False, got {cls.high_risk!r}")
    validate_parameters(name, cls.parameters)
    templates = cls.templates
    variants = [t for ts in templates.values() for t in ts] if isinstance(templates, Mapping) else templates
    if isinstance(templates, str) or not variants or not all(isinstance(t, str) and t.strip() for t in variants):
        raise TaskError(f"{name}: templates must be a non-empty list of non-empty strings (or {{language: list}})")
    for template in variants:
        _known_placeholders(name, f"template {template!r}", template, cls.parameters)
    if cls.answer_hint is not None:
        _known_placeholders(name, "answer_hint", str(cls.answer_hint), cls.parameters)
    if not isinstance(cls.__dict__.get("answer_fields"), property) and cls.answer_fields is not None:
        validate_answer_fields(name, cls.answer_fields, cls.parameters)
    if isinstance(cls.expected_changes, str):
        raise TaskError(f"{name}: expected_changes must be a list of patterns, not a string")
    for pattern in cls.expected_changes:
        try:
            parse_pattern(pattern)
        except PathError as exc:
            raise TaskError(f"{name}: expected_changes: {exc}") from None
        _known_placeholders(name, f"expected_changes entry {pattern!r}", pattern, cls.parameters)
    if issubclass(cls, CriteriaTask):
        _validate_criteria(cls, name)
    if issubclass(cls, AnswerTask):
        if cls.objective == "operate":
            raise TaskError(f"{name}: an AnswerTask answers a question; its objective is query or hybrid, not operate")
        if cls.answer is None and cls.get_answer is AnswerTask.get_answer:
            raise TaskError(f"{name}: declare `answer` or override get_answer()")
    elif issubclass(cls, CriteriaTask) and cls.objective == "query":
        raise TaskError(f"{name}: a CriteriaTask changes state; its objective is operate or hybrid, not query")


def _validate_criteria(cls: type[CriteriaTask], name: str) -> None:
    if isinstance(cls.__dict__.get("criteria"), property):
        raise TaskError(f"{name}: criteria must be a class variable, not a property (use \"{{param}}\" values)")
    criteria = cls.criteria
    custom = cls.check_goals is not CriteriaTask.check_goals
    if not isinstance(criteria, Mapping) or (not criteria and not custom):
        raise TaskError(f"{name}: criteria must be a non-empty dict of path -> value")
    for key, value in criteria.items():
        parse_path(key)
        _known_placeholders(name, f"criteria key {key!r}", key, cls.parameters)
        if isinstance(value, str):
            _known_placeholders(name, f"criteria value for {key!r}", value, cls.parameters)
