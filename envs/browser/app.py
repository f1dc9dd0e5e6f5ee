"""The Browser app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="browser", label="Browser", label_zh="浏览器", home="/", glyph="◎", color="#1A73E8",
             defaults_package=__package__, generate=generate)
