"""No near-ties: the oracle plan aimed at any other target is not paid on the true episode.

For every task with a sampled target (a ``source`` or ``sampler`` parameter) and reset seeds 0-2, each
other value of each such parameter is handed to the task's oracle plan as a Driver ``params`` override,
forked from a checkpoint taken after reset, and the true episode judges where it ends. The other values are
the parameter's whole domain on the phone after the task's set-up, given the true values of the parameters
declared before it (:func:`mobilegym.judge.params.parameter_domain`: a list, a source's items, or every
value a sampler returns over all outcomes of its random draws). The judge must not pay another target
unless it ended as the true oracle did (the same answer text and the same final app data): a paid one means
the sampler picked a target within a check's tolerance of another candidate's, which samplers exclude with
:func:`mobilegym.judge.params.unambiguous`.

To stay within about a minute on two cores:
- text mode only: a task without an answer is the same in both modes, and both read answers alike;
- a domain of over GENERATED values holds generated values (time slots, fresh phone numbers and e-mail
  addresses, pairs of contacts), not targets read from the phone: KEPT evenly spaced values are tried, and
  samplers are enumerated over their first ``DOMAIN_DRAWS`` (512) draw sequences;
- seeds whose episodes start in the same phone state share each plan run (a plan only sees the screen and
  its params), and every such seed's episode judges its end.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.eval.runs import apps_without_sheet
from mobilegym.judge import Episode, default_registry
from mobilegym.judge.params import parameter_domain
from mobilegym.oracle import Checkpoint, Driver, plans_for
from mobilegym.sim.phone import Phone

SEEDS = (0, 1, 2)
GENERATED = 48
KEPT = 4
REGISTRY = default_registry()


def sampled(task_id: str) -> list[str]:
    """The task's parameters with a ``source`` or ``sampler`` (JSON tasks take no parameters)."""
    cls = getattr(REGISTRY.refs[task_id], "cls", None)
    return [name for name, spec in (cls.parameters.items() if cls else ()) if "source" in spec or "sampler" in spec]


TASKS = [t for t in sorted(REGISTRY.refs) if sampled(t)]


def _key(params: dict[str, Any]) -> str:
    return json.dumps(params, sort_keys=True)


class _Noted(dict):
    """Parameters that note which of them are read (iterating them reads them all)."""

    def __init__(self, values: dict[str, Any], read: set[str]) -> None:
        super().__init__(values)
        self.read = read

    def __getitem__(self, name: str) -> Any:
        self.read.add(name)
        return super().__getitem__(name)

    def get(self, name: str, default: Any = None) -> Any:
        self.read.add(name)
        return super().get(name, default)

    def __contains__(self, name: object) -> bool:
        self.read.add(str(name))
        return super().__contains__(name)

    def _all(self) -> None:
        self.read.update(super().keys())

    def __iter__(self) -> Iterator[str]:
        self._all()
        return super().__iter__()

    def keys(self):  # type: ignore[override]
        self._all()
        return super().keys()

    def values(self):  # type: ignore[override]
        self._all()
        return super().values()

    def items(self):  # type: ignore[override]
        self._all()
        return super().items()


class NotingDriver(Driver):
    """A Driver noting the parameters its plan reads: a plan acts on the screen and on those only, so another
    value of a parameter it never read replays the same run."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.read: set[str] = set()

    @property
    def params(self) -> dict[str, Any]:
        return _Noted(super().params, self.read)


@dataclass
class Start:
    """One reset seed of a task: where to fork from, the episode that judges, and the targets to try."""

    seed: int
    checkpoint: Checkpoint
    episode: Episode
    truth: dict[str, Any]
    state: str  # the phone at the start, as canonical JSON
    others: dict[str, tuple[str, Any]] = field(default_factory=dict)  # other parameter sets (by key) -> (name, value)


@dataclass(frozen=True)
class End:
    """Where a plan run ended, and the parameters the plan read on the way."""

    answer: str | None
    apps: dict[str, Any]
    last_action: str | None
    read: frozenset[str]


def _spread(values: list[Any]) -> list[Any]:
    """All values, or KEPT evenly spaced ones of a generated domain."""
    if len(values) <= GENERATED:
        return values
    return [values[i * len(values) // KEPT] for i in range(KEPT)]


def _start(env: gym.Env, scratch: Phone, task_id: str, seed: int) -> Start:
    obs, info = env.reset(seed=seed, options={"task": task_id})
    unwrapped = env.unwrapped
    start = Start(seed, Checkpoint.take(unwrapped, obs, info, 0), unwrapped.episode, dict(info["params"]),
                  json.dumps(unwrapped.device.get_state(), sort_keys=True))
    cls = REGISTRY.refs[task_id].cls
    episode_seed = unwrapped.episode.metadata["seed"]
    scratch.reset_state(episode_seed)  # the phone as the task's set-up leaves it before parameters are drawn
    cls(seed=episode_seed)._prepare(scratch)
    prepared = scratch.get_state()
    names = list(start.truth)
    for name in sampled(task_id):
        earlier = {n: start.truth[n] for n in names[:names.index(name)]}
        domain = parameter_domain(task_id, cls.parameters, name, prepared["apps"], prepared["os"], cls.app_id(), earlier)
        for value in _spread(domain):
            if value != start.truth[name]:
                start.others[_key({**start.truth, name: value})] = (name, value)
    return start


def _play(env: gym.Env, start: Start, params: dict[str, Any]) -> tuple[End, bool]:
    """The oracle plan with ``params`` from the start; where it ended and whether the start's episode paid it.
    A plan that cannot find its target gives up, and the episode completes where it stopped."""
    driver = NotingDriver(env, env.unwrapped.restore(start.checkpoint.snapshot), start.checkpoint.info, params=params)
    try:
        next(p for p in plans_for(start.episode.id) if p.expect_success).fn(driver)
    except Exception:  # noqa: BLE001 - a scripted plan failing on another target is an agent giving up
        pass
    if not driver.done:
        driver.complete()
    end = End(env.unwrapped.answer, apps_without_sheet(env.unwrapped.device.get_state()),
              driver.trace[-1].get("type"), frozenset(driver.read))
    return end, bool(driver.info["judge"]["success"])


def _judged(env: gym.Env, group: list[Start], wanted: dict[str, dict[str, Any]]) -> dict[tuple[int, str], tuple[End, bool]]:
    """(seed, parameter key) -> (end, paid) for the ``wanted`` parameter sets (by key) each start of the group
    wants, each played once from the group's first start (they all start alike)."""
    found = {}
    for key, params in wanted.items():
        end, paid = _play(env, group[0], params)
        for start in group:
            if key == _key(start.truth) or key in start.others:
                verdict = paid if start is group[0] else start.episode.evaluate(end.answer, end.last_action).success
                found[start.seed, key] = (end, verdict)
    return found


def _failures(env: gym.Env, group: list[Start]) -> Iterator[str]:
    """What is wrong on the group's starts: an oracle that is not paid, another target that is."""
    ends = _judged(env, group, {_key(s.truth): s.truth for s in group})
    replayed = {k: json.loads(k) for s in group for k, (name, _) in s.others.items()
                if name in ends[s.seed, _key(s.truth)][0].read}
    ends.update(_judged(env, group, replayed))
    for start in group:
        truth, paid = ends[start.seed, _key(start.truth)]
        if not paid:
            yield f"seed {start.seed}: the oracle plan itself is not paid"
        for key, (name, value) in start.others.items():
            end, paid = ends.get((start.seed, key), (truth, False))  # a parameter the plan never read: its run
            if paid and (end.answer, end.apps) != (truth.answer, truth.apps):
                yield (f"seed {start.seed}: aimed at {name}={value!r} instead of {start.truth[name]!r}, the plan is "
                       f"paid (answer {end.answer!r}; the true target's {truth.answer!r})")


@pytest.fixture(scope="module")
def env() -> Iterator[gym.Env]:
    environment = gym.make("MobileGym-v0", task=TASKS, eval_mode="text", obs_parts=("instruction",))
    yield environment
    environment.close()


@pytest.fixture(scope="module")
def scratch() -> Phone:
    return Phone()


def test_every_sampled_parameter_has_other_values_to_try(env: gym.Env, scratch: Phone) -> None:
    """The domains are enumerated: a sampler over the phone's data offers more than the true value."""
    start = _start(env, scratch, "music.AlbumLengthTimer", 0)
    assert len(start.others) >= 5 and all(d.startswith("album=") for d in start.others.values())


@pytest.mark.parametrize("task_id", TASKS)
def test_no_other_target_is_paid(env: gym.Env, scratch: Phone, task_id: str) -> None:
    groups: dict[str, list[Start]] = {}
    for seed in SEEDS:
        start = _start(env, scratch, task_id, seed)
        groups.setdefault(start.state, []).append(start)
    failures = [failure for group in groups.values() for failure in _failures(env, group)]
    assert not failures, f"{task_id}:\n" + "\n".join(failures)
