"""MobileGym: Gymnasium environments for mobile GUI agents.

``import mobilegym`` registers ``MobileGym-v0``::

    env = gymnasium.make("MobileGym-v0", task="clock.CountAlarms")
"""
from gymnasium.envs.registration import register, registry

__version__ = "0.1.0"
ENV_ID = "MobileGym-v0"

if ENV_ID not in registry:
    register(id=ENV_ID, entry_point="mobilegym.env:MobileGymEnv")

__all__ = ["ENV_ID", "__version__"]
