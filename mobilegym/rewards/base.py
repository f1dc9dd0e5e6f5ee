"""The interface of a reward rule: how an episode of MobileGymEnv pays."""
from __future__ import annotations

import copy
from typing import ClassVar

from mobilegym.judge import Episode, JudgeResult


class RewardRule:
    """How an episode pays. The environment runs each action and decides whether the episode ended; its
    rule sets up what it tracks at reset, says what each step pays and whether the episode ends early.

    A rule's attributes are its running state (progress, potential): snapshots and forks copy it.
    Subclass it for a rule of your own and pass an instance as ``reward_mode``.
    """

    mode: ClassVar[str]
    """The rule's ``reward_mode`` name."""
    pays_every_step: ClassVar[bool] = False
    """Whether steps before the last may pay (False: only the judge's verdict on the last step does)."""

    def reset(self, episode: Episode) -> None:
        """A new episode started (no answer yet): set the running state from the phone as it starts."""

    def ends_early(self, episode: Episode, answer: str | None) -> bool:
        """After a step that did not end the episode: whether to end it now anyway (it is then judged
        as if the agent had said "complete")."""
        return False

    def step(self, episode: Episode, answer: str | None) -> float:
        """The reward of a step that does not end the episode."""
        return 0.0

    def last(self, result: JudgeResult, last_action: str | None, truncated: bool) -> float:
        """The reward of the step that ends the episode, from the judge's verdict on it (``last_action``
        is the action judged: "complete", "abort", another type at truncation, None for an invalid one)."""
        return float(result.score)

    def copy(self) -> RewardRule:
        """An independent copy, running state included (a shallow copy: override it when the state is mutable)."""
        return copy.copy(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"
