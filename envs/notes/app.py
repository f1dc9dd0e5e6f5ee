"""The Notes app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="notes", label="Notes", label_zh="笔记", home="/", glyph="✎", color="#B26A00",
             defaults_package=__package__, generate=generate)
