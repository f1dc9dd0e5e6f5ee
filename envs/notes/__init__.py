"""Notes: notes (pinned and others), a note editor, search, and a to-do list with due dates."""
from .app import APP

from . import screens  # noqa: F401  (registers the screens on APP)
from . import prepare  # noqa: F401  (registers the preparers of JSON tasks on APP)

__all__ = ["APP"]
