"""The Maps app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="maps", label="Maps", label_zh="地图", home="/", glyph="📍", color="#1A73E8",
             defaults_package=__package__, generate=generate,
             view_state=("recent",))  # recently viewed places: history, not the user's saved data
