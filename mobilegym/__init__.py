"""MobileGym: Gymnasium environments for mobile GUI agents.

``import mobilegym`` registers ``MobileGym-v0``::

    env = gymnasium.make("MobileGym-v0", task="clock.CountAlarms")
"""
from gymnasium.envs.registration import register, registry

from .sim import extensions as _sim_extensions

__version__ = "0.1.0"
ENV_ID = "MobileGym-v0"

REMOTE_ENV_ID = "MobileGymRemote-v0"  # mobilegym.remote.RemoteEnv: a session on a `mobilegym serve` server

if ENV_ID not in registry:
    register(id=ENV_ID, entry_point="mobilegym.env:MobileGymEnv")
if REMOTE_ENV_ID not in registry:
    register(id=REMOTE_ENV_ID, entry_point="mobilegym.remote:RemoteEnv")


def _in_process_shell(phone):  # noqa: ANN001, ANN202
    """The shell behind ``Phone.shell``: mobilegym.adbd's, injected so the simulator never imports it."""
    from .adbd.shell import Shell

    return Shell(phone)


_sim_extensions.shell_factory = _in_process_shell

__all__ = ["ENV_ID", "REMOTE_ENV_ID", "__version__"]
