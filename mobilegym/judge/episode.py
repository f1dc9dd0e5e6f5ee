"""Task references and episodes: what the environment drives.

``ref.start(device, seed)`` runs a task's set-up on the phone and returns an :class:`Episode`;
``episode.evaluate(answer, last_action)`` reads the phone's state and returns a JudgeResult.
"""
from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from typing import Any, Mapping

from ..device.base import DeviceError
from ..jsoncopy import copy_doc
from .diff import ChangePattern, anchor_pattern
from .errors import TaskError
from .grounded import (EXTRA_STEPS, grounded_instruction, joined_answer, path_a_checks, sheet_state, submitted_check,
                       uses_path_a)
from .initial import InitialState
from .inputs import JudgeInput
from .matchers import check
from .params import sample_parameters
from .paths import resolve_state
from .results import JudgeResult
from .side_effects import check_side_effect_mode, judge_side_effects, view_state_patterns
from .tasks import ANSWER_SHEET, BaseTask, CriteriaTask, values_equal
from .templating import render
from .validation import validate_answer_fields, validate_task_class

EVAL_MODES = ("grounded", "text")


class Episode(ABC):
    """One run of a task on a device."""

    id: str
    params: dict[str, Any]
    instruction: str
    max_steps: int
    metadata: dict[str, Any]
    eval_mode: str

    @abstractmethod
    def evaluate(self, answer: str | None = None, last_action: str | None = None) -> JudgeResult:
        """Judge the phone's current state (never raises for task bugs: see JudgeResult.error)."""

    def goal_reached(self, answer: str | None = None) -> bool:
        """Whether every check passes right now."""
        return self.evaluate(answer).success

    def progress(self, answer: str | None = None) -> float:
        """Fraction of checks passing right now (0.0 on a task error)."""
        return self.evaluate(answer).progress


class TaskRef(ABC):
    """A startable task: an id, its metadata, and ``start``."""

    id: str
    metadata: dict[str, Any]

    @abstractmethod
    def start(self, device: Any, seed: int = 0, eval_mode: str = "grounded", language: str = "en",
              params: Mapping[str, Any] | None = None, side_effects: str = "strict") -> Episode:
        """Reset the device, set the task up, and return the episode. ``side_effects``: "strict" (a
        change to the user's data the task did not ask for fails it) or "warn" (only reported)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TaskRef) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)


def _read_state(device: Any) -> Mapping[str, Any]:
    """The device's state for reading only: the live document when the device offers ``peek_state``
    (no copy), else a copy."""
    peek = getattr(device, "peek_state", None)
    return peek() if peek is not None else device.get_state()


def _check_mode(eval_mode: str) -> None:
    if eval_mode not in EVAL_MODES:
        raise ValueError(f"eval_mode must be one of {', '.join(EVAL_MODES)}, got {eval_mode!r}")


class PyTaskRef(TaskRef):
    """A task written as a Python class (validated on creation)."""

    def __init__(self, cls: type[BaseTask]):
        validate_task_class(cls)
        self.cls = cls
        self.id = cls.task_id()
        self.metadata = cls.metadata()

    def start(self, device: Any, seed: int = 0, eval_mode: str = "grounded", language: str = "en",
              params: Mapping[str, Any] | None = None, side_effects: str = "strict") -> "PyEpisode":
        _check_mode(eval_mode)
        check_side_effect_mode(side_effects)
        try:
            return self._start(device, seed, eval_mode, language, params, side_effects)
        except (DeviceError, TaskError):
            raise
        except Exception as exc:
            raise TaskError(f"{self.id}: set-up failed: {type(exc).__name__}: {exc}") from exc

    def _start(self, device: Any, seed: int, eval_mode: str, language: str,
               params: Mapping[str, Any] | None, side_effects: str) -> "PyEpisode":
        cls = self.cls
        task = cls(seed=seed, language=language)
        device.reset_state(seed)
        task._prepare(device)
        state = _read_state(device)
        values, display = copy_doc(sample_parameters(self.id, cls.parameters, random.Random(f"{self.id}|{seed}|params"),
                                                     state["apps"], state["os"], cls.app_id(), params))
        variants = cls.templates_for(language)
        task.bind(values, display, variants[random.Random(f"{self.id}|{seed}|template").randrange(len(variants))])
        task._post_sample(device)
        task._invert_criteria(device)
        grounded = eval_mode == "grounded" and task.answer_fields is not None
        fields: list[dict[str, Any]] = []
        if grounded:
            validate_answer_fields(self.id, task.answer_fields, cls.parameters)
            question, fields = task.sheet_spec()
            hint = render(task.answer_hint, task.display) if task.answer_hint else ""
            device.set_state({"apps": {ANSWER_SHEET: sheet_state(question or task.description, hint, fields)}})
        state = _read_state(device)  # PyEpisode freezes it at once
        if isinstance(task, CriteriaTask) and task.criteria and all(
                values_equal(resolve_state(state["apps"], state["os"], path, None, task.params), expected)
                for _, path, _, expected in task.criteria_items(state["apps"])):
            raise TaskError(f"{self.id}: the initial state already meets every criterion")
        instruction = grounded_instruction(task.description, language) if grounded else task.description
        return PyEpisode(self, task, device, state, eval_mode, instruction, fields,
                         cls.step_budget() + (EXTRA_STEPS if grounded else 0), side_effects)


class PyEpisode(Episode):
    """An episode of a Python task."""

    def __init__(self, ref: PyTaskRef, task: BaseTask, device: Any, init_state: Mapping[str, Any], eval_mode: str,
                 instruction: str, fields: list[dict[str, Any]], max_steps: int, side_effects: str = "strict"):
        self.ref, self.task, self.device = ref, task, device
        self.id = ref.id
        self.params = dict(task.params)
        self.instruction = instruction
        self.max_steps = max_steps
        self.eval_mode = eval_mode
        self.fields = fields
        self.initial = InitialState(init_state)
        self.side_effects = side_effects
        self.expected_changes = self._expected_changes(init_state["apps"])
        self.view_state = view_state_patterns(device)
        self.metadata = {**ref.metadata, "eval_mode": eval_mode, "language": task.language, "seed": task.seed,
                         "template": task.template}

    def _expected_changes(self, apps: Mapping[str, Any]) -> list[ChangePattern]:
        """The task's expected-change patterns plus its criteria paths, rooted at the state document."""
        task = self.task
        texts = [*task.expected_changes, *(task.criteria if isinstance(task, CriteriaTask) else ())]
        return [anchor_pattern(text, apps, task.app_id()) for text in texts]

    @property
    def read_only(self) -> bool:
        """Whether the checks are a CriteriaTask's own declarative criteria: framework code that only
        reads state, so it needs no private copies (of the initial or of the live state)."""
        task = type(self.task)
        return not self.fields and task.check_goals is CriteriaTask.check_goals and task.evaluate is BaseTask.evaluate

    def _input(self, state: Mapping[str, Any], answer: str | None) -> JudgeInput:
        apps_init, os_init = self.initial.shared() if self.read_only else self.initial.copy()
        return JudgeInput(apps=state["apps"], apps_init=apps_init, os=state["os"], os_init=os_init,
                          route=state["os"].get("route"), answer=answer)

    def _checks(self, state: Mapping[str, Any], answer: str | None) -> tuple[list[dict[str, Any]], str]:
        """(validated checks, evaluation path)."""
        input = self._input(state, answer)
        if not self.fields:
            return self.task.evaluate(input), "text"
        if ANSWER_SHEET not in input.apps:
            raise TaskError(f"the state has no {ANSWER_SHEET!r} app; grounded mode needs the AnswerSheet")
        if uses_path_a(self.task):
            return path_a_checks(self.task, input, self.fields), "grounded-A"
        sheet = input.apps[ANSWER_SHEET]
        hydrated = dataclasses.replace(input, answer=joined_answer(sheet, len(self.fields)))
        return self.task.evaluate(hydrated) + [submitted_check(sheet)], "grounded-B"

    def evaluate(self, answer: str | None = None, last_action: str | None = None) -> JudgeResult:
        state = _read_state(self.device) if self.read_only else self.device.get_state()
        path = "grounded" if self.fields else "text"
        try:
            checks, path = self._checks(state, answer)
            warnings = []
            if last_action == "abort":
                checks.append(check("agent_action", "finish the task (it is feasible)", "abort", False))
                warnings.append("the agent aborted a feasible task")
            verdict = judge_side_effects(self.initial, state, self.expected_changes, self.task.always_ignore,
                                         self.view_state, self.side_effects, self.task.params)
            # copied: the checks and effects may hold values of the live document, which later inputs change
            return JudgeResult.from_checks(self.id, copy_doc(checks + verdict.checks), copy_doc(verdict.effects),
                                           warnings + verdict.warnings, path)
        except Exception as exc:  # a task bug, reported apart from agent failures
            return JudgeResult.from_error(self.id, f"{type(exc).__name__}: {exc}", path)

    def goal_reached(self, answer: str | None = None) -> bool:
        return self.progress(answer) >= 1.0

    def progress(self, answer: str | None = None) -> float:
        """Fraction of checks passing now. Read-only checks read the live document of a device
        with ``peek_state``: no copies on the per-step checks of the dense and auto-complete modes."""
        try:
            checks, _ = self._checks(_read_state(self.device) if self.read_only else self.device.get_state(), answer)
        except Exception:
            return 0.0
        return sum(c["passed"] for c in checks) / len(checks)
