"""``reward_mode="dense"``: each step pays the change in the judge's progress, the last step the score."""
from __future__ import annotations

from mobilegym.judge import Episode
from mobilegym.rewards.base import RewardRule


class DenseReward(RewardRule):
    """Each step before the last pays the change in progress (the fraction of checks passing); the last
    step pays the judge's score. A return is therefore the progress before the last step, less the
    progress at reset, plus the score.

    Attributes:
        progress: the progress after the latest step (at reset, the progress the episode starts with).
    """

    mode = "dense"
    pays_every_step = True

    def __init__(self) -> None:
        self.progress = 0.0

    def reset(self, episode: Episode) -> None:
        self.progress = episode.progress(answer=None)

    def step(self, episode: Episode, answer: str | None) -> float:
        progress = episode.progress(answer=answer)
        reward, self.progress = progress - self.progress, progress
        return reward
