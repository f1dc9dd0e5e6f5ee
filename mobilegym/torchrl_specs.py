"""TorchRL's ``GymEnv("MobileGym-v0")``: the spec of MobileGym's action space.

TorchRL converts each Gymnasium space into a spec through a registry keyed by space type. MobileGym's
actions are dicts (``{"type": "tap", "x": 540, "y": 1200}``), so their spec is a non-tensor spec: the
action entry of a TensorDict holds the dict itself. :func:`register` adds the conversion; a
``MobileGymEnv`` built while torchrl is imported calls it, so no import of this module is needed.
"""
from __future__ import annotations

import sys
from typing import Any

EXAMPLE_ACTION = {"type": "wait", "seconds": 1.0}
_registered = False


def register() -> None:
    """Teach torchrl's Gymnasium wrapper MobileGym's action space (idempotent)."""
    global _registered
    if _registered:
        return
    try:
        from torchrl.data import NonTensor
        from torchrl.envs.libs.gym import register_gym_spec_conversion
    except ImportError as exc:
        raise ImportError("the torchrl integration needs torchrl: pip install 'mobilegym[torchrl]'") from exc
    from .actions import ActionSpace

    @register_gym_spec_conversion(ActionSpace)
    def _convert(spec: ActionSpace, dtype: Any = None, device: Any = None, categorical_action_encoding: Any = None,
                 remap_state_to_observation: Any = None, batch_size: Any = None) -> NonTensor:
        return NonTensor(shape=tuple(batch_size or ()), device=device, example_data=dict(EXAMPLE_ACTION))

    _registered = True


def register_if_imported() -> None:
    """:func:`register` when torchrl is already imported (it never imports torchrl itself)."""
    if not _registered and "torchrl" in sys.modules:
        register()
