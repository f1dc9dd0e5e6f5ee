"""The agent protocol of ``mobilegym eval``: reset with the instruction, act on an observation.

An agent returns either a plain action dict (the env's action schema, device-pixel coordinates)
or a :class:`Decision`, which also carries what the harness records for the step: the prompt,
the model's response, token usage, retries. Agents that call a model over the network may also
define ``async def aact(obs, info)``; the harness awaits it so many episodes share one process.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, runtime_checkable


@dataclass
class Decision:
    """One step of an agent: the action plus the record of how it was chosen.

    ``action`` is None when the agent could not produce one (an unparseable model response); the
    harness then sends an invalid action, which the env ignores and counts as a step, and records
    ``error``.
    """

    action: dict[str, Any] | None
    thought: str | None = None
    prompt: Any = None
    response: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    retries: int = 0
    latency_s: float = 0.0
    error: str | None = None

    @classmethod
    def of(cls, step: "dict[str, Any] | Decision") -> "Decision":
        """An agent's return value as a Decision (a bare action dict is wrapped)."""
        return step if isinstance(step, Decision) else cls(action=step)


@runtime_checkable
class Agent(Protocol):
    """What ``mobilegym eval`` runs. ``info`` at reset holds ``task_id``, ``screen_size`` (device
    pixels, width and height), ``language``, ``eval_mode``, ``max_steps`` and ``apps`` (the app
    names ``open_app`` takes); at each step it is the env's info of the previous step."""

    name: str

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        """Start a new episode."""

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> "dict[str, Any] | Decision":
        """The next action for this observation (``screenshot``, ``a11y``, ``instruction``)."""


class AgentError(RuntimeError):
    """An agent could not act; the harness ends the episode as an agent error (not a score of 0)."""

    kind = "agent_error"


class ModelError(AgentError):
    """The model endpoint failed after its retries (HTTP errors, timeouts, refused connections)."""

    kind = "model_error"
