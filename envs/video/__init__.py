"""Video: a video app (YouTube / Bilibili style): a home feed, search, video pages with a player that follows the
simulated clock, likes, saving to Watch later and Favourites, subscriptions and channel pages, comments, a watch
history (remove one, clear all with a confirmation) and playback settings."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="video", label="Video", label_zh="视频", home="/", glyph="▶", color="#E53935",
             defaults_package=__name__, view_state=("player",),  # the loaded video, play/pause, position
             generate=generate)

from . import prepare, screens, watch  # noqa: E402,F401  (registers the preparers and screens on APP)
