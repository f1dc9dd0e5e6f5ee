"""The Music app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="music", label="Music", label_zh="音乐", home="/", glyph="♫", color="#D81B60",
             defaults_package=__package__, view_state=("player",),  # queue, play/pause, position, modes
             generate=generate)
