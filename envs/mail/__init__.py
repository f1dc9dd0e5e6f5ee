"""Mail: an inbox of threads with labels, stars, archive and Trash; thread view, compose, reply, forward, search."""
from .app import APP

from . import prepare, screens  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
