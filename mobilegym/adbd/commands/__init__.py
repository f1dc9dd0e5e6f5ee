"""The simulated phone's shell commands. Importing this package registers all of them in
:data:`registry.COMMANDS`: Android tools (:mod:`android`), toybox-like file and text tools
(:mod:`coreutils`), system tools (:mod:`system`: ps, logcat, svc, uname, df...) and
content providers (:mod:`content`), and what agent runtimes call beside them (:mod:`agent`)."""
from . import agent, android, content, coreutils, system  # noqa: F401  (each registers its commands)
from .registry import COMMANDS, SH, CommandError, Invocation, OutputLimit, command

__all__ = ["COMMANDS", "SH", "CommandError", "Invocation", "OutputLimit", "command"]
