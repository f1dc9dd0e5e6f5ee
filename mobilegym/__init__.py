"""MobileGym: Gymnasium environments for mobile GUI agents.

``import mobilegym`` registers ``MobileGym-v0``::

    env = gymnasium.make("MobileGym-v0", task="clock.CountAlarms")
"""
from gymnasium.envs.registration import register, registry

__version__ = "0.1.0"
ENV_ID = "MobileGym-v0"

REMOTE_ENV_ID = "MobileGymRemote-v0"  # mobilegym.remote.RemoteEnv: a session on a `mobilegym serve` server

if ENV_ID not in registry:
    register(id=ENV_ID, entry_point="mobilegym.env:MobileGymEnv")
if REMOTE_ENV_ID not in registry:
    register(id=REMOTE_ENV_ID, entry_point="mobilegym.remote:RemoteEnv")


__all__ = ["ENV_ID", "REMOTE_ENV_ID", "__version__"]
