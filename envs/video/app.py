"""The Video app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="video", label="Video", label_zh="视频", home="/", glyph="▶", color="#E53935",
             defaults_package=__package__, view_state=("player",),  # the loaded video, play/pause, position
             generate=generate)
