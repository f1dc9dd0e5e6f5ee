"""Episodes of Python tasks: set-up through the task's hooks, judging through its checks.

In grounded mode a task's answer comes from the AnswerSheet: on *Path A* (no class below
BaseTask/AnswerTask defines check_goals) each field is matched on its own against
``get_expected_response()``; on *Path B* (a custom check_goals) the fields are joined into
``input.answer`` and the task's own checks run.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any, Mapping, Sequence

from mobilegym.device.base import DeviceError
from mobilegym.jsoncopy import copy_doc
from mobilegym.judge.episode import Episode, TaskRef, check_start_options, on_canonical_phone, open_answer_sheet, read_state, copy_state
from mobilegym.judge.errors import TaskError
from mobilegym.judge.grounded import ANSWER_SHEET, field_check, joined_answer, submitted_check
from mobilegym.judge.inputs import JudgeInput
from mobilegym.judge.python.params import sample_parameters
from mobilegym.judge.python.tasks import AnswerTask, BaseTask, CriteriaTask, values_equal
from mobilegym.judge.python.validation import validate_answer_fields, validate_task_class
from mobilegym.judge.result import Check, JudgeResult, check
from mobilegym.judge.state.diff import ChangePattern, anchor_pattern
from mobilegym.judge.state.initial import InitialState
from mobilegym.judge.state.paths import resolve_state
from mobilegym.judge.state.side_effects import judge_side_effects, side_effect_mode_for, view_state_patterns
from mobilegym.judge.state.templating import render


class PyTaskRef(TaskRef):
    """A task written as a Python class (validated on creation)."""

    def __init__(self, cls: type[BaseTask]):
        validate_task_class(cls)
        self.cls = cls
        self.id = cls.task_id()
        self.metadata = cls.metadata()

    def start(self, device: Any, seed: int = 0, eval_mode: str = "grounded", language: str = "en",
              params: Mapping[str, Any] | None = None, side_effects: str = "strict",
              world_seed: int | None = None, spread_seed: int | None = None) -> "PyEpisode":
        check_start_options(eval_mode, side_effects)
        try:
            return self._start(device, seed, eval_mode, language, params, side_effects,
                               seed if world_seed is None else world_seed, spread_seed)
        except (DeviceError, TaskError):
            raise
        except Exception as exc:
            raise TaskError(f"{self.id}: set-up failed: {type(exc).__name__}: {exc}") from exc

    def _start(self, device: Any, seed: int, eval_mode: str, language: str,
               params: Mapping[str, Any] | None, side_effects: str, world_seed: int,
               spread_seed: int | None = None) -> "PyEpisode":
        cls = self.cls
        task = cls(seed=seed, language=language)
        task.spread_seed = spread_seed
        task.canonical = on_canonical_phone(device)
        device.reset_state(world_seed)
        task.set_up(device)
        state = read_state(device)
        values, display = copy_doc(sample_parameters(self.id, cls.parameters, random.Random(f"{self.id}|{seed}|params"),
                                                     state["apps"], state["os"], cls.app_id(), params))
        variants = cls.templates_for(language)
        task.bind(values, display, variants[random.Random(f"{self.id}|{seed}|template").randrange(len(variants))])
        task.inject(device)
        task._invert_criteria(device)
        instruction, budget = task.description, cls.step_budget()
        fields: list[dict[str, Any]] = []
        if eval_mode == "grounded" and task.answer_fields is not None:
            validate_answer_fields(self.id, task.answer_fields, cls.parameters)
            question, fields = task.sheet_spec()
            hint = render(task.answer_hint, task.display) if task.answer_hint else ""
            instruction, budget = open_answer_sheet(device, instruction, question, hint, fields, language, budget)
        state = read_state(device)  # PyEpisode freezes it at once
        if isinstance(task, CriteriaTask) and task.criteria and all(
                values_equal(resolve_state(state["apps"], state["os"], path, None, task.params), expected)
                for _, path, _, expected in task.criteria_items(state["apps"])):
            raise TaskError(f"{self.id}: the initial state already meets every criterion")
        episode = PyEpisode(self, task, device, state, eval_mode, instruction, fields, budget, side_effects)
        episode.metadata["world_seed"] = world_seed
        return episode


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
        self.side_effects = side_effect_mode_for(side_effects, ref.cls.high_risk)
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
        state = read_state(self.device) if self.read_only else copy_state(self.device)
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

    def tear_down(self) -> None:
        try:
            self.task.tear_down(self.device)
        except DeviceError:
            raise
        except Exception as exc:
            raise TaskError(f"{self.id}: tear-down failed: {type(exc).__name__}: {exc}") from exc

    def progress(self, answer: str | None = None) -> float:
        """Fraction of checks passing now. Read-only checks read the live document of a device
        with ``peek_state``: no copies on the per-step checks of the dense and auto-complete modes."""
        try:
            checks, _ = self._checks(read_state(self.device) if self.read_only else copy_state(self.device), answer)
        except Exception:
            return 0.0
        return sum(c["passed"] for c in checks) / len(checks)


def uses_path_a(task: BaseTask) -> bool:
    """True when the class that defines check_goals (walking the MRO) is BaseTask or AnswerTask."""
    definer = next((c for c in type(task).__mro__ if "check_goals" in c.__dict__), BaseTask)
    return definer in (BaseTask, AnswerTask)


def path_a_checks(task: BaseTask, input: JudgeInput, fields: Sequence[Mapping[str, Any]]) -> list[Check]:
    """Per-field checks against get_expected_response(), plus the submitted check."""
    sheet = input.apps[ANSWER_SHEET]
    expected = task.get_expected_response(input)
    if not isinstance(expected, (list, tuple)) or len(expected) != len(fields):
        raise TaskError(f"{task.task_id()}: get_expected_response gave {expected!r} for {len(fields)} "
                        "answer field(s); give one value per field")
    answers = sheet.get("answers") or {}
    checks = [field_check(f, e, answers.get(str(i)), input.os) for i, (f, e) in enumerate(zip(fields, expected))]
    return checks + [submitted_check(sheet)]
