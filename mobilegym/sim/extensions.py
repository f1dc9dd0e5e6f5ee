"""Capabilities the simulator does not implement itself, injected by the packages that do.

Dependencies point into the simulator, never out of it: ``shell_factory(phone)`` builds the
in-process Android shell behind ``Phone.shell`` (an object with ``run(line)``). The shell lives
in :mod:`mobilegym.adbd`; ``import mobilegym`` installs it here.
"""
from __future__ import annotations

from typing import Any, Callable

shell_factory: Callable[[Any], Any] | None = None
