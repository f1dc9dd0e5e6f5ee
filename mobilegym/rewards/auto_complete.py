"""``reward_mode="auto_complete"``: the episode ends, with the judge's score, on the step the goal holds."""
from __future__ import annotations

from mobilegym.judge import Episode
from mobilegym.rewards.base import RewardRule


class AutoCompleteReward(RewardRule):
    """As "final", but the episode ends on the first step after which the goal holds, judged as if the
    agent had said "complete" (so an agent need not learn to declare it)."""

    mode = "auto_complete"

    def ends_early(self, episode: Episode, answer: str | None) -> bool:
        return episode.goal_reached(answer=answer)
