"""Video: a video app (YouTube / Bilibili style): a home feed, search, video pages with a player that follows the
simulated clock, likes, saving to Watch later and Favourites, subscriptions and channel pages, comments, a watch
history (remove one, clear all with a confirmation) and playback settings."""
from .app import APP

from . import prepare, screens, watch  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
