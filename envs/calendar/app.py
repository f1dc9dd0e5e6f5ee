"""The Calendar app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="calendar", label="Calendar", label_zh="日历", home="/", glyph="▦", color="#1E88E5",
             defaults_package=__package__, generate=generate)
