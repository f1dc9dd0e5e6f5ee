"""The Weather app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="weather", label="Weather", label_zh="天气", home="/", glyph="☀", color="#0288D1",
             defaults_package=__package__, generate=generate)
