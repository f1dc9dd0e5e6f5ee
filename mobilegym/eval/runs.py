"""Oracle episodes run once and forked: the machinery the adversary and false-negative suites share.

A :class:`Runner` keeps one environment per evaluation mode and phone language. For a :class:`Case` (task,
mode, seed, language) it runs the task's oracle plan once with checkpoints (:class:`OracleRun`), then plays other
endings from them: another answer where the oracle answered, other data before its last action,
or the whole plan again with other parameters or rewritten text. Every ending acts through
``env.step`` and is judged by the environment; the result is an :class:`Outcome`.
"""
from __future__ import annotations

import json
import random
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Mapping, Sequence

import gymnasium as gym

from .. import ENV_ID
from ..judge import EVAL_MODES, Registry, TaskError, default_registry
from ..judge.episode import read_state
from ..judge.grounded import ANSWER_SHEET
from ..judge.timeutil import sim_today
from ..oracle import Checkpoint, Driver, Plan, PlanError, plans_for
from .candidates import Candidates

ALTERNATIVE_SEEDS = range(100, 108)  # seeds whose parameter draws (on the case's world) supply wrong targets
MEMORY_SEEDS = range(100, 110)  # the episodes (other worlds) a memorising agent learned its answers on
WRONG_TARGETS = 1  # other parameter sets tried per case by default (the seed picks which): the suite's main cost
CACHED_CASES = 2
CONTENT_FIELDS = frozenset({"message_input", "note_body", "todo_text_input", "notes_input", "body_input"})
"""Resource-ids of the fields where plans write content (messages, notes, to-dos)."""


@dataclass(frozen=True)
class Case:
    """One episode start: a task in an evaluation mode with a reset seed, on a phone in ``language``."""

    task_id: str
    mode: str
    seed: int
    language: str = "en"

    def __str__(self) -> str:
        on = "" if self.language == "en" else f", {self.language}"
        return f"{self.task_id} [{self.mode}, seed {self.seed}{on}]"


@dataclass(frozen=True)
class TaskKind:
    """What decides which adversaries apply to a task."""

    objective: str  # operate, query or hybrid
    infeasible: bool
    has_answer: bool
    has_params: bool

    @classmethod
    def of(cls, metadata: Mapping[str, Any]) -> "TaskKind":
        objective = metadata["objective"]
        return cls(objective, bool(metadata.get("infeasible")),
                   objective in ("query", "hybrid") or bool(metadata.get("has_answer_fields")),
                   bool(metadata.get("parameters")))

    @property
    def modes(self) -> tuple[str, ...]:
        """Tasks with an answer run in both modes; the others only in grounded mode (the two are the same)."""
        return EVAL_MODES if self.has_answer else EVAL_MODES[:1]


@dataclass(frozen=True)
class Outcome:
    """One judged episode of a suite: who played it, whether the judge paid, and the judge's record."""

    suite_name: str  # the adversary, or the phrasing for the false-negative suite
    variant: str
    case: Case
    paid: bool
    judge: Mapping[str, Any]
    allowed: bool = False  # a success the suite tolerates (a random agent on a one-step task)
    skipped: bool = False  # ended as the oracle's episode did (same answer held, same apps): not counted

    @property
    def beat_the_judge(self) -> bool:
        """Paid, neither tolerated nor skipped: an adversary the judge should not have paid."""
        return self.paid and not self.allowed and not self.skipped

    def explain(self) -> str:
        checks = "; ".join(f"{c.get('field')}: expected {c.get('expected')!r}, got {_short(c.get('actual'))}"
                           f" -> {'pass' if c.get('passed') else 'FAIL'}" for c in self.judge.get("checks", []))
        effects = self.judge.get("side_effects") or []
        error = self.judge.get("error")
        return (f"{self.case} {self.suite_name} [{self.variant}]: score {self.judge.get('score')}"
                f"{f', error {error}' if error else ''}; checks: {checks}"
                f"{f'; side effects: {len(effects)}' if effects else ''}")


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} chars)"


@dataclass(frozen=True)
class PlanFacts:
    """What a task's oracle plan does, the same on every seed and mode."""

    actions: int  # before its final complete/abort
    writes: bool  # types into a content field (a message, a note, a to-do)

    @property
    def one_step(self) -> bool:
        return self.actions <= 1


@dataclass
class OracleRun:
    """The oracle plan's episode on a case, with what an adversary needs to fork from it."""

    case: Case
    driver: Driver
    initial: dict[str, Any]
    final_apps: dict[str, Any]
    sheet_answers: Any  # what the AnswerSheet held at the end (None without one)
    judge: Mapping[str, Any]
    fields: list[dict[str, Any]] = field(default_factory=list)

    @property
    def answer(self) -> list[Any] | None:
        """The values the plan answered (one per field), or None."""
        return self.driver.answers[0] if self.driver.answers else None

    @property
    def typed(self) -> list[tuple[str | None, str]]:
        return self.driver.typed

    @property
    def params(self) -> dict[str, Any]:
        return self.driver.info["params"]

    @property
    def actions(self) -> int:
        """Actions before the final complete/abort."""
        return self.driver.checkpoints["finish"].step

    @property
    def terminal(self) -> dict[str, Any]:
        return self.driver.trace[self.actions]

    @property
    def forkable(self) -> bool:
        """Whether the plan only finished after answering, so an answer fork replays it exactly."""
        return self.driver.answered_at == self.actions

    @property
    def written(self) -> list[str]:
        """What the plan wrote into content fields."""
        return [text for rid, text in self.driver.typed if rid in CONTENT_FIELDS]

    @property
    def year(self) -> int:
        return sim_today(self.initial["os"]).year

    @cached_property
    def candidates(self) -> Candidates:
        """Every candidate value the phone held when the episode started."""
        return Candidates.from_state(self.initial)


def apps_without_sheet(state: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state["apps"].items() if k != ANSWER_SHEET}


def _sheet_answers(state: Mapping[str, Any]) -> Any:
    return (state["apps"].get(ANSWER_SHEET) or {}).get("answers")


def _same_entry(a: Any, b: Any) -> bool:
    """Two AnswerSheet entries (or lists of them) with the same text, or the same number."""
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(map(_same_entry, a, b))
    if str(a).strip() == str(b).strip():
        return True
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return False


class Runner:
    """Environments, oracle runs and forks for suites over a registry's tasks.

    ``wrong_targets`` is how many other parameter sets the wrong-target replays try per case."""

    def __init__(self, registry: Registry | None = None, wrong_targets: int = WRONG_TARGETS) -> None:
        self.registry = registry or default_registry()
        self.wrong_targets = wrong_targets
        self.task_ids = sorted(self.registry.refs)
        self.envs = {mode: self._make_env(mode, "en") for mode in EVAL_MODES}
        self._other_envs: dict[tuple[str, str], gym.Env] = {}
        self._recent: OrderedDict[Case, dict[str, Any]] = OrderedDict()
        self._fields: dict[tuple[str, int, int, str], list[dict[str, Any]]] = {}
        self._draws: dict[tuple[str, int, str], tuple[dict[str, Any], ...]] = {}
        self._memorised: dict[tuple[str, str], list[Any] | None] = {}
        self._facts: dict[str, PlanFacts] = {}
        self._scratch: dict[str, Any] = {}

    def _make_env(self, mode: str, language: str) -> gym.Env:
        return gym.make(ENV_ID, task=self.task_ids, eval_mode=mode, obs_parts=("instruction",),
                        language=language)

    def env(self, case: Case) -> gym.Env:
        """The environment of the case's mode and language (``envs`` holds the English ones)."""
        if case.language == "en":
            return self.envs[case.mode]
        key = (case.mode, case.language)
        if key not in self._other_envs:
            self._other_envs[key] = self._make_env(*key)
        return self._other_envs[key]

    def close(self) -> None:
        for env in [*self.envs.values(), *self._other_envs.values()]:
            env.close()

    def kind(self, task_id: str) -> TaskKind:
        return TaskKind.of(self.registry.refs[task_id].metadata)

    def oracle_plan(self, task_id: str) -> Plan:
        found = [p for p in plans_for(task_id) if p.expect_success]
        if not found:
            raise TaskError(f"{task_id}: no oracle plan is registered")
        return found[0]

    # episodes ------------------------------------------------------------------------------------
    def start(self, case: Case, **options: Any) -> Driver:
        """Reset the case's environment on the case and return a Driver over it."""
        env = self.env(case)
        obs, info = env.reset(seed=case.seed, options={"task": case.task_id})
        return Driver(env, obs, info, **options)

    def apps_now(self, case: Case) -> dict[str, Any]:
        """The app states of the case's phone as they are now, the AnswerSheet left out."""
        return apps_without_sheet(self.env(case).unwrapped.device.get_state())

    def finish(self, driver: Driver) -> Mapping[str, Any]:
        """Complete the episode if it has not ended; the judge's record of it."""
        if not driver.done:
            driver.complete()
        return driver.info["judge"]

    def recent(self, case: Case, what: str, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per case and purpose while the case is among the last few used."""
        memo = self._recent.setdefault(case, {})
        self._recent.move_to_end(case)
        while len(self._recent) > CACHED_CASES:
            self._recent.popitem(last=False)
        if what not in memo:
            memo[what] = compute()
        return memo[what]

    def oracle(self, case: Case) -> OracleRun:
        """The oracle plan run on the case with checkpoints (shared while the case is recent); it must be paid."""
        run = self.recent(case, "oracle", lambda: self._run_oracle(case))
        if not run.judge.get("success"):
            raise AssertionError(f"{case}: the oracle plan itself is not paid, so nothing can be forked from it: "
                                 f"error={run.judge.get('error')} checks={run.judge.get('checks')}")
        return run

    def _run_oracle(self, case: Case) -> OracleRun:
        driver = self.start(case, checkpoints=True)
        initial = self.env(case).unwrapped.device.get_state()
        self.oracle_plan(case.task_id).fn(driver)
        judge = self.finish(driver)
        self._facts[case.task_id] = PlanFacts(driver.checkpoints["finish"].step,
                                              any(rid in CONTENT_FIELDS for rid, _ in driver.typed))
        final = self.env(case).unwrapped.device.get_state()
        return OracleRun(case, driver, initial, apps_without_sheet(final), _sheet_answers(final), judge,
                         self.fields(case.task_id, case.seed, driver.info["world_seed"], case.language))

    def play(self, case: Case, body: Callable[[Driver], None], **options: Any) -> Mapping[str, Any]:
        """A fresh episode: ``body`` acts, then the episode completes (if it has not ended) and is judged."""
        driver = self.start(case, **options)
        body(driver)
        return self.finish(driver)

    def replay(self, case: Case, params: Mapping[str, Any] | None = None, **options: Any) -> tuple[Driver, Mapping[str, Any]]:
        """The oracle plan again on a fresh episode, with Driver options (other params, filters).

        A plan that cannot go on (its targets are not where the options send it) gives up: the
        episode completes where it stopped and is judged."""
        driver = self.start(case, params=params, **options)
        try:
            self.oracle_plan(case.task_id).fn(driver)
        except Exception:  # noqa: BLE001 - a scripted plan failing under changed inputs is an agent giving up
            pass
        return driver, self.finish(driver)

    def resume(self, run: OracleRun, name: str) -> Driver:
        """Put the case's environment back at one of the oracle run's checkpoints."""
        checkpoint: Checkpoint = run.driver.checkpoints[name]
        return checkpoint.resume(self.env(run.case))

    def answer_instead(self, run: OracleRun, values: Sequence[Any] | None) -> Mapping[str, Any]:
        """The oracle's episode with another answer (None: no answer at all), everything else the same."""
        if run.forkable:
            driver = self.resume(run, "answer")
            if values is not None:
                try:
                    driver.submit_answer(list(values))
                except PlanError:  # the form does not take it (a choice field): the sheet stays as it is
                    pass
            return self.finish(driver)
        return self.replay(run.case, answer_filter=lambda _: None if values is None else list(values))[1]

    def finish_after(self, run: OracleRun, patch: Mapping[str, Any]) -> Mapping[str, Any]:
        """The oracle's episode with a state patch applied just before its final action."""
        driver = self.resume(run, "finish")
        self.env(run.case).unwrapped.device.set_state(dict(patch))
        driver.step(dict(run.terminal))
        return driver.info["judge"]

    def sheet_holds_truth(self, run: OracleRun) -> bool:
        """Whether, after an ending played from ``run``, the AnswerSheet holds what the oracle's did, the
        same text or the same number (in grounded mode: a form filtered a hedge down to the truth, as a
        numeric keyboard keeps "01" of "0 or 1")."""
        if run.case.mode != "grounded":
            return False
        held = _sheet_answers(read_state(self.env(run.case).unwrapped.device)) or {}
        truth = run.sheet_answers or {}
        return held.keys() == truth.keys() and all(_same_entry(held[k], truth[k]) for k in truth)

    def state_before_finish(self, run: OracleRun) -> dict[str, Any]:
        """The phone's state just before the oracle's final action."""
        def read() -> dict[str, Any]:
            return run.driver.checkpoints["finish"].resume(self.env(run.case)).env.device.get_state()

        return self.recent(run.case, "state before finish", read)

    # task facts --------------------------------------------------------------------------------------
    def facts(self, task_id: str) -> PlanFacts:
        """What the task's oracle plan does (known from any oracle run of the task, else from seed 0's)."""
        if task_id not in self._facts:
            case = Case(task_id, EVAL_MODES[0], 0)
            self.recent(case, "oracle", lambda: self._run_oracle(case))
        return self._facts[task_id]

    def fields(self, task_id: str, seed: int, world_seed: int, language: str = "en") -> list[dict[str, Any]]:
        """The AnswerSheet fields (type, label, ...) the task shows in grounded mode on this seed, world and
        language."""
        key = (task_id, seed, world_seed, language)
        if key not in self._fields:
            ref = self.registry.refs[task_id]
            self._fields[key] = []
            if TaskKind.of(ref.metadata).has_answer:
                phone = self._scratch_device(language)
                ref.start(phone, seed=seed, eval_mode="grounded", world_seed=world_seed, language=language)
                self._fields[key] = list(read_state(phone)["apps"][ANSWER_SHEET]["fields"])
        return self._fields[key]

    def parameter_draws(self, task_id: str, world_seed: int, language: str = "en") -> tuple[dict[str, Any], ...]:
        """The task's parameters as other seeds draw them on the same world and language (none for a task
        without parameters): targets that exist on the phone, but are not the episode's."""
        key = (task_id, world_seed, language)
        if key not in self._draws:
            ref = self.registry.refs[task_id]
            self._draws[key] = tuple(
                ref.start(self._scratch_device(language), seed=s, eval_mode="text", world_seed=world_seed,
                          language=language).params
                for s in ALTERNATIVE_SEEDS) if ref.metadata.get("parameters") else ()
        return self._draws[key]

    def memorised_answer(self, task_id: str, language: str = "en") -> list[Any] | None:
        """The answer the oracle gives most often on other episodes and worlds (MEMORY_SEEDS): what an agent
        that memorised the benchmark instead of reading the phone would answer (None: no answers). The values are
        the same in either mode, so they are learned once, in text mode (no AnswerSheet to fill)."""
        key = (task_id, language)
        if key not in self._memorised:
            counts: Counter[str] = Counter()
            first: dict[str, list[Any]] = {}
            for seed in MEMORY_SEEDS:
                driver, judge = self.replay(Case(task_id, "text", seed, language))
                if judge.get("success") and driver.answers:
                    text = json.dumps(driver.answers[0], ensure_ascii=False, sort_keys=True, default=str)
                    counts[text] += 1
                    first.setdefault(text, driver.answers[0])
            self._memorised[key] = first[counts.most_common(1)[0][0]] if counts else None
        return self._memorised[key]

    def alternatives(self, run: OracleRun, count: int) -> list[tuple[str, dict[str, Any]]]:
        """Up to ``count`` parameter sets that change one parameter of the episode's to another seed's
        value, as (description, params). Parameters take turns; the seed picks where the turns start."""
        true = run.params
        choices: list[list[tuple[str, dict[str, Any]]]] = []
        for name in true:
            seen: list[Any] = []
            for draw in self.parameter_draws(run.case.task_id, run.driver.info["world_seed"], run.case.language):
                value = draw.get(name)
                if value != true[name] and value not in seen:
                    seen.append(value)
            choices.append([(f"{name}={_short(v, 40)}", {**true, name: v}) for v in seen])
        turns = [c[i] for i in range(max((len(c) for c in choices), default=0)) for c in choices if i < len(c)]
        if not turns:
            return []
        start = run.case.seed * count % len(turns)
        return (turns[start:] + turns[:start])[:count]

    def _scratch_device(self, language: str = "en") -> Any:
        """A phone of its own (per language) for looking tasks up without touching the suites' episodes."""
        if language not in self._scratch:
            from ..device.sim import SimDevice

            self._scratch[language] = SimDevice(language=language)
        return self._scratch[language]


def seeded(case: Case, purpose: str) -> random.Random:
    """A random generator fixed by the case and what it is for."""
    on = "" if case.language == "en" else f"|{case.language}"
    return random.Random(f"{case.task_id}|{case.mode}|{case.seed}{on}|{purpose}")
