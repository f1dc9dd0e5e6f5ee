"""Multi-turn chat interfaces to MobileGym for VLM policies: ``ChatEnv``, ``AsyncChatEnv`` and group rollouts."""
from .async_env import AsyncChatEnv, StepPool, default_pool
from .chat_env import ChatEnv

__all__ = ["AsyncChatEnv", "ChatEnv", "StepPool", "default_pool"]
