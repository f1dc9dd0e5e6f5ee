"""Task base classes: BaseTask, CriteriaTask (declarative target state), AnswerTask (declarative answer).

Every task inherits one of the three directly. Class attributes declare metadata, templates,
parameters, criteria or answers; hooks (set_up, inject, _invert_criteria) may shape the
initial state; check_goals returns the checks the judge scores; tear_down undoes what the task left.
"""
from __future__ import annotations

import inspect
import math
import random
import re
import warnings
from typing import Any, ClassVar, Mapping, Sequence

from mobilegym.judge.answers import rivals_for
from mobilegym.judge.errors import TaskError
from mobilegym.judge.inputs import JudgeInput
from mobilegym.judge.matchers import build_answer_checks
from mobilegym.judge.result import check
from mobilegym.judge.episode import DIFFICULTY_STEPS, read_state
from mobilegym.judge.python.params import Params, param_type
from mobilegym.judge.state.side_effects import VOLATILE_PATHS
from mobilegym.judge.state.paths import StatePath, anchor, patch_for, resolve_state
from mobilegym.judge.state.templating import render, render_prose, substitute

_PATH_TEXT = re.compile(r"^(?:[.\[]|[A-Za-z_][\w-]*:[.\[])")


def suite_of(cls: type) -> str:
    """The suite a task class belongs to: its ``suite`` attribute, else read from its module name
    (``<pkg>.<suite>.tasks`` or ``<pkg>.<suite>.defs.<Name>``)."""
    if cls.__dict__.get("suite"):
        return cls.__dict__["suite"]
    parts = cls.__module__.split(".")
    if len(parts) >= 3 and parts[-2] == "defs":
        return parts[-3]
    if len(parts) >= 2 and parts[-1] == "tasks":
        return parts[-2]
    return parts[-1]


def values_equal(actual: Any, expected: Any) -> bool:
    """Criteria equality: None means absent, a regex is searched, bools are strict, numbers close."""
    if expected is None:
        return actual is None
    if isinstance(expected, re.Pattern):
        return isinstance(actual, str) and expected.search(actual) is not None
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return math.isclose(actual, expected, rel_tol=1e-9, abs_tol=1e-9)
    return actual == expected


def merge_into(target: dict[str, Any], patch: Mapping[str, Any]) -> None:
    """Deep-merge ``patch`` into ``target`` (dicts merge, everything else replaces)."""
    for key, value in patch.items():
        if isinstance(value, Mapping) and isinstance(target.get(key), dict):
            merge_into(target[key], value)
        else:
            target[key] = value


# the lifecycle hooks' former names, still honoured (with a DeprecationWarning) for one release
DEPRECATED_HOOKS = {"_prepare": "set_up", "_post_sample": "inject"}


class BaseTask:
    """A task: metadata, instruction templates, parameters and goal checks."""

    templates: ClassVar[Any] = ()
    parameters: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    scope: ClassVar[str] = "single-app"
    related_apps: ClassVar[Sequence[str]] = ()  # every app a cross-app task involves
    objective: ClassVar[str | None] = None
    composition: ClassVar[str] = "atomic"
    difficulty: ClassVar[str | None] = None
    capabilities: ClassVar[Sequence[str]] = ()
    max_steps: ClassVar[int | None] = None
    high_risk: ClassVar[bool] = False  # payments, deletions, messages to others: side effects always fail it
    note: ClassVar[str | None] = None
    app: ClassVar[str | None] = None
    suite: ClassVar[str | None] = None
    expected_changes: ClassVar[Sequence[str]] = ()
    # The end states the goal accepts when there are several ("in Trash", "deleted for good"): expected_changes
    # must allow each, and each has a right plan (the oracle, or one registered with oracle.alternative).
    end_states: ClassVar[Sequence[str]] = ()
    always_ignore: ClassVar[Sequence[str]] = VOLATILE_PATHS
    answer_fields: ClassVar[Any] = None
    answer_hint: ClassVar[str | None] = None

    def __init__(self, seed: int = 0, language: str = "en") -> None:
        self.seed = seed
        self.language = language
        self.rng = random.Random(f"{self.task_id()}|{seed}|task")
        self.spread_seed: int | None = None  # the caller's reset seed (see TaskRef.start), for self.spread
        self.canonical = False  # on the fixed canonical phone, whose facts are documented: answers are not spread
        self.params: dict[str, Any] = {}
        self.display: dict[str, Any] = {}
        self.p = Params({})
        self.template = ""

    # --- identity and metadata -----------------------------------------------------------------

    @classmethod
    def task_id(cls) -> str:
        """``suite.ClassName``."""
        return f"{suite_of(cls)}.{cls.__name__}"

    @classmethod
    def app_id(cls) -> str | None:
        """The app that relative paths address (``app``, else the suite name)."""
        return cls.app or suite_of(cls)

    @classmethod
    def step_budget(cls) -> int:
        """``max_steps``, else the difficulty's default (L1 15, L2 30, L3 45, L4 60)."""
        return cls.max_steps or DIFFICULTY_STEPS[str(cls.difficulty)]

    @classmethod
    def metadata(cls) -> dict[str, Any]:
        """The task's metadata as a JSON-able dict."""
        return {"id": cls.task_id(), "suite": suite_of(cls), "app": cls.app_id(), "kind": "python",
                "base": next(b.__name__ for b in cls.__mro__ if b in (CriteriaTask, AnswerTask, BaseTask)),
                "scope": cls.scope, "related_apps": list(cls.related_apps) or [cls.app_id()],
                "objective": cls.objective, "composition": cls.composition,
                "difficulty": cls.difficulty, "capabilities": list(cls.capabilities),
                "max_steps": cls.step_budget(), "note": cls.note, "high_risk": cls.high_risk,
                "end_states": list(cls.end_states),
                "has_answer_fields": cls.answer_fields is not None,
                "parameters": sorted(cls.parameters), "doc": inspect.getdoc(cls) or ""}

    @classmethod
    def templates_for(cls, language: str) -> list[str]:
        """The template variants for a language (``templates`` may be a list or {lang: list})."""
        if isinstance(cls.templates, Mapping):
            if language not in cls.templates:
                raise TaskError(f"{cls.task_id()} has no templates for language {language!r} "
                                f"(has: {', '.join(cls.templates)})")
            return list(cls.templates[language])
        return list(cls.templates)

    # --- lifecycle: reset -> set_up -> sample parameters -> inject -> play -> judge (check_goals) -> tear_down ---

    def set_up(self, device: Any) -> None:
        """Before sampling: make the world hold what the parameters are drawn from (a precondition the world lacks)."""

    def inject(self, device: Any) -> None:
        """After sampling: put into the world what the sampled parameters need (the task's own data, its traps)."""

    def tear_down(self, device: Any) -> None:
        """Once, when the episode is left (the next reset, or closing the environment): undo what the task
        put on the device outside the world that the next reset restores (files pushed to a real phone)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for old, new in DEPRECATED_HOOKS.items():
            if old in cls.__dict__:
                warnings.warn(f"{cls.__qualname__}.{old} is deprecated: name the hook {new}", DeprecationWarning,
                              stacklevel=2)
                if new not in cls.__dict__:
                    setattr(cls, new, cls.__dict__[old])

    @property
    def spreads(self) -> bool:
        """Whether the task spreads its answer on this phone (every generated world; not the canonical one)."""
        return not self.canonical

    @property
    def spread(self) -> Any:
        """Answer draws spread evenly over consecutive reset seeds (tasks/spread.py's Spread)."""
        from mobilegym.judge.spread import Spread

        return Spread(self.task_id(), self.spread_seed, self.rng)

    def distractors(self, apps: Mapping[str, Any], os_state: Mapping[str, Any]) -> Mapping[str, tuple[int, int]] | None:
        """What keeps the task as hard as its difficulty on this world (the initial state): {what: (found,
        needed)}, e.g. {"open rivals": (3, 2)}; None when the task declares none. tests/test_difficulty.py
        checks found >= needed on every matrix world."""
        return None

    def _invert_criteria(self, device: Any) -> None:
        """After inject: make sure the initial state does not already meet the target."""

    # --- instance ------------------------------------------------------------------------------

    def bind(self, values: Mapping[str, Any], display: Mapping[str, Any], template: str) -> None:
        """Attach sampled parameters and the chosen template."""
        self.params, self.display = dict(values), dict(display)
        self.p = Params(self.params)
        self.template = template

    @property
    def description(self) -> str:
        """The instruction: the chosen template with display values filled in."""
        return render_prose(self.template, self.display)

    def path(self, path: str | StatePath, apps: Mapping[str, Any]) -> StatePath:
        """A path anchored to its app (see :func:`paths.anchor`)."""
        return anchor(path, apps, self.app_id())

    def read(self, path: str | StatePath, apps: Mapping[str, Any], os_state: Mapping[str, Any],
             strict: bool = False) -> Any:
        """Resolve a path with this task's parameters; ``strict`` raises when it is absent."""
        anchored = self.path(path, apps)
        return resolve_state(apps, os_state, anchored, None, self.params, strict)

    def check_goals(self, input: JudgeInput) -> list[dict[str, Any]]:
        """The checks: [{field, expected, actual, passed}, ...]."""
        return []

    def get_expected_response(self, input: JudgeInput) -> list[Any]:
        """Expected value of each AnswerSheet field (grounded Path A)."""
        raise TaskError(f"{self.task_id()} has answer_fields but no get_expected_response "
                        "(needed when no custom check_goals is defined)")

    def evaluate(self, input: JudgeInput) -> list[dict[str, Any]]:
        """check_goals, validated: a list of checks, each with a bool ``passed``."""
        return validate_checks(self.task_id(), self.check_goals(input))

    def is_successful(self, input: JudgeInput) -> bool:
        """Every check passed."""
        return all(c["passed"] for c in self.evaluate(input))

    def option_order(self, options: list[str]) -> list[str]:
        """A choice field's options in an order drawn per world (seeded by task and seed, the same in every
        language), so the right option's position is uniform and a fixed-position guess is right on
        1 world in len(options)."""
        shuffled = list(options)
        random.Random(f"{self.task_id()}|{self.seed}|options").shuffle(shuffled)
        return shuffled

    def sheet_spec(self) -> tuple[str | None, list[dict[str, Any]]]:
        """(question or None, fields) of ``answer_fields`` with placeholders filled; fields are [] without it."""
        spec = self.answer_fields
        if spec is None:
            return None, []
        question = None
        if isinstance(spec, Mapping):
            question = render_prose(spec["question"], self.display) if spec.get("question") else None
            spec = spec["fields"]
        fields = []
        for field in spec:
            filled = dict(field)
            for key in ("label", "hint"):
                if filled.get(key):
                    filled[key] = render(filled[key], self.display)
            if filled.get("options"):
                filled["options"] = self.option_order([render(str(o), self.display) for o in filled["options"]])
            fields.append(filled)
        return question, fields


def validate_checks(task_id: str, checks: Any) -> list[dict[str, Any]]:
    """Each check needs field/expected/actual and a bool ``passed``; an empty list is a task bug."""
    if not isinstance(checks, (list, tuple)):
        raise TaskError(f"{task_id}: check_goals must return a list of checks, got {type(checks).__name__}")
    if not checks:
        raise TaskError(f"{task_id}: check_goals returned no checks")
    out = []
    for i, item in enumerate(checks):
        if not isinstance(item, Mapping):
            raise TaskError(f"{task_id}: check {i} is not a dict: {item!r}")
        missing = [k for k in ("field", "expected", "actual", "passed") if k not in item]
        if missing:
            raise TaskError(f"{task_id}: check {i} ({item.get('field', '?')}) lacks {missing}")
        passed = item["passed"]
        if not isinstance(passed, bool) and type(passed).__name__ != "bool_":
            raise TaskError(f"{task_id}: check {i} ({item['field']}): 'passed' must be a bool, got {passed!r}")
        out.append({**item, "field": str(item["field"]), "passed": bool(passed)})
    return out


class CriteriaTask(BaseTask):
    """A target state declared as ``criteria = {path: value}`` (values may be ``"{param}"``)."""

    criteria: ClassVar[Mapping[str, Any]] = {}

    def criteria_items(self, apps: Mapping[str, Any]) -> list[tuple[str, StatePath, Any, Any]]:
        """(readable field, anchored path, raw declared value, expected value) per criterion."""
        return [(render(key, self.params), self.path(key, apps), raw, substitute(raw, self.params))
                for key, raw in self.criteria.items()]

    def check_goals(self, input: JudgeInput) -> list[dict[str, Any]]:
        checks = []
        for field, path, _, expected in self.criteria_items(input.apps):
            actual = resolve_state(input.apps, input.os, path, None, self.params)
            checks.append(check(field, expected, actual, values_equal(actual, expected)))
        return checks

    def _invert_criteria(self, device: Any) -> None:
        """Move every criterion the initial state already meets to another value of its domain."""
        state = read_state(device)
        patch: dict[str, Any] = {}
        for field, path, raw, expected in self.criteria_items(state["apps"]):
            actual = resolve_state(state["apps"], state["os"], path, None, self.params)
            if not values_equal(actual, expected):
                continue
            if not path.is_plain:
                raise TaskError(f"{self.task_id()}: criterion {field!r} already holds at start and its path has "
                                "selectors; set a different initial state in inject")
            merge_into(patch, patch_for(path, self._other_value(field, raw, expected), None))
        if patch:
            device.set_state(patch)

    def _other_value(self, field: str, raw: Any, expected: Any) -> Any:
        """A value different from ``expected``, drawn from the parameter's domain when there is one."""
        name = raw[1:-1] if isinstance(raw, str) and re.fullmatch(r"\{\w+\}", raw) else None
        spec = self.parameters.get(name, {}) if name else {}
        if "values" in spec:
            values = spec["values"]
            pool = [v for v in (values.values() if isinstance(values, Mapping) else values)
                    if not values_equal(v, expected)]
            if pool:
                return pool[self.rng.randrange(len(pool))]
        if isinstance(expected, bool):
            return not expected
        if "min" in spec and param_type(name or "", spec) in ("int", "float"):
            step = spec.get("step", 1 if param_type(name or "", spec) == "int" else 0.01)
            candidates = [v for v in (expected - step, expected + step) if spec["min"] <= v <= spec["max"]]
            if candidates:
                return candidates[self.rng.randrange(len(candidates))]
        raise TaskError(f"{self.task_id()}: criterion {field!r} already holds at start and no other value "
                        "is known; set a different initial state in inject")


class AnswerTask(BaseTask):
    """A query: ``answer`` declares the ground truth, read from the initial state.

    Forms: ``".path"`` / ``"app:.path"``; ``(".path", fn)``; ``{"slot": ".path" | (".path", fn), ...}``;
    ``staticmethod(lambda task, apps_init: ...)``; or a literal (number, text, ``re.Pattern``, bool).
    """

    answer: ClassVar[Any] = None

    def get_answer(self, input: JudgeInput) -> Any:
        """The ground truth (override to compute it, e.g. from the final state for hybrid tasks)."""
        spec = inspect.getattr_static(type(self), "answer")
        if spec is None:
            raise TaskError(f"{self.task_id()}: declare `answer` or override get_answer()")
        return self._declared(spec, input)

    def _declared(self, spec: Any, input: JudgeInput) -> Any:
        if isinstance(spec, staticmethod):
            spec = spec.__func__
        if inspect.isfunction(spec) or inspect.isbuiltin(spec):
            return spec(self, input.apps_init)
        if isinstance(spec, Mapping):
            return {slot: self._declared(value, input) for slot, value in spec.items()}
        if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str) and callable(spec[1]):
            return spec[1](self._read_init(spec[0], input))
        if isinstance(spec, str) and _PATH_TEXT.match(spec):
            return self._read_init(spec, input)
        return substitute(spec, self.params)

    def _read_init(self, path: str, input: JudgeInput) -> Any:
        value = self.read(path, input.apps_init, input.os_init, strict=True)
        if value is None:
            raise TaskError(f"{self.task_id()}: answer path {path!r} is None in the initial state")
        return value

    def check_goals(self, input: JudgeInput) -> list[dict[str, Any]]:
        """The answer read by the answer reader; a text answer's rivals are the other values stored
        under the same keys of the initial state (every other contact name for a contact name...)."""
        expected = self.get_answer(input)
        rivals = ({slot: rivals_for(value, input.apps_init) for slot, value in expected.items()}
                  if isinstance(expected, Mapping) else rivals_for(expected, input.apps_init))
        return build_answer_checks(expected, input.answer, rivals=rivals, os_state=input.os_init)

    def get_expected_response(self, input: JudgeInput) -> list[Any]:
        """One expected value per field: a dict answer unpacks in key order."""
        answer = self.get_answer(input)
        values = list(answer.values()) if isinstance(answer, Mapping) else [answer]
        if any(isinstance(v, re.Pattern) for v in values):
            raise TaskError(f"{self.task_id()}: get_answer() gives a regex; grounded mode needs exact values, "
                            "override get_expected_response()")
        return values

