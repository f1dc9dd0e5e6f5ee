"""Reward rules: how an episode of MobileGymEnv pays, one rule per ``reward_mode``.

``MobileGymEnv(reward_mode="dense")`` names a rule; ``MobileGymEnv(reward_mode=ShapedReward({"false_complete":
1.0}))`` passes one directly (the environment keeps its own copy), and a subclass of :class:`RewardRule` is a
rule of your own.
"""
from __future__ import annotations

from typing import Mapping

from mobilegym.rewards.auto_complete import AutoCompleteReward
from mobilegym.rewards.base import RewardRule
from mobilegym.rewards.dense import DenseReward
from mobilegym.rewards.final import FinalReward
from mobilegym.rewards.shaped import ShapedReward

REWARD_RULES: Mapping[str, type[RewardRule]] = {
    rule.mode: rule for rule in (FinalReward, AutoCompleteReward, DenseReward, ShapedReward)}
REWARD_MODES = tuple(REWARD_RULES)
"""The names ``reward_mode`` accepts."""


def reward_rule(mode: str | RewardRule, shaped_penalties: Mapping[str, float] | None = None) -> RewardRule:
    """A fresh rule for ``reward_mode``: a name (``shaped_penalties`` only with "shaped") or a copy of a rule."""
    if isinstance(mode, RewardRule):
        if shaped_penalties is not None:
            raise ValueError(f"shaped_penalties only apply to reward_mode='shaped'; a rule passed as reward_mode "
                             f"takes its own (ShapedReward(penalties)), got {mode!r}")
        return mode.copy()
    if mode not in REWARD_MODES:
        raise ValueError(f"reward_mode must be one of {', '.join(map(repr, REWARD_MODES))} or a RewardRule, "
                         f"got {mode!r}")
    if mode == "shaped":
        return ShapedReward(shaped_penalties)
    if shaped_penalties is not None:
        raise ValueError(f"shaped_penalties only apply to reward_mode='shaped', got reward_mode={mode!r}")
    return REWARD_RULES[mode]()


__all__ = ["AutoCompleteReward", "DenseReward", "FinalReward", "REWARD_MODES", "REWARD_RULES", "RewardRule",
           "ShapedReward", "reward_rule"]
