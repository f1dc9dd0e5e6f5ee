"""Browser: local web pages (news, recipes, a store directory, a cinema, an encyclopedia) in tabs, an address bar
that opens urls or searches the pages, back and forward, bookmarks, and history with clear browsing data."""
from .app import APP

from . import prepare, screens  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
