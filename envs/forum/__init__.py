"""Forum: a social feed / forum (Reddit / Xiaohongshu style): communities to join or leave, a home feed sorted
hot, new or top, post pages with votes, saving and comment threads (replies, votes), creating a post after a
confirmation, user profiles to follow, the owner's profile (posts, saved posts, following), and deleting the
owner's own posts and comments after a confirmation."""
from .app import APP

from . import prepare, screens  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
