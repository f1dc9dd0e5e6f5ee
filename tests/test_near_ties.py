"""No near-ties: the oracle plan aimed at any other target is not paid on the true episode.

For every task with a sampled target (a ``source`` or ``sampler`` parameter) and reset seeds 0-2, each
other value of each such parameter is handed to the task's oracle plan as a Driver ``params`` override,
forked from a checkpoint taken after reset, and the true episode judges where it ends. The other values are
the parameter's whole domain on the phone after the task's set-up, given the true values of the parameters
declared before it (:func:`mobilegym.judge.python.params.parameter_domain`: a list, a source's items, or every
value a sampler returns over all outcomes of its random draws). The judge must not pay another target
unless it ended as the true oracle did (the same answer text and the same final app data): a paid one means
the sampler picked a target within a check's tolerance of another candidate's, which samplers exclude with
:func:`mobilegym.judge.python.params.unambiguous`.

To stay within about a minute on two cores:
- text mode only: a task without an answer is the same in both modes, and both read answers alike;
- a domain of over GENERATED values holds generated values (time slots, fresh phone numbers and e-mail
  addresses, pairs of contacts), not targets read from the phone: KEPT evenly spaced values are tried, and
  samplers are enumerated over their first ``DOMAIN_DRAWS`` (512) draw sequences;
- a plan acts on the screen and on the parameters it reads only: another value of a parameter the true
  run never read would replay that run exactly, so it is not played;
- seeds whose episodes start in the same phone state share each plan run, and every such seed's episode
  judges its end.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Iterator

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.eval.runs import apps_without_sheet
from mobilegym.judge import Episode, TaskError, default_registry
from mobilegym.judge.python.params import every_draw, parameter_domain, unambiguous
from mobilegym.oracle import Checkpoint, Driver, plans_for
from mobilegym.device.sim import SimDevice
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

    def wants(self, key: str) -> bool:
        return key == _key(self.truth) or key in self.others


@dataclass(frozen=True)
class End:
    """Where a plan run ended: its answer, the apps (kept only when some start paid it), the parameters it read."""

    answer: str | None
    apps: dict[str, Any] | None
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
    cls(seed=episode_seed).set_up(scratch)
    prepared = scratch.get_state()
    names = list(start.truth)
    for name in sampled(task_id):
        earlier = {n: start.truth[n] for n in names[:names.index(name)]}
        domain = parameter_domain(task_id, cls.parameters, name, prepared["apps"], prepared["os"], cls.app_id(),
                                  earlier)
        for value in _spread(domain):
            if value != start.truth[name]:
                start.others[_key({**start.truth, name: value})] = (name, value)
    return start


def _play(env: gym.Env, start: Start, params: dict[str, Any]) -> NotingDriver:
    """The oracle plan with ``params`` from the start, to the end of the episode. A plan that cannot find its
    target gives up, and the episode completes where it stopped."""
    driver = NotingDriver(env, env.unwrapped.restore(start.checkpoint.snapshot), start.checkpoint.info, params=params)
    try:
        next(p for p in plans_for(start.episode.id) if p.expect_success).fn(driver)
    except Exception:  # noqa: BLE001 - a scripted plan failing on another target is an agent giving up
        pass
    if not driver.done:
        driver.complete()
    return driver


Verdicts = dict[tuple[int, str], tuple[End, bool]]


def _judged(env: gym.Env, group: list[Start], wanted: dict[str, dict[str, Any]]) -> Verdicts:
    """(seed, parameter key) -> (end, paid) for the ``wanted`` parameter sets (by key) of the group's starts,
    each played once from the group's first start (they all start alike) and judged by every start wanting it."""
    found = {}
    for key, params in wanted.items():
        driver = _play(env, group[0], params)
        answer, last_action = env.unwrapped.answer, driver.trace[-1].get("type")
        paid = {s.seed: bool(driver.info["judge"]["success"]) if s is group[0]
                else s.episode.evaluate(answer, last_action).success for s in group if s.wants(key)}
        kept = any(paid.values()) or any(key == _key(s.truth) for s in group)
        apps = apps_without_sheet(env.unwrapped.device.get_state()) if kept else None
        end = End(answer, apps, frozenset(driver.read))
        found.update({(seed, key): (end, verdict) for seed, verdict in paid.items()})
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
            end, paid = ends.get((start.seed, key), (truth, False))  # unread: the truth's run, not a failure
            if paid and (end.answer, end.apps) != (truth.answer, truth.apps):
                yield (f"seed {start.seed}: aimed at {name}={value!r} instead of {start.truth[name]!r}, the plan is "
                       f"paid (answer {end.answer!r}; the true target's {truth.answer!r})")


def near_ties(env: gym.Env, scratch: Phone, task_id: str) -> list[str]:
    """Every failure of the task on SEEDS."""
    groups: dict[str, list[Start]] = {}
    for seed in SEEDS:
        start = _start(env, scratch, task_id, seed)
        groups.setdefault(start.state, []).append(start)
    return [failure for group in groups.values() for failure in _failures(env, group)]


@pytest.fixture(scope="module")
def env() -> Iterator[gym.Env]:
    environment = gym.make("MobileGym-v0", task=TASKS, eval_mode="text", obs_parts=("instruction",))
    yield environment
    environment.close()


@pytest.fixture(scope="module")
def scratch() -> Phone:
    return SimDevice()


@pytest.mark.parametrize("task_id", TASKS)
def test_no_other_target_is_paid(env: gym.Env, scratch: Phone, task_id: str) -> None:
    failures = near_ties(env, scratch, task_id)
    assert not failures, f"{task_id}:\n" + "\n".join(failures)


def _any_album(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
    album = rng.choice(state["albums"])
    return {"id": album["id"], "title": album["title"],
            "artist": next(a["name"] for a in state["artists"] if a["id"] == album["artist_id"])}


def test_a_near_tie_is_caught(env: gym.Env, scratch: Phone, monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing any album, AlbumLengthTimer may pick one within the tolerance of another: that one's timer is paid."""
    cls = REGISTRY.refs["music.AlbumLengthTimer"].cls
    monkeypatch.setitem(cls.parameters, "album", {"sampler": _any_album})
    failures = near_ties(env, scratch, "music.AlbumLengthTimer")
    assert any("aimed at album=" in f and "the plan is paid" in f for f in failures), failures


def test_a_run_notes_the_parameters_its_plan_reads(env: gym.Env, scratch: Phone) -> None:
    """AddRecommendedSong's oracle reads the song off the contact's message: other songs would replay its run."""
    start = _start(env, scratch, "music.AddRecommendedSong", 0)
    assert _play(env, start, start.truth).read == {"name", "playlist"}


def test_the_domain_is_every_candidate_after_set_up(env: gym.Env, scratch: Phone) -> None:
    start = _start(env, scratch, "clock.DeleteAlarmAndCount", 0)
    labels = [a["label"] for a in scratch.get_state()["apps"]["clock"]["alarms"]]
    assert sorted(value for _, value in start.others.values()) == sorted(set(labels) - {start.truth["label"]})


# --- the helpers: parameter_domain, every_draw, unambiguous ----------------------------------------------------

def _two_draws(rng: random.Random, state: dict[str, Any]) -> str:
    first = rng.choice(state["letters"])
    return first + (rng.choice("xy") if first == "a" else "")


DOMAIN_CASES = [
    ({"values": {"Low": 0, "High": 2}}, [0, 2]),
    ({"type": "bool"}, [True, False]),
    ({"min": 1, "max": 7, "step": 3}, [1, 4, 7]),
    ({"default": "Work"}, ["Work"]),
    ({"source": ".items[*].name"}, ["one", "two"]),
    ({"source": ".items", "fields": ["name"]}, [{"name": "one"}, {"name": "two"}]),
    ({"sampler": _two_draws}, ["ax", "ay", "b", "c"]),
]


@pytest.mark.parametrize("spec, expected", DOMAIN_CASES)
def test_parameter_domain_lists_every_value_once(spec: dict[str, Any], expected: list[Any]) -> None:
    apps = {"app": {"items": [{"name": "one"}, {"name": "two"}, {"name": "one"}], "letters": "abc"}}
    assert parameter_domain("t", {"p": spec}, "p", apps, {}, "app", {}) == expected


def test_parameter_domain_cuts_a_huge_sampler_at_its_limit() -> None:
    spec = {"sampler": lambda rng, state: rng.randint(0, 10**6)}
    assert parameter_domain("t", {"p": spec}, "p", {"app": {}}, {}, "app", {}, limit=5) == [0, 1, 2, 3, 4]


def test_a_retrying_sampler_has_the_values_it_accepts() -> None:
    def retry(rng: random.Random, state: dict[str, Any]) -> int:
        while True:
            if (drawn := rng.randrange(3)) == 2:
                return drawn

    assert parameter_domain("t", {"p": {"sampler": retry}}, "p", {"app": {}}, {}, "app", {}) == [2]


def test_a_sampler_of_floats_or_without_end_has_no_domain() -> None:
    def endless(rng: random.Random, state: dict[str, Any]) -> int:
        while True:
            rng.randrange(2)

    for sampler, error in ((lambda rng, state: rng.uniform(0, 1), "floats"), (endless, "no value")):
        with pytest.raises(TaskError, match=rf"t: parameter 'p' .*{error}"):
            parameter_domain("t", {"p": {"sampler": sampler}}, "p", {"app": {}}, {}, "app", {}, limit=50)


def test_every_draw_follows_every_branch() -> None:
    found = every_draw(lambda rng: tuple(rng.sample(range(3), 2)), 100)
    assert sorted(found) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]


def test_unambiguous_keeps_the_items_apart_from_every_other() -> None:
    lengths = {"a": 880, "b": 889, "c": 1098, "d": 1150, "e": 1460, "f": 1460, "g": 1288}
    assert unambiguous(list(lengths), lengths.get, 60) == ["g"]
    assert unambiguous(list(lengths), lengths.get, 8) == ["a", "b", "c", "d", "g"]
    assert unambiguous(list(lengths), lengths.get, 9) == ["c", "d", "g"]  # inclusive, as the checks' tolerances
    assert unambiguous([3, 1437, 720], float, 6, period=1440) == [720]  # 00:03 and 23:57 are 6 minutes apart
    assert unambiguous([3, 1437, 720], float, 5, period=1440) == [3, 1437, 720]
