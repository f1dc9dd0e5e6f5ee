"""Multi-turn chat interfaces to MobileGym for VLM policies.

``ChatEnv`` (``reset`` -> messages, ``step(reply)``), its asyncio twin ``AsyncChatEnv`` on a bounded
``StepPool``, and ``group_rollouts`` (G episodes per task instance, GRPO-style). The prompts and the
reading of replies are those of ``mobilegym eval``'s OpenAI agent.
"""
from .async_env import AsyncChatEnv, StepPool, default_pool
from .chat_env import ChatEnv
from .rollouts import Group, Step, Trajectory, agroup_rollouts, group_rollouts

__all__ = ["AsyncChatEnv", "ChatEnv", "Group", "Step", "StepPool", "Trajectory", "agroup_rollouts", "default_pool",
           "group_rollouts"]
