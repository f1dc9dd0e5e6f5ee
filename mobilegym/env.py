"""MobileGymEnv: a phone as a Gymnasium environment, judged on the episode's last step."""
from __future__ import annotations

import contextlib
import copy
import multiprocessing
import time
import warnings
from dataclasses import dataclass
from typing import Any, ContextManager, Mapping, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.spaces.utils import flatten, flatten_space, unflatten
from gymnasium.vector.utils.shared_memory import create_shared_memory, read_from_shared_memory, write_to_shared_memory
from PIL import Image

from . import screen_text
from .actions import TERMINAL_TYPES, Action, ActionSpace, CoordinateSpace, InvalidAction, parse_action
from .device.base import CAP_SNAPSHOT, CAP_STATE, WORLDS, Device, UnsupportedCapability
from .judge import EVAL_MODES, Episode, JudgeResult, TaskError, resolve_tasks
from .languages import LANGUAGES
from .judge.grounded import ANSWER_SHEET
from .judge.state.side_effects import SIDE_EFFECT_MODES
from .jsoncopy import copy_doc
from .rewards import RewardRule, reward_rule
from .sim.phone import MAX_SCREEN, MIN_SCREEN
from .variation import Variation, VariedPhone, choose, fixed, interruption_patch, parse_variation, settings_patch

OBS_PARTS = ("screenshot", "a11y", "instruction")  # the default observation
ALL_OBS_PARTS = OBS_PARTS + ("text",)
INVALID_ACTION_POLICIES = ("raise", "noop")
MAX_TEXT_OBS = 2_000_000
NO_FIELD = "type: no text field has focus, so the text went nowhere (tap a field first, or give x and y)"


class UnicodeText(spaces.Text):
    """A Text space that accepts any Unicode string up to ``max_length`` (XML, Chinese, emoji)."""

    def __init__(self, max_length: int, min_length: int = 0, seed: int | None = None) -> None:
        super().__init__(max_length=max_length, min_length=min_length, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"


FLATTEN_WARN_ELEMENTS = 1_000_000  # flattening a bigger observation warns: no policy wants such a vector


class ObservationSpace(spaces.Dict):
    """The env's dict observation space; flattening it (FlattenObservation) warns when the vector is huge."""


@flatten_space.register(ObservationSpace)
def _flatten_space_observation(space: ObservationSpace) -> spaces.Box:
    flat = flatten_space.dispatch(spaces.Dict)(space)
    if flat.shape[0] > FLATTEN_WARN_ELEMENTS:
        parts = ", ".join(f"{name} {int(np.prod(flatten_space(part).shape)):,}" for name, part in space.spaces.items())
        warnings.warn(
            f"flattening MobileGym's observation gives a {flat.shape[0]:,}-element {flat.dtype} vector ({parts}). "
            "For a policy, use mobilegym.wrappers.make_sb3_env(task, obs='image'|'multi'|'a11y') or an image-only "
            "observation: SelectObservation(env, 'screenshot') then ResizeObservation/GrayscaleObservation",
            stacklevel=4)
    return flat


# Gymnasium flattens a Text space (FlattenObservation, and the shared memory of async vector envs) into
# indices of its character set, which has no '<'. A UnicodeText flattens into Unicode code points
# instead: flatten gives code point + 1 per character, 0 as padding; shared memory holds the length,
# then the code points (only the text's own length is copied each step, not max_length).
def _codes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32).astype(np.int32)


def _text_of(codes: np.ndarray) -> str:
    return np.asarray(codes, np.uint32).tobytes().decode("utf-32-le", "surrogatepass")


@flatten_space.register(UnicodeText)
def _flatten_space_unicode(space: UnicodeText) -> spaces.Box:
    return spaces.Box(0, 0x110000, (space.max_length,), np.int32)


@flatten.register(UnicodeText)
def _flatten_unicode(space: UnicodeText, x: str) -> np.ndarray:
    out = np.zeros(space.max_length, np.int32)
    out[:len(x)] = _codes(x) + 1
    return out


@unflatten.register(UnicodeText)
def _unflatten_unicode(space: UnicodeText, x: np.ndarray) -> str:
    x = np.asarray(x)
    return _text_of(x[x > 0] - 1)


@create_shared_memory.register(UnicodeText)
def _create_unicode_memory(space: UnicodeText, n: int = 1, ctx: Any = multiprocessing) -> Any:
    return ctx.Array(np.dtype(np.int32).char, n * (space.max_length + 1))


@write_to_shared_memory.register(UnicodeText)
def _write_unicode_memory(space: UnicodeText, index: int, value: str, shared_memory: Any) -> None:
    row = np.frombuffer(shared_memory.get_obj(), np.int32)[index * (space.max_length + 1):][:space.max_length + 1]
    row[0] = len(value)
    row[1:1 + len(value)] = _codes(value)


class SharedTexts(Sequence[str]):
    """The texts of a batch in shared memory, read when indexed. Like the numpy views gymnasium reads
    Box observations into, it follows the memory (an async vector env reads its buffers only once);
    a deep copy (``copy=True``) is a plain tuple."""

    def __init__(self, rows: np.ndarray) -> None:
        self._rows = rows

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self)[index]
        row = self._rows[index]
        return _text_of(row[1:1 + row[0]])

    def __deepcopy__(self, memo: dict) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (tuple, SharedTexts)) and tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r})"


@read_from_shared_memory.register(UnicodeText)
def _read_unicode_memory(space: UnicodeText, shared_memory: Any, n: int = 1) -> SharedTexts:
    return SharedTexts(np.frombuffer(shared_memory.get_obj(), np.int32).reshape(n, space.max_length + 1))


class Timings(Mapping[str, float]):
    """Per-phase wall-clock milliseconds of one step (action, judge, render).

    Host timings are measurements, not episode content: two Timings with the same phases compare
    equal whatever their values, so identical episodes still give identical infos.
    """

    def __init__(self, **phases_ms: float) -> None:
        self._phases = {k: round(v, 3) for k, v in phases_ms.items()}

    def __getitem__(self, key: str) -> float:
        return self._phases[key]

    def __iter__(self) -> Any:
        return iter(self._phases)

    def __len__(self) -> int:
        return len(self._phases)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Timings) and set(self._phases) == set(other._phases)

    def __hash__(self) -> int:
        return hash(frozenset(self._phases))

    def __repr__(self) -> str:
        return f"Timings({self._phases})"


@dataclass(frozen=True)
class EnvSnapshot:
    """An episode frozen mid-way: the phone's snapshot plus the environment's episode counters."""

    device: Any
    episode: Episode
    steps: int
    answer: str | None
    done: bool
    reward_rule: RewardRule


def _choice(name: str, value: Any, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value


def _world_seeds(seeds: Sequence[int] | None) -> Sequence[int] | None:
    """Validate the ``world_seeds`` option: None, or a non-empty sequence of non-negative integers."""
    if seeds is None:
        return None
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence) or len(seeds) == 0 or not all(
            isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s >= 0 for s in seeds):
        raise ValueError(f"world_seeds must be a non-empty sequence (a range or list) of non-negative integers, "
                         f"got {seeds!r}")
    return seeds


def _allow_hosts(hosts: Any) -> tuple[str, ...]:
    """Validate the ``allow_hosts`` option (the download code is imported only when hosts are given)."""
    if isinstance(hosts, tuple) and not hosts:
        return ()
    from .judge.json.setup_actions import check_allow_hosts

    return check_allow_hosts(hosts)


def _check_apps(tasks: Sequence[Any], installed: Mapping[str, Any] | None, eval_mode: str) -> None:
    """A TaskError when a task needs an app the simulated phone does not have (``apps=`` left it out):
    its related apps, and the AnswerSheet for a question in grounded mode."""
    if installed is None:
        return
    from .sim.app import installed_apps

    known = None  # every app id there is ("home" tasks name the launcher, which is no app)
    problems: dict[str, list[str]] = {}
    for ref in tasks:
        meta = getattr(ref, "metadata", {}) or {}
        needed = list(meta.get("related_apps") or ())
        if eval_mode == "grounded" and meta.get("objective") in ("query", "hybrid"):
            needed.append(ANSWER_SHEET)
        missing = [app for app in dict.fromkeys(needed) if app not in installed]
        if missing and known is None:
            known = set(installed_apps())
        missing = [app for app in missing if app in known]
        if missing:
            problems[ref.id] = missing
    if problems:
        shown = "; ".join(f"{task} needs {', '.join(apps)}" for task, apps in list(problems.items())[:5])
        more = f" (and {len(problems) - 5} more task(s))" if len(problems) > 5 else ""
        raise TaskError(f"{len(problems)} task(s) need apps that are not installed on the simulated phone: {shown}"
                        f"{more}. Installed (apps=): {', '.join(sorted(installed)) or 'none'}")


def make_device(device: str | Mapping[str, Any] | Device, *, screen_size: tuple[int, int], render_scale: float,
                language: str, tick_ms: int, shuffle_launcher: bool, apps: Sequence[str] | None,
                world: str = "generated") -> Device:
    """The phone behind the environment: "sim", ADB settings (serial/host/port) or a Device."""
    if device == "sim":
        from .device.sim import SimDevice

        return SimDevice(*screen_size, render_scale=render_scale, language=language, tick_ms=tick_ms,
                     shuffle_launcher=shuffle_launcher, apps=apps, world=world)
    if isinstance(device, Mapping):
        from .device.adb import make_adb_device

        return make_adb_device(dict(device))
    if isinstance(device, Device):
        return device
    raise ValueError(f"device must be 'sim', a dict of ADB settings (serial/host/port) or a Device, got {device!r}")


class MobileGymEnv(gym.Env[dict, dict]):
    """A phone an agent operates through screenshots, an accessibility tree and touch/key actions.

    Args:
        task: a task id ("suite.ClassName"), a task class, a JSON task path, a suite name or a
            list of these; with several, each reset draws one with the reset's seed. None: all tasks.
        device: "sim" (default), ADB settings {"serial", "host", "port"}, or a Device instance.
        eval_mode: "grounded" (answers through the AnswerSheet app) or "text" (the answer action).
        obs_parts: which of "screenshot", "a11y", "instruction" and "text" (the compact screen text:
            one numbered line per element, centres in ``coord_space``) the observation holds.
        screen_size: (width, height) of the simulated screen in pixels.
        render_scale: screenshot scale in (0, 1]; the sim draws small directly.
        coord_space: "pixels" (device pixels), "norm1000" (0-1000) or "norm1" (0-1).
        max_steps: override of the task's step budget.
        invalid_action: "raise" (InvalidAction) or "noop" (ignored, reported in info["last_action_error"]).
        language: "en" or "zh" for the phone's UI.
        reward_mode: "final" (judge score on the last step), "auto_complete" (end with the judge's
            score as soon as the goal holds), "dense" (progress deltas each step, score at the end) or
            "shaped" (dense, penalised for side effects and for ending without an honest "complete":
            see :mod:`mobilegym.shaping`); or a rule of :mod:`mobilegym.rewards` itself (the environment
            keeps a copy, ``env.reward_rule``).
        shaped_penalties: overrides of the shaped reward's penalties (names in
            ``mobilegym.shaping.SHAPED_PENALTIES``); only with reward_mode="shaped".
        side_effects: "strict" (default: a change to the user's data the task did not ask for, such as
            a deleted alarm, fails the task) or "warn" (it is only reported: clean=False, score kept).
        tick_ms: simulated milliseconds that pass per action.
        shuffle_launcher: randomise home-screen icon positions per episode seed.
        apps: install only these app ids on the simulated phone (default: every app).
        world: "generated" (default: every reset starts from a generated phone, its world seed drawn
            from ``world_seeds`` or, without them, the episode's seed) or "canonical" (always the fixed
            world of the apps' defaults.json: stable text for docs and screenshots). The simulated
            phone only; a real device keeps its own data.
        world_seeds: the world seeds resets draw from (e.g. ``range(0, 10_000)`` to train and
            ``range(1_000_000, 1_000_100)`` to test on unseen phones); the reset option
            ``{"world_seed": n}`` picks one.
        allow_hosts: hosts JSON tasks' ``push_file`` may download from while this environment sets up
            and judges its tasks (as ``$MOBILEGYM_ALLOW_HOSTS`` allows them for the whole process): host
            names or addresses (loopback and private ones too), ``*.domain`` or ``*`` (public addresses
            only). Default: none; downloads are off.
        variation: robustness axes varied per episode on the simulated phone (see
            :mod:`mobilegym.variation`): None (default: off), "all", or a mapping of axis ("language",
            "theme", "font_scale", "screen", "launcher", "interruptions") -> "all", a value or a list
            of values. Each reset draws the values from the episode seed and records them in
            ``info["variation"]``; the reset option ``{"variation": {axis: value}}`` fixes them for
            one episode. With "screen", "pixels" coordinates are the episode's device pixels
            (``env.unwrapped.coords``) and the screenshot is scaled to the observation's size.
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}

    def __init__(
        self,
        task: Any = None,
        *,
        device: str | Mapping[str, Any] | Device = "sim",
        eval_mode: str = "grounded",
        obs_parts: Sequence[str] = OBS_PARTS,
        screen_size: tuple[int, int] = (1080, 2400),
        render_scale: float = 1.0,
        coord_space: str = "pixels",
        max_steps: int | None = None,
        invalid_action: str = "raise",
        language: str = "en",
        reward_mode: str | RewardRule = "final",
        side_effects: str = "strict",
        tick_ms: int = 1000,
        shuffle_launcher: bool = False,
        apps: Sequence[str] | None = None,
        render_mode: str | None = None,
        shaped_penalties: Mapping[str, float] | None = None,
        world: str = "generated",
        world_seeds: Sequence[int] | None = None,
        allow_hosts: Sequence[str] = (),
        variation: Mapping[str, Any] | str | None = None,
    ) -> None:
        self.make_kwargs: dict[str, Any] = {name: value for name, value in locals().items() if name != "self"}
        self.eval_mode = _choice("eval_mode", eval_mode, EVAL_MODES)
        self.invalid_action = _choice("invalid_action", invalid_action, INVALID_ACTION_POLICIES)
        self.reward_rule = reward_rule(reward_mode, shaped_penalties)
        self.reward_mode = self.reward_rule.mode
        self.side_effects = _choice("side_effects", side_effects, SIDE_EFFECT_MODES)
        self.language = _choice("language", language, tuple(LANGUAGES))
        if render_mode is not None:
            _choice("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        parts = tuple(obs_parts)
        unknown = [p for p in parts if p not in ALL_OBS_PARTS]
        if unknown or not parts:
            raise ValueError(f"obs_parts must be a non-empty subset of {ALL_OBS_PARTS}, got {parts}")
        self.obs_parts = parts
        if max_steps is not None and (isinstance(max_steps, (bool, np.bool_))
                                      or not isinstance(max_steps, (int, np.integer)) or max_steps < 1):
            raise ValueError(f"max_steps must be a positive integer, got {max_steps!r}")
        self.max_steps_override = None if max_steps is None else int(max_steps)
        if (not isinstance(screen_size, (tuple, list)) or len(screen_size) != 2
                or not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in screen_size)
                or not all(lo <= v <= MAX_SCREEN for v, lo in zip(screen_size, MIN_SCREEN))):
            raise ValueError(f"screen_size must be (width, height) in pixels, from {MIN_SCREEN[0]}x{MIN_SCREEN[1]} "
                             f"to {MAX_SCREEN}x{MAX_SCREEN}, got {screen_size!r}")
        screen_size = (int(screen_size[0]), int(screen_size[1]))
        if (isinstance(render_scale, (bool, np.bool_)) or not isinstance(render_scale, (int, float, np.number))
                or not 0 < render_scale <= 1):
            raise ValueError(f"render_scale must be in (0, 1], got {render_scale!r}")
        self.render_scale = float(render_scale)
        self.world = _choice("world", world, WORLDS)
        self.world_seeds = _world_seeds(world_seeds)
        self.allow_hosts = _allow_hosts(allow_hosts)
        self.tasks = resolve_tasks(task)
        self.device = make_device(device, screen_size=tuple(screen_size), render_scale=self.render_scale,
                                  language=language, tick_ms=tick_ms, shuffle_launcher=shuffle_launcher, apps=apps,
                                  world=self.world)
        # a device whose app state we cannot read (a stock phone) keeps its apps its own business
        _check_apps(self.tasks, getattr(self.device, "apps", None) if CAP_STATE in self.device.capabilities else None,
                    self.eval_mode)
        self.variation = parse_variation(variation)
        # how to make this phone again in another variation: only a simulated phone the environment made itself
        self._phone_options = dict(tick_ms=tick_ms, apps=apps, world=self.world) if device == "sim" else None
        self._base_phone = (tuple(self.device.screen_size), self.language, shuffle_launcher)
        self._phones: dict[tuple[Any, ...], Device] = {self._base_phone: self.device}  # one per variation
        if self.variation is not None:
            self._check_variation(self.variation)
        self._varied: Variation | None = None
        width, height = self.device.screen_size
        self.coords = CoordinateSpace(coord_space, (width, height))
        self.frame_size = (max(1, round(width * self.render_scale)), max(1, round(height * self.render_scale)))
        obs_spaces: dict[str, spaces.Space] = {
            "screenshot": spaces.Box(0, 255, (self.frame_size[1], self.frame_size[0], 3), np.uint8),
            "a11y": UnicodeText(MAX_TEXT_OBS),
            "instruction": UnicodeText(MAX_TEXT_OBS),
            "text": UnicodeText(MAX_TEXT_OBS),
        }
        self.observation_space = ObservationSpace({p: obs_spaces[p] for p in parts})
        apps = list(getattr(self.device, "apps", {}) or ["settings"])
        self.action_space = ActionSpace(self.coords, apps=apps)
        from .torchrl_specs import register_if_imported

        register_if_imported()  # torchrl's GymEnv converts the spaces right after building the env
        self.episode: Episode | None = None
        self.steps = 0
        self.answer: str | None = None
        self._done = False
        self._left = True  # whether the episode was torn down (or there is none)

    # gymnasium API ---------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        options = dict(options or {})
        task_id = options.pop("task", None)
        world_seed = options.pop("world_seed", None)
        fixed_variation = options.pop("variation", None)
        if options:
            raise ValueError(f"unknown reset option(s) {sorted(options)}; supported: 'task', 'world_seed', 'variation'")
        ref = self._pick_task(task_id)
        episode_seed = int(self.np_random.integers(2**31 - 1))
        if world_seed is None:
            world_seed = (episode_seed if self.world_seeds is None
                          else self.world_seeds[int(self.np_random.integers(len(self.world_seeds)))])
        elif isinstance(world_seed, bool) or not isinstance(world_seed, (int, np.integer)) or world_seed < 0:
            raise ValueError(f"reset option world_seed must be a non-negative integer, got {world_seed!r}")
        self._varied = None
        if fixed_variation is not None:
            self._varied = self._fixed_variation(fixed_variation, episode_seed)
        elif self.variation is not None:
            self._varied = choose(self.variation, episode_seed)
        device, language = self._vary(self._varied) if len(self._phones) > 1 or self._varied else (
            self.device, self.language)
        with self._downloads():
            left_error = self._leave()
            self.episode = ref.start(device, seed=episode_seed, eval_mode=self.eval_mode,
                                     language=language, side_effects=self.side_effects,
                                     world_seed=int(world_seed), spread_seed=seed)
            self.reward_rule.reset(self.episode)
        self.steps = 0
        self.answer = None
        self._done = self._left = False
        started = time.perf_counter()
        obs = self.observe()
        info = self._info(render_ms=(time.perf_counter() - started) * 1000)
        if left_error is not None:
            info["tear_down_error"] = left_error
        return obs, info

    def step(self, action: Mapping[str, Any] | Action) -> tuple[dict, float, bool, bool, dict]:
        if self.episode is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode has ended; call reset() to start a new one")
        timings: dict[str, float] = {}
        started = time.perf_counter()
        error = None
        try:
            parsed = parse_action(action, self.coords)
            error = self._perform(parsed)
        except InvalidAction as exc:
            if self.invalid_action == "raise":
                raise
            parsed, error = None, str(exc)
        timings["action_ms"] = (time.perf_counter() - started) * 1000
        self.steps += 1
        kind = parsed.type if parsed is not None else None
        terminated = kind in TERMINAL_TYPES
        truncated = not terminated and self.steps >= self.max_steps
        if self._varied is not None and self._varied.interruption_steps and not (terminated or truncated):
            self._interrupt()  # nothing comes over the screen of an episode that has ended
        result = None
        started = time.perf_counter()
        with self._downloads():  # a JSON task's postconfig runs as it is judged
            if not (terminated or truncated) and self.reward_rule.ends_early(self.episode, self.answer):
                terminated, kind = True, "complete"
            if terminated or truncated:
                result = self.episode.evaluate(answer=self.answer, last_action=kind)
                reward = self.reward_rule.last(result, kind, truncated)
            else:
                reward = self.reward_rule.step(self.episode, self.answer)
        timings["judge_ms"] = (time.perf_counter() - started) * 1000
        self._done = terminated or truncated
        started = time.perf_counter()
        obs = self.observe()
        timings["render_ms"] = (time.perf_counter() - started) * 1000
        info = self._info(**timings)
        if error is not None:
            info["last_action_error"] = error
        if result is not None:
            info["judge"] = result.to_dict()
            info["task_error"] = result.error
        return obs, reward, terminated, truncated, info

    def render(self) -> np.ndarray | str | None:
        if self.render_mode == "rgb_array":
            return self._screenshot()
        if self.render_mode == "ansi":
            return f"{self.device.current_app()} {self.device.current_route()}\n{screen_text.describe(self.device.a11y_xml())}\n"
        return None

    def close(self) -> None:
        """Tear the episode down (a broken tear-down warns) and close the phones."""
        try:
            self._leave()
        finally:
            for phone in self._phones.values():
                phone.close()

    def _leave(self) -> str | None:
        """Tear the current episode down, once. A broken tear-down is the task's error: it warns (RuntimeWarning)
        and its message is returned, so the next episode still starts."""
        if self._left or self.episode is None:
            return None
        self._left = True
        try:
            self.episode.tear_down()
        except TaskError as exc:
            warnings.warn(str(exc), RuntimeWarning, stacklevel=3)
            return str(exc)
        return None

    # helpers ----------------------------------------------------------------------
    @property
    def max_steps(self) -> int:
        """The step budget of the current episode."""
        if self.max_steps_override is not None:
            return self.max_steps_override
        if self.episode is None:
            raise RuntimeError("no episode yet: call reset()")
        return self.episode.max_steps

    @property
    def instruction(self) -> str:
        if self.episode is None:
            raise RuntimeError("no episode yet: call reset()")
        return self.episode.instruction

    def snapshot(self) -> EnvSnapshot:
        """Freeze the episode (phone and step count) to fork rollouts from it, e.g. for GRPO or search."""
        if self.episode is None:
            raise RuntimeError("no episode yet: call reset()")
        if CAP_SNAPSHOT not in self.device.capabilities:
            raise UnsupportedCapability(f"{type(self.device).__name__} cannot snapshot (needs '{CAP_SNAPSHOT}')")
        return EnvSnapshot(self.device.snapshot(), copy.copy(self.episode), self.steps, self.answer, self._done,
                           self.reward_rule.copy())

    def fork(self, n: int = 1) -> list[MobileGymEnv]:
        """``n`` new, independent environments in this one's exact state (phone, world, screens, clock,
        episode, judge, step count, random generators), e.g. for GRPO groups or tree search. Each has a phone
        of its own: stepping one moves neither the others nor this one. Wrappers are not copied."""
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"fork needs a positive number of environments, got {n!r}")
        if self.episode is None:
            raise RuntimeError("no episode yet: call reset() before fork()")
        if CAP_SNAPSHOT not in self.device.capabilities:
            raise UnsupportedCapability(f"{type(self.device).__name__} cannot fork (needs '{CAP_SNAPSHOT}')")
        return [self._twin() for _ in range(int(n))]

    def _twin(self) -> MobileGymEnv:
        twin = copy.copy(self)
        twin.device = self.device.fork()
        key = next(key for key, phone in self._phones.items() if phone is self.device)
        twin._phones = {key: twin.device}  # the other variations' phones are made again when an episode needs them
        twin.episode = self.episode.on(twin.device)
        twin.reward_rule = self.reward_rule.copy()
        twin._np_random = copy.deepcopy(self._np_random)
        twin.action_space = copy.deepcopy(self.action_space)
        twin.observation_space = copy.deepcopy(self.observation_space)
        return twin

    def restore(self, snapshot: EnvSnapshot) -> dict[str, Any]:
        """Return to a snapshot of this environment; returns the observation there."""
        self.device.restore(snapshot.device)
        # each restore gets its own copy: an episode keeps state as it is judged (a JSON task's postconfig ran)
        self.episode, self.steps, self.answer = copy.copy(snapshot.episode), snapshot.steps, snapshot.answer
        self._done, self.reward_rule = snapshot.done, snapshot.reward_rule.copy()
        self._left = False  # the snapshot's episode is the one to tear down now
        return self.observe()

    def judge_now(self) -> JudgeResult:
        """Judge the phone as it is now (without ending the episode)."""
        if self.episode is None:
            raise RuntimeError("no episode yet: call reset()")
        with self._downloads():
            return self.episode.evaluate(answer=self.answer, last_action=None)

    def _downloads(self) -> ContextManager[None]:
        """Downloads from ``allow_hosts`` allowed for the block (task setup and judging)."""
        if not self.allow_hosts:
            return contextlib.nullcontext()
        from .judge.json.setup_actions import download_hosts

        return download_hosts(self.allow_hosts)

    def _check_variation(self, spec: Mapping[str, Any]) -> None:
        """A ValueError when the variation cannot be applied to this environment's device."""
        if self._phone_options is None:
            raise ValueError("variation needs the simulated phone (device='sim'); a real device keeps its own settings")
        if any(axis in spec for axis in ("theme", "font_scale")) and "settings" not in self.device.apps:
            raise ValueError("variation of theme or font_scale needs the Settings app installed (apps=)")

    def _fixed_variation(self, values: Any, seed: int) -> Variation:
        if not isinstance(values, Mapping):
            raise ValueError(f"reset option variation must be a mapping of axis -> value, got {values!r}")
        variation = fixed(values, seed)
        self._check_variation(variation.values)
        return variation

    def _vary(self, variation: Variation | None) -> tuple[Any, str]:
        """Put the phone of the variation's screen, language and launcher in place (made once, then
        kept; no variation: the environment's own phone); returns the device the episode sets up on
        and the episode's language, which ``self.language`` follows."""
        values = variation.values if variation is not None else {}
        size = variation.screen_size() if variation is not None and "screen" in values else self._base_phone[0]
        language = values.get("language", self._base_phone[1])
        self.language = language  # what the phone shows this episode (oracle plans read it)
        shuffle = values["launcher"] == "shuffled" if "launcher" in values else self._base_phone[2]
        key = (size, language, shuffle)
        if key not in self._phones:
            from .device.sim import SimDevice

            scale = self.render_scale if size == self._base_phone[0] else min(1.0, self.frame_size[0] / size[0])
            self._phones[key] = SimDevice(*size, render_scale=scale, language=language, shuffle_launcher=shuffle,
                                      **self._phone_options)
        phone = self._phones[key]
        if phone is not self.device:
            self.device = phone
            self.coords = CoordinateSpace(self.coords.name, phone.screen_size)
            self.action_space = ActionSpace(self.coords, apps=list(phone.apps))
        patch = settings_patch(variation) if variation is not None else {}
        return (VariedPhone(phone, patch) if patch else phone), language

    def _interrupt(self) -> None:
        """Show the variation's interruption after this step, if one is due (a toast goes with the next input,
        a heads-up notification after a few seconds; a call or a permission request stays until put away)."""
        assert self._varied is not None and self.episode is not None
        if self.steps not in self._varied.interruption_steps:
            return
        patch = interruption_patch(self._varied, self.steps, self.device.get_state())
        if patch is not None:
            self.device.set_state(patch)

    def _pick_task(self, task_id: str | None) -> Any:
        if task_id is not None:
            matches = [ref for ref in self.tasks if ref.id == task_id]
            if not matches:
                raise TaskError(f"reset option task={task_id!r} is not among this environment's {len(self.tasks)} task(s)")
            return matches[0]
        return self.tasks[int(self.np_random.integers(len(self.tasks)))]

    def _perform(self, action: Action) -> str | None:
        """Carry out a valid action; returns a note for ``info["last_action_error"]`` when it reached nothing."""
        device, args = self.device, action.args
        kind = action.type
        if kind in ("tap", "double_tap"):
            getattr(device, kind)(args["x"], args["y"])
        elif kind == "long_press":
            device.long_press(args["x"], args["y"], args["duration_ms"])
        elif kind == "swipe":
            device.swipe(args["x"], args["y"], args["x2"], args["y2"], args["duration_ms"])
        elif kind == "drag":
            device.drag(args["x"], args["y"], args["x2"], args["y2"])
        elif kind == "type":
            if args["x"] is not None:
                device.tap(args["x"], args["y"])
            if device.type_text(args["text"], clear=args["clear"]) is False:
                return NO_FIELD
        elif kind == "key":
            device.key(args["key"])
        elif kind == "open_app":
            try:
                device.open_app(args["app"])
            except ValueError as exc:
                raise InvalidAction(f"open_app: {exc}") from None
        elif kind == "wait":
            device.wait(args["seconds"])
        elif kind == "answer":
            self.answer = args["text"]
        elif kind in TERMINAL_TYPES and args.get("text") is not None and self.answer is None:
            self.answer = args["text"]
        return None

    def _screenshot(self) -> np.ndarray:
        shot = self.device.screenshot()
        if shot.shape[:2] != (self.frame_size[1], self.frame_size[0]):
            shot = np.asarray(Image.fromarray(shot).resize(self.frame_size, Image.BILINEAR))
        return shot

    def observe(self) -> dict[str, Any]:
        """The observation of the phone as it is now (what reset and step return)."""
        obs: dict[str, Any] = {}
        parts = self.obs_parts
        if "screenshot" in parts:
            obs["screenshot"] = self._screenshot()
        if "a11y" in parts or "text" in parts:
            xml = self.device.a11y_xml()
            if "a11y" in parts:
                obs["a11y"] = xml
            if "text" in parts:
                obs["text"] = screen_text.indexed_text(xml, point=self._text_point, screen=self.device.screen_size)
        if "instruction" in parts:
            obs["instruction"] = self.instruction
        return obs

    def _text_point(self, x: int, y: int) -> str:
        """A centre in the text observation, in the agent's coordinate space."""
        coords = self.coords
        mx, my = coords.from_device(x, "x"), coords.from_device(y, "y")
        return f"({mx:.3f},{my:.3f})" if coords.name == "norm1" else f"({round(mx)},{round(my)})"

    def _info(self, **timings: float) -> dict[str, Any]:
        assert self.episode is not None
        return {
            "task_id": self.episode.id,
            "params": copy_doc(self.episode.params),
            "world_seed": None if self.world == "canonical" else self.episode.metadata.get("world_seed"),
            "step": self.steps,
            "max_steps": self.max_steps,
            "app": self.device.current_app(),
            "route": self.device.current_route(),
            "timings": Timings(**timings),
            **({"variation": self._varied.to_info()} if self._varied is not None else {}),
        }
