"""The Trains app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="trains", label="Trains", label_zh="火车票", home="/", glyph="🚄", color="#1565C0",
             defaults_package=__package__, generate=generate)
