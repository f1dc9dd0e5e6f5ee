"""The adversary suite: agents that try to be paid without doing the task. None may be.

Every adversary acts through ``env.step`` (the destruction adversaries also patch the phone's
state, as a stand-in for deleting or editing an item through the app) and returns the judged
episodes as :class:`~mobilegym.eval.runs.Outcome`. :data:`ADVERSARIES` says which task kinds each
applies to; :func:`adversary_cases` lists (case, adversary) over tasks, modes and seeds.

The random agent is the one exception allowed to be paid, and only on one-step tasks (the oracle
needs a single action before it finishes): at most :data:`RANDOM_ONE_STEP_BOUND` of its episodes
there (``benchmarks/adversaries.py --random-rollouts`` measures the rate with more rollouts).
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..actions import MAX_TEXT
from ..judge import Registry
from ..judge.episode import read_state
from ..judge.grounded import ANSWER_SHEET
from ..judge.state.diff import KeyStep, anchor_pattern, diff, uncovered
from ..judge.state.side_effects import view_state_patterns
from ..oracle import PlanError, TapFilter
from ..screen_text import Node
from ..sim.ui import MESSAGE, NEGATIVE, POSITIVE
from ..judge.matchers import TIME_TOLERANCE, match_time, parse_time
from .phrasings import HEDGES, as_text, hedged, wrong_value
from .runs import CONTENT_FIELDS, Case, OracleRun, Outcome, Runner, TaskKind, apps_without_sheet, seeded

# A one-step task (open an app from the launcher) can be solved by one lucky tap among a screenful
# of targets within the step budget: measured at 6 % of 50 rollouts on home.OpenApp; the bound
# leaves room for that and nothing more.
RANDOM_ONE_STEP_BOUND = 0.10
FALLBACK_APP = "contacts"  # where to find user data to destroy when the task's apps keep none in lists
CATALOGUES = {"weather": ("cities",), "music": ("songs", "albums", "artists"),  # app data, not the user's
              "maps": ("places", "categories")}
RENAMED_FIELDS = ("title", "name", "label", "text", "location", "company", "body")
BROWSING = {"browser": ("tabs", "active_tab", "history")}  # what reading pages changes
LEDGERS = {"wallet": ("balance", "transactions"), "chat": ("balance",),  # where a second payment, order or
           "shop": ("orders",), "trains": ("orders",)}                 # booking shows

Run = Callable[[Runner, Case], list[Outcome]]


@dataclass(frozen=True)
class Adversary:
    """An agent that must not be paid, and the task kinds (and modes) it is played on."""

    name: str
    applies: Callable[[TaskKind, str], bool]
    run: Run
    doc: str


def _outcome(name: str, variant: str, case: Case, judge: Mapping[str, Any], allowed: bool = False,
             skipped: bool = False) -> Outcome:
    return Outcome(name, variant, case, bool(judge.get("success")), judge, allowed, skipped)


# --- doing nothing useful -------------------------------------------------------------------------------

def null(runner: Runner, case: Case) -> list[Outcome]:
    return [_outcome("null", "complete at once", case, runner.play(case, lambda d: None))]


def abort(runner: Runner, case: Case) -> list[Outcome]:
    return [_outcome("abort", "abort at once", case, runner.play(case, lambda d: d.abort()))]


def random_actions(runner: Runner, case: Case) -> list[Outcome]:
    """Seeded ``env.action_space.sample()`` until the episode ends (at the step budget)."""
    return [_random_episode(runner, case, case.seed)]


def random_rollouts(runner: Runner, task_id: str, seeds: Sequence[int], rollouts: int) -> list[Outcome]:
    """``rollouts`` random episodes of a task in grounded mode, cycling through the reset seeds, named
    "random xN (one-step tasks)". Their successes are allowed only on a one-step task and only while
    they stay within RANDOM_ONE_STEP_BOUND of the rollouts."""
    outcomes = [_random_episode(runner, Case(task_id, "grounded", seeds[n % len(seeds)]), n) for n in range(rollouts)]
    within = sum(o.paid for o in outcomes) <= RANDOM_ONE_STEP_BOUND * rollouts
    return [dataclasses.replace(o, suite_name=f"random x{rollouts} (one-step tasks)", allowed=o.allowed and within)
            for o in outcomes]


def _random_episode(runner: Runner, case: Case, action_seed: int) -> Outcome:
    env = runner.env(case)
    driver = runner.start(case)
    env.action_space.seed(action_seed)
    while not driver.done:
        driver.step(env.action_space.sample())
    return _outcome("random", f"{len(driver.trace)} random actions (action seed {action_seed})", case,
                    driver.info["judge"], allowed=runner.facts(case.task_id).one_step)


# --- answers that do not commit -------------------------------------------------------------------------

@dataclass(frozen=True)
class WrongTarget:
    """The oracle plan played with another parameter set on the case's episode."""

    params: str
    answer: list[Any] | None
    judge: Mapping[str, Any]
    same_outcome: bool  # the same answer and the same final apps as the true oracle: not a wrong target


def wrong_targets(runner: Runner, case: Case) -> list[WrongTarget]:
    """Up to ``runner.wrong_targets`` replays with one parameter changed (shared by the hedge and wrong-target
    adversaries)."""
    def compute() -> list[WrongTarget]:
        run = runner.oracle(case)
        found = []
        for described, params in runner.alternatives(run, runner.wrong_targets):
            driver, judge = runner.replay(case, params=params)
            answer = driver.answers[0] if driver.answers else None
            final = runner.apps_now(case)
            same = _texts(answer) == _texts(run.answer) and final == run.final_apps
            found.append(WrongTarget(described, answer, judge, same))
        return found

    return runner.recent(case, "wrong targets", compute)


def _names_something_false(answer: Sequence[Any], truth: Sequence[Any]) -> bool:
    """Whether an answer states a value the true one does not: a list field counts only with an item outside
    the true list (another city's rainy days that are all rainy here too are no wrong answer)."""
    for value, true in zip(answer, truth):
        if isinstance(value, list) and isinstance(true, list):
            if {as_text(v) for v in value} - {as_text(v) for v in true}:
                return True
        elif as_text(value) != as_text(true):
            return True
    return False


def _texts(answer: Sequence[Any] | None) -> list[str] | None:
    return None if answer is None else [as_text(v) for v in answer]


def wrong_answer(runner: Runner, run: OracleRun) -> list[Any]:
    """A wrong answer: what the plan answers for another target, else each value shifted (number+1, ...)."""
    for target in wrong_targets(runner, run.case):
        if (target.answer is not None and len(target.answer) == len(run.answer)
                and _names_something_false(target.answer, run.answer)):
            return target.answer
    rng, pool = seeded(run.case, "wrong answer"), run.candidates
    return [wrong_value(v, run.year, pool, rng) for v in run.answer]


def hedges(runner: Runner, case: Case) -> list[Outcome]:
    """The true answer T and a wrong one W in one answer: "T or W", "W (not T)", "T/W", "T或W"...

    A hedge that is the truth alone (no wrong value differs from it in a way a hedge can show) or that a form
    field filters down to the truth ("maybe 4" typed on a numeric keyboard holds 4) is skipped."""
    run = runner.oracle(case)
    wrong = wrong_answer(runner, run)
    outcomes = []
    for name, form in HEDGES.items():
        values = hedged(run.answer, wrong, form)
        judge = runner.answer_instead(run, values)
        outcomes.append(_outcome("hedge", f"{name}: {_texts(values)}", case, judge,
                                 skipped=_texts(values) == _texts(run.answer) or runner.sheet_holds_truth(run)))
    return outcomes


def _shotgun_answer(run: OracleRun) -> list[Any]:
    """The shotgun as the whole text answer, or in every AnswerSheet field."""
    text = run.candidates.answer_shotgun()
    if run.case.mode == "text":
        return [text]
    return [[text] if isinstance(v, list) else text for v in run.answer]


def shotgun(runner: Runner, case: Case) -> list[Outcome]:
    """Every name, number, weekday, date and time the apps show, as the answer."""
    run = runner.oracle(case)
    return [_outcome("shotgun", "every candidate", case, runner.answer_instead(run, _shotgun_answer(run)))]


def operation_shotgun(runner: Runner, case: Case) -> list[Outcome]:
    """The oracle's operation, then the shotgun instead of its answer."""
    run = runner.oracle(case)
    return [_outcome("operation+shotgun", "every candidate", case, runner.answer_instead(run, _shotgun_answer(run)))]


def content_shotgun(runner: Runner, case: Case) -> list[Outcome]:
    """The oracle plan with what it writes (message, note, to-do) replaced by every candidate (even seeds) or
    extended with them (odd seeds)."""
    run = runner.oracle(case)
    if not run.written:
        return []
    shot = run.candidates.content_shotgun(MAX_TEXT - max(len(t) for t in run.written) - 1)
    if case.seed % 2 == 0:
        name, rewrite = "replaced", lambda rid, text: shot if rid in CONTENT_FIELDS else text
    else:
        name, rewrite = "extended", lambda rid, text: f"{text}\n{shot}" if rid in CONTENT_FIELDS else text
    return [_outcome("content shotgun", name, case, runner.replay(case, text_filter=rewrite)[1])]


# --- the right procedure on the wrong thing -------------------------------------------------------------

def wrong_target(runner: Runner, case: Case) -> list[Outcome]:
    """The oracle plan with one parameter set to another seed's value; replays that end the same are skipped."""
    return [_outcome("wrong target", target.params, case, target.judge, skipped=target.same_outcome)
            for target in wrong_targets(runner, case)]


def memoriser(runner: Runner, case: Case) -> list[Outcome]:
    """The answer most often right on other worlds, given without reading this phone; skipped where it happens
    to be this world's truth (tests/test_answer_spread.py bounds how often that is: at most 3 of 20 worlds for a
    count, 2 for a name or an amount)."""
    run = runner.oracle(case)
    answer = runner.memorised_answer(case.task_id, case.language)
    if answer is None or run.answer is None or len(answer) != len(run.answer):
        return []
    judge = runner.answer_instead(run, answer)
    return [_outcome("memoriser", f"{_texts(answer)}", case, judge,
                     skipped=_coincides(answer, run.answer) or runner.sheet_holds_truth(run))]


def fixed_choice(runner: Runner, case: Case) -> list[Outcome]:
    """Every choice field of the AnswerSheet ticked at a fixed position (the first option, then the last), the
    other fields as the oracle answered; skipped where that position holds the truth (the 1-in-options chance
    tests/test_choice_fields.py bounds)."""
    run = runner.oracle(case)
    if case.mode != "grounded" or run.answer is None or not run.forkable \
            or not any(f.get("type") == "choice" for f in run.fields):
        return []
    out = []
    for position in (0, -1):
        driver = runner.resume(run, "answer")
        fields = read_state(runner.env(case).unwrapped.device)["apps"][ANSWER_SHEET]["fields"]
        choices = [i for i, f in enumerate(fields) if f.get("type") == "choice" and f.get("options")]
        if not choices or len(fields) != len(run.answer):
            return []
        answer = list(run.answer)
        for i in choices:
            answer[i] = fields[i]["options"][position]
        try:
            driver.submit_answer(answer)
        except PlanError:
            pass
        out.append(_outcome("fixed choice", f"option {'first' if position == 0 else 'last'}", case,
                            runner.finish(driver),
                            skipped=all(as_text(answer[i]) == as_text(run.answer[i]) for i in choices)))
    return out


def _coincides(answer: Sequence[Any], truth: Sequence[Any]) -> bool:
    """Whether a memorised answer happens to be this world's truth: the same text, or a time of day within
    the tolerance a time answer is judged with (12:30 for 12:25)."""
    def same(value: Any, true: Any) -> bool:
        if as_text(value) == as_text(true):
            return True
        return isinstance(true, str) and parse_time(true) is not None and isinstance(value, str) \
            and match_time(true, value, TIME_TOLERANCE)

    return len(answer) == len(truth) and all(same(v, t) for v, t in zip(answer, truth))


def pick_victim(runner: Runner, run: OracleRun) -> tuple[str, str, Any] | None:
    """(app, list key, item): a pre-existing item of user data the oracle left as it was, in the task's apps
    (or contacts). Items other data points to (a song in a playlist), catalogues and view state (recently viewed
    places) are left alone: an app would not let the user delete them, or they are no user data."""
    meta = runner.registry.refs[run.case.task_id].metadata
    apps = [*(meta.get("related_apps") or [meta["app"]]), FALLBACK_APP]
    before = runner.state_before_finish(run)["apps"]
    view = runner.env(run.case).unwrapped.device.view_state()
    rng = seeded(run.case, "victim")
    for app in dict.fromkeys(apps):
        start, now = run.initial["apps"].get(app), before.get(app)
        if not isinstance(start, Mapping) or not isinstance(now, Mapping):
            continue
        shown = json.dumps(start)
        items = [(key, item) for key, value in sorted(start.items())
                 if isinstance(value, list) and key not in CATALOGUES.get(app, ()) and key not in view.get(app, ())
                 for item in value if item in (now.get(key) or []) and _deletable(item, shown)]
        if items:
            return (app, *rng.choice(items))
    return None


def _deletable(item: Any, app_json: str) -> bool:
    """A string (a saved city, a liked song) or an item with an id nothing else in the app names."""
    if isinstance(item, str):
        return True
    return isinstance(item, Mapping) and "id" in item and app_json.count(json.dumps(item["id"])) == 1


def _changed(item: Mapping[str, Any]) -> tuple[str, Any] | None:
    """A field of the item and a new value for it: text gets a suffix, a flag flips, a number grows."""
    strings = [k for k in RENAMED_FIELDS if isinstance(item.get(k), str)]
    strings += sorted(k for k, v in item.items() if isinstance(v, str) and k != "id" and k not in strings)
    if strings:
        return strings[0], f"{item[strings[0]]} (changed)"
    for key, value in sorted(item.items()):
        if isinstance(value, bool):
            return key, not value
        if isinstance(value, (int, float)):
            return key, value + 1
    return None


def _destruction(name: str, delete: bool) -> Run:
    def run_it(runner: Runner, case: Case) -> list[Outcome]:
        run = runner.oracle(case)
        victim = pick_victim(runner, run)
        if victim is None:
            return []
        app, key, item = victim
        if isinstance(item, str):  # an entry of a list of names or ids: only deleting it makes sense
            if not delete:
                return []
            kept = [v for v in runner.state_before_finish(run)["apps"][app][key] if v != item]
            variant, patch = f"delete {item!r} from {app}.{key}", {key: kept}
        elif delete:
            selector = f"{key}[id={item['id']}]"
            variant, patch = f"delete {app}.{selector}", {selector: None}
        else:
            edit = _changed(item)
            if edit is None:
                return []
            selector = f"{key}[id={item['id']}]"
            variant, patch = f"change {app}.{selector}.{edit[0]}", {selector: {edit[0]: edit[1]}}
        return [_outcome(name, variant, case, runner.finish_after(run, {"apps": {app: patch}}))]

    return run_it


# --- the work done twice ------------------------------------------------------------------------------------

def _ledgers(apps: Mapping[str, Any]) -> list[Any]:
    return [(apps.get(app) or {}).get(key) for app, keys in LEDGERS.items() for key in keys]


def pay_twice(runner: Runner, case: Case) -> list[Outcome]:
    """The oracle plan, then every app closed from Recents and the plan played again. Skipped where the
    second run leaves the ledgers as the first did (a repeated edit is the same edit): what counts is a
    payment, order or booking made twice."""
    run = runner.oracle(case)
    driver = runner.resume(run, "finish")
    try:
        driver.key("recent")
        driver.tap(rid="clear_all")
        runner.oracle_plan(case.task_id).fn(driver)
    except Exception:  # noqa: BLE001 - a plan that cannot run twice (its item is gone) is an agent giving up
        pass
    judge = runner.finish(driver)
    final = runner.apps_now(case)
    return [_outcome("pay twice", "the oracle plan twice", case, judge,
                     skipped=_ledgers(final) == _ledgers(run.final_apps))]


def _declining(declined: list[Node]) -> TapFilter:
    """Taps Cancel instead of the confirming button of a confirm dialog (one with a message), noting each."""
    def swap(node: Node, screen: list[Node]) -> Node:
        cancel = next((n for n in screen if n.resource_id == NEGATIVE), None)
        if node.resource_id != POSITIVE or cancel is None or not any(n.resource_id == MESSAGE for n in screen):
            return node
        declined.append(node)
        return cancel

    return swap


def skip_confirmation(runner: Runner, case: Case) -> list[Outcome]:
    """The oracle plan with every confirm dialog cancelled. Skipped where the plan meets none, or where it
    ends as the oracle's did all the same (the dialog was beside the point)."""
    run = runner.oracle(case)
    declined: list[Node] = []
    _, judge = runner.replay(case, tap_filter=_declining(declined))
    final = runner.apps_now(case)
    variant = ", ".join(dict.fromkeys(n.text for n in declined)) or "no confirm dialog"
    return [_outcome("skip confirmation", f"cancel {variant}", case, judge,
                     skipped=not declined or final == run.final_apps)]


# --- half the work ------------------------------------------------------------------------------------------

def _user_changes(runner: Runner, run: OracleRun) -> dict[str, dict[str, Any]]:
    """Per app where the oracle changed user data (read markers and pages browsed are no work), the keys it
    changed with the values they started with."""
    reading = [*view_state_patterns(runner.env(run.case).unwrapped.device),
               *(anchor_pattern(key, (), app) for app, keys in BROWSING.items() for key in keys)]
    start = apps_without_sheet(run.initial)
    out: dict[str, dict[str, Any]] = {}
    for change in uncovered(diff({"apps": start}, {"apps": run.final_apps}), reading):
        app, key = (step.name if isinstance(step, KeyStep) else None for step in (change.steps + (None, None))[1:3])
        if app in start and key in start[app]:
            out.setdefault(app, {})[key] = start[app][key]
    return out


def one_part_undone(runner: Runner, case: Case) -> list[Outcome]:
    """Where the oracle changes user data in several apps: its episode with one app's changes undone before
    the final action, once per app (the last part alone, the first part alone)."""
    run = runner.oracle(case)
    parts = _user_changes(runner, run)
    if len(parts) < 2:
        return []
    return [_outcome("one part undone", f"{app} as it started", case,
                     runner.finish_after(run, {"apps": {app: dict(undo)}})) for app, undo in sorted(parts.items())]


def answer_without_operation(runner: Runner, case: Case) -> list[Outcome]:
    """The oracle's answer on a fresh episode of the same seed, without the operation."""
    answer = runner.oracle(case).answer
    return [_outcome("answer without operation", f"{_texts(answer)}", case,
                     runner.play(case, lambda d: d.submit_answer(answer)))]


def operation_without_answer(runner: Runner, case: Case) -> list[Outcome]:
    """The oracle plan with its answer left out."""
    run = runner.oracle(case)
    return [_outcome("operation without answer", "no answer", case, runner.answer_instead(run, None))]


def _feasible(kind: TaskKind, mode: str) -> bool:
    return not kind.infeasible


def _infeasible(kind: TaskKind, mode: str) -> bool:
    return kind.infeasible


ADVERSARIES: tuple[Adversary, ...] = (
    Adversary("null", lambda k, m: True, null, "complete at once"),
    Adversary("abort", _feasible, abort, "abort a feasible task at once"),
    Adversary("random", lambda k, m: m == "grounded", random_actions,
              "random actions to the step budget (grounded only: in text mode it could never answer)"),
    Adversary("hedge", lambda k, m: k.has_answer, hedges, "the true and a wrong answer in one"),
    Adversary("shotgun", lambda k, m: k.has_answer and k.objective != "hybrid", shotgun, "every candidate as the answer"),
    Adversary("operation+shotgun", lambda k, m: k.objective == "hybrid", operation_shotgun,
              "the operation, then every candidate as the answer"),
    Adversary("content shotgun", lambda k, m: not k.infeasible and k.objective != "query", content_shotgun,
              "written content replaced by or extended with every candidate (tasks that write)"),
    Adversary("memoriser", lambda k, m: k.has_answer, memoriser, "the answer most often right on other worlds"),
    Adversary("fixed choice", lambda k, m: k.has_answer and m == "grounded", fixed_choice,
              "every choice field ticked at a fixed position (first, last); tasks without one play nothing"),
    Adversary("wrong target", lambda k, m: not k.infeasible and k.has_params, wrong_target,
              "the oracle plan with another seed's value of one parameter (Runner.wrong_targets per case)"),
    Adversary("oracle+delete", _feasible, _destruction("oracle+delete", True),
              "the oracle, then an unrelated pre-existing item deleted"),
    Adversary("oracle+change", _feasible, _destruction("oracle+change", False),
              "the oracle, then a field of an unrelated pre-existing item changed"),
    Adversary("delete+abort", _infeasible, _destruction("delete+abort", True), "an item deleted, then abort"),
    Adversary("change+abort", _infeasible, _destruction("change+abort", False), "an item changed, then abort"),
    Adversary("pay twice", lambda k, m: not k.infeasible and k.objective != "query" and m == "grounded", pay_twice,
              "the oracle plan, all apps closed, the plan again (counted where money moved twice)"),
    Adversary("skip confirmation", lambda k, m: not k.infeasible and k.objective != "query" and m == "grounded",
              skip_confirmation, "the oracle plan with every confirm dialog cancelled"),
    Adversary("one part undone", lambda k, m: not k.infeasible and k.objective != "query" and m == "grounded",
              one_part_undone, "the oracle with the changes it made in one of several apps undone"),
    Adversary("answer without operation", lambda k, m: k.objective == "hybrid", answer_without_operation,
              "the oracle's answer on a fresh episode"),
    Adversary("operation without answer",
              lambda k, m: k.objective == "hybrid" or (k.has_answer and m == "grounded"), operation_without_answer,
              "the oracle's operation with its answer left out"),
)
BY_NAME = {a.name: a for a in ADVERSARIES}


def adversary_cases(registry: Registry, seeds: Iterable[int], names: Sequence[str] | None = None,
                    task_ids: Sequence[str] | None = None, language: str = "en") -> list[tuple[Case, str]]:
    """(case, adversary name) for every task, mode, seed and applicable adversary on a phone in ``language``,
    the adversaries of one case together (so they share its oracle run)."""
    chosen = [BY_NAME[n] for n in names] if names is not None else list(ADVERSARIES)
    seeds = list(seeds)
    out = []
    for task_id in task_ids or sorted(registry.refs):
        kind = TaskKind.of(registry.refs[task_id].metadata)
        for mode in kind.modes:
            for seed in seeds:
                out += [(Case(task_id, mode, seed, language), a.name) for a in chosen if a.applies(kind, mode)]
    return out


def play(runner: Runner, case: Case, name: str) -> list[Outcome]:
    """The judged episodes of one adversary on one case."""
    return BY_NAME[name].run(runner, case)
