"""The simulated phone served over the ADB protocol (``mobilegym serve-adb``).

Depends on :mod:`mobilegym.sim`; nothing in the simulator imports this package.

``AdbdServer(phone).start()`` serves a Phone; :class:`Shell` runs the same command lines
in-process (what ``Phone.shell`` uses once :func:`install_phone_shell` has been called,
which ``import mobilegym`` does lazily).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import AdbdServer, Limits
    from .shell import Shell

__all__ = ["AdbdServer", "Limits", "Shell", "serve_adb_main"]


def __getattr__(name: str) -> Any:  # lazy: `import mobilegym.adbd` stays cheap
    if name in ("AdbdServer", "Limits", "serve_adb_main"):
        from . import server

        return getattr(server, name)
    if name == "Shell":
        from .shell import Shell

        return Shell
    raise AttributeError(name)
