"""The shaped reward (``reward_mode="shaped"``): judge progress, penalised for side effects and for
ending an episode dishonestly.

Each step before the last pays the change in the potential

    Φ = progress − side_effect × (number of harmful side effects so far)

so a step that makes a check pass earns its share of progress, a step that harms the user's data
(a side effect that is not the app's view state: see mobilegym.judge.state.side_effects) costs
``side_effect`` per change, and undoing one refunds it (the shaping is potential-based:
it telescopes, so it cannot be farmed). The last step pays the judge's score, minus ``side_effect``
per change that step caused, minus ``undeclared_goal`` when the step budget ran out while the goal
held (the agent never said "complete"), minus ``false_complete`` when the agent said "complete" and
the verdict is not success. An episode's return is therefore

    progress before the last step − progress at reset + score
    − side_effect × (unexpected changes at the end) − the end penalty, if any.

A task bug (``JudgeResult.error``) is never charged to the agent: no end penalty then.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from .judge import JudgeResult

SIDE_EFFECT = 0.1
"""Cost of each harmful side effect (refunded when the change is undone)."""
UNDECLARED_GOAL = 0.5
"""Cost of running out of steps with the goal reached but never declared with "complete"."""
FALSE_COMPLETE = 0.5
"""Cost of declaring "complete" when the judge's verdict is not success."""
SHAPED_PENALTIES: Mapping[str, float] = {"side_effect": SIDE_EFFECT, "undeclared_goal": UNDECLARED_GOAL,
                                         "false_complete": FALSE_COMPLETE}


def resolve_penalties(overrides: Mapping[str, float] | None = None) -> dict[str, float]:
    """The default penalties updated with ``overrides``; unknown names and values that are not
    finite non-negative numbers raise ValueError."""
    penalties = dict(SHAPED_PENALTIES)
    for name, value in (overrides or {}).items():
        if name not in SHAPED_PENALTIES:
            raise ValueError(f"unknown shaped penalty {name!r}; known: {', '.join(SHAPED_PENALTIES)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ValueError(f"shaped penalty {name!r} must be a finite number >= 0, got {value!r}")
        penalties[name] = float(value)
    return penalties


@dataclass(frozen=True)
class Potential:
    """What the shaped reward tracks between steps: judge progress and the harmful side-effect count."""

    progress: float = 0.0
    side_effects: int = 0

    @classmethod
    def of(cls, result: JudgeResult) -> "Potential":
        return cls(result.progress, harmful_count(result))


def harmful_count(result: JudgeResult) -> int:
    """Side effects that harm the user's data (view state, such as pausing the music, does not)."""
    return sum(1 for effect in result.side_effects if effect.get("harmful", True))


def step_reward(before: Potential, after: Potential, penalties: Mapping[str, float]) -> float:
    """Reward of a step that does not end the episode: the change in Φ."""
    return (after.progress - before.progress) - penalties["side_effect"] * (after.side_effects - before.side_effects)


def final_reward(result: JudgeResult, before: Potential, last_action: str | None, truncated: bool,
                 penalties: Mapping[str, float]) -> float:
    """Reward of the step that ends the episode (terminated by ``last_action``, or ``truncated``)."""
    reward = result.score - penalties["side_effect"] * (harmful_count(result) - before.side_effects)
    if result.error is not None:
        return reward
    if truncated and result.success:
        reward -= penalties["undeclared_goal"]
    if last_action == "complete" and not result.success:
        reward -= penalties["false_complete"]
    return reward
