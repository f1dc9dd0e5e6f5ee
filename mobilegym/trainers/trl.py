"""The phone as a TRL ``environment_factory`` for ``GRPOTrainer``.

``GRPOTrainer(environment_factory=PhoneToolEnv, reward_funcs=judge_reward, train_dataset=trl_dataset(pairs))``:
TRL builds one ``PhoneToolEnv()`` per rollout, calls ``reset(**row)`` (the row's ``task`` and ``seed``
pick the phone, so the ``num_generations`` copies of a row start from the identical phone), exposes
the public methods (tap, swipe, type, key, open_app, answer, complete) as tools, and after the
rollout ``judge_reward`` reads each env's judge. Configure the phone with
``PhoneToolEnv.configure(render_scale=0.1, images=False, ...)``, which returns a subclass (TRL needs a
no-argument constructor).
"""
from __future__ import annotations

from typing import Any, ClassVar, Iterable

import gymnasium as gym

import mobilegym  # registers MobileGym-v0

EXTRA = "pip install 'mobilegym[trl]'"
SYSTEM_PROMPT = (
    "You operate an Android phone to do the user's task. Call exactly one tool per turn; each tool returns the "
    "new screen. Coordinates run from 0 to 1000 across the screen's width (x) and height (y); the screen text "
    "lists each element's number, label and centre. When the task is done, call complete (with the answer, if "
    "the task asks a question).")
USER_LEAD = "Here is the phone."
BASE_MAKE_KWARGS: dict[str, Any] = {"obs_parts": ("screenshot", "instruction", "text"), "coord_space": "norm1000",
                                    "invalid_action": "noop", "disable_env_checker": True}
FIXED = ("coord_space", "invalid_action", "obs_parts")  # what the tool docstrings and observations rely on


def require(module: str) -> Any:
    """Import an optional dependency of the TRL integration, naming the extra when it is missing."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"the TRL integration needs {module!r}: {EXTRA}") from exc


class PhoneToolEnv:
    """One MobileGym phone behind TRL's tool-calling loop (one instance per rollout, reused across batches).

    ``reset(task=..., seed=...)`` starts the episode and returns the first observation: the task, the
    step budget and the screen text (with ``images=True`` a list of content blocks whose first is the
    screenshot as a PIL image). Each tool steps the phone once and returns the new observation the
    same way; an action the phone rejects is told back (the step counts), and after the episode ends
    the tools only say so. ``reward`` is what :func:`judge_reward` pays.
    """

    make_kwargs: ClassVar[dict[str, Any]] = {"render_scale": 0.1}
    images: ClassVar[bool] = False

    @classmethod
    def configure(cls, *, images: bool = False, **make_kwargs: Any) -> type["PhoneToolEnv"]:
        """A subclass whose phones are ``gym.make("MobileGym-v0", **make_kwargs)`` (``task`` comes from
        the dataset row); ``images=True`` puts the screenshot in every observation (for VLMs)."""
        fixed = sorted(set(make_kwargs) & {"task", *FIXED})
        if fixed:
            raise ValueError(f"PhoneToolEnv.configure: {', '.join(fixed)} cannot be set here (the task comes from "
                             "the dataset row; the tools take 0-1000 coordinates and report rejected actions)")
        if not isinstance(images, bool):
            raise TypeError(f"images must be True or False, got {images!r}")
        return type(cls.__name__, (cls,), {"make_kwargs": {**cls.make_kwargs, **make_kwargs}, "images": images,
                                           "__module__": cls.__module__})

    def __init__(self) -> None:
        self._env: gym.Env | None = None
        self._key: tuple[Any, ...] | None = None
        self._obs: dict[str, Any] | None = None
        self._done = True
        self._return = 0.0
        self._judge: dict[str, Any] | None = None
        self._steps = 0
        self.actions: list[dict[str, Any]] = []

    # episode ------------------------------------------------------------------------------------------------
    def reset(self, task: str | None = None, seed: int | None = None, **row: Any) -> str | list[dict[str, Any]]:
        """Start the episode of the dataset row (its ``task`` id and ``seed``; other columns such as
        ``prompt`` are TRL's) and return its first observation."""
        if not isinstance(task, str) or not task:
            raise ValueError(f"a PhoneToolEnv row needs a 'task' column with a task id, got {task!r} "
                             "(build rows with trl_dataset)")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a PhoneToolEnv row needs a 'seed' column with an int >= 0, got {seed!r}")
        key = (task, tuple(sorted((k, repr(v)) for k, v in self.make_kwargs.items())))
        if self._env is None or key != self._key:
            self._close()
            self._env = gym.make(mobilegym.ENV_ID, **{**self.make_kwargs, **BASE_MAKE_KWARGS, "task": task})
            self._key = key
        self._obs, _ = self._env.reset(seed=seed)
        self._done, self._return, self._judge, self._steps = False, 0.0, None, 0
        self.actions = []
        return self._observation(f"Task: {self._obs['instruction']}")

    @property
    def done(self) -> bool:
        """Whether the episode ended (complete, abort or the step budget)."""
        return self._done

    @property
    def judge(self) -> dict[str, Any] | None:
        """The judge's result of the last step, once the episode ended (success, score, checks ...)."""
        return self._judge

    @property
    def reward(self) -> float:
        """The rollout's reward: the sum of the env's step rewards (the judge's score on the last step).
        A rollout that stopped calling tools before the episode ended is judged as the phone stands,
        as at the step budget (in the reward modes where only the last step pays)."""
        if self._env is None:
            raise RuntimeError("no episode: TRL calls reset() before the tools")
        if self._done or self._env.unwrapped.reward_rule.pays_every_step:
            return self._return
        result = self._env.unwrapped.judge_now()
        self._judge = result.to_dict()
        return self._return + float(result.score)

    # tools --------------------------------------------------------------------------------------------------
    def tap(self, x: int, y: int) -> str | list[dict[str, Any]]:
        """Tap the screen at a point.

        Args:
            x: horizontal position, 0 (left edge) to 1000 (right edge).
            y: vertical position, 0 (top edge) to 1000 (bottom edge).

        Returns:
            The new screen.
        """
        return self._act({"type": "tap", "x": x, "y": y})

    def swipe(self, x: int, y: int, x2: int, y2: int) -> str | list[dict[str, Any]]:
        """Swipe from one point to another, e.g. from low to high on the screen to scroll down a list.

        Args:
            x: start x, 0 to 1000.
            y: start y, 0 to 1000.
            x2: end x, 0 to 1000.
            y2: end y, 0 to 1000.

        Returns:
            The new screen.
        """
        return self._act({"type": "swipe", "x": x, "y": y, "x2": x2, "y2": y2})

    def type(self, text: str) -> str | list[dict[str, Any]]:
        """Type text into the focused text field (tap the field first).

        Args:
            text: the text to enter.

        Returns:
            The new screen.
        """
        return self._act({"type": "type", "text": text})

    def key(self, key: str) -> str | list[dict[str, Any]]:
        """Press a system key.

        Args:
            key: one of back, home, recent, enter, delete.

        Returns:
            The new screen.
        """
        return self._act({"type": "key", "key": key})

    def open_app(self, app: str) -> str | list[dict[str, Any]]:
        """Open an app by its name, e.g. Clock.

        Args:
            app: the app's display name or id.

        Returns:
            The new screen.
        """
        return self._act({"type": "open_app", "app": app})

    def answer(self, text: str) -> str | list[dict[str, Any]]:
        """Record the answer to the task's question without ending the task.

        Args:
            text: the answer.

        Returns:
            The new screen.
        """
        return self._act({"type": "answer", "text": text})

    def complete(self, text: str = "") -> str | list[dict[str, Any]]:
        """Declare the task done; this ends the episode.

        Args:
            text: the answer, if the task asks a question (else leave empty).

        Returns:
            The outcome.
        """
        return self._act({"type": "complete", "text": text} if text else {"type": "complete"})

    # helpers ------------------------------------------------------------------------------------------------
    def _act(self, action: dict[str, Any]) -> str | list[dict[str, Any]]:
        if self._env is None or self._obs is None:
            raise RuntimeError("no episode: TRL calls reset() before the tools")
        if self._done:
            return "The episode has ended; call no more tools."
        self._obs, reward, terminated, truncated, info = self._env.step(action)
        self._steps += 1
        self._return += float(reward)
        self.actions.append(action)
        notes = []
        if info.get("last_action_error"):
            notes.append(f"The phone rejected the action: {info['last_action_error']}")
        if terminated or truncated:
            self._done, self._judge = True, info.get("judge")
            notes.append("The episode has ended" + (" (step budget used up)" if truncated else "")
                         + "; call no more tools.")
            return "\n".join(notes)
        return self._observation("\n".join(notes))

    def _observation(self, lead: str) -> str | list[dict[str, Any]]:
        assert self._env is not None and self._obs is not None
        budget = self._env.unwrapped.max_steps
        text = "\n".join(part for part in (lead, f"Step {self._steps + 1} of at most {budget}.",
                                           "Screen:", self._obs["text"]) if part)
        if not self.images:
            return text
        from PIL import Image

        return [{"type": "image", "image": Image.fromarray(self._obs["screenshot"])}, {"type": "text", "text": text}]

    def _close(self) -> None:
        if self._env is not None:
            self._env.close()
            self._env = None


def judge_reward(environments: list[PhoneToolEnv], **kwargs: Any) -> list[float]:
    """TRL reward function: each rollout's :attr:`PhoneToolEnv.reward` (the judge's score)."""
    if environments is None:
        raise ValueError("judge_reward reads the environments: use it with GRPOTrainer(environment_factory=...)")
    return [env.reward for env in environments]


def trl_dataset(pairs: Iterable[tuple[str, int]], *, system_prompt: str = SYSTEM_PROMPT) -> Any:
    """A ``datasets.Dataset`` with one row per (task id, seed) pair: ``prompt`` (system prompt and a
    short user turn that ``reset`` completes with the observation), ``task`` and ``seed``. TRL repeats
    each row ``num_generations`` times; every copy resets to the identical phone."""
    datasets = require("datasets")
    rows: dict[str, list[Any]] = {"prompt": [], "task": [], "seed": []}
    for pair in pairs:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise ValueError(f"trl_dataset takes (task id, seed) pairs, got {pair!r}")
        task, seed = pair
        if not isinstance(task, str) or not task:
            raise ValueError(f"a task must be a task id such as 'clock.CountAlarms', got {task!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a seed must be an int >= 0, got {seed!r} (task {task})")
        rows["prompt"].append([{"role": "system", "content": system_prompt}, {"role": "user", "content": USER_LEAD}])
        rows["task"].append(task)
        rows["seed"].append(seed)
    if not rows["task"]:
        raise ValueError("trl_dataset needs at least one (task id, seed) pair")
    return datasets.Dataset.from_dict(rows)


def close_environments(environments: Iterable[PhoneToolEnv]) -> None:
    """Close the phones of TRL's environment pool (``trainer._environment_pool``) after training."""
    for env in environments:
        env._close()


def with_tool_template(processing_class: Any) -> Any:
    """Give a tokenizer or processor whose chat template cannot render tool calls (Qwen2.5-VL's) TRL's
    Qwen3-VL template, which renders them in the same ``<tool_call>`` format and the same image tokens."""
    require("trl")
    from trl.chat_template_utils import supports_tool_calling
    from trl.chat_template_utils import qwen3_vl_chat_template  # type: ignore[attr-defined]

    if not supports_tool_calling(processing_class):
        processing_class.chat_template = qwen3_vl_chat_template
        tokenizer = getattr(processing_class, "tokenizer", None)
        if tokenizer is not None:
            tokenizer.chat_template = qwen3_vl_chat_template
    return processing_class


__all__ = ["PhoneToolEnv", "SYSTEM_PROMPT", "close_environments", "judge_reward", "trl_dataset",
           "with_tool_template"]
