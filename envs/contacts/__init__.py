"""Contacts: an alphabetical contact list with search, contact cards, add/edit/delete, favourites and calls."""
from .app import APP

from . import screens  # noqa: F401  (registers the screens on APP)
from . import prepare  # noqa: F401  (registers the JSON tasks' preparers on APP)

__all__ = ["APP"]
