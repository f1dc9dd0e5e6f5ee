"""Clock: alarms (add, edit, toggle, delete), a countdown timer and a stopwatch."""
from .app import APP

from . import prepare, screens  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
