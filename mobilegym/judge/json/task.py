"""Declarative JSON tasks: a task file is data (setup actions, getters, metrics), never code.

``load_json_task(path)`` validates a file against ``task_schema.json`` and the registries of
setup actions, getters and metrics, and returns a :class:`JsonTask` (a TaskRef). Its
``start`` resets the phone, runs the ``config`` actions and returns a :class:`JsonEpisode`
whose ``evaluate`` runs ``postconfig``, fetches evidence with the getters and scores it with
the metrics, combined by ``conj``. See docs/json-tasks.md.
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from mobilegym.device.base import CAP_STATE, Device
from mobilegym.judge.episode import (DIFFICULTY_STEPS, Episode, TaskRef, check_start_options, copy_state,
                                     on_canonical_phone, open_answer_sheet)
from mobilegym.judge.errors import TaskError
from mobilegym.judge.json.conj import conjoin
from mobilegym.judge.json.getters import GetterContext, get
from mobilegym.judge.json.languages import localised_fields, pick, rule_value
from mobilegym.judge.json.metrics import MetricConfigError, get_metric
from mobilegym.judge.json.setup_actions import SetupContext, run_setup
from mobilegym.judge.json.strict import StrictJSONError, loads_strict
from mobilegym.judge.json.validate import INFEASIBLE, TaskFileError, metric_entries, validate_task
from mobilegym.judge.result import JudgeResult, check
from mobilegym.judge.state.diff import ChangePattern, anchor_pattern
from mobilegym.judge.state.initial import InitialState
from mobilegym.judge.state.paths import parse_path
from mobilegym.judge.state.side_effects import (VOLATILE_PATHS, SideEffects, judge_side_effects, side_effect_mode_for,
                                               view_state_patterns)

ABORT = "abort"
MAX_SHOWN_CHARS = 300
MAX_TASK_FILE_BYTES = 4 << 20  # a task file is a few kB; refuse anything past 4 MiB unread


def _read_task_file(path: Path) -> str:
    """The text of a task file that stays inside its folder, is a regular file and is not too big."""
    source = str(path)
    try:
        folder, real = path.parent.resolve(), path.resolve()
        if not real.is_relative_to(folder):
            raise TaskFileError(source, [("$", f"the file resolves to {real}, outside its folder {folder} "
                                               "(a link out of the suite is refused)")])
        if not real.exists():
            raise TaskFileError(source, [("$", "cannot read the file: No such file or directory")])
        if not real.is_file():
            raise TaskFileError(source, [("$", "cannot read the file: not a regular file")])
        with real.open("rb") as handle:
            data = handle.read(MAX_TASK_FILE_BYTES + 1)
    except OSError as exc:
        raise TaskFileError(source, [("$", f"cannot read the file: {exc.strerror or exc}")]) from None
    except RuntimeError as exc:  # a symlink loop (Python < 3.13 raises RuntimeError from resolve)
        raise TaskFileError(source, [("$", f"cannot read the file: {exc}")]) from None
    if len(data) > MAX_TASK_FILE_BYTES:
        raise TaskFileError(source, [("$", f"over the {MAX_TASK_FILE_BYTES}-byte task file limit")])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TaskFileError(source, [("$", f"not UTF-8 text: {exc.reason} at byte {exc.start}")]) from None


def load_json_task(path: str | Path) -> JsonTask:
    """Read and validate one task file; problems raise TaskFileError naming the file and JSON paths.

    The file must resolve inside its own folder (no links out of the suite) and be strict JSON:
    finite numbers, integers within 64 bits, at most 64 levels of nesting (``strict.MAX_DEPTH``), no
    duplicate keys."""
    path = Path(path)
    source = str(path)
    text = _read_task_file(path)
    try:
        doc = loads_strict(text)
    except json.JSONDecodeError as exc:
        raise TaskFileError(source, [("$", f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")]) from None
    except StrictJSONError as exc:
        raise TaskFileError(source, [(where, f"invalid JSON: {message}") for where, message in exc.problems]) from None
    validate_task(doc, source, path.parent, path.stem)
    return JsonTask(path, doc)


class JsonTask(TaskRef):
    """A validated JSON task file. Its id is ``<suite>.<id>``, the suite being the file's folder name."""

    def __init__(self, path: Path, doc: dict[str, Any]) -> None:
        self.path = path
        self.doc = doc
        self.suite = path.parent.name
        self.id = f"{self.suite}.{doc['id']}"
        self.metadata = self._metadata()

    @property
    def infeasible(self) -> bool:
        return self.doc["evaluator"]["func"] == INFEASIBLE

    @property
    def step_budget(self) -> int:
        meta = self.doc["metadata"]
        return meta.get("max_steps") or DIFFICULTY_STEPS[meta["difficulty"]]

    @cached_property
    def reads_initial(self) -> bool:
        """Whether a getter reads the state as it was right after setup."""
        return not self.infeasible and any(
            spec is not None and spec.get("initial", False)
            for _, result, expected, _ in metric_entries(self.doc["evaluator"]) for spec in (result, expected))

    @cached_property
    def expected_changes(self) -> list[str]:
        """The task's ``expected_changes``; without them, the state paths its metrics read at the end."""
        if "expected_changes" in self.doc:
            return list(self.doc["expected_changes"])
        if self.infeasible:
            return []
        read = []
        for _, result, expected, _ in metric_entries(self.doc["evaluator"]):
            for spec in (result, expected):
                if spec is None or spec["type"] not in ("app_state", "os_state") or spec.get("initial", False):
                    continue
                root = "os" if spec["type"] == "os_state" else spec.get("app")
                for path in spec["path"].values() if isinstance(spec["path"], Mapping) else [spec["path"]]:
                    read.append(path if root is None or parse_path(path).root else f"{root}:{path}")
        return read

    def instruction(self, language: str) -> str:
        """The instruction text for a language (one text serves every language)."""
        text = self.doc["instruction"]
        if isinstance(text, str):
            return text
        if language not in text:
            raise TaskError(f"{self.id}: no instruction for language {language!r} (has: {', '.join(text)})")
        return text[language]

    def sheet_fields(self, language: str = "en") -> tuple[str | None, list[dict[str, Any]]]:
        """(question or None, fields) of ``answer_fields`` as a phone in ``language`` shows them; no fields
        when the task has none."""
        try:
            return localised_fields(self.doc.get("answer_fields"), language)
        except TaskError as exc:
            raise TaskError(f"{self.id}: {exc}") from None

    def _metadata(self) -> dict[str, Any]:
        """JSON-able metadata, shaped like the Python tasks' for listing and filtering."""
        meta = self.doc["metadata"]
        apps = self.doc["related_apps"]
        text = self.doc["instruction"]
        return {"id": self.id, "suite": self.suite, "app": apps[0], "kind": "json", "base": "json",
                "scope": meta.get("scope", "single-app" if len(apps) == 1 else "cross-app"),
                "objective": meta["objective"], "composition": meta.get("composition", "atomic"),
                "difficulty": meta["difficulty"], "capabilities": list(meta.get("capabilities", [])),
                "max_steps": self.step_budget, "note": meta.get("note"), "high_risk": meta.get("high_risk", False),
                "has_answer_fields": "answer_fields" in self.doc, "parameters": [],
                "related_apps": list(apps), "source": meta.get("source"),
                "possibility_of_env_change": meta.get("possibility_of_env_change"),
                "infeasible": self.infeasible, "path": str(self.path),
                "doc": text if isinstance(text, str) else text.get("en", next(iter(text.values())))}

    def start(self, device: Device, seed: int = 0, eval_mode: str = "grounded", language: str = "en",
              params: Mapping[str, Any] | None = None, side_effects: str = "strict",
              world_seed: int | None = None, spread_seed: int | None = None) -> JsonEpisode:
        """Reset the phone to the world of ``world_seed`` (default ``seed``; a phone without state goes
        home), run the config actions, set up the AnswerSheet in grounded mode, and begin an episode."""
        check_start_options(eval_mode, side_effects)
        if params:
            raise TaskError(f"{self.id}: JSON tasks take no parameters, got {sorted(params)}")
        instruction = self.instruction(language)
        if CAP_STATE in device.capabilities:
            world_seed = seed if world_seed is None else world_seed
            device.reset_state(world_seed)
        else:
            device.key("home")
        run_setup(SetupContext(device, self.path.parent, f"{self.id}|{seed}", self.id, spread_seed,
                               not on_canonical_phone(device)), self.doc.get("config", []), "$.config")
        question, fields = self.sheet_fields(language)
        grounded = eval_mode == "grounded" and bool(fields)
        budget = self.step_budget
        if grounded:
            hint = pick(self.doc.get("answer_hint", ""), language, f"{self.id}: answer_hint")
            instruction, budget = open_answer_sheet(device, instruction, question, hint, fields, language, budget)
        metadata = {**self.metadata, "eval_mode": eval_mode, "language": language, "seed": seed,
                    "world_seed": world_seed}
        return JsonEpisode(self, device, instruction, budget, metadata, len(fields) if grounded else 0, side_effects)


def _shown(value: Any) -> Any:
    """A readable stand-in for bulky evidence (trees, screenshots) in checks."""
    if isinstance(value, np.ndarray):
        return f"<screenshot {value.shape[1]}x{value.shape[0]}>"
    if isinstance(value, str) and len(value) > MAX_SHOWN_CHARS:
        return f"{value[:MAX_SHOWN_CHARS]}... ({len(value)} chars)"
    return value


def _describe(spec: dict[str, Any] | None, language: str) -> str:
    if spec is None:
        return "none"
    if spec["type"] == "rule":
        return f"rule {rule_value(spec, language)}"
    detail = next((str(pick(spec[k], language)) for k in ("path", "command", "field") if k in spec), "")
    return f"{spec['type']} {detail}".strip()


class JsonEpisode(Episode):
    """One run of a JSON task on a device. ``sheet_fields`` > 0 means answers come from the AnswerSheet."""

    def __init__(self, task: JsonTask, device: Device, instruction: str, max_steps: int,
                 metadata: dict[str, Any], sheet_fields: int, side_effects: str = "strict") -> None:
        self.task = task
        self.device = device
        self.id = task.id
        self.params: dict[str, Any] = {}
        self.instruction = instruction
        self.max_steps = max_steps
        self.metadata = metadata
        self.eval_mode = metadata["eval_mode"]
        self.sheet_fields = sheet_fields
        self.side_effects = side_effect_mode_for(side_effects, metadata["high_risk"])
        state = copy_state(device) if CAP_STATE in device.capabilities else None
        self.initial_state = state if task.reads_initial else None  # getters only read it
        self.initial = InitialState(state) if state is not None else None
        default_app = task.doc["related_apps"][0]
        self.expected_changes: list[ChangePattern] = [] if state is None else [
            anchor_pattern(text, state["apps"], default_app) for text in task.expected_changes]
        self.view_state = view_state_patterns(device)
        self._postconfig_done = False

    def evaluate(self, answer: str | None = None, last_action: str | None = None) -> JudgeResult:
        """Judge the episode. ``last_action`` is the type of the agent's final action; with None
        (a peek mid-episode) postconfig does not run. Task bugs give a result with ``error`` set."""
        try:
            verdict = self._side_effects()  # before postconfig, whose changes are the task's own
            score, checks = self._judge(answer, last_action, final=last_action is not None)
        except Exception as exc:  # a task bug, reported apart from agent failures
            return JudgeResult.from_error(self.id, f"{type(exc).__name__}: {exc}", eval_path="json")
        warnings = ["the agent aborted a feasible task"] if checks[0]["field"] == "agent_action" else []
        if verdict.checks:
            score = 0.0
        checks = checks + verdict.checks
        return JudgeResult(task_id=self.id, success=score >= 1.0, score=score,
                           progress=sum(c["passed"] for c in checks) / len(checks), clean=not verdict.effects,
                           checks=checks, side_effects=verdict.effects, warnings=warnings + verdict.warnings,
                           eval_path="json")

    def _side_effects(self) -> SideEffects:
        """Changes since set-up that the task did not expect (none known on a device without state)."""
        if self.initial is None:
            return SideEffects()
        return judge_side_effects(self.initial, copy_state(self.device), self.expected_changes, VOLATILE_PATHS,
                                  self.view_state, self.side_effects)

    def goal_reached(self, answer: str | None = None) -> bool:
        """Whether the metrics give 1 now (never for infeasible tasks, which only an abort solves)."""
        if self.task.infeasible:
            return False
        try:
            return self._judge(answer, None, final=False)[0] >= 1.0
        except Exception:
            return False

    def progress(self, answer: str | None = None) -> float:
        """Fraction of metrics that pass now, all evaluated (0 for infeasible tasks and task errors)."""
        if self.task.infeasible:
            return 0.0
        try:
            checks = [c for c, _ in self._checks(self._context(answer, None))]
        except Exception:
            return 0.0
        return sum(c["passed"] for c in checks) / len(checks)

    # ------------------------------------------------------------------ internals

    def _context(self, answer: str | None, last_action: str | None) -> GetterContext:
        return GetterContext(device=self.device, task_dir=self.task.path.parent,
                             default_app=self.task.doc["related_apps"][0], initial_state=self.initial_state,
                             answer=answer, last_action=last_action, sheet_fields=self.sheet_fields,
                             language=self.metadata["language"])

    def _judge(self, answer: str | None, last_action: str | None, final: bool) -> tuple[float, list[dict[str, Any]]]:
        evaluator = self.task.doc["evaluator"]
        if self.task.infeasible:
            aborted = last_action == ABORT
            return float(aborted), [check("infeasible", "abort (the task cannot be done)", last_action, aborted)]
        if last_action == ABORT:
            return 0.0, [check("agent_action", "finish the task (it is feasible)", ABORT, False)]
        if final and not self._postconfig_done:
            self._postconfig_done = True
            run_setup(SetupContext(self.device, self.task.path.parent), evaluator.get("postconfig", []),
                      "$.evaluator.postconfig")
        checks: list[dict[str, Any]] = []

        def scores() -> Iterator[float]:
            for record, score in self._checks(self._context(answer, last_action)):
                checks.append(record)
                yield score

        return conjoin(evaluator.get("conj", "and"), scores()), checks

    def _metric_context(self, ctx: GetterContext, names: frozenset[str]) -> dict[str, Any]:
        """What a metric may ask of the evaluator: the OS state now, the apps' initial state."""
        context: dict[str, Any] = {}
        if "os_state" in names:
            context["os_state"] = ctx.os_state()
        if "apps_init" in names and self.initial is not None:
            context["apps_init"] = self.initial.shared()[0]
        return context

    def _checks(self, ctx: GetterContext) -> Iterator[tuple[dict[str, Any], float]]:
        """(check, score) per metric, computed one at a time as the caller asks."""
        entries = metric_entries(self.task.doc["evaluator"])
        for i, (name, result_spec, expected_spec, options) in enumerate(entries):
            where = f"$.evaluator.func[{i}]" if len(entries) > 1 else "$.evaluator.func"
            result, expected = get(ctx, result_spec), get(ctx, expected_spec)
            metric = get_metric(name)
            try:
                score = metric(result, expected, options, self._metric_context(ctx, metric.context))
            except MetricConfigError as exc:
                raise TaskError(f"{where} ({name}): {exc}") from exc
            shown_expected = _shown(expected) if expected_spec is not None else (options or None)
            described = _describe(result_spec, ctx.language)
            yield check(f"{name}({described})", shown_expected, _shown(result), score >= 1.0), score
