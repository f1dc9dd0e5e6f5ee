"""Calendar: month grid, day agenda, upcoming schedule, event detail, create/edit/delete and search."""
from .app import APP

from . import screens  # noqa: F401  (registers the screens on APP)
from . import prepare  # noqa: F401  (registers the preparers of JSON tasks on APP)

__all__ = ["APP"]
