"""Messages: SMS conversations with unread badges, threads, compose/send, search and delete."""
from .app import APP

from . import screens  # noqa: F401  (registers the screens on APP)
from . import prepare  # noqa: F401  (registers the JSON tasks' preparers on APP)
from .notice import incoming

APP.notice = incoming

__all__ = ["APP"]
