"""Music: a song library (songs, albums, artists), search, a now-playing screen whose progress follows
the simulated clock, playlists (create, rename, add/remove songs, delete) and Liked Songs."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="music", label="Music", label_zh="音乐", home="/", glyph="♫", color="#D81B60",
             defaults_package=__name__, view_state=("player",),  # queue, play/pause, position, modes
             generate=generate)

from . import prepare, screens  # noqa: E402,F401  (registers the preparers and screens on APP)
