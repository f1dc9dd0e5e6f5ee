"""``reward_mode="shaped"``: dense progress penalised for side effects and dishonest ends (the formulas:
:mod:`mobilegym.shaping`)."""
from __future__ import annotations

from typing import Mapping

from mobilegym.judge import Episode, JudgeResult
from mobilegym.rewards.base import RewardRule
from mobilegym.shaping import Potential, final_reward, resolve_penalties, step_reward


class ShapedReward(RewardRule):
    """Each step pays the change in the potential (progress less a cost per harmful side effect); the
    last step pays the score less its side effects and the end penalties.

    Args:
        penalties: overrides of ``mobilegym.shaping.SHAPED_PENALTIES`` (validated).

    Attributes:
        potential: the potential after the latest step (at reset, the one the episode starts with).
    """

    mode = "shaped"
    pays_every_step = True

    def __init__(self, penalties: Mapping[str, float] | None = None) -> None:
        self.penalties = resolve_penalties(penalties)
        self.potential = Potential()

    def reset(self, episode: Episode) -> None:
        self.potential = Potential.of(episode.evaluate(answer=None, last_action=None))

    def step(self, episode: Episode, answer: str | None) -> float:
        potential = Potential.of(episode.evaluate(answer=answer, last_action=None))
        reward, self.potential = step_reward(self.potential, potential, self.penalties), potential
        return reward

    def last(self, result: JudgeResult, last_action: str | None, truncated: bool) -> float:
        return final_reward(result, self.potential, last_action, truncated, self.penalties)
