"""``reward_mode="final"``: the judge's score on the last step, 0 on every other."""
from __future__ import annotations

from mobilegym.rewards.base import RewardRule


class FinalReward(RewardRule):
    """The judge's score in [0, 1] on the step that ends the episode; every other step pays 0."""

    mode = "final"
