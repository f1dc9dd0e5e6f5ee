"""``ChatEnv``: the phone as a multi-turn chat, for training VLM policies on what they are evaluated on.

``reset`` returns the OpenAI-style messages of the first step and ``step(reply)`` takes the model's
reply text: the prompts and the reading of replies are those of ``mobilegym eval``'s OpenAI agent
(the same :class:`~mobilegym.eval.agents.openai.conversation.Conversation`), so a policy trained
here meets exactly the same prompts when it is evaluated.
"""
from __future__ import annotations

import copy
import math
from typing import Any, Mapping

import gymnasium as gym

from .. import ENV_ID
from ..eval.agents.base import Decision
from ..eval.agents.openai.adapters import Adapter
from ..eval.agents.openai.client import Completion
from ..eval.agents.openai.conversation import Conversation, PreparedStep
from ..eval.harness.episode import agent_info, send

Messages = list[dict[str, Any]]
DEFAULT_COORD_SPACE = "norm1000"  # the coordinates mobilegym eval's json prompt asks for


def check_penalty(value: Any) -> float:
    """A format penalty: a finite number <= 0 (it is added to the reward)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value > 0:
        raise ValueError(f"format_penalty is added to the reward of a step whose reply is no valid action: "
                         f"give a number <= 0 such as -0.1, got {value!r}")
    return float(value)


def penalised(reward: float, decision: Decision, penalty: float) -> float:
    """A step's reward: the env's, plus ``penalty`` when the reply could not be read as an action."""
    return float(reward) + (penalty if decision.error is not None else 0.0)


def as_completion(reply: Any) -> Completion:
    """A model reply (its text, or a Completion carrying native tool calls and usage) as a Completion."""
    if isinstance(reply, Completion):
        return reply
    if isinstance(reply, str):
        return Completion(reply)
    raise TypeError(f"a reply must be the model's text (str) or a Completion, got {type(reply).__name__}")


def make_chat_env(task: Any, make_kwargs: Mapping[str, Any]) -> gym.Env:
    """``gym.make("MobileGym-v0", ...)`` for a chat: coord_space defaults to norm1000 and invalid actions are
    "noop" (an action the phone rejects is told to the model on the next turn, never raised)."""
    kwargs = {"disable_env_checker": True, "coord_space": DEFAULT_COORD_SPACE, "invalid_action": "noop",
              **make_kwargs, "task": task}
    if kwargs["invalid_action"] != "noop":
        raise ValueError("a chat needs invalid_action='noop': an action the phone rejects is told to the model on "
                         "the next turn, never raised")
    return gym.make(ENV_ID, **kwargs)


def conversation_for(env: gym.Env, adapter: str | Adapter, adapter_options: Mapping[str, Any] | None,
                     **options: Any) -> Conversation:
    """The conversation of a chat over ``env``: the ``json`` adapter reads coordinates in the env's own
    coordinate space (unless ``adapter_options`` name others); the observation must hold what it needs."""
    unwrapped = env.unwrapped
    missing = [part for part in ("screenshot", "instruction") if part not in unwrapped.obs_parts]
    if (options.get("send_tree") or options.get("set_of_mark")) and "a11y" not in unwrapped.obs_parts:
        missing.append("a11y")
    if missing:
        raise ValueError(f"a chat needs obs_parts with {', '.join(missing)}; got {unwrapped.obs_parts}")
    adapter_options = dict(adapter_options or {})
    if adapter == "json":
        adapter_options.setdefault("coordinates", unwrapped.coords.name)
    return Conversation(adapter, adapter_options=adapter_options or None, **options)


class ChatEnv:
    """A MobileGym episode as a conversation with a chat model.

    ``ChatEnv(task="clock.CountAlarms", adapter="json", history=4, render_scale=0.1)``. The keyword
    arguments left over go to ``gym.make("MobileGym-v0", ...)``; the env's coordinate space defaults
    to ``norm1000`` (what ``mobilegym eval``'s json prompt asks for) and its invalid actions are
    ``"noop"`` (reported, never raised). Or wrap an env you built: ``ChatEnv(env=env)``.

    Args:
        task: the task(s), as ``gym.make`` takes them.
        adapter: ``json`` (the env's own action dicts, coordinates in the env's ``coord_space``),
            ``qwen``, ``uitars`` or ``autoglm``, or an Adapter.
        history: earlier steps replayed in each prompt (their replies; 0 for none).
        adapter_options, history_images, send_tree, set_of_mark: as for ``OpenAIAgent``.
        format_penalty: added to the reward of a step whose reply is no valid action (<= 0; default 0.0).
        env: an existing MobileGym env (built with ``invalid_action="noop"``) instead of the make arguments.
    """

    def __init__(self, task: Any = None, adapter: str | Adapter = "json", history: int = 4, *,
                 adapter_options: Mapping[str, Any] | None = None, history_images: int = 0, send_tree: bool = False,
                 set_of_mark: bool = False, format_penalty: float = 0.0, env: gym.Env | None = None,
                 **make_kwargs: Any) -> None:
        self.format_penalty = check_penalty(format_penalty)
        if env is None:
            env = make_chat_env(task, make_kwargs)
        elif task is not None or make_kwargs:
            raise ValueError("give ChatEnv either env= or the task and make arguments, not both")
        elif env.unwrapped.invalid_action != "noop":
            raise ValueError("ChatEnv(env=...) needs an env built with invalid_action='noop'")
        self.env = env
        self.conversation = conversation_for(env, adapter, adapter_options, history=history,
                                             history_images=history_images, send_tree=send_tree,
                                             set_of_mark=set_of_mark)
        self._prepared: PreparedStep | None = None

    @property
    def unwrapped(self) -> Any:
        """The MobileGymEnv underneath (``fork``, ``judge_now``, ``coords`` ...)."""
        return self.env.unwrapped

    @property
    def adapter(self) -> Adapter:
        return self.conversation.adapter

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Messages, dict]:
        """Start an episode; returns the first step's messages and the env's info."""
        obs, info = self.env.reset(seed=seed, options=options)
        self.conversation.reset(obs["instruction"], {**info, **agent_info(self.env)})
        self._prepared = self.conversation.prepare(obs, info)
        return self._prepared.request, info

    def step(self, reply: str | Completion) -> tuple[Messages, float, bool, bool, dict]:
        """Read the model's reply, act on the phone, and return the next step's messages.

        A reply that is no valid action is a step all the same (it counts toward the budget, the phone
        does not move): the next messages tell the model what was wrong, the reward carries
        ``format_penalty`` and ``info["parse_error"]`` says why. ``info`` also holds the parsed
        ``action`` (device pixels) and the model's ``thought``. When the episode ends, the messages
        are the last prompt followed by the reply (there is nothing left to answer).
        """
        if self._prepared is None:
            raise RuntimeError("no episode in progress: call reset() before step()")
        decision = self.conversation.conclude(self._prepared, as_completion(reply))
        obs, reward, terminated, truncated, info = send(self.env, decision)
        info = {**info, "action": decision.action, "thought": decision.thought, "parse_error": decision.error}
        if terminated or truncated:
            messages = [*self._prepared.request, {"role": "assistant", "content": decision.response}]
            self._prepared = None
        else:
            self._prepared = self.conversation.prepare(obs, info)
            messages = self._prepared.request
        return messages, penalised(reward, decision, self.format_penalty), terminated, truncated, info

    def fork(self, n: int = 1) -> list["ChatEnv"]:
        """``n`` independent chats in this one's exact state (phone, episode, conversation), e.g. for
        GRPO groups from a mid-episode state; each answers the messages this chat last returned."""
        if self._prepared is None:
            raise RuntimeError("no episode in progress: fork() needs a reset() first")
        twins = []
        for env in self.unwrapped.fork(n):
            twin = copy.copy(self)
            twin.env, twin.conversation = env, self.conversation.copy()
            twins.append(twin)
        return twins

    def close(self) -> None:
        self.env.close()

    def __enter__(self) -> "ChatEnv":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
