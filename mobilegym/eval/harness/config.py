"""The configuration of one evaluation run: which episodes, which agent, which phone, how to run."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping

from ...judge.episode import EVAL_MODES
from ...judge.splits import MANIFESTS
from ...judge.state.side_effects import SIDE_EFFECT_MODES
from ...languages import LANGUAGES

BACKENDS = ("local", "ray")
PROGRESS = ("auto", "on", "off")
SPLITS = MANIFESTS
# options that decide how a run is executed, not what its rows hold: a resumed run may change them
EXECUTION_KEYS = ("workers", "concurrency", "backend", "ray_address", "out", "resume", "rerun_failed", "progress",
                  "env_url", "force_resume")
# agent options (and agent meta keys) that say how to reach the model, not what it answers: they may change too
CONNECTION_KEYS = frozenset({"base_url", "max_concurrency", "timeout_s", "max_retries", "backoff_s", "backoff_max_s",
                             "backoff_delays_s", "api_key_env", "sleep"})


class ConfigError(ValueError):
    """A bad evaluation option; the message names it."""


class PreflightError(RuntimeError):
    """The agent's check before the first episode failed (e.g. its model endpoint is down); nothing ran."""


@dataclass
class EvalConfig:
    """Everything ``mobilegym eval`` needs; ``to_dict`` is what meta.json records.

    Episodes are every selected task x ``sample_n`` parameter instances (reset seeds ``seed`` ..
    ``seed + sample_n - 1``) x each of ``world_seeds`` (or the world the seed implies) x
    ``repeat_n`` repeats of the same instance (for pass@k).
    """

    out: str = "eval_results"
    split: str | None = None
    suites: list[str] = field(default_factory=list)
    tasks: list[str] = field(default_factory=list)
    filters: dict[str, list[str]] = field(default_factory=dict)
    agent: str = "oracle"  # a built-in name, "package.module:Class", or (Python) the class itself
    agent_options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    sample_n: int = 1
    repeat_n: int = 1
    world_seeds: list[int] | None = None
    eval_mode: str = "grounded"
    language: str = "en"
    world: str = "generated"
    shuffle_launcher: bool = False
    side_effects: str = "strict"
    screen_size: tuple[int, int] = (1080, 2400)
    render_scale: float = 1.0
    max_steps: int | None = None
    time_limit_s: float | None = None
    loop_limit: int = 5
    unreadable_limit: int = 3  # end an episode after this many replies in a row that give no action (0: never)
    trajectories: bool = True
    trajectory_scale: float = 0.5
    workers: int = 1
    concurrency: int = 1
    backend: str = "local"
    ray_address: str | None = None
    resume: bool = False
    rerun_failed: bool = False
    progress: str = "auto"
    force_resume: bool = False  # continue the run in ``out`` even if options deciding the rows changed
    env_url: str | None = None  # a `mobilegym serve` server to play on (its token: $MOBILEGYM_SERVE_TOKEN)
    device: str | None = None  # an ADB device to play on: its serial or HOST:PORT (adb server: $ANDROID_ADB_SERVER_PORT)

    def __post_init__(self) -> None:
        if not isinstance(self.agent, str):  # an agent class or factory: recorded as its import path
            self.agent = f"{self.agent.__module__}:{self.agent.__qualname__}"
        self.screen_size = tuple(self.screen_size)  # type: ignore[assignment]
        _choice("split", self.split, (None, *SPLITS))
        _choice("eval_mode", self.eval_mode, EVAL_MODES)
        _choice("language", self.language, tuple(LANGUAGES))
        _choice("world", self.world, ("generated", "canonical"))
        _choice("side_effects", self.side_effects, SIDE_EFFECT_MODES)
        _choice("backend", self.backend, BACKENDS)
        _choice("progress", self.progress, PROGRESS)
        for name in ("sample_n", "repeat_n", "workers", "concurrency"):
            _count(name, getattr(self, name), minimum=1)
        _count("seed", self.seed, minimum=0)
        _count("loop_limit", self.loop_limit, minimum=0)
        _count("unreadable_limit", self.unreadable_limit, minimum=0)
        if self.max_steps is not None:
            _count("max_steps", self.max_steps, minimum=1)
        if self.time_limit_s is not None and not (isinstance(self.time_limit_s, (int, float))
                                                  and not isinstance(self.time_limit_s, bool)
                                                  and 0 < self.time_limit_s < float("inf")):
            raise ConfigError(f"time_limit_s must be a positive number of seconds, got {self.time_limit_s!r}")
        if not (isinstance(self.trajectory_scale, (int, float)) and not isinstance(self.trajectory_scale, bool)
                and 0 < self.trajectory_scale <= 1):
            raise ConfigError(f"trajectory_scale must be in (0, 1], got {self.trajectory_scale!r}")
        if self.world_seeds is not None:
            if not self.world_seeds:
                raise ConfigError("world_seeds must name at least one world seed")
            for seed in self.world_seeds:
                _count("world_seeds", seed, minimum=0)
            if self.world == "canonical":
                raise ConfigError("world_seeds need world='generated' (the canonical world is one fixed phone)")
        if self.backend == "local" and self.ray_address is not None:
            raise ConfigError("ray_address needs backend='ray'")
        if self.force_resume and not self.rerun_failed:
            self.resume = True
        if self.resume and self.rerun_failed:
            raise ConfigError("choose one of resume (skip finished episodes) and rerun_failed (rerun errored ones)")
        if self.device is not None:
            _check_device(self)
        if not isinstance(self.agent_options, Mapping):
            raise ConfigError(f"agent_options must be a mapping, got {self.agent_options!r}")

    def env_kwargs(self, task: Any) -> dict[str, Any]:
        """The ``gym.make("MobileGym-v0", ...)`` keyword arguments of every episode."""
        return {"task": task, "eval_mode": self.eval_mode, "language": self.language, "world": self.world,
                "shuffle_launcher": self.shuffle_launcher, "side_effects": self.side_effects,
                "screen_size": self.screen_size, "render_scale": self.render_scale, "max_steps": self.max_steps,
                "invalid_action": "noop", **({"device": {"serial": self.device}} if self.device else {})}

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def result_options(self) -> dict[str, Any]:
        """The options that decide the rows (a resumed run must keep them): tasks, seeds, phone, budgets, the
        agent and its options but not how it connects (:data:`CONNECTION_KEYS`) nor how the run executes."""
        return result_options(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "EvalConfig":
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown evaluation option(s) {unknown}")
        return cls(**data)


def result_options(config: Mapping[str, Any]) -> dict[str, Any]:
    """:meth:`EvalConfig.result_options` of a configuration as meta.json records it."""
    options = {k: v for k, v in config.items() if k not in EXECUTION_KEYS}
    agent_options = options.get("agent_options")
    if isinstance(agent_options, Mapping):
        options["agent_options"] = {k: v for k, v in agent_options.items() if k not in CONNECTION_KEYS}
    return options


def _check_device(config: EvalConfig) -> None:
    """One ADB phone plays one episode at a time, here."""
    if not isinstance(config.device, str) or not config.device.strip() or any(c.isspace() for c in config.device):
        raise ConfigError(f"device must be an ADB serial or HOST:PORT, got {config.device!r}")
    if config.env_url is not None:
        raise ConfigError("choose one of device (an ADB phone) and env_url (a `mobilegym serve` server)")
    if config.workers != 1 or config.concurrency != 1 or config.backend != "local":
        raise ConfigError("an ADB device plays one episode at a time: device needs workers=1, concurrency=1 and "
                          "backend='local'")


def _choice(name: str, value: Any, options: tuple) -> None:
    if value not in options:
        shown = ", ".join(repr(o) for o in options)
        raise ConfigError(f"{name} must be one of {shown}, got {value!r}")


def _count(name: str, value: Any, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{name} must be an integer >= {minimum}, got {value!r}")
