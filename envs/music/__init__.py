"""Music: a song library (songs, albums, artists), search, a now-playing screen whose progress follows
the simulated clock, playlists (create, rename, add/remove songs, delete) and Liked Songs."""
from .app import APP

from . import prepare, screens  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
