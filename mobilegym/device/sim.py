"""SimDevice: the simulated phone as the environment's and the judge's Device.

The :class:`~mobilegym.sim.phone.Phone` knows nothing of devices; this class adds what a device
advertises: its capabilities, the in-process Android shell (injected when it is built; mobilegym.adbd's
by default) and the preparers of its apps.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Mapping

from ..sim.phone import Phone
from . import apps
from .base import CAP_FILES, CAP_LAUNCH, CAP_PREPARE, CAP_SHELL, CAP_SNAPSHOT, CAP_STATE

ShellFactory = Callable[[Phone], Any]
"""Builds the shell of a phone: an object whose ``run(line)`` returns a result with ``output`` bytes."""


def adbd_shell(phone: Phone) -> Any:
    """mobilegym.adbd's in-process Android shell on ``phone``."""
    from ..adbd.shell import Shell

    return Shell(phone)


class SimDevice(Phone):
    """A :class:`Phone` that is a Device: state, snapshots, files, an Android shell, screens opened by route and
    app preparers."""

    capabilities = frozenset({CAP_STATE, CAP_SNAPSHOT, CAP_FILES, CAP_SHELL, CAP_LAUNCH, CAP_PREPARE})

    def __init__(self, *args: Any, shell_factory: ShellFactory = adbd_shell, **kwargs: Any) -> None:
        self._shell_factory = shell_factory
        self._shell: Any = None
        super().__init__(*args, **kwargs)

    def __getstate__(self) -> dict[str, Any]:
        return {**super().__getstate__(), "_shell": None}  # the shell's session is rebuilt on demand

    def reset_state(self, seed: int | None = None) -> None:
        super().reset_state(seed)
        self._shell = None

    def fork(self) -> "SimDevice":
        twin = super().fork()
        twin._shell = None
        return twin

    @property
    def canonical(self) -> bool:
        """Whether this is the canonical phone (made with ``world="canonical"``): its facts are documented."""
        return self.world_seed is None and self.world == "canonical"

    def shell(self, command: str) -> str:
        """Run an Android shell command line (the subset adbd serves) and return its output."""
        if self._shell is None:
            self._shell = self._shell_factory(self)
        return self._shell.run(command).output.decode("utf-8", "replace")

    def prepare_patch(self, app_id: str, name: str, args: Mapping[str, Any], *,
                      rng: random.Random, spread: Any = None) -> dict[str, Any]:
        """The patch an app's preparer builds from the phone's current world (see :func:`apps.prepare_patch`)."""
        return apps.prepare_patch(self.copy_state(), app_id, name, args, rng=rng, spread=spread)
